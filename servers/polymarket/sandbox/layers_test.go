//go:build linux

package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLandlockMinimumABI: a kernel without signal scoping (ABI 6) is
// refused, naming what it lacks; the design relies on it (kill(2) of the
// server, which may run as the same host uid).
func TestLandlockMinimumABI(t *testing.T) {
	cases := []struct {
		abi  int
		want string // "" = accepted
	}{
		{1, "TCP bind/connect rules (ABI 4), device ioctl rules (ABI 5), signal and abstract unix socket scoping (ABI 6)"},
		{4, "lacks device ioctl rules (ABI 5), signal"},
		{5, "lacks signal and abstract unix socket scoping (ABI 6)"},
		{6, ""},
		{7, ""},
	}
	for _, tc := range cases {
		err := checkLandlockABI(tc.abi)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("ABI %d: got %v, want %q", tc.abi, err, tc.want)
		}
	}
}

// TestBwrapArgs: every namespace, no capability, a fixed host name, a
// read-only root of the given trees and the interpreter only, the loader
// execute-only, and the helper reached through a descriptor.
func TestBwrapArgs(t *testing.T) {
	s := spec{Python: "/usr/bin/python3.11", Loader: "/lib64/ld-linux-x86-64.so.2", ReadDirs: []string{"/usr/lib/python3.11"}}
	libs := map[string]string{"/usr/lib/x86_64-linux-gnu/libc.so.6": "/usr/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libz.so.1": "/usr/lib/x86_64-linux-gnu/libz.so.1.2.13"}
	a := bwrapArgs(s, libs, nil)
	joined := " " + strings.Join(a, " ") + " "
	for _, want := range []string{
		" --unshare-all --unshare-user ", " --uid 65534 --gid 65534 ", " --hostname sandbox ", " --die-with-parent ",
		" --new-session ", " --clearenv ", " --cap-drop ALL ",
		" --ro-bind /usr/lib/python3.11 /usr/lib/python3.11 ",
		" --ro-bind /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libc.so.6 ",
		" --ro-bind /usr/lib/x86_64-linux-gnu/libz.so.1.2.13 /usr/lib/x86_64-linux-gnu/libz.so.1 ",
		" --ro-bind /usr/bin/python3.11 /usr/bin/python3.11 ",
		" --perms 0111 --file 5 /lib64/ld-linux-x86-64.so.2 ", " --proc /proc ", " --remount-ro / ",
		" -- /proc/self/fd/4 " + childArg + " ",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("bwrap args lack %q:\n%s", want, joined)
		}
	}
	allowed := append([]string{s.Python}, s.ReadDirs...)
	for _, real := range libs {
		allowed = append(allowed, real)
	}
	for i, x := range a {
		if x == "--bind" || x == "--dev-bind" || x == "--dev" || x == "--ro-bind" && !slices.Contains(allowed, a[i+1]) {
			t.Errorf("binds more than the interpreter, its stdlib and its libraries: %s %s", x, a[i+1])
		}
	}
}

// TestSharedLibs: the root's libraries are those the interpreter links,
// found by soname, and not the rest of the directory.
func TestSharedLibs(t *testing.T) {
	libs := sharedLibs("/usr/lib/x86_64-linux-gnu", "/usr/bin/python3.11")
	if len(libs) == 0 {
		t.Skip("no Debian python3.11 here")
	}
	if real, ok := libs["/usr/lib/x86_64-linux-gnu/libc.so.6"]; !ok || real == "" {
		t.Fatalf("libc missing: %v", libs)
	}
	if len(libs) > 40 {
		t.Fatalf("%d libraries for the interpreter alone", len(libs))
	}
}

