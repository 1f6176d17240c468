package sandbox

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The helper stays the interpreter's parent and supervisor. It forks the
// interpreter's process, which applies the last layers to itself (the
// seccomp filter with a listener, the rlimits) and execs the interpreter
// once; the helper answers that exec and refuses every later one, waits for
// the process and writes its real wait status and CPU time to statusFD, a
// descriptor the interpreter never holds. The server decides the verdict
// from that line: nothing the code can write reaches it.

// childPlan is everything the forked process needs before its exec, made
// ready (allocated) by the helper beforehand: between fork and exec the
// child runs raw system calls on it only, as the Go runtime's own
// fork-and-exec does.
type childPlan struct {
	prog   syscall.SockFprog
	limits [6]struct {
		res uintptr
		lim unix.Rlimit
	}
	path       *byte
	argv, envp []*byte
	syncR      int
	syncW      uintptr
	allSigs    uint64
	oldSigs    uint64
	noSigs     uint64
	msg        [4]byte // childReady, childSeccomp, childRlimits, childExec
	pid        int     // the child, once forked
}

// What the child writes on the sync pipe: ready for its exec, or the step
// that failed.
const (
	childReady   = 'k'
	childSeccomp = 's'
	childRlimits = 'r'
	childExec    = 'x'
)

func newChildPlan(s spec, filter []syscall.SockFilter) (*childPlan, error) {
	p := &childPlan{allSigs: ^uint64(0), msg: [4]byte{childReady, childSeccomp, childRlimits, childExec}}
	p.prog = syscall.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	for i, l := range []struct {
		res        int
		soft, hard uint64
	}{
		{unix.RLIMIT_CORE, 0, 0},
		{unix.RLIMIT_FSIZE, 0, 0},
		{unix.RLIMIT_NOFILE, maxOpenFiles, maxOpenFiles},
		// One task: no second process and no second thread (counted per
		// user namespace, so concurrent runs do not share it).
		{unix.RLIMIT_NPROC, 1, 1},
		{unix.RLIMIT_CPU, s.CPUSeconds, s.CPUSeconds + 1},
		{unix.RLIMIT_AS, s.Memory, s.Memory},
	} {
		p.limits[i].res = uintptr(l.res)
		p.limits[i].lim = unix.Rlimit{Cur: l.soft, Max: l.hard}
	}
	var err error
	if p.path, err = syscall.BytePtrFromString(s.Python); err != nil {
		return nil, layerErr(LayerPython, "%v", err)
	}
	argv := []string{s.Python, "-I", "-S", "-B", "-c", s.Prelude}
	if s.KernelOnly {
		argv = append(argv, "kernel-only")
	}
	if p.argv, err = syscall.SlicePtrFromStrings(argv); err != nil {
		return nil, layerErr(LayerPython, "%v", err)
	}
	p.envp = []*byte{nil} // an empty environment
	var fds [2]int
	if err := unix.Pipe2(fds[:], unix.O_CLOEXEC); err != nil {
		return nil, layerErr(LayerHelper, "sync pipe: %v", err)
	}
	p.syncR, p.syncW = fds[0], uintptr(fds[1])
	return p, nil
}

// supervise forks the interpreter's process, answers its execs, waits for
// it and reports how it ended on statusFD. It never returns.
func supervise(p *childPlan) {
	status := os.NewFile(statusFD, "status")
	report := func(format string, args ...any) {
		fmt.Fprintf(status, format+"\n", args...)
		os.Exit(0)
	}
	pid, errno := forkChild(p)
	if errno != 0 {
		report("unavailable %s", LayerHelper)
	}
	p.pid = int(pid)
	var b [1]byte
	if n, _ := unix.Read(p.syncR, b[:]); n != 1 || b[0] != childReady {
		_, _ = unix.Wait4(p.pid, nil, 0, nil)
		switch b[0] {
		case childRlimits:
			report("unavailable %s", LayerRlimits)
		case childSeccomp:
			report("unavailable %s", LayerSeccomp)
		}
		report("unavailable %s", LayerHelper)
	}
	go answerExecs(p.pid)
	var ws unix.WaitStatus
	var ru unix.Rusage
	for {
		_, err := unix.Wait4(p.pid, &ws, 0, &ru)
		if err != unix.EINTR {
			break
		}
	}
	// The child says 'x' when its exec failed (it never held the pipe
	// afterwards: the pipe is close-on-exec, so a run's code cannot).
	_ = unix.SetNonblock(p.syncR, true)
	if n, _ := unix.Read(p.syncR, b[:]); n == 1 && b[0] == childExec {
		report("unavailable %s", LayerPython)
	}
	cpu := (ru.Utime.Sec+ru.Stime.Sec)*1_000_000 + ru.Utime.Usec + ru.Stime.Usec
	switch {
	case ws.Signaled():
		report("signal %d cpu_us %d", int(ws.Signal()), cpu)
	case ws.Exited():
		report("exit %d cpu_us %d", ws.ExitStatus(), cpu)
	}
	report("unavailable %s", LayerHelper)
}

