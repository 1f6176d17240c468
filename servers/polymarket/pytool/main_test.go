package pytool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/pytool"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/sandbox"
)

// The test binary is also the sandbox helper, as the server binary is.
func TestMain(m *testing.M) {
	if sandbox.MaybeChild() {
		return
	}
	servetest.ServeIfChild(func() serve.App { return app(pytool.Config{}) }) // a server process (processes_test.go)
	os.Exit(m.Run())
}

// canary is put in the server's environment; no output may ever show it.
const canary = "CANARY-pytool-7f3a9c1e55d2"

func app(cfg pytool.Config) serve.App {
	return serve.App{Name: "polymarket-pytool-test", Version: "test",
		Register: func(ctx context.Context, r *serve.Registry) error { return pytool.Register(ctx, r, cfg) }}
}

// testConfig keeps runs short: CPU loops and floods end in 3 s.
func testConfig() pytool.Config {
	return pytool.Config{RunsPerHour: 100000, Sandbox: sandbox.Config{Timeout: 3 * time.Second, QueueWait: 20 * time.Second}}
}

func connect(t *testing.T, cfg pytool.Config) *servetest.Conn {
	t.Helper()
	t.Setenv("POLYMARKET_SANDBOX_CANARY", canary)
	c := servetest.New(t, app(cfg))
	t.Cleanup(func() { noChildLeft(t) })
	return c
}

func connectB(b *testing.B, cfg pytool.Config) *servetest.Conn {
	b.Helper()
	return servetest.New(b, app(cfg))
}

func run(t testing.TB, c *servetest.Conn, code string, input map[string]any) pytool.Out {
	t.Helper()
	args := map[string]any{"code": code}
	if input != nil {
		args["input_data"] = input
	}
	return servetest.Decode[pytool.Out](t, c.Call(t, pytool.Name, args))
}

// noChildLeft fails when a process started by this test process is still
// alive: a child (redis-server is the test's own), or any process of one of
// its sandboxes, wherever it was reparented (bwrap's PID 1 carries the
// sandbox's process tag; the interpreter cannot outlive it, being in its
// PID namespace).
func noChildLeft(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for {
		left := children()
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("child processes left behind: %v", left)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func children() []string {
	self := strconv.Itoa(os.Getpid())
	tag := []byte(`"tag":"` + sandbox.ProcessTag() + `"`)
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	var out []string
	for _, d := range dirs {
		if cmd, err := os.ReadFile(d + "/cmdline"); err == nil && bytes.Contains(cmd, tag) {
			out = append(out, filepath.Base(d)+":sandbox")
			continue
		}
		b, err := os.ReadFile(d + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:])
		if len(f) < 2 || f[1] != self {
			continue
		}
		comm := s[strings.IndexByte(s, '(')+1 : i]
		if comm == "redis-server" {
			continue
		}
		out = append(out, filepath.Base(d)+":"+comm+":"+f[0])
	}
	return out
}

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// errOf is the error of a run, "" when it is null (success).
func errOf(o pytool.Out) string {
	s, _ := o.Error.(string)
	return s
}

func failedOut(msg string) pytool.Out { return pytool.Out{Error: msg} }

// jsonUnmarshalDeep decodes JSON nested deeper than a test would write by hand.
func jsonUnmarshalDeep(s string, v any) error { return json.Unmarshal([]byte(s), v) }
