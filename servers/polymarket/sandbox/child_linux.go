package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// MaybeChild runs the sandbox helper when this process was started as one
// and never returns then; otherwise it returns false at once. main() (and a
// test binary's TestMain) must call it first, before anything else runs.
func MaybeChild() bool {
	if len(os.Args) < 3 || os.Args[1] != childArg {
		return false
	}
	// Every layer below applies to this OS thread, which then execs: the
	// new program inherits exactly this thread's Landlock domain and
	// seccomp filter. Other Go runtime threads die at exec.
	runtime.LockOSThread()
	res := os.NewFile(resultFD, "result")
	// The spec arrives on bwrap's command line after the helper's own
	// arguments; bwrap passes it through.
	var s spec
	if err := json.Unmarshal([]byte(os.Args[len(os.Args)-1]), &s); err != nil {
		fail(res, LayerHelper, err)
	}
	// enter returns only when a layer is missing: with every layer in place
	// it execs python and never comes back.
	err := enter(s, res)
	fail(res, err.(*layerError).layer, err)
	panic("unreachable") // fail exits
}

type layerError struct {
	layer string
	err   error
}

func (e *layerError) Error() string { return e.layer + ": " + e.err.Error() }

func layerErr(layer string, format string, args ...any) error {
	return &layerError{layer: layer, err: fmt.Errorf(format, args...)}
}

// fail reports a missing layer on the result pipe and exits: nothing runs.
func fail(res *os.File, layer string, err error) {
	fmt.Fprintf(res, "unavailable %s\n", layer)
	fmt.Fprintf(os.Stderr, "sandbox helper: %v\n", err) // the server logs it, never shows it
	os.Exit(3)
}

