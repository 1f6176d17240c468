package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// runStdio feeds in to a stdio server (through wrap) and returns stdout's lines.
func runStdio(t *testing.T, in string, wrap func(io.Reader) io.Reader, env map[string]string) []map[string]any {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	var out, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- serve.Run(context.Background(), testApp(), nil, wrap(strings.NewReader(in)), &out, &stderr)
	}()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("stdio server did not exit")
	}
	var msgs []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("stdout line is not JSON: %q", line)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

func call(id string, msg string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"echo","arguments":{"msg":"` + msg + `"}}}` + "\n"
}

// TestStdioRefusesBadLines: over-long lines, batches and object/array/bool ids
// are answered with a clear JSON-RPC error, and the server keeps serving the
// lines after them, whatever the read sizes.
func TestStdioRefusesBadLines(t *testing.T) {
	const max = 2048
	long := strings.Repeat("x", 3*max)
	head := initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	cases := []struct {
		name   string
		line   string
		wantID any // id of the error answer (nil: null)
		want   string
	}{
		{"long line, id first", `{"jsonrpc":"2.0","id":"L1","method":"tools/call","params":{"name":"echo","arguments":{"msg":"` + long + `"}}}` + "\n", "L1", "longer than 2048 bytes"},
		{"long line, id last", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"echo","arguments":{"msg":"` + long + `"}},"id":9}` + "\n", nil, "longer than 2048 bytes"},
		{"long garbage", long + "\n", nil, "longer than 2048 bytes"},
		{"batch", "[" + strings.TrimSpace(call("5", "b")) + "]\n", nil, "batches are not supported"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}` + "\n", nil, "id must be a string or a number"},
		{"array id", `{"jsonrpc":"2.0","id":[1],"method":"tools/list"}` + "\n", nil, "id must be a string or a number"},
		{"bool id", `{"jsonrpc":"2.0","id":true,"method":"tools/list"}` + "\n", nil, "id must be a string or a number"},
	}
	readers := map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
	}
	for _, tc := range cases {
		for rname, wrap := range readers {
			t.Run(tc.name+"/"+rname, func(t *testing.T) {
				in := head + call(`"before"`, "b") + tc.line + call(`"after"`, "a")
				msgs := runStdio(t, in, wrap, map[string]string{"MCPFLEET_STDIO_MAX_LINE_BYTES": fmt.Sprint(max)})
				var refused, before, after bool
				for _, m := range msgs {
					switch m["id"] {
					case "before":
						before = true
					case "after":
						after = m["result"] != nil
					}
					if e, ok := m["error"].(map[string]any); ok && strings.Contains(fmt.Sprint(e["message"]), tc.want) {
						if m["id"] != tc.wantID {
							t.Errorf("error id = %v, want %v", m["id"], tc.wantID)
						}
						if e["code"] != float64(-32600) {
							t.Errorf("code = %v", e["code"])
						}
						refused = true
					}
					if id, ok := m["id"].(map[string]any); ok {
						t.Errorf("an object id was echoed: %v", id)
					}
				}
				if !refused || !before || !after {
					t.Fatalf("refused=%v before=%v after=%v; stdout: %v", refused, before, after, msgs)
				}
			})
		}
	}
}
