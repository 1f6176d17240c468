package pytool_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/pytool"
)

// redTeamCase is one attempt of the red-team run against the sandbox: the
// effect it aimed at must be denied (host.check: nothing printed that
// proves it, no connection, no file), the server must answer afterwards and
// no process of the run may be left.
type redTeamCase struct {
	name       string
	kernelOnly bool // the Python layer switched off: the kernel layers alone
	code       string
	// wantErr: success:false with one of these ("|"-separated) in error;
	// wantOut: success:true with exactly this output. One of them is set.
	wantErr, wantOut string
}

func redTeamCases(h *host) []redTeamCase {
	self, _ := os.Executable()
	wd, _ := os.Getwd()
	hostPaths := []string{"/etc/shadow", "/etc/passwd", "/etc/hostname", self, filepath.Dir(self), wd, h.secret, "/tmp", "/home", "/root", "/var/run", "/usr/bin/bwrap", "/usr/bin/id", "/bin/sh", fmt.Sprintf("/proc/%d", os.Getpid()),
		// libraries of the host the interpreter does not link
		"/usr/lib/x86_64-linux-gnu/libsystemd.so.0", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", "/usr/lib/x86_64-linux-gnu/libcurl.so.4", "/usr/lib/x86_64-linux-gnu/gconv", "/usr/lib/x86_64-linux-gnu/perl-base"}
	statAll := "import os\nfor p in " + pyList(hostPaths) + ":\n    try:\n        os.stat(p)\n        print('ESC' + 'APED', p)\n    except FileNotFoundError:\n        pass\n    try:\n        os.readlink(p)\n        print('ESC' + 'APED', p)\n    except (FileNotFoundError, OSError):\n        pass\nprint('none')"
	return []redTeamCase{
		// The Python layer's three bypasses.
		{name: "traceback property runs in the prelude's frame-walk window", code: `class E(Exception):
    @property
    def __traceback__(self):
        tb = BaseException.__dict__["__traceback__"].__get__(self)
        f = tb.tb_frame
        while f is not None:
            if "hook" in f.f_locals or "walking" in f.f_locals:
                print("ESC" + "APED", sorted(f.f_locals))
            f = f.f_back
        return tb
raise E("x")`, wantErr: "E: x"},
		{name: "codecs.register object's __del__ runs unhooked at exit", code: getImporter + `gcmod = bi.load_module("gc")
posix = bi.load_module("posix")
class D:
    def __call__(self, name):
        return None
    def __del__(self):
        try:
            gcmod.get_objects()
            posix.write(1, b"ESC" + b"APED unhooked __del__\n")
        except Exception:
            pass
bi.load_module("_codecs").register(D())
print("registered")`, wantOut: "registered\n"},
		{name: "atexit handler runs after the code's verdict", code: getImporter + "bi.load_module('atexit').register(lambda: print('ESC' + 'APED at exit'))\nprint('registered')", wantOut: "registered\n"},
		{name: "__import__ closure cells rewritten", code: `for c in __import__.__closure__:
    v = c.cell_contents
    if isinstance(v, frozenset) and "json" in v:
        c.cell_contents = v | {"os"}
import os
print("ESC" + "APED", os.getpid())`, wantErr: "TypeError"},
		{name: "__import__ globals lead to sys", code: `for k, v in list(__import__.__globals__.items()):
    if type(v).__name__ == "module" and v.__name__ in ("sys", "os", "posix"):
        print("ESC" + "APED", k)
print("none")`, wantOut: "none\n"},
		{name: "random._os", code: "import random\nprint('ESC' + 'APED', random._os.getpid())", wantErr: "AttributeError"},
		{name: "statistics.sys", code: "import statistics\nprint('ESC' + 'APED', statistics.sys.modules)", wantErr: "AttributeError"},
		{name: "collections.abc.sys", code: "import collections.abc\nprint('ESC' + 'APED', collections.abc.sys.modules)", wantErr: "AttributeError"},
		{name: "datetime.sys", code: "import datetime\nprint('ESC' + 'APED', datetime.sys.modules)", wantErr: "AttributeError"},
		// Extension modules outside the whitelist are not in the root at
		// all: _imp.create_dynamic with a whitelisted-looking name and the
		// file's path finds no file, by any name.
		{name: "_imp.create_dynamic of _testcapi under a json name", code: getImporter + `imp = bi.load_module("_imp")
class S:
    name = "json._testcapi"
    origin = "/usr/lib/python3.11/lib-dynload/_testcapi.cpython-311-x86_64-linux-gnu.so"
m = imp.create_dynamic(S())
m.run_in_subinterp("import os; os.write(1, b'ESC' + b'APED')")`, wantErr: "Error"},
		{name: "_imp.create_dynamic of _ctypes", code: getImporter + `imp = bi.load_module("_imp")
class S:
    name = "json._ctypes"
    origin = "/usr/lib/python3.11/lib-dynload/_ctypes.cpython-311-x86_64-linux-gnu.so"
print("ESC" + "APED", imp.create_dynamic(S()))`, wantErr: "Error"},
		// Functions of the sys stand-ins and of random lead to no real module.
		{name: "statistics.sys.getsizeof.__self__", code: "import statistics\ns = statistics.sys.getsizeof.__self__\nprint('ESC' + 'APED', s.modules)", wantErr: "AttributeError"},
		{name: "collections._sys.getsizeof.__self__", code: "import collections\ns = collections._sys.getsizeof.__self__\nprint('ESC' + 'APED', s.modules)", wantErr: "AttributeError"},
		{name: "re.enum.sys.getsizeof.__self__", code: "import re\ns = re.enum.sys.getsizeof.__self__\nprint('ESC' + 'APED', s.modules)", wantErr: "AttributeError"},
		{name: "random._urandom.__self__", code: "import random\np = random._urandom.__self__\nprint('ESC' + 'APED', p.listdir('/'))", wantErr: "AttributeError"},
		{name: "every reachable function's __self__", code: `import collections, datetime, functools, itertools, json, math, random, re, statistics, string
seen = set()
def walk(o, depth):
    if id(o) in seen or depth > 3:
        return
    seen.add(id(o))
    s = getattr(o, "__self__", None)
    if type(s).__name__ == "module" and s.__name__ in ("sys", "posix", "os", "_imp", "gc", "_io", "_signal"):
        print("ESC" + "APED", s.__name__)
    for k in dir(o):
        try:
            walk(getattr(o, k), depth + 1)
        except Exception:
            pass
for m in (collections, datetime, functools, itertools, json, math, random, re, statistics, string):
    walk(m, 0)
print("none")`, wantOut: "none\n"},
		// A C builtin's __self__ is the builtins module (CPython sets it so);
		// what that module holds beyond the code's own builtins is guarded
		// (its __import__ is the sandbox's) or denied by the audit hook.
		{name: "builtins module through len.__self__: import", code: "b = len.__self__\nprint('ESC' + 'APED', b.__import__('os'))", wantErr: "ImportError"},
		{name: "builtins module through len.__self__: open", code: "b = len.__self__\nprint('ESC' + 'APED', b.open('/etc/hostname').read())", wantErr: "blocked by the sandbox|Error"},
		{name: "builtins module through len.__self__: breakpoint", code: "b = len.__self__\nb.breakpoint()\nprint('ESC' + 'APED')", wantErr: "Error"},
		// The guard's tables cannot be rewritten.
		{name: "__import__ globals table rewritten", code: `g = __import__.__globals__
for k in list(g):
    v = g[k]
    if isinstance(v, dict):
        v["os"] = v.get("json")
import os
print("ESC" + "APED", os)`, wantErr: "Error"},
		{name: "frozenset rebound before an import", code: `import builtins as b
b.frozenset = lambda *a: type("A", (), {"__contains__": lambda s, x: True})()
import os
print("ESC" + "APED", os)`, wantErr: "Error"},
		{name: "mappingproxy's dict through a dict subclass __eq__", code: `class D(dict):
    def __eq__(self, other):
        if isinstance(other, dict):
            other["os"] = 1
        return False
for v in list(__import__.__globals__.values()):
    try:
        v == D()
        D() == v
    except Exception:
        pass
import os
print("ESC" + "APED", os)`, wantErr: "Error"},
		{name: "real __import__ through a module's builtins", code: "import json\nos = json.__builtins__['__import__']('os')\nprint('ESC' + 'APED', os.getpid())", wantErr: "ImportError"},

		// Verdicts the code tried to forge.
		{name: "report forged on the result pipe, then a raise", code: getOS + "os_.write(3, b'\\n{}\\n{\"type\": \"X\"}\\n')\nraise ValueError('real')", wantErr: "ValueError: real"},
		{name: "operator text forged on the result pipe", code: getOS + "os_.write(3, b'\\nunavailable seccomp\\n{\"error\": \"sandbox unavailable: seccomp\"}\\n{\"type\": \"sandbox unavailable\", \"message\": \"seccomp\"}\\n')\nos_._exit(1)", wantErr: "exit status 1 (no exception was reported)"},
		{name: "exit status of the code's own choosing", code: getOS + "os_._exit(7)", wantErr: "exit status 7"},
		// Exit status 0 is the code's own success, as in any Python; the
		// server names it so and nothing the code wrote changes that.
		{name: "a report of nothing and exit 0 is the code's own exit", code: getOS + "os_.write(3, b'\\n{}\\n')\nos_._exit(0)\nraise ValueError('never reached')", wantOut: ""},
		{name: "result pipe flood", code: getOS + "while True:\n    os_.write(3, b'A' * 65536)", wantErr: "output truncated"},
		{name: "interpreter crash", code: getOS + "sys_.setrecursionlimit(10**7)\nx = []\nfor i in range(10**5):\n    x = [x]\nprint(repr(x)[:10])", wantErr: "the Python process was killed by signal SIGSEGV|timeout"},

		// Nothing of the host is visible.
		{name: "pid namespace", kernelOnly: true, code: "import os\nprint(os.getpid() < 100, os.getppid())", wantOut: "True 2\n"},
		{name: "host name", kernelOnly: true, code: "import os, socket\nprint(os.uname().nodename, socket.gethostname())", wantOut: "sandbox sandbox\n"},
		{name: "host paths do not exist", kernelOnly: true, code: statAll, wantOut: "none\n"},
		{name: "the root holds only the interpreter's trees", kernelOnly: true, code: "import os\nfor p in ['/usr/bin', '/usr/lib', '/']:\n    try:\n        print(p, sorted(os.listdir(p)))\n    except PermissionError:\n        print(p, 'denied')", wantOut: "/usr/bin denied\n/usr/lib denied\n/ denied\n"},
		{name: "server pid not signalable", kernelOnly: true, code: fmt.Sprintf("import os\nos.kill(%d, 0)", os.Getpid()), wantErr: "PermissionError|ProcessLookupError"},

		// Smaller gaps.
		{name: "ELF loader runs another program", kernelOnly: true, code: "import os\nos.execv('/lib64/ld-linux-x86-64.so.2', ['ld.so', '/usr/bin/python3.11', '-c', 'print(\"ESC\" + \"APED\")'])", wantErr: "PermissionError"},
		{name: "re-exec of the interpreter", kernelOnly: true, code: "import os\nos.execv('/usr/bin/python3.11', ['python3', '-c', 'print(\"ESC\" + \"APED\")'])", wantErr: "PermissionError"},
		{name: "not dumpable", kernelOnly: true, code: "import ctypes\nprint(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))", wantOut: "0\n"},
		{name: "segfault dumps nothing", kernelOnly: true, code: "import ctypes\nctypes.string_at(0)", wantErr: "the Python process was killed by signal SIGSEGV|timeout"},
		{name: "os.set_blocking (FIONBIO)", kernelOnly: true, code: "import os\nr, w = os.pipe()\nos.set_blocking(r, False)\nprint(os.get_blocking(r))", wantOut: "False\n"},
		{name: "raw execve through ctypes", kernelOnly: true, code: "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nr = libc.execve(b'/usr/bin/python3.11', None, None)\nraise OSError('execve returned %d errno %d' % (r, ctypes.get_errno()))", wantErr: "execve returned -1 errno 1"},
	}
}

func pyList(s []string) string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// TestRedTeam replays the red team's attempts, table-driven: every effect
// denied, the server alive after each, no process left.
func TestRedTeam(t *testing.T) {
	h := newHost(t)
	c := connect(t, testConfig())
	kc := testConfig()
	kc.Sandbox.KernelOnly = true
	k := connect(t, kc)
	for _, tc := range redTeamCases(h) {
		t.Run(tc.name, func(t *testing.T) {
			conn := c
			if tc.kernelOnly {
				conn = k
			}
			out := run(t, conn, tc.code, nil)
			h.check(t, tc.name, out)
			switch {
			case tc.wantErr != "":
				if out.Success || !containsAny(errOf(out), strings.Split(tc.wantErr, "|")) {
					t.Errorf("want success:false with %q, got success=%v error=%q output=%.300q stderr=%.300q", tc.wantErr, out.Success, errOf(out), out.Output, out.Stderr)
				}
			default:
				if !out.Success || out.Output != tc.wantOut || out.Error != nil {
					t.Errorf("want success with output %q, got success=%v error=%q output=%.300q stderr=%.300q", tc.wantOut, out.Success, errOf(out), out.Output, out.Stderr)
				}
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

// TestVerdicts: every way a run can fail is a clean success:false whose
// error names what happened, and the prelude's frames never show.
func TestVerdicts(t *testing.T) {
	c := connect(t, testConfig())
	deep := strings.Repeat(`{"a":`, 1500) + "1" + strings.Repeat("}", 1500)
	var deepInput map[string]any
	if err := jsonUnmarshalDeep(`{"x":`+deep+`}`, &deepInput); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, code string
		input      map[string]any
		want       string
	}{
		{"NUL byte", "print(1)\x00", nil, "SyntaxError: the code cannot be compiled: source code string cannot contain null bytes"},
		{"compile-time recursion", "x = " + strings.TrimSuffix(strings.Repeat("1+", 30000), "+"), nil, "SyntaxError: the code is nested too deeply to compile"},
		{"parser out of memory", "x = " + strings.Repeat("-", 60000) + "1", nil, "SyntaxError: the parser ran out of room"},
		{"__str__ raises", "class E(Exception):\n    def __str__(self):\n        raise RuntimeError('no')\nraise E(1, 2)", nil, "E: (the exception's message could not be read: its __str__ failed) args=(1, 2)"},
		{"__str__ returns a non-str", "class E(Exception):\n    def __str__(self):\n        return 5\nraise E()", nil, "E: (the exception's message could not be read"},
		{"metaclass __name__ property", "class M(type):\n    @property\n    def __name__(cls):\n        print('ESC' + 'APED')\n        return 'X'\nclass E(Exception, metaclass=M):\n    pass\nraise E('m')", nil, "E: m"},
		{"input_data nested 1500 deep", "print(x)", deepInput, "input_data is nested 1501 levels deep; the limit is 100"},
		{"SystemExit", "raise SystemExit(0)", nil, "SystemExit: 0"},
		{"KeyboardInterrupt", "raise KeyboardInterrupt", nil, "KeyboardInterrupt"},
		{"MemoryError", "x = bytearray(2 * 1024**3)", nil, "MemoryError: memory limit (512 MiB) reached"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := run(t, c, tc.code, tc.input)
			if out.Success || !strings.HasPrefix(errOf(out), tc.want) {
				t.Fatalf("want success:false, error %q..., got success=%v error=%q stderr=%.400q", tc.want, out.Success, errOf(out), out.Stderr)
			}
			for _, bad := range []string{`File "<string>"`, "_sandbox_main", "ESCAPED", "ended unexpectedly"} {
				if strings.Contains(out.Stderr+errOf(out)+out.Output, bad) {
					t.Fatalf("shows %q: error=%q stderr=%q", bad, errOf(out), out.Stderr)
				}
			}
		})
	}
}

// TestResultPipeFlood: a flood of the result pipe is stopped like one of
// stdout, and costs the server little CPU (it was the whole 30 s, 16-24
// CPU-seconds, while the server copied every byte).
func TestResultPipeFlood(t *testing.T) {
	cfg := testConfig()
	cfg.Sandbox.Timeout = 30 * time.Second
	c := connect(t, cfg)
	before := serverCPU(t)
	out := run(t, c, getOS+"while True:\n    os_.write(3, b'A' * 65536)", nil)
	used := serverCPU(t) - before
	if out.Success || !strings.HasPrefix(errOf(out), "output truncated") {
		t.Fatalf("flood: %+v", out)
	}
	if used >= 3*time.Second {
		t.Fatalf("the server used %s of CPU for one flood run", used)
	}
	t.Logf("server CPU for the flood run: %s", used)
}

func serverCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestOneRunPerUser: a user with a run in progress is refused a second one
// (rate_limited, with when to retry); another user is not.
func TestOneRunPerUser(t *testing.T) {
	cfg := testConfig()
	cfg.Sandbox.Concurrency = 3
	c := connect(t, cfg)
	started := make(chan struct{})
	done := make(chan pytool.Out, 1)
	go func() {
		ctx := serve.WithUser(context.Background(), "alice")
		close(started)
		for { // alice's probe below may be the run in progress at first
			res, err := c.CallCtx(ctx, pytool.Name, map[string]any{"code": "while True: pass"})
			if err != nil {
				done <- failedOut(err.Error())
				return
			}
			if !res.IsError {
				done <- servetest.Decode[pytool.Out](t, res)
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	<-started
	var body *envelope.Body
	for i := 0; i < 200 && body == nil; i++ { // until alice's loop is running
		res, err := c.CallCtx(serve.WithUser(context.Background(), "alice"), pytool.Name, map[string]any{"code": "print(1)"})
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			b := servetest.ErrorBody(t, res)
			body = &b
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if body == nil || body.Code != envelope.RateLimited || !strings.Contains(body.Message, "still in progress") || body.RetryAfterS == nil {
		t.Fatalf("alice's second run: %+v", body)
	}
	res, err := c.CallCtx(serve.WithUser(context.Background(), "bob"), pytool.Name, map[string]any{"code": "print(2)"})
	if err != nil || res.IsError {
		t.Fatalf("bob: %v %s", err, servetest.Text(res))
	}
	if out := <-done; out.Success || !strings.HasPrefix(errOf(out), "timeout") {
		t.Fatalf("alice's loop: %+v", out)
	}
	// Once it has ended, alice runs again.
	res, err = c.CallCtx(serve.WithUser(context.Background(), "alice"), pytool.Name, map[string]any{"code": "print(3)"})
	if err != nil || res.IsError {
		t.Fatalf("alice after her run: %v %s", err, servetest.Text(res))
	}
}

// TestScrubberConfirmsNothing: a guessed server path printed by the code
// comes back as printed (the scrubber used to answer "<server>" for the
// server's real directories, confirming the guess).
func TestScrubberConfirmsNothing(t *testing.T) {
	c := connect(t, testConfig())
	self, _ := os.Executable()
	wd, _ := os.Getwd()
	for _, p := range []string{filepath.Dir(self), wd} {
		out := run(t, c, fmt.Sprintf("print(%q)", p), nil)
		if !out.Success || out.Output != p+"\n" {
			t.Errorf("printed %q, got %q", p, out.Output)
		}
	}
}
