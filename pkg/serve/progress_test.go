package serve_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// progressSteps is enough notifications that, were they queued behind the
// result (mcp-go's notification goroutine), some would trail it every time.
const progressSteps = 60

type stepsOut struct {
	Steps int `json:"steps"`
}

type noIn struct{}

func progressApp() serve.App {
	return serve.App{
		Name: "progresssrv", Version: "0.0.1", DefaultPort: 8798,
		Register: func(ctx context.Context, r *serve.Registry) error {
			r.AddTools(
				toolkit.New(toolkit.Def{Name: "count", Description: "Report progress, then answer.", Toolset: "basic", Hints: toolkit.LocalRead},
					func(ctx context.Context, _ noIn) (stepsOut, error) {
						for i := 1; i <= progressSteps; i++ {
							toolkit.Progress(ctx, float64(i), progressSteps, fmt.Sprintf("step %d", i))
						}
						return stepsOut{Steps: progressSteps}, nil
					}),
				// hold answers once its request is cancelled, as a tool that
				// finishes its work regardless would.
				toolkit.New(toolkit.Def{Name: "hold", Description: "Report progress, then wait to be cancelled.", Toolset: "basic", Hints: toolkit.LocalRead},
					func(ctx context.Context, _ noIn) (stepsOut, error) {
						toolkit.Progress(ctx, 1, 0, "started")
						<-ctx.Done()
						return stepsOut{Steps: 1}, nil
					}),
			)
			return nil
		},
	}
}

type wireMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Params struct {
		ProgressToken any     `json:"progressToken"`
		Progress      float64 `json:"progress"`
	} `json:"params"`
}

// checkProgressFirst: every progress of the call precedes its result, in order.
func checkProgressFirst(t *testing.T, msgs []wireMsg, id string) {
	t.Helper()
	seen, answered := 0, false
	for _, m := range msgs {
		switch {
		case m.Method == "notifications/progress":
			if answered {
				t.Fatalf("progress %v arrived after the result", m.Params.Progress)
			}
			seen++
			if m.Params.Progress != float64(seen) {
				t.Fatalf("progress %v, want %d", m.Params.Progress, seen)
			}
		case string(m.ID) == id && m.Result != nil:
			answered = true
		}
	}
	if !answered || seen != progressSteps {
		t.Fatalf("answered %v after %d of %d progress notifications", answered, seen, progressSteps)
	}
}

const progressInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// stdioSession runs the app over pipes and initializes it; send writes a
// line to its stdin, next reads a line of its stdout, and finish closes
// stdin and returns the rest of stdout once the server exited.
func stdioSession(t *testing.T) (send func(string), next func() (string, bool), finish func() []string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	var stderr strings.Builder
	go func() {
		done <- serve.Run(context.Background(), progressApp(), nil, inR, outW, &stderr)
		outW.Close()
	}()
	lines := bufio.NewScanner(outR)
	lines.Buffer(nil, 1<<20)
	// One writer in order: the pipe blocks until the server reads.
	queue := make(chan string, 16)
	go func() {
		for s := range queue {
			_, _ = io.WriteString(inW, s+"\n")
		}
		inW.Close()
	}()
	send = func(s string) { queue <- s }
	next = func() (string, bool) {
		if !lines.Scan() {
			return "", false
		}
		return lines.Text(), true
	}
	finish = func() []string {
		close(queue)
		var rest []string
		for lines.Scan() {
			rest = append(rest, lines.Text())
		}
		if code := <-done; code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		return rest
	}
	send(progressInit)
	if line, ok := next(); !ok || !strings.Contains(line, `"id":1`) {
		t.Fatalf("initialize: %q", line)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return send, next, finish
}

func TestProgressPrecedesResultOverStdio(t *testing.T) {
	send, _, finish := stdioSession(t)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"count","arguments":{},"_meta":{"progressToken":"tok-1"}}}`)
	var msgs []wireMsg
	for _, line := range finish() {
		var m wireMsg
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		msgs = append(msgs, m)
	}
	checkProgressFirst(t, msgs, "2")
}

// TestCancelledRequestUnansweredOverStdio: after notifications/cancelled the
// request gets no response (MCP cancellation); the server goes on answering.
func TestCancelledRequestUnansweredOverStdio(t *testing.T) {
	send, next, finish := stdioSession(t)
	send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"hold","arguments":{},"_meta":{"progressToken":7}}}`)
	var all []string
	for {
		line, ok := next()
		if !ok {
			t.Fatalf("no progress from the running call: %q", all)
		}
		all = append(all, line)
		if strings.Contains(line, "notifications/progress") {
			break // the call is running
		}
	}
	send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`)
	// The ping is answered after the cancel was read (lines are read in
	// order), and stdin's end waits for every request read to be answered.
	send(`{"jsonrpc":"2.0","id":8,"method":"ping"}`)
	for {
		line, ok := next()
		if !ok {
			break
		}
		all = append(all, line)
		if strings.Contains(line, `"id":8`) {
			break
		}
	}
	all = append(all, finish()...)
	got := strings.Join(all, "\n")
	if !strings.Contains(got, `"id":8`) {
		t.Fatalf("ping after the cancel not answered:\n%s", got)
	}
	if strings.Contains(got, `"id":7`) {
		t.Fatalf("cancelled request 7 was answered:\n%s", got)
	}
}

func progressHTTP(t *testing.T) (url, sid string) {
	t.Helper()
	o, err := serve.ParseOptions(progressApp(), []string{"--transport", "http"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	b, err := serve.Build(context.Background(), progressApp(), o, mustLogger(t))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(serve.HTTPHandler(b))
	t.Cleanup(ts.Close)
	resp := rawPost(t, ts.URL+"/mcp", progressInit, "")
	resp.Body.Close()
	sid = resp.Header.Get("Mcp-Session-Id")
	rawPost(t, ts.URL+"/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, sid).Body.Close()
	return ts.URL + "/mcp", sid
}

func rawPost(t *testing.T, url, body, sid string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// sseMessages reads the JSON-RPC messages of an SSE (or JSON) body in order,
// calling each after it is read.
func sseMessages(t *testing.T, body io.Reader, each func(wireMsg)) []wireMsg {
	t.Helper()
	var msgs []wireMsg
	sc := bufio.NewScanner(body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "data: ")
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var m wireMsg
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		msgs = append(msgs, m)
		if each != nil {
			each(m)
		}
	}
	return msgs
}

func TestProgressPrecedesResultOverHTTP(t *testing.T) {
	url, sid := progressHTTP(t)
	resp := rawPost(t, url, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"count","arguments":{},"_meta":{"progressToken":"tok-1"}}}`, sid)
	defer resp.Body.Close()
	checkProgressFirst(t, sseMessages(t, resp.Body, nil), "2")
}

func TestCancelledRequestUnansweredOverHTTP(t *testing.T) {
	url, sid := progressHTTP(t)
	resp := rawPost(t, url, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"hold","arguments":{},"_meta":{"progressToken":7}}}`, sid)
	defer resp.Body.Close()
	msgs := sseMessages(t, resp.Body, func(m wireMsg) {
		if m.Method == "notifications/progress" { // running: cancel it
			rawPost(t, url, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`, sid).Body.Close()
		}
	})
	for _, m := range msgs {
		if string(m.ID) == "7" {
			t.Fatalf("cancelled request 7 was answered: %s", m.Result)
		}
	}
}
