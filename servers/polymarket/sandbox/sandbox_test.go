package sandbox

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

func newTest(t *testing.T, cfg Config) *Sandbox {
	t.Helper()
	return New(context.Background(), cfg, zerolog.Nop())
}

// TestProbeLayers: on this kernel every layer is active, and the probe says so.
func TestProbeLayers(t *testing.T) {
	p := newTest(t, Config{}).Probe()
	if p.Unavailable != "" {
		t.Fatalf("layer missing on this machine: %s", p.Unavailable)
	}
	for _, want := range []string{"namespaces=user,pid,net,mnt,ipc,uts", "root=minimal,read-only", "hostname=sandbox", "uid=65534", "no_new_privs=1", "landlock_abi=", "seccomp=allow-list", "exec=once,supervised", "dumpable=0", "rlimits=as,cpu,nproc,fsize,nofile,core"} {
		if !strings.Contains(p.Layers, want) {
			t.Errorf("probe %q lacks %q", p.Layers, want)
		}
	}
}

// TestProbeRunsUnasked: with no call at all, the probe still runs about
// probeDelay after start and logs its line; before that nothing has run
// (the handshake does not compete with a Python process).
func TestProbeRunsUnasked(t *testing.T) {
	var logs servetest.Buffer
	s := New(context.Background(), Config{}, zerolog.New(&logs))
	select {
	case <-s.probed:
		t.Fatal("the probe ran at start")
	default:
	}
	select {
	case <-s.probed:
	case <-time.After(probeDelay + 20*time.Second):
		t.Fatal("the probe never ran without a call")
	}
	if !strings.Contains(logs.String(), "python sandbox probe") {
		t.Fatalf("no probe line: %s", logs.String())
	}
}

// TestFailClosed: when any layer cannot be applied, nothing runs and the
// answer names the layer.
func TestFailClosed(t *testing.T) {
	for _, layer := range []string{LayerNamespaces, LayerNoNewPrivs, LayerLandlock, LayerRlimits, LayerSeccomp} {
		t.Run(layer, func(t *testing.T) {
			s := newTest(t, Config{breakLayer: layer})
			if s.Probe().Unavailable != layer {
				t.Fatalf("probe: %+v", s.Probe())
			}
			r, err := s.Run(context.Background(), Request{Code: "print('ran')"})
			if err != nil || r.Success || r.Error != "sandbox unavailable: "+layer || r.Output != "" {
				t.Fatalf("got %+v, %v", r, err)
			}
			// Even past the probe (the layer breaks later), the helper refuses.
			s.probe.Unavailable = ""
			r, err = s.Run(context.Background(), Request{Code: "print('ran')"})
			if err != nil || r.Success || r.Error != "sandbox unavailable: "+layer || strings.Contains(r.Output, "ran") {
				t.Fatalf("helper: got %+v, %v", r, err)
			}
		})
	}
	t.Run("python", func(t *testing.T) {
		s := newTest(t, Config{Python: "/nonexistent/python3"})
		r, err := s.Run(context.Background(), Request{Code: "print(1)"})
		if err != nil || r.Success || r.Error != "sandbox unavailable: python" {
			t.Fatalf("got %+v, %v", r, err)
		}
	})
}

// TestConcurrentRuns: runs in parallel slots do not disturb each other.
func TestConcurrentRuns(t *testing.T) {
	s := newTest(t, Config{Concurrency: 2, QueueWait: time.Minute})
	var wg sync.WaitGroup
	for g := 0; g < 3; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				in, _ := json.Marshal(map[string]int{"n": g*10 + i})
				r, err := s.Run(context.Background(), Request{Code: "print(n * 2)", InputData: in})
				if err != nil || !r.Success || strings.TrimSpace(r.Output) != itoa((g*10+i)*2) {
					t.Errorf("run %d/%d: %+v %v", g, i, r, err)
				}
			}
		}(g)
	}
	wg.Wait()
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestValidate is the request layer, table-driven.
func TestValidate(t *testing.T) {
	cases := []struct {
		name, code, input, want string
	}{
		{"ok", "print(1)", `{"a": 1, "_b2": [1]}`, ""},
		{"no input", "print(1)", ``, ""},
		{"null input", "print(1)", `null`, ""},
		{"empty code", "", ``, "code is empty"},
		{"code too long", strings.Repeat("x", MaxCodeBytes+1), ``, "64 KiB"},
		{"array input", "x", `[1]`, "JSON object"},
		{"bad json", "x", `{"a":`, "not valid JSON"},
		{"digit first", "x", `{"1a": 1}`, "not a Python identifier"},
		{"unicode key", "x", `{"é": 1}`, "not a Python identifier"},
		{"keyword", "x", `{"lambda": 1}`, "keyword"},
		{"dunder", "x", `{"__builtins__": {}}`, "reserved"},
		{"empty key", "x", `{"": 1}`, "not usable"},
		{"too big", "x", `{"a": "` + strings.Repeat("a", MaxInputDataBytes) + `"}`, "1 MiB"},
		{"deep but allowed", "x", `{"a": ` + strings.Repeat("[", 99) + strings.Repeat("]", 99) + `}`, ""},
		{"too deep", "x", `{"a": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, "input_data is nested 101 levels deep; the limit is 100"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Validate(Request{Code: tc.code, InputData: json.RawMessage(tc.input)})
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// FuzzValidate: the request layer never panics, and what it accepts is a
// JSON object of ≤ 1 MiB whose keys are ASCII identifiers, not dunders.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"__x__":1}`, `{"a-b":2}`, `[1]`, `null`, `{"a":{"b":[1,2,{"c":null}]}}`, `{"\u00e9":1}`, `{"a":1,"a":2}`, `{"class":1}`} {
		f.Add("print(1)", s)
	}
	f.Fuzz(func(t *testing.T, code, input string) {
		out, err := Validate(Request{Code: code, InputData: json.RawMessage(input)})
		if err != nil {
			_, refused := err.(*RefusedError)
			if _, ok := err.(*InvalidError); !ok && !refused {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		if len(code) == 0 || len(code) > MaxCodeBytes || len(out) > MaxInputDataBytes {
			t.Fatalf("accepted code %d bytes, input %d bytes", len(code), len(out))
		}
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(out, &obj); err != nil {
			t.Fatalf("accepted input is not an object: %q", out)
		}
		for k := range obj {
			if checkIdentifier(k) != nil {
				t.Fatalf("accepted key %q", k)
			}
		}
	})
}
