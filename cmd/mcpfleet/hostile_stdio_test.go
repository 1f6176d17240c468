package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// stdioVictim is a server binary driven line by line over stdio.
type stdioVictim struct {
	pid    int
	in     io.WriteCloser
	out    chan map[string]any
	seen   map[any]map[string]any // answers read while awaiting another
	stderr *servetest.Buffer
}

func startStdioVictim(t *testing.T, bin string, env ...string) *stdioVictim {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "MCPFLEET_LOG_LEVEL=warn",
		"ZIWEI_RULES_FILE=" + filepath.Join(t.TempDir(), "rules.json")}, env...)
	v := &stdioVictim{out: make(chan map[string]any, 64), seen: map[any]map[string]any{}, stderr: &servetest.Buffer{}}
	cmd.Stderr = v.stderr
	var err error
	if v.in, err = cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	v.pid = cmd.Process.Pid
	t.Cleanup(func() { _ = v.in.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				m = map[string]any{"notjson": sc.Text()}
			}
			v.out <- m
		}
		close(v.out)
	}()
	v.send(t, `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}`+"\n")
	v.await(t, "init", 30*time.Second)
	v.send(t, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	return v
}

func (v *stdioVictim) send(t *testing.T, s string) {
	t.Helper()
	for len(s) > 0 { // in 64 KiB writes, as a client streaming a long line would
		n := min(len(s), 64<<10)
		if _, err := io.WriteString(v.in, s[:n]); err != nil {
			t.Fatalf("write to the server: %v", err)
		}
		s = s[n:]
	}
}

// await returns the answer with id, skipping others; it fails after wait.
func (v *stdioVictim) await(t *testing.T, id any, wait time.Duration) map[string]any {
	t.Helper()
	if m, ok := v.seen[id]; ok {
		delete(v.seen, id)
		return m
	}
	timeout := time.After(wait)
	for {
		select {
		case m, ok := <-v.out:
			if !ok {
				t.Fatalf("the server closed stdout; stderr:\n%.2000s", v.stderr.String())
			}
			if _, bad := m["notjson"]; bad {
				t.Fatalf("stdout line is not JSON: %.200v", m["notjson"])
			}
			if m["id"] == id {
				return m
			}
			if _, isMap := m["id"].(map[string]any); !isMap && m["id"] != nil {
				v.seen[m["id"]] = m
			}
		case <-timeout:
			t.Fatalf("no answer to %v within %v", id, wait)
		}
	}
}

