package sandbox

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// DefaultBwrap is Debian's bubblewrap (package bubblewrap).
const DefaultBwrap = "/usr/bin/bwrap"

// bwrapArgs is the bwrap command line of one run: every namespace new, a
// root of its own on a tmpfs holding only the interpreter (an execute-only
// copy, so the process is not dumpable), its stdlib and the libraries
// directory, read-only; its own /proc of the new PID namespace; a fixed
// host name; an empty environment. bwrap then execs the helper (this
// binary, through a descriptor) as PID 2 under bwrap's own PID 1.
func bwrapArgs(s spec, links map[string]string) []string {
	a := []string{
		"--unshare-all", "--unshare-user", // user, pid, net, ipc, uts, cgroup (mount always)
		"--uid", strconv.Itoa(nobody), "--gid", strconv.Itoa(nobody),
		"--hostname", sandboxHostname,
		"--die-with-parent", "--new-session", "--clearenv",
		"--cap-drop", "ALL",
		"--chdir", "/",
	}
	for _, d := range s.ReadDirs {
		a = append(a, "--ro-bind", d, d)
	}
	for _, p := range sortedKeys(links) {
		if dir := filepath.Dir(p); dir != "/" {
			a = append(a, "--dir", dir)
		}
		a = append(a, "--symlink", links[p], p)
	}
	a = append(a,
		"--perms", "0111", "--file", strconv.Itoa(pythonFD), s.Python,
		"--proc", "/proc",
		"--remount-ro", "/",
		"--", "/proc/self/fd/"+strconv.Itoa(helperFD), childArg)
	return a
}

// rootLinks are the symlinks the root needs for paths to resolve as on the
// host (merged /usr: /lib64 → usr/lib64, whose loader links into the
// multiarch directory). Keys are link paths whose parents are real
// directories; values the links' targets.
func rootLinks(paths ...string) map[string]string {
	links := map[string]string{}
	for _, p := range paths {
		collectLinks(p, links, 0)
	}
	return links
}

func collectLinks(p string, links map[string]string, depth int) {
	if depth > 40 || !filepath.IsAbs(p) {
		return
	}
	parts := strings.Split(strings.TrimPrefix(filepath.Clean(p), "/"), "/")
	cur := "/"
	for i, part := range parts {
		next := filepath.Join(cur, part)
		fi, err := os.Lstat(next)
		if err != nil {
			return
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			t, err := os.Readlink(next)
			if err != nil {
				return
			}
			links[next] = t
			if !filepath.IsAbs(t) {
				t = filepath.Join(cur, t)
			}
			collectLinks(filepath.Join(append([]string{t}, parts[i+1:]...)...), links, depth+1)
			return
		}
		cur = next
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) < len(keys[j])
		}
		return keys[i] < keys[j]
	})
	return keys
}
