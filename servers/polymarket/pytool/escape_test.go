package pytool_test

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/pytool"
)

// host is what the escape probes aim at: a loopback listener the test owns
// (counting every connection it accepts), a secret file, and a directory
// anyone may write to.
type host struct {
	port     int
	accepted atomic.Int64
	secret   string // file path
	openDir  string // mode 0777
}

const fileSecret = "FILE-SECRET-90be1c"

func newHost(t *testing.T) *host {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	h := &host{port: ln.Addr().(*net.TCPAddr).Port}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			h.accepted.Add(1)
			c.Close()
		}
	}()
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		_ = os.Chmod(d, 0o755)
	}
	h.secret = filepath.Join(dir, "secret.txt")
	if err := os.WriteFile(h.secret, []byte(fileSecret), 0o644); err != nil {
		t.Fatal(err)
	}
	h.openDir = filepath.Join(dir, "open")
	if err := os.Mkdir(h.openDir, 0o777); err != nil {
		t.Fatal(err)
	}
	_ = os.Chmod(h.openDir, 0o777)
	return h
}

// check is what every probe must satisfy, on top of its own expectation.
func (h *host) check(t *testing.T, name string, out pytool.Out) {
	t.Helper()
	all := out.Output + errOf(out) + out.Stderr
	servetest.NoSecrets(t, []string{all}, canary, fileSecret)
	for _, bad := range []string{"ESCAPED", "uid=0(", "root:x:0:0", "/tmp/go-build", "polymarket/sandbox"} {
		if strings.Contains(all, bad) {
			t.Errorf("%s: output shows %q:\n%s", name, bad, all)
		}
	}
	if n := h.accepted.Load(); n != 0 {
		t.Errorf("%s: the loopback listener accepted %d connections", name, n)
	}
	if ents, _ := os.ReadDir(h.openDir); len(ents) != 0 {
		t.Errorf("%s: a file was written in the open directory: %v", name, ents[0].Name())
	}
}

type probe struct {
	name string
	code string
	// wantErr: success must be false and error must contain this; "" means
	// the run may succeed but must print nothing harmful (host.check).
	wantErr string
}

// Python-level helpers the probes share (plain text, prepended to a probe).
const getImporter = `bi = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == "BuiltinImporter"][0]
`

// getOS reaches os and sys the way Python always allows: a class of the os
// module among object's subclasses, and its methods' globals. The Python
// layer cannot close that; its audit hook and the kernel layers stop what
// comes next.
const getOS = `osd = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == "_wrap_close"][0].__init__.__globals__
class _NS: pass
os_ = _NS()
os_.__dict__.update(osd)
sys_ = osd["sys"]
`