// TestHostileStdio: long lines (one once cost 19.8 s of CPU at
// 16 MB) and odd lines; the server answers each with a JSON-RPC error and
// keeps serving.
func TestHostileStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile suite: e2e")
	}
	v := startStdioVictim(t, filepath.Join(buildFleet(t), "ziwei"))
	longCall := func(id string, n int) string {
		return `{"jsonrpc":"2.0","id":"` + id + `","method":"tools/call","params":{"name":"initialize_chart","arguments":{"birthDate":"` + strings.Repeat("9", n) + `"}}}` + "\n"
	}
	cases := []struct {
		name, line string
		id         any
		want       string // in the error message ("" = any answer)
		cpuBound   time.Duration
		rssBudget  float64
	}{
		{"1 MB line", longCall("L1", 1<<20), "L1", "", 2 * time.Second, 60},
		{"8 MB line", longCall("L8", 8<<20), "L8", "longer than 4194304 bytes", 2 * time.Second, 40},
		{"16 MB line", longCall("L16", 16<<20), "L16", "longer than 4194304 bytes", 2 * time.Second, 40},
		{"batch", `[{"jsonrpc":"2.0","id":"b","method":"tools/list"}]` + "\n", nil, "batches are not supported", time.Second, 20},
		{"object id", `{"jsonrpc":"2.0","id":{"o":1},"method":"tools/list"}` + "\n", nil, "id must be a string or a number", time.Second, 20},
		{"deep JSON", `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"initialize_chart","arguments":{"x":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "}}}\n", nil, "", 2 * time.Second, 40},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":\"utf\",\"method\":\"tools/call\",\"params\":{\"name\":\"initialize_chart\",\"arguments\":{\"birthDate\":\"\xff\xc3\x28\"}}}\n", "utf", "", time.Second, 20},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base, cpu0 := rssMB(t, v.pid), cpuTime(t, v.pid)
			w := watchRSS(t, v.pid)
			v.send(t, tc.line)
			next := fmt.Sprintf("after-%d", i)
			v.send(t, `{"jsonrpc":"2.0","id":"`+next+`","method":"tools/list"}`+"\n")
			var got map[string]any
			if tc.id != nil {
				got = v.await(t, tc.id, 60*time.Second)
			}
			after := v.await(t, next, 60*time.Second)
			peak := w.end()
			cpu := cpuTime(t, v.pid) - cpu0
			if after["result"] == nil {
				t.Errorf("the call after was not served: %v", after)
			}
			if tc.want != "" && tc.id != nil {
				e, _ := got["error"].(map[string]any)
				if msg, _ := e["message"].(string); !strings.Contains(msg, tc.want) {
					t.Errorf("answer %.300v, want an error with %q", got, tc.want)
				}
			}
			t.Logf("server CPU %v (bound %v), RSS MB baseline %.1f peak %.1f (bound %.0f)", cpu, tc.cpuBound, base, peak, base+tc.rssBudget)
			if cpu > tc.cpuBound {
				t.Errorf("server CPU %v for one line, over %v", cpu, tc.cpuBound)
			}
			if peak > base+tc.rssBudget {
				t.Errorf("RSS peaked at %.1f MB, over %.1f + %.0f", peak, base, tc.rssBudget)
			}
		})
	}
	// Errors without an id (batch, object id) came back as id null, never the object.
	if strings.Contains(v.stderr.String(), "panic") {
		t.Errorf("panic in stderr:\n%.2000s", v.stderr.String())
	}
}

// TestHostileToolFuzz calls every tool of every server with arguments
// generated from its input schema (valid, wrong types, extremes, injection
// strings, unknown fields, deep nesting), with canary secrets in the
// environment: every call ends in a result (errors coded), no canary appears
// in any result or log line, and the server still answers after.
func TestHostileToolFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("hostile suite: e2e")
	}
	bins := buildFleet(t)
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			env := serverEnv(t, bins, s.Name)
			var stderr servetest.Buffer
			tr := transport.NewStdioWithOptions(filepath.Join(bins, s.Name), env, nil, transport.WithCommandStderrWriter(&stderr))
			c := client.NewClient(tr)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := servetest.Initialize(ctx, c, ""); err != nil {
				t.Fatal(err)
			}
			list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			var results []string
			calls, coded, invalid := 0, 0, 0
			for _, tool := range list.Tools {
				for vi, args := range fuzzArgs(tool.InputSchema) {
					var req mcp.CallToolRequest
					req.Params.Name = tool.Name
					req.Params.Arguments = args
					cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
					res, err := c.CallTool(cctx, req)
					ccancel()
					calls++
					if err != nil {
						t.Errorf("%s variant %d: protocol error %v", tool.Name, vi, err)
						results = append(results, err.Error())
						continue
					}
					b, _ := json.Marshal(res)
					results = append(results, string(b))
					if res.IsError {
						// mcp-go's input validation answers before the handler,
						// in text; every handler error carries an envelope code.
						body, _ := res.StructuredContent.(map[string]any)
						if code, _ := body["code"].(string); code != "" {
							coded++
						} else if text := resultText(res); strings.HasPrefix(text, "input schema validation failed") {
							invalid++
						} else {
							t.Errorf("%s variant %d: error without a code: %.300s", tool.Name, vi, b)
						}
					}
				}
			}
			if _, err := c.ListTools(ctx, mcp.ListToolsRequest{}); err != nil {
				t.Fatalf("server gone after the fuzz: %v", err)
			}
			_ = c.Close()
			time.Sleep(100 * time.Millisecond)
			logs := stderr.String()
			for _, canary := range canaries {
				for i, r := range results {
					if strings.Contains(r, canary) {
						t.Errorf("canary %q in result #%d: %.300s", canary, i, r)
					}
				}
				if strings.Contains(logs, canary) {
					t.Errorf("canary %q in the logs", canary)
				}
			}
			if strings.Contains(logs, "panic") {
				t.Errorf("panic in the logs:\n%.2000s", logs)
			}
			t.Logf("%s: %d tools, %d fuzzed calls, %d coded errors, %d refused by schema validation, no canary, no panic", s.Name, len(list.Tools), calls, coded, invalid)
		})
	}
}

// fuzzArgs derives argument sets from a tool's input schema.
func fuzzArgs(schema mcp.ToolInputSchema) []map[string]any {
	props := schema.Properties
	valid := map[string]any{}
	required := map[string]any{}
	for name, p := range props {
		valid[name] = validValue(p, 0)
	}
	for _, name := range schema.Required {
		required[name] = valid[name]
	}
	with := func(f func(name string, p map[string]any) any) map[string]any {
		out := map[string]any{}
		for k, v := range valid {
			out[k] = v
		}
		for name, p := range props {
			pm, _ := p.(map[string]any)
			out[name] = f(name, pm)
		}
		return out
	}
	deep := any("x")
	for i := 0; i < 60; i++ {
		deep = []any{deep}
	}
	hostile := []string{"../../../../etc/passwd", "..", ".", "%2e%2e%2f", "\x00\x01\x7f", "'; DROP TABLE x; --", "{{7*7}}${7*7}",
		"\u202e\ufeff\u200b", strings.Repeat("界", 3000), "\xff\xfe", "http://169.254.169.254/latest/meta-data/", "$(id)`id`"}
	sets := []map[string]any{{}, required, valid,
		with(func(_ string, p map[string]any) any { return wrongType(p) }),
		with(func(_ string, p map[string]any) any { return extreme(p, true) }),
		with(func(_ string, p map[string]any) any { return extreme(p, false) }),
		with(func(_ string, _ map[string]any) any { return deep }),
	}
	for i, h := range hostile {
		sets = append(sets, with(func(name string, p map[string]any) any {
			if t, _ := p["type"].(string); t == "string" || t == "" {
				return h
			}
			return valid[name]
		}))
		if i >= 5 && len(props) == 0 {
			break
		}
	}
	extra := map[string]any{"__proto__": map[string]any{"admin": true}, "unknown_field": 1}
	for k, v := range valid {
		extra[k] = v
	}
	return append(sets, extra)
}

func validValue(p any, depth int) any {
	pm, _ := p.(map[string]any)
	if e, ok := pm["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	if d, ok := pm["default"]; ok {
		return d
	}
	switch pm["type"] {
	case "integer", "number":
		if m, ok := pm["minimum"].(float64); ok {
			return m
		}
		return 1
	case "boolean":
		return true
	case "array":
		if depth > 3 {
			return []any{}
		}
		return []any{validValue(pm["items"], depth+1)}
	case "object":
		return map[string]any{}
	}
	if pm["format"] == "date" {
		return "2024-01-02"
	}
	return "x"
}

func wrongType(p map[string]any) any {
	switch p["type"] {
	case "string":
		return 12345
	case "integer", "number":
		return "12"
	case "boolean":
		return "true"
	case "array":
		return map[string]any{"0": 1}
	case "object":
		return []any{1}
	}
	return nil
}

func extreme(p map[string]any, high bool) any {
	switch p["type"] {
	case "integer", "number":
		if high {
			return 1e308
		}
		return -1e308
	case "array":
		xs := make([]any, 5000)
		for i := range xs {
			xs[i] = validValue(p["items"], 1)
		}
		return xs
	case "boolean":
		return high
	case "object":
		m := map[string]any{}
		for i := 0; i < 2000; i++ {
			m[fmt.Sprint("k", i)] = i
		}
		return m
	}
	if high {
		return strings.Repeat("A", 200<<10)
	}
	return ""
}

func resultText(res *mcp.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}
