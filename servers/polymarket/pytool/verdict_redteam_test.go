package pytool_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// roundCase is one attempt of the later red-team round against the verdict,
// the one-exec rule, the sandbox's root and the Python layer. Each runs
// through TestRedTeamRound: the effect denied (host.check), the server alive
// afterwards, no process left.
type roundCase struct {
	name       string
	kernelOnly bool
	code       string
	// exactly one of: wantErr (success:false, error has this prefix) or
	// wantOut (success:true, exactly this output).
	wantErr, wantOut string
	// wantStderr: stderr must contain this.
	wantStderr string
}

// execveatCode calls execveat(2) through ctypes with the given dirfd, path
// and flags, then reports what the kernel said.
func execveatCode(dirfd int, path string, flags int, argv ...string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = "b" + pyQuote(a)
	}
	return fmt.Sprintf(`import ctypes
libc = ctypes.CDLL(None, use_errno=True)
argv = (ctypes.c_char_p * %d)(%s, None)
r = libc.syscall(%d, %d, %s, argv, None, %d)
raise OSError('execveat returned %%d errno %%d' %% (r, ctypes.get_errno()))`, len(argv)+1, strings.Join(q, ", "), unix.SYS_EXECVEAT, dirfd, "b"+pyQuote(path), flags)
}

func pyQuote(s string) string { return fmt.Sprintf("%q", s) }

const escapedPython = `print("ESC" + "APED")`

func roundCases() []roundCase {
	sigpipe := getOS + `sig = sys_.modules["signal"]
saved = os_.dup(1)
def h(signum, frame):
    f = frame
    while f is not None:
        loc = f.f_locals
        for k in ("done", "walking", "report_and_exit", "exit_now", "kind"):
            if k in loc:
                os_.write(saved, b"ESC" + b"APED prelude frame\n")
                if k == "done":
                    os_._exit(loc[k])
        f = f.f_back
sig.signal(sig.SIGPIPE, h)
r, w = os_.pipe()
os_.close(r)
`
	return []roundCase{
		// A verdict the code cannot write: its own exit statuses and
		// exception names are reported as what they are.
		{name: "exit 137 is the code's, not the CPU limit", code: getOS + "os_._exit(137)", wantErr: "the code ended the Python process with exit status 137"},
		{name: "exit 139 is the code's, not a crash", code: getOS + "os_._exit(139)", wantErr: "the code ended the Python process with exit status 139"},
		{name: "exit 2 is the code's, not a start failure", code: getOS + "sys_.stderr.write('mine\\n')\nsys_.stderr.flush()\nos_._exit(2)", wantErr: "the code ended the Python process with exit status 2", wantStderr: "mine"},
		{name: "exit 3 is the code's, not the helper's", code: getOS + "os_._exit(3)", wantErr: "the code ended the Python process with exit status 3"},
		{name: "exception class named timeout", code: "class timeout(Exception):\n    pass\nraise timeout('x')", wantErr: "timeout: x"},
		{name: "exception class named cancelled", code: "class cancelled(Exception):\n    pass\nraise cancelled('y')", wantErr: "cancelled: y"},
		{name: "SIGPIPE handler in the prelude's frame after a raise", code: sigpipe + "os_.dup2(w, 2)\nraise ValueError('real')", wantErr: "ValueError: real"},
		{name: "SIGPIPE handler in the prelude's frame after success", code: sigpipe + "os_.dup2(w, 1)\nprint('buffered')", wantOut: ""},
		{name: "a forged report line and exit 0 is the code's own exit", code: getOS + "os_.write(3, b'\\nrun\\n{\"type\": \"X\", \"message\": \"m\"}\\n')\nos_._exit(0)", wantOut: ""},
		{name: "a status line on the result pipe is not the supervisor's", code: getOS + "os_.write(3, b'\\nexit 0 cpu_us 1\\nsignal 24 cpu_us 99999999\\n')\nos_._exit(5)", wantErr: "the code ended the Python process with exit status 5"},
		{name: "the status descriptor is not the code's", code: getOS + "bad = []\nfor fd in range(4, 32):\n    try:\n        os_.fstat(fd)\n        bad.append(fd)\n    except OSError:\n        pass\nprint(bad)", wantOut: "[]\n"},

		// Exactly one exec: every route to a second one is refused.
		{name: "execveat absolute path with dirfd 100 and AT_EMPTY_PATH", kernelOnly: true, code: execveatCode(100, "/usr/bin/python3.11", unix.AT_EMPTY_PATH, "python3", "-c", escapedPython), wantErr: "OSError: execveat returned -1 errno 1"},
		{name: "execveat of the ELF loader with dirfd 100", kernelOnly: true, code: execveatCode(100, "/lib64/ld-linux-x86-64.so.2", unix.AT_EMPTY_PATH, "ld.so", "/usr/bin/python3.11", "-c", escapedPython), wantErr: "OSError: execveat returned -1 errno 1"},
		{name: "execveat relative to the working directory", kernelOnly: true, code: execveatCode(unix.AT_FDCWD, "usr/bin/python3.11", 0, "python3", "-c", escapedPython), wantErr: "OSError: execveat returned -1 errno 1"},
		{name: "fexecve of an open interpreter", kernelOnly: true, code: "import os\nfd = os.open('/usr/bin/python3.11', os.O_RDONLY)\nos.execve(fd, ['python3', '-c', '" + escapedPython + "'], {})", wantErr: "PermissionError"},
		{name: "execve of the interpreter", kernelOnly: true, code: "import os\nos.execve('/usr/bin/python3.11', ['python3', '-c', '" + escapedPython + "'], {})", wantErr: "PermissionError"},
		{name: "posix_spawn", kernelOnly: true, code: "import os\nos.posix_spawn('/usr/bin/python3.11', ['python3', '-c', '" + escapedPython + "'], {})", wantErr: "PermissionError|BlockingIOError"},
		{name: "execv through the Python layer's os", code: getOS + "os_.execv('/usr/bin/python3.11', ['python3', '-c', '" + escapedPython + "'])", wantErr: "RuntimeError: blocked by the sandbox: os.exec"},
	}
}