func escapeProbes(h *host) []probe {
	forkExec := getImporter + `ps = bi.load_module("_posixsubprocess")
posix = bi.load_module("posix")
r, w = posix.pipe()
pid = ps.fork_exec([b"/usr/bin/id"], [b"/usr/bin/id"], True, (), None, None, -1, -1, -1, -1, -1, -1, r, w, False, False, 0, None, None, None, -1, None, False)
print("ESC" + "APED fork_exec", pid)
`
	return []probe{
		{"import os", "import os\nprint('ESC' + 'APED', os.getcwd())", "ImportError"},
		{"import subprocess", "import subprocess", "ImportError"},
		{"import socket", "import socket", "ImportError"},
		{"import ctypes", "import ctypes", "ImportError"},
		{"import sys", "import sys", "ImportError"},
		{"import resource", "import resource\nresource.setrlimit(resource.RLIMIT_AS, (-1, -1))", "ImportError"},
		{"import posix", "import posix", "ImportError"},
		{"import gc", "import gc\nprint(len(gc.get_objects()))", "ImportError"},
		{"import _thread", "import _thread\n_thread.start_new_thread(print, ())", "ImportError"},
		{"from json import os-less relative", "from . import os", "ImportError"},
		{"__import__ from builtins dict", "__builtins__['__import__']('os')", "ImportError"},
		{"open builtin", "print(open('/etc/passwd').read())", "NameError"},
		{"eval builtin", "print(eval('1+1'))", "NameError"},
		{"exec builtin", "exec('print(1)')", "NameError"},
		{"compile builtin", "compile('1', 'x', 'eval')", "NameError"},
		{"input builtin", "input()", "NameError"},
		{"breakpoint builtin", "breakpoint()", "NameError"},
		{"module __builtins__ open", "import json\nprint(json.__builtins__['open']('/etc/passwd').read())", "blocked by the sandbox: open"},
		{"func __globals__ open", "import json\nprint(json.dumps.__globals__['__builtins__']['open']('/etc/passwd').read())", "blocked by the sandbox: open"},
		{"module eval", "import json\nprint(json.__builtins__['eval']('__import__(\"os\").system(\"id\")'))", "Error"},
		// The whitelist's back doors: private module attributes leading to
		// os and sys are stand-ins without them.
		{"random._os.system", "import random\nrandom._os.system('id')", "AttributeError"},
		{"random._os.environ", "import random\nprint(dict(random._os.environ))", "AttributeError"},
		{"datetime.sys.modules os", "import datetime\ndatetime.sys.modules['os'].system('id')", "AttributeError"},
		{"statistics.sys io.open", "import statistics\nprint(statistics.sys.modules['io'].open('/etc/hostname').read())", "AttributeError"},
		{"collections._sys", "import collections\nprint(collections._sys.modules['posix'].listdir('/'))", "AttributeError"},
		{"collections.abc.sys", "import collections.abc\nprint(collections.abc.sys.modules['posix'].listdir('/'))", "AttributeError"},
		{"json.codecs", "import json\njson.codecs.register(lambda n: None)", "AttributeError"},
		{"module __loader__", "import json\nprint(json.__loader__.get_data.__globals__['_os'])", "AttributeError"},
		{"real __import__ via a module's builtins", "import json\nos = json.__builtins__['__import__']('os')\nprint('ESC' + 'APED', os.getpid())", "ImportError"},
		{"os.environ via the subclasses route", getOS + "print(dict(os_.environ))", ""},
		// No audit event guards fork_exec: seccomp refuses the clone.
		{"subclasses fork_exec", forkExec, "PermissionError"},
		{"BuiltinImporter posix open", getImporter + "p = bi.load_module('posix')\nfd = p.open('/etc/passwd', 0)\nprint(p.read(fd, 100))", "blocked by the sandbox: open"},
		{"posix open secret", getImporter + fmt.Sprintf("p = bi.load_module('posix')\nprint(p.read(p.open(%q, 0), 100))", h.secret), "blocked by the sandbox: open"},
		{"write in open dir", fmt.Sprintf(getOS+"fd = os_.open(%q, os_.O_CREAT | os_.O_WRONLY)\nos_.write(fd, b'x')", h.openDir+"/pwned"), "blocked by the sandbox: open"},
		{"write /dev/shm", getOS + "os_.open('/dev/shm/pwned', 0o101)", "blocked by the sandbox: open"},
		{"socket connect loopback", getImporter + fmt.Sprintf("s = bi.load_module('_socket').socket()\ns.connect(('127.0.0.1', %d))\nprint('ESC' + 'APED connect')", h.port), "blocked by the sandbox"},
		{"socket bind", getImporter + "s = bi.load_module('_socket').socket()\ns.bind(('127.0.0.1', 0))\nprint('ESC' + 'APED bind')", "blocked by the sandbox"},
		{"ExtensionFileLoader _ctypes", "import json\nfl = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'ExtensionFileLoader'][0]\nimport random\nfl('_ctypes', '/usr/lib/python3.11/lib-dynload/_ctypes.cpython-311-x86_64-linux-gnu.so').create_module(None)", "Error"},
		{"traceback frame walk", "try:\n    1/0\nexcept Exception as e:\n    print(e.__traceback__.tb_frame.f_back.f_globals)", "blocked by the sandbox: object.__getattr__"},
		{"generator frame walk", "def g():\n    yield 1\nx = g()\nprint(x.gi_frame.f_back)", "blocked by the sandbox: object.__getattr__"},
		{"sys._getframe walk", getOS + "f = sys_._getframe(0)\nprint(f.f_back.f_locals)", "blocked by the sandbox: sys._getframe"},
		{"gc referrers", getImporter + "gc = bi.load_module('gc')\nprint(len(gc.get_objects()))", "blocked by the sandbox: gc.get_objects"},
		{"code replace", "f = lambda: 0\nprint(f.__code__.replace(co_consts=(1,)))", "blocked by the sandbox"},
		{"assign __code__", "def f(): return 1\ndef g(): return 2\nf.__code__ = g.__code__", "blocked by the sandbox"},
		{"settrace", getOS + "sys_.settrace(lambda *a: None)", "blocked by the sandbox: sys.settrace"},
		{"setprofile", getOS + "sys_.setprofile(lambda *a: None)", "blocked by the sandbox: sys.setprofile"},
		{"remove audit hook then system", getOS + "try:\n    sys_.addaudithook(lambda *a: None)\nexcept Exception:\n    pass\nos_.system('id')", "blocked by the sandbox"},
		{"kill parent", getOS + "os_.kill(os_.getppid(), 9)", "blocked by the sandbox: os.kill"},
		{"execv python", getOS + "os_.execv('/usr/bin/python3', ['python3', '-c', 'print(\"ESC\" + \"APED\")'])", "blocked by the sandbox: os.exec"},
		{"proc self mem", getOS + "print(sys_.modules['io'].open('/proc/self/mem', 'rb'))", "blocked by the sandbox: open"},
		{"proc 1 environ", getOS + "print(sys_.modules['io'].open('/proc/1/environ').read())", "blocked by the sandbox: open"},
		{"fork bomb", "for i in range(100):\n    try:\n" + indent(forkExec) + "    except OSError:\n        pass\nraise PermissionError('no fork')", "PermissionError: no fork"},
		{"thread bomb", getImporter + "th = bi.load_module('_thread')\nfor i in range(1000):\n    th.start_new_thread(lambda: None, ())", "can't start new thread"},
		{"memory bomb", "x = bytearray(2 * 1024**3)\nprint('ESC' + 'APED', len(x))", "MemoryError"},
		// Stopped either way: by the 512 MiB limit, or by the wall clock on a loaded machine.
		{"memory bomb list", "x = []\nwhile True:\n    x.append('x' * 10**6)", "MemoryError|timeout"},
		{"output flood", "while True:\n    print('A' * 10000)", "output truncated"},
		{"stderr flood", getOS + "while True:\n    sys_.stderr.write('E' * 10000)", "output truncated"},
		{"cpu loop", "while True:\n    pass", "timeout"},
		{"huge int to str", getOS + "sys_.set_int_max_str_digits(0)\nprint(len(str(10**2000000)))", "timeout"},
		{"redos", "import re\nprint(re.match(r'(a+)+$', 'a' * 40 + 'b'))", "timeout"},
		{"listdir /", getOS + "print(os_.listdir('/'))", "blocked by the sandbox: os.listdir"},
		{"getcwd shows no host path", getOS + "print(os_.getcwd())", ""},
		{"subclasses listing is harmless", "print(len(().__class__.__base__.__subclasses__()))", ""},
		{"deep recursion", "def f(n): return f(n + 1)\nf(0)", "RecursionError"},
		{"sys.exit", "raise SystemExit(3)", "SystemExit"},
		{"forged verdict on the result pipe", getOS + "os_.write(3, b'\\n{}\\n')\nraise ValueError('real')", "ValueError: real"},
		{"fake verdict on stdout", "print('{}')\nraise ValueError('still an error')", "ValueError: still an error"},
	}
}