func enter(s spec, res *os.File) error {
	broken := func(layer string) error {
		if s.Break == layer {
			return layerErr(layer, "switched off by a test")
		}
		return nil
	}
	// Namespaces: the clone flags were set by the server; prove each one is
	// new rather than trusting that they were.
	for _, kind := range namespaceKinds {
		var st unix.Stat_t
		if err := unix.Stat("/proc/self/ns/"+kind, &st); err != nil {
			return layerErr(LayerNamespaces, "stat %s namespace: %v", kind, err)
		}
		if host, ok := s.HostNS[kind]; !ok || host == st.Ino {
			return layerErr(LayerNamespaces, "%s namespace is the server's", kind)
		}
	}
	if err := broken(LayerNamespaces); err != nil {
		return err
	}
	if unix.Getuid() != nobody || unix.Geteuid() != nobody || unix.Getgid() != nobody || unix.Getegid() != nobody {
		return layerErr(LayerUser, "running as uid %d gid %d, want %d", unix.Getuid(), unix.Getgid(), nobody)
	}
	groups, err := unix.Getgroups()
	if err != nil {
		return layerErr(LayerUser, "getgroups: %v", err)
	}
	for _, g := range groups {
		if g != nobody { // unmapped host groups show as the overflow gid (nobody)
			return layerErr(LayerUser, "supplementary group %d kept", g)
		}
	}
	// The helper binary's descriptor goes at exec (and with it the only
	// reference to a host file).
	if _, err := unix.FcntlInt(helperFD, unix.F_SETFD, unix.FD_CLOEXEC); err != nil {
		return layerErr(LayerHelper, "close-on-exec of the helper: %v", err)
	}
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return layerErr(LayerCoreDump, "%v", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return layerErr(LayerNoNewPrivs, "%v", err)
	}
	if err := broken(LayerNoNewPrivs); err != nil {
		return err
	}
	abi, err := restrictLandlock(s)
	if err != nil {
		return layerErr(LayerLandlock, "%v", err)
	}
	if err := broken(LayerLandlock); err != nil {
		return err
	}
	filter, err := seccompProgram()
	if err != nil {
		return layerErr(LayerSeccomp, "build filter: %v", err)
	}
	if len(filter) == 0 || len(filter) > 4096 {
		return layerErr(LayerSeccomp, "filter of %d instructions", len(filter))
	}
	// Everything the last steps need is allocated now: once RLIMIT_AS is
	// set, this Go runtime (whose address space may already exceed it)
	// must not allocate again, so only raw syscalls follow.
	prog := &syscall.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	okLine := []byte(fmt.Sprintf("ok namespaces=%s root=minimal,read-only hostname=%s uid=%d no_new_privs=1 landlock_abi=%d seccomp=allow-list exec=interpreter-only dumpable=0 rlimits=as,cpu,nproc,fsize,nofile,core\n",
		strings.Join(namespaceKinds, ","), sandboxHostname, nobody, abi))
	argv := []string{s.Python, "-I", "-S", "-B", "-c", s.Prelude}
	if s.KernelOnly {
		argv = append(argv, "kernel-only")
	}
	// The interpreter, opened O_PATH at execFD: the filter below allows
	// execveat of that descriptor only, so nothing else is ever executed
	// (not the ELF loader with another program as its argument either).
	pfd, err := unix.Open(s.Python, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return layerErr(LayerPython, "open %s: %v", s.Python, err)
	}
	if err := unix.Dup3(pfd, execFD, unix.O_CLOEXEC); err != nil {
		return layerErr(LayerPython, "dup: %v", err)
	}
	_ = unix.Close(pfd)
	empty, err := syscall.BytePtrFromString("")
	if err != nil {
		return layerErr(LayerPython, "%v", err)
	}
	argvp, err := syscall.SlicePtrFromStrings(argv)
	if err != nil {
		return layerErr(LayerPython, "%v", err)
	}
	envp := []*byte{nil} // an empty environment
	if err := broken(LayerSeccomp); err != nil {
		return err
	}
	// No collection may run once RLIMIT_AS is set either: a cycle started
	// by an earlier allocation (more packages initialised, more heap) would
	// grow the runtime's own metadata and fail under the limit. Finish one
	// now and turn the collector off for the few syscalls left.
	runtime.GC()
	debug.SetGCPercent(-1)
	if err := setRlimits(s); err != nil {
		return layerErr(LayerRlimits, "%v", err)
	}
	if err := broken(LayerRlimits); err != nil {
		return err
	}
	if _, _, e := syscall.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(prog))); e != 0 {
		return layerErr(LayerSeccomp, "seccomp(SET_MODE_FILTER): %v", e)
	}
	_, _ = unix.Write(resultFD, okLine) // the result pipe (res); Fd() would touch the runtime
	_, _, e := syscall.RawSyscall6(unix.SYS_EXECVEAT, execFD, uintptr(unsafe.Pointer(empty)),
		uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])), unix.AT_EMPTY_PATH, 0)
	return layerErr(LayerPython, "exec: %v", e)
}

func setRlimits(s spec) error {
	set := func(name string, res int, soft, hard uint64) error {
		if err := unix.Setrlimit(res, &unix.Rlimit{Cur: soft, Max: hard}); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		return nil
	}
	for _, l := range []struct {
		name       string
		res        int
		soft, hard uint64
	}{
		{"core", unix.RLIMIT_CORE, 0, 0},
		{"fsize", unix.RLIMIT_FSIZE, 0, 0},
		{"nofile", unix.RLIMIT_NOFILE, maxOpenFiles, maxOpenFiles},
		// One task: no second process and no second thread (counted per
		// user namespace, so concurrent runs do not share it).
		{"nproc", unix.RLIMIT_NPROC, 1, 1},
		{"cpu", unix.RLIMIT_CPU, s.CPUSeconds, s.CPUSeconds + 1},
		{"as", unix.RLIMIT_AS, s.Memory, s.Memory},
	} {
		if err := set(l.name, l.res, l.soft, l.hard); err != nil {
			return err
		}
	}
	return nil
}
