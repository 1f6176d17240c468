package sandbox

import (
	"syscall"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// allowedSyscalls is what CPython 3.11 needs to start, import the stdlib and
// run pure-Python analysis (measured with strace on Debian's python3.11).
// Everything else fails with EPERM: fork, vfork, process clones, sockets,
// ptrace, process_vm_*, mount, unshare, setns, bpf, io_uring_*, keyctl,
// perf_event_open, userfaultfd, kill/tkill/tgkill/pidfd_*, memfd_create,
// chmod/chown, *xattr, ... Names a architecture lacks are skipped.
var allowedSyscalls = []string{
	"read", "write", "readv", "writev", "pread64", "close", "lseek",
	"open", "openat", "stat", "fstat", "lstat", "newfstatat", "statx",
	"access", "faccessat", "faccessat2", "readlink", "readlinkat", "getdents64", "getcwd",
	"dup", "dup2", "dup3", "pipe", "pipe2",
	"mmap", "munmap", "mremap", "mprotect", "madvise", "brk",
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack", "restart_syscall",
	"getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getgroups",
	"getresuid", "getresgid", "getpgrp", "uname", "sysinfo", "getrusage", "times", "umask",
	"clock_gettime", "clock_getres", "gettimeofday", "time", "nanosleep", "clock_nanosleep",
	"futex", "set_robust_list", "set_tid_address", "rseq", "arch_prctl", "getrandom",
	"sched_getaffinity", "sched_yield", "poll", "ppoll", "select", "pselect6",
	"exit", "exit_group",
	// execve and execveat are not here: they go to the helper (the
	// supervisor, see seccompPolicy), which lets the one exec of the
	// interpreter through and refuses every later one.
}

// Linux uapi values the conditions below compare against.
const (
	cloneThread = 0x00010000 // CLONE_THREAD
	tcgets      = 0x5401
	tiocgwinsz  = 0x5413
	fioclex     = 0x5451
	fionclex    = 0x5450
	fionbio     = 0x5421 // os.set_blocking
)

func seccompPolicy() (seccomp.Policy, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return seccomp.Policy{}, err
	}
	var names []string
	for _, n := range allowedSyscalls {
		if _, ok := info.SyscallNames[n]; ok {
			names = append(names, n)
		}
	}
	eq := func(arg uint32, v uint64) seccomp.ArgumentConditions {
		return seccomp.ArgumentConditions{{Argument: arg, Operation: seccomp.Equal, Value: v}}
	}
	cond := []seccomp.NameWithConditions{
		// Threads only (RLIMIT_NPROC=1 then refuses them too); never a process.
		{Name: "clone", Conditions: seccomp.ArgumentConditions{{Argument: 0, Operation: seccomp.BitsSet, Value: cloneThread}}},
		// Limits of this process only: other sandboxes run as the same host uid.
		{Name: "prlimit64", Conditions: eq(0, 0)},
		// prctl only to read the dumpable flag (which must read 0).
		{Name: "prctl", Conditions: eq(0, unix.PR_GET_DUMPABLE)},
		// isatty and close-on-exec; no TIOCSTI or any other device ioctl.
		{Name: "ioctl", Conditions: eq(1, tcgets)},
		{Name: "ioctl", Conditions: eq(1, tiocgwinsz)},
		{Name: "ioctl", Conditions: eq(1, fioclex)},
		{Name: "ioctl", Conditions: eq(1, fionclex)},
		{Name: "ioctl", Conditions: eq(1, fionbio)},
	}
	// fcntl without F_SETOWN/F_SETSIG (SIGIO to another process) or leases.
	for _, c := range []uint64{unix.F_DUPFD, unix.F_GETFD, unix.F_SETFD, unix.F_GETFL, unix.F_SETFL, unix.F_DUPFD_CLOEXEC} {
		cond = append(cond, seccomp.NameWithConditions{Name: "fcntl", Conditions: eq(1, c)})
	}
	return seccomp.Policy{
		DefaultAction: seccomp.ActionErrno, // EPERM: Python raises PermissionError
		Syscalls: []seccomp.SyscallGroup{
			// clone3 takes its flags in memory BPF cannot read: ENOSYS makes
			// libc fall back to clone, whose flags are checked above.
			{Names: []string{"clone3"}, Action: seccomp.ActionErrno | seccomp.Action(unix.ENOSYS)},
			// Every exec by any route (execveat ignores its descriptor for an
			// absolute path, execveat(2)) waits for the helper's answer on
			// the listener: it continues the interpreter's own exec once,
			// then answers EPERM for good. A dead helper makes them ENOSYS.
			{Names: []string{"execve", "execveat"}, Action: seccomp.ActionUserNotify},
			{Names: names, NamesWithCondtions: cond, Action: seccomp.ActionAllow},
		},
	}, nil
}

// seccompProgram assembles the filter before the rlimits are set, so that
// loading it allocates nothing.
func seccompProgram() ([]syscall.SockFilter, error) {
	p, err := seccompPolicy()
	if err != nil {
		return nil, err
	}
	insts, err := p.Assemble()
	if err != nil {
		return nil, err
	}
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return nil, err
	}
	out := make([]syscall.SockFilter, len(raw))
	for i, r := range raw {
		out[i] = syscall.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	return out, nil
}