func indent(code string) string {
	var b strings.Builder
	for _, l := range strings.Split(strings.TrimRight(code, "\n"), "\n") {
		b.WriteString("        " + l + "\n")
	}
	return b.String()
}

// TestEscapes runs every probe through MCP against the real tool.
func TestEscapes(t *testing.T) {
	h := newHost(t)
	c := connect(t, testConfig())
	before := heapInUse()
	probes := escapeProbes(h)
	if len(probes) < 40 {
		t.Fatalf("only %d probes", len(probes))
	}
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			out := run(t, c, p.code, nil)
			h.check(t, p.name, out)
			if p.wantErr != "" {
				if out.Success || !containsAny(errOf(out), strings.Split(p.wantErr, "|")) {
					t.Errorf("want success:false with %q, got success=%v error=%q output=%.200q stderr=%.300q", p.wantErr, out.Success, errOf(out), out.Output, out.Stderr)
				}
			}
			noChildLeft(t)
		})
	}
	// The server still answers, and its memory is back where it was.
	if out := run(t, c, "print(6*7)", nil); !out.Success || out.Output != "42\n" {
		t.Fatalf("server after the escape suite: %+v", out)
	}
	if after := heapInUse(); after > before+16<<20 {
		t.Errorf("heap in use grew from %d to %d bytes", before, after)
	}
}