// TestVerdict: the outcome is decided from the helper's first line, the
// exit status and the supervisor's facts; the report only names a failure.
func TestVerdict(t *testing.T) {
	s := &Sandbox{cfg: Config{}.withDefaults(), spec: spec{CPUSeconds: 30}}
	exit := func(script string) error { return exec.Command("/bin/sh", "-c", script).Run() }
	ok := "ok layers\n"
	cases := []struct {
		name, pipe string
		wait       error
		facts      verdictFacts
		success    bool
		err, unav  string
	}{
		{"ran to its end", ok, exit("exit 42"), verdictFacts{}, true, "", ""},
		{"a forged failure report does not fail a run that ended", ok + "\n{\"type\": \"ValueError\", \"message\": \"x\"}\n", exit("exit 42"), verdictFacts{}, true, "", ""},
		{"the code's own exit 0 is not a success", ok + "\n{}\n", nil, verdictFacts{}, false, "the code ended the Python process itself (exit status 0) before it finished", ""},
		{"raised", ok + "junk\n{\"type\": \"KeyError\", \"message\": \"'a'\"}\n", exit("exit 1"), verdictFacts{}, false, "KeyError: 'a'", ""},
		{"a forged success report does not hide a raise", ok + "\n{}\n", exit("exit 1"), verdictFacts{}, false, "the Python process ended with status 1 and no report of its exception", ""},
		{"operator text as a type", ok + "\n{\"type\": \"sandbox unavailable\", \"message\": \"seccomp\"}\n", exit("exit 1"), verdictFacts{}, false, "the Python process ended with status 1 and no report of its exception", ""},
		{"unavailable after ok is the code's", ok + "unavailable seccomp\n", exit("exit 3"), verdictFacts{}, false, "the code ended the Python process itself (exit status 3)", ""},
		{"helper refused", "unavailable landlock\n", exit("exit 3"), verdictFacts{}, false, "", "landlock"},
		{"bwrap failed", "", exit("exit 1"), verdictFacts{}, false, "", LayerBwrap},
		{"prelude failed", ok, exit("exit 2"), verdictFacts{}, false, "the sandbox could not start the code", ""},
		{"crash through bwrap", ok, exit("exit 139"), verdictFacts{}, false, "the Python process crashed (signal segmentation fault)", ""},
		{"CPU limit", ok, exit("exit 152"), verdictFacts{}, false, "timeout: the code used its 30 s of CPU time", ""},
		{"killed by signal", ok, exit("kill -SEGV $$"), verdictFacts{}, false, "the Python process crashed (signal segmentation fault)", ""},
		{"stdout cap", ok, exit("kill -KILL $$"), verdictFacts{stdoutOver: true}, false, "output truncated: the code printed more than 64 KiB", ""},
		{"result pipe cap", ok, exit("kill -KILL $$"), verdictFacts{reportOver: true}, false, "output truncated: the code wrote more than 64 KiB to the sandbox's result channel", ""},
		{"wall clock", ok, exit("kill -KILL $$"), verdictFacts{timedOut: true}, false, "timeout: the code ran longer than 30s", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := s.verdict(tc.pipe, tc.wait, 42, tc.facts)
			if v.success != tc.success || v.unavailable != tc.unav || !strings.HasPrefix(v.err, tc.err) || tc.err == "" && v.err != "" {
				t.Fatalf("got %+v", v)
			}
		})
	}
}

// TestBwrapFailsClosed: no bwrap, or one that fails every time, and nothing
// runs: "sandbox unavailable: bwrap". One that fails once (before the helper
// wrote a line, so nothing ran) is tried again.
func TestBwrapFailsClosed(t *testing.T) {
	for _, bin := range []string{"/nonexistent/bwrap", "/bin/false"} {
		s := newTest(t, Config{Bwrap: bin})
		r, err := s.Run(context.Background(), Request{Code: "print('ran')"})
		if err != nil || r.Success || r.Error != "sandbox unavailable: bwrap" || r.Output != "" {
			t.Errorf("%s: got %+v, %v", bin, r, err)
		}
	}
	dir := t.TempDir()
	_ = os.Chmod(filepath.Dir(dir), 0o755) // a root server starts bwrap as nobody
	_ = os.Chmod(dir, 0o777)
	counter := filepath.Join(dir, "calls")
	script := filepath.Join(dir, "bwrap")
	// The probe is call 1; the run's first try is call 2, which fails.
	body := "#!/bin/sh\nn=$(cat " + counter + " 2>/dev/null || echo 0)\necho $((n+1)) > " + counter + "\n[ \"$n\" = 1 ] && exit 1\nexec " + DefaultBwrap + " \"$@\"\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	s := newTest(t, Config{Bwrap: script})
	if p := s.Probe(); p.Unavailable != "" {
		t.Fatalf("probe: %+v", p)
	}
	r, err := s.Run(context.Background(), Request{Code: "print('ran')"})
	if err != nil || !r.Success || r.Output != "ran\n" {
		t.Fatalf("after one failure of bwrap: %+v, %v", r, err)
	}
}