// seccompNotif and seccompNotifResp are the kernel's struct seccomp_notif
// and struct seccomp_notif_resp (include/uapi/linux/seccomp.h).
type seccompNotif struct {
	id    uint64
	pid   uint32
	flags uint32
	nr    int32
	arch  uint32
	ip    uint64
	args  [6]uint64
}

type seccompNotifResp struct {
	id    uint64
	val   int64
	error int32
	flags uint32
}

// answerExecs serves the listener: the child's first exec (its own, of the
// interpreter) continues; every other exec, of that process or of anything
// it could start, fails with EPERM. Only the child's exec can come first:
// it is the child's own code, single-threaded, until then.
func answerExecs(child int) {
	continued := false
	for {
		var n seccompNotif // must be zero for NOTIF_RECV
		if _, _, e := unix.Syscall(unix.SYS_IOCTL, listenFD, uintptr(unix.SECCOMP_IOCTL_NOTIF_RECV), uintptr(unsafe.Pointer(&n))); e != 0 {
			if e == unix.EINTR || e == unix.ENOENT {
				continue
			}
			return
		}
		r := seccompNotifResp{id: n.id, error: -int32(unix.EPERM)}
		if !continued && int(n.pid) == child && n.nr == unix.SYS_EXECVE {
			continued = true
			r = seccompNotifResp{id: n.id, flags: unix.SECCOMP_USER_NOTIF_FLAG_CONTINUE}
		}
		_, _, _ = unix.Syscall(unix.SYS_IOCTL, listenFD, uintptr(unix.SECCOMP_IOCTL_NOTIF_SEND), uintptr(unsafe.Pointer(&r)))
	}
}

// forkChild forks (sharing the descriptor table, so the helper can use the
// listener the child creates) with every signal blocked, so no Go signal
// handler runs in the child. The child never returns from it.
//
//go:nosplit
//go:norace
func forkChild(p *childPlan) (uintptr, syscall.Errno) {
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&p.allSigs)), uintptr(unsafe.Pointer(&p.oldSigs)), 8, 0, 0)
	pid, _, e := syscall.RawSyscall6(unix.SYS_CLONE, unix.CLONE_FILES|uintptr(unix.SIGCHLD), 0, 0, 0, 0, 0)
	if e == 0 && pid == 0 {
		runChild(p)
	}
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&p.oldSigs)), 0, 8, 0, 0)
	return pid, e
}

// runChild is the child between fork and exec: the seccomp filter with its
// listener (moved to listenFD, close-on-exec: the interpreter never holds
// it), the rlimits, an empty signal mask, then execve of the interpreter,
// which waits for the helper's answer. Raw system calls only.
//
//go:nosplit
//go:norace
func runChild(p *childPlan) {
	fd, _, e := syscall.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_NEW_LISTENER, uintptr(unsafe.Pointer(&p.prog)))
	if e != 0 {
		childFail(p, 1)
	}
	if _, _, e = syscall.RawSyscall(unix.SYS_DUP3, fd, listenFD, unix.O_CLOEXEC); e != 0 {
		childFail(p, 1)
	}
	syscall.RawSyscall(unix.SYS_CLOSE, fd, 0, 0)
	for i := 0; i < len(p.limits); i++ {
		if _, _, e = syscall.RawSyscall6(unix.SYS_PRLIMIT64, 0, p.limits[i].res, uintptr(unsafe.Pointer(&p.limits[i].lim)), 0, 0, 0); e != 0 {
			childFail(p, 2)
		}
	}
	syscall.RawSyscall(unix.SYS_WRITE, p.syncW, uintptr(unsafe.Pointer(&p.msg[0])), 1)
	syscall.RawSyscall6(unix.SYS_RT_SIGPROCMASK, unix.SIG_SETMASK, uintptr(unsafe.Pointer(&p.noSigs)), 0, 8, 0, 0)
	syscall.RawSyscall(unix.SYS_EXECVE, uintptr(unsafe.Pointer(p.path)), uintptr(unsafe.Pointer(&p.argv[0])), uintptr(unsafe.Pointer(&p.envp[0])))
	childFail(p, 3)
}

//go:nosplit
//go:norace
func childFail(p *childPlan, step int) {
	syscall.RawSyscall(unix.SYS_WRITE, p.syncW, uintptr(unsafe.Pointer(&p.msg[step])), 1)
	syscall.RawSyscall(unix.SYS_EXIT_GROUP, 127, 0, 0)
}