// kernelProbes run with the Python-level layers switched off: plain os,
// socket, subprocess and ctypes are importable, and only the kernel stands
// in the way. Each must fail.
func kernelProbes(h *host) []probe {
	return []probe{
		{"read /etc/passwd", "print(open('/etc/passwd').read())", "FileNotFoundError"},             // not in the root at all
		{"read secret file", fmt.Sprintf("print(open(%q).read())", h.secret), "FileNotFoundError"}, // not in the root at all
		{"read /proc/1/environ", "print(open('/proc/1/environ').read())", "PermissionError"},
		{"read /proc/self/mem", "open('/proc/self/mem', 'rb')", "PermissionError"},
		{"write open dir", fmt.Sprintf("open(%q, 'w').write('x')", h.openDir+"/pwned"), "FileNotFoundError"}, // not in the root at all
		{"write /dev/shm", "open('/dev/shm/pwned', 'w')", "FileNotFoundError"},                               // not in the root at all
		{"connect loopback", fmt.Sprintf("import socket\ns = socket.socket()\ns.connect(('127.0.0.1', %d))\nprint('ESC' + 'APED')", h.port), "PermissionError"},
		{"bind", "import socket\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\nprint('ESC' + 'APED')", "PermissionError"},
		{"udp", "import socket\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)", "PermissionError"},
		{"unix socket", "import socket\ns = socket.socket(socket.AF_UNIX)", "PermissionError"},
		{"fork", "import os\npid = os.fork()\nprint('ESC' + 'APED', pid)", "PermissionError"},
		{"subprocess", "import subprocess\nprint(subprocess.run(['/usr/bin/id'], capture_output=True).stdout)", "PermissionError"},
		{"fork_exec", "import _posixsubprocess, os\nr, w = os.pipe()\n_posixsubprocess.fork_exec([b'/usr/bin/id'], [b'/usr/bin/id'], True, (), None, None, -1, -1, -1, -1, -1, -1, r, w, False, False, 0, None, None, None, -1, None, False)", "PermissionError"},
		{"thread", "import threading\nthreading.Thread(target=print).start()", "can't start new thread"},
		{"listdir /", "import os\nprint(os.listdir('/'))", "PermissionError"},
		{"listdir /tmp", "import os\nprint(os.listdir('/tmp'))", "FileNotFoundError"}, // not in the root at all
		{"kill parent", "import os\nos.kill(os.getppid(), 9)", "PermissionError"},
		{"kill pid 1", "import os\nos.kill(1, 0)", "PermissionError"},
		{"exec /bin/sh", "import os\nos.execv('/bin/sh', ['sh', '-c', 'echo ESC''APED'])", "PermissionError"},
		{"raise rlimit", "import resource\nresource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))", "Error"},
		{"ctypes raw fork", "import ctypes\nlibc = ctypes.CDLL(None)\nr = libc.syscall(57)\nprint('ESC' + 'APED' if r >= 0 else 'refused')\nraise OSError(ctypes.get_errno())", "OSError"},
		{"ptrace", "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nr = libc.ptrace(16, 1, 0, 0)\nprint('ESC' + 'APED' if r == 0 else 'refused')\nraise OSError('refused')", "refused"},
		{"unshare", "import ctypes\nr = ctypes.CDLL(None).unshare(0x00020000)\nraise OSError('unshare returned %d' % r)", "unshare returned -1"},
		{"mount", "import ctypes\nr = ctypes.CDLL(None).mount(b'none', b'/tmp', b'tmpfs', 0, None)\nraise OSError('mount returned %d' % r)", "mount returned -1"},
		{"memory", "x = bytearray(1024**3)", "MemoryError"},
		{"environment is empty", "import os\nprint(dict(os.environ))\nraise ValueError(len(os.environ))", "ValueError: 0"},
	}
}

// TestKernelLayersAlone switches the Python-level layers off (a test-only
// flag) and runs the probes that the kernel layers must stop on their own.
func TestKernelLayersAlone(t *testing.T) {
	h := newHost(t)
	cfg := testConfig()
	cfg.Sandbox.KernelOnly = true
	c := connect(t, cfg)
	// The flag really is off: a plain import os works.
	if out := run(t, c, "import os, socket, subprocess\nprint('imports ok')", nil); !out.Success {
		t.Fatalf("kernel-only mode still has the Python layers: %+v", out)
	}
	for _, p := range kernelProbes(h) {
		t.Run(p.name, func(t *testing.T) {
			out := run(t, c, p.code, nil)
			h.check(t, p.name, out)
			if out.Success || !strings.Contains(errOf(out), p.wantErr) {
				t.Errorf("want success:false with %q, got success=%v error=%q output=%.200q", p.wantErr, out.Success, errOf(out), out.Output)
			}
			noChildLeft(t)
		})
	}
}

func containsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
