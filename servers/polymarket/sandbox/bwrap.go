package sandbox

import (
	"strconv"
)

// DefaultBwrap is Debian's bubblewrap (package bubblewrap).
const DefaultBwrap = "/usr/bin/bwrap"

// bwrapArgs is the bwrap command line of one run: every namespace new, no
// capability, a root of its own on a tmpfs holding only the interpreter,
// the stdlib files a run loads (stdlibFiles; nil binds the ReadDirs trees
// whole) and the shared libraries they link (read-only binds), an
// execute-only copy of the ELF loader (see prepare: it makes the process
// not dumpable), its own /proc of the new PID namespace, a fixed host name
// and an empty environment; then remounted read-only. bwrap execs the helper
// (this binary, through a descriptor) as PID 2 under bwrap's own PID 1.
func bwrapArgs(s spec, stdlibFiles []string, libs map[string]string, extraBinds []string) []string {
	a := []string{
		"--unshare-all", "--unshare-user", // user, pid, net, ipc, uts, cgroup (mount always)
		"--uid", strconv.Itoa(nobody), "--gid", strconv.Itoa(nobody),
		"--hostname", sandboxHostname,
		"--die-with-parent", "--new-session", "--clearenv",
		"--cap-drop", "ALL",
		"--chdir", "/",
	}
	if stdlibFiles == nil {
		for _, d := range s.ReadDirs {
			a = append(a, "--ro-bind", d, d)
		}
	}
	for _, f := range stdlibFiles {
		a = append(a, "--ro-bind", f, f)
	}
	for _, at := range sortedPaths(libs) {
		a = append(a, "--ro-bind", libs[at], at)
	}
	a = append(a, "--ro-bind", s.Python, s.Python)
	for _, f := range extraBinds {
		a = append(a, "--ro-bind", f, f)
	}
	a = append(a,
		"--perms", "0111", "--file", strconv.Itoa(loaderFD), s.Loader,
		"--proc", "/proc",
		"--remount-ro", "/",
		"--", "/proc/self/fd/"+strconv.Itoa(helperFD), childArg)
	return a
}
