//go:build linux

package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
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
	a := bwrapArgs(s, nil, libs, nil)
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

// TestBwrapArgsStdlibFiles: with the root's stdlib files given, those are
// bound one by one and the stdlib tree is not.
func TestBwrapArgsStdlibFiles(t *testing.T) {
	s := spec{Python: "/usr/bin/python3.11", Loader: "/lib64/ld-linux-x86-64.so.2", ReadDirs: []string{"/usr/lib/python3.11"}}
	files := []string{"/usr/lib/python3.11/json/__init__.py", "/usr/lib/python3.11/lib-dynload/_json.cpython-311-x86_64-linux-gnu.so"}
	joined := " " + strings.Join(bwrapArgs(s, files, nil, nil), " ") + " "
	if strings.Contains(joined, " /usr/lib/python3.11 ") {
		t.Errorf("the stdlib tree is bound whole:\n%s", joined)
	}
	for _, f := range files {
		if !strings.Contains(joined, " --ro-bind "+f+" "+f+" ") {
			t.Errorf("bwrap args lack %s:\n%s", f, joined)
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
// supervisor's status line and the server's facts; the report only names an
// exception, and the code's own exit statuses are named as such.
func TestVerdict(t *testing.T) {
	s := &Sandbox{cfg: Config{}.withDefaults(), spec: spec{CPUSeconds: 30}}
	ok := "ok layers\n"
	started := ok + "run\n"
	cases := []struct {
		name, pipe, status string
		facts              verdictFacts
		success            bool
		outcome, err, unav string
	}{
		{"ran to its end", started, "exit 0 cpu_us 100", verdictFacts{}, true, OutcomeOK, "", ""},
		{"a forged failure report does not fail a run that exited 0", started + "\n{\"type\": \"ValueError\", \"message\": \"x\"}\n", "exit 0 cpu_us 1", verdictFacts{}, true, OutcomeOK, "", ""},
		{"raised", started + "junk\n{\"type\": \"KeyError\", \"message\": \"'a'\"}\n", "exit 1 cpu_us 1", verdictFacts{}, false, OutcomeError, "KeyError: 'a'", ""},
		{"an exception named timeout is an exception", started + "{\"type\": \"timeout\", \"message\": \"x\"}\n", "exit 1 cpu_us 1", verdictFacts{}, false, OutcomeError, "timeout: x", ""},
		{"an exception named cancelled is an exception", started + "{\"type\": \"cancelled\", \"message\": \"y\"}\n", "exit 1 cpu_us 1", verdictFacts{}, false, OutcomeError, "cancelled: y", ""},
		{"a forged success report does not hide a raise", started + "\n{}\n", "exit 1 cpu_us 1", verdictFacts{}, false, OutcomeError, "the code ended the Python process with exit status 1 (no exception was reported)", ""},
		{"operator text as a type", started + "\n{\"type\": \"sandbox unavailable\", \"message\": \"seccomp\"}\n", "exit 1 cpu_us 1", verdictFacts{}, false, OutcomeError, "the code ended the Python process with exit status 1", ""},
		{"unavailable after ok is the code's", started + "unavailable seccomp\n", "exit 3 cpu_us 1", verdictFacts{}, false, OutcomeError, "the code ended the Python process with exit status 3", ""},
		{"a status line on the result pipe is the code's", started + "exit 0 cpu_us 1\n", "exit 5 cpu_us 1", verdictFacts{}, false, OutcomeError, "the code ended the Python process with exit status 5", ""},
		{"exit 137 is the code's", started, "exit 137 cpu_us 1", verdictFacts{}, false, OutcomeError, "the code ended the Python process with exit status 137", ""},
		{"exit 139 is the code's", started, "exit 139 cpu_us 1", verdictFacts{}, false, OutcomeError, "the code ended the Python process with exit status 139", ""},
		{"exit 2 after run is the code's", started, "exit 2 cpu_us 1", verdictFacts{}, false, OutcomeError, "the code ended the Python process with exit status 2", ""},
		{"exit 2 before run is the prelude's", ok, "exit 2 cpu_us 1", verdictFacts{}, false, OutcomeError, "the sandbox could not start the code", ""},
		{"helper refused", "unavailable landlock\n", "", verdictFacts{}, false, OutcomeUnavailable, "", "landlock"},
		{"supervisor refused after ok", ok, "unavailable seccomp", verdictFacts{}, false, OutcomeUnavailable, "", "seccomp"},
		{"bwrap failed", "", "", verdictFacts{}, false, OutcomeUnavailable, "", LayerBwrap},
		{"no status line", started, "", verdictFacts{}, false, OutcomeCrash, "the sandbox's supervisor ended without reporting", ""},
		{"crash", started, "signal 11 cpu_us 1", verdictFacts{}, false, OutcomeCrash, "the Python process was killed by signal SIGSEGV", ""},
		{"CPU limit", started, "signal 24 cpu_us 30000000", verdictFacts{}, false, OutcomeTimeout, "timeout (CPU): the code used its 30 s of CPU time", ""},
		{"CPU hard limit", started, "signal 9 cpu_us 31000000", verdictFacts{}, false, OutcomeTimeout, "timeout (CPU)", ""},
		{"a CPU limit the code lowered", started, "signal 24 cpu_us 1000000", verdictFacts{}, false, OutcomeCrash, "the Python process was killed by signal SIGXCPU", ""},
		{"stdout cap", started, "", verdictFacts{stdoutOver: true}, false, OutcomeTruncated, "output truncated: the code printed more than 64 KiB", ""},
		{"result pipe cap", started, "", verdictFacts{reportOver: true}, false, OutcomeTruncated, "output truncated: the code wrote more than 64 KiB to the sandbox's result channel", ""},
		{"wall clock", started, "", verdictFacts{timedOut: true}, false, OutcomeTimeout, "timeout (wall clock): the code ran longer than 30s", ""},
		{"cancelled", started, "", verdictFacts{cancelled: true}, false, OutcomeCancelled, "cancelled (request ended)", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := s.verdict(tc.pipe, tc.status, tc.facts)
			if v.success != tc.success || v.outcome != tc.outcome || v.unavailable != tc.unav || !strings.HasPrefix(v.err, tc.err) || tc.err == "" && v.err != "" {
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
	// failing is the bwrap call that fails: 0 is the probe's first try
	// (the probe tries once more), 1 the run's first try (the run does).
	for _, failing := range []int{0, 1} {
		dir := t.TempDir()
		_ = os.Chmod(filepath.Dir(dir), 0o755) // a root server starts bwrap as nobody
		_ = os.Chmod(dir, 0o777)
		counter := filepath.Join(dir, "calls")
		script := filepath.Join(dir, "bwrap")
		body := "#!/bin/sh\nn=$(cat " + counter + " 2>/dev/null || echo 0)\necho $((n+1)) > " + counter + "\n[ \"$n\" = " + strconv.Itoa(failing) + " ] && exit 1\nexec " + DefaultBwrap + " \"$@\"\n"
		if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
		s := newTest(t, Config{Bwrap: script})
		if p := s.Probe(); p.Unavailable != "" {
			t.Fatalf("call %d failing: probe: %+v", failing, p)
		}
		r, err := s.Run(context.Background(), Request{Code: "print('ran')"})
		if err != nil || !r.Success || r.Output != "ran\n" {
			t.Fatalf("call %d failing: after one failure of bwrap: %+v, %v", failing, r, err)
		}
	}
}