// TestRedTeamRound replays the round, table-driven.
func TestRedTeamRound(t *testing.T) {
	h := newHost(t)
	c := connect(t, testConfig())
	kc := testConfig()
	kc.Sandbox.KernelOnly = true
	k := connect(t, kc)
	for _, tc := range roundCases() {
		t.Run(tc.name, func(t *testing.T) {
			conn := c
			if tc.kernelOnly {
				conn = k
			}
			out := run(t, conn, tc.code, nil)
			h.check(t, tc.name, out)
			if tc.wantErr != "" {
				if out.Success || !hasAnyPrefix(errOf(out), strings.Split(tc.wantErr, "|")) {
					t.Errorf("want success:false with %q, got success=%v error=%q output=%.300q stderr=%.300q", tc.wantErr, out.Success, errOf(out), out.Output, out.Stderr)
				}
			} else if !out.Success || out.Output != tc.wantOut || out.Error != nil {
				t.Errorf("want success with output %q, got success=%v error=%q output=%.300q stderr=%.300q", tc.wantOut, out.Success, errOf(out), out.Output, out.Stderr)
			}
			if !strings.Contains(out.Stderr, tc.wantStderr) {
				t.Errorf("stderr %q lacks %q", out.Stderr, tc.wantStderr)
			}
			for _, prelude := range []string{`File "<string>"`, "_sandbox_main", "<sandbox>"} {
				if strings.Contains(out.Stderr+errOf(out), prelude) {
					t.Errorf("the prelude's frames are shown: %q", out.Stderr)
				}
			}
			if alive := run(t, conn, "print(6*7)", nil); !alive.Success || alive.Output != "42\n" {
				t.Errorf("server after the attempt: %+v", alive)
			}
			noChildLeft(t)
		})
	}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
