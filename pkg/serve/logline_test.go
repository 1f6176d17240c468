package serve_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestOneInfoLinePerCall: each call logs one info line with tool, user, code
// and duration_ms, no key twice, and never the arguments.
func TestOneInfoLinePerCall(t *testing.T) {
	c := servetest.New(t, testApp(), "--log-level", "info")
	c.Call(t, "echo", map[string]any{"msg": "argument-value-7731"})
	var calls []string
	for _, line := range strings.Split(strings.TrimSpace(c.Logs()), "\n") {
		if strings.Contains(line, `"message":"tool call"`) {
			calls = append(calls, line)
		}
	}
	if len(calls) != 1 {
		t.Fatalf("want one call line, got %d:\n%s", len(calls), c.Logs())
	}
	line := calls[0]
	for _, want := range []string{`"level":"info"`, `"tool":"echo"`, `"user":"local"`, `"code":"ok"`, `"duration_ms":`} {
		if !strings.Contains(line, want) {
			t.Errorf("no %s in %s", want, line)
		}
	}
	if strings.Contains(c.Logs(), "argument-value-7731") {
		t.Error("arguments were logged")
	}
	dec := json.NewDecoder(strings.NewReader(line))
	seen := map[string]bool{}
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	for dec.More() {
		k, _ := dec.Token()
		var v json.RawMessage
		_ = dec.Decode(&v)
		if seen[k.(string)] {
			t.Errorf("key %q twice in %s", k, line)
		}
		seen[k.(string)] = true
	}
}

// TestOneToolKeyPerLine: the warn and error lines a failing call writes (an
// envelope error, a plain error, a panic) name the tool once: the call's
// logger carries it already.
func TestOneToolKeyPerLine(t *testing.T) {
	c := servetest.New(t, testApp(), "--log-level", "debug")
	for _, fail := range []string{"invalid", "rate", "plain", "panic"} {
		c.Call(t, "echo", map[string]any{"msg": "m", "fail": fail})
	}
	lines := 0
	for _, line := range strings.Split(strings.TrimSpace(c.Logs()), "\n") {
		if !strings.Contains(line, `"tool":"echo"`) {
			continue
		}
		lines++
		if n := strings.Count(line, `"tool":`); n != 1 {
			t.Errorf("%d tool keys in %s", n, line)
		}
	}
	if lines < 8 { // a call line and a failure line per call
		t.Fatalf("only %d lines name the tool:\n%s", lines, c.Logs())
	}
}
