package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"strings"

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
	if err := broken(LayerSeccomp); err != nil {
		return err
	}
	plan, err := newChildPlan(s, filter)
	if err != nil {
		return err
	}
	if err := broken(LayerRlimits); err != nil {
		return err
	}
	// Nothing of this process may reach the interpreter but stdio and the
	// result pipe: every other descriptor (the helper binary, the loader,
	// the status channel, the sync pipe) is close-on-exec.
	if err := unix.CloseRange(resultFD+1, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err != nil {
		return layerErr(LayerHelper, "close-on-exec: %v", err)
	}
	okLine := fmt.Sprintf("ok namespaces=%s root=minimal,read-only hostname=%s uid=%d no_new_privs=1 landlock_abi=%d seccomp=allow-list exec=once,supervised dumpable=0 rlimits=as,cpu,nproc,fsize,nofile,core\n",
		strings.Join(namespaceKinds, ","), sandboxHostname, nobody, abi)
	if _, err := unix.Write(resultFD, []byte(okLine)); err != nil {
		return layerErr(LayerHelper, "result pipe: %v", err)
	}
	supervise(plan) // never returns
	return nil
}
