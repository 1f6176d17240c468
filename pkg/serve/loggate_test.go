package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// lockedBuffer is a writer the test reads while the gate writes.
type lockedBuffer struct {
	mu     sync.Mutex
	b      strings.Builder
	writes int
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes++
	return b.b.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *lockedBuffer) Writes() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.writes
}

func TestLogGate(t *testing.T) {
	type step struct {
		do   string // enter, leave, info, warn, nolevel, flush, timer (the timer fires)
		msg  string
		want string // the whole output after the step
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"no call in flight: at once", []step{{do: "info", msg: "a", want: "a"}, {do: "info", msg: "b", want: "ab"}}},
		{"gathered until the timer fires", []step{
			{do: "enter"}, {do: "enter"}, {do: "info", msg: "a", want: ""}, {do: "leave", want: ""},
			{do: "info", msg: "b", want: ""}, {do: "leave", want: ""}, {do: "timer", want: "ab"}}},
		{"idle again: a line goes out at once, after what is pending", []step{
			{do: "enter"}, {do: "info", msg: "a", want: ""}, {do: "leave", want: ""},
			{do: "info", msg: "b", want: "ab"}}},
		{"a warning goes out at once, after what is pending", []step{
			{do: "enter"}, {do: "info", msg: "a", want: ""}, {do: "warn", msg: "W", want: "aW"},
			{do: "info", msg: "b", want: "aW"}, {do: "leave", want: "aW"}, {do: "timer", want: "aWb"}}},
		{"a line without a level goes out at once", []step{
			{do: "enter"}, {do: "info", msg: "a", want: ""}, {do: "nolevel", msg: "N", want: "aN"}, {do: "leave", want: "aN"}}},
		{"flush writes what is pending", []step{
			{do: "enter"}, {do: "info", msg: "a", want: ""}, {do: "flush", want: "a"}, {do: "leave", want: "a"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out lockedBuffer
			g := newLogGate(&out)
			g.wait = time.Hour // the real timer is TestLogGateBounds's: "timer" fires it by hand
			for i, s := range tc.steps {
				switch s.do {
				case "enter":
					g.enter()
				case "leave":
					g.leave()
				case "info":
					_, _ = g.WriteLevel(zerolog.InfoLevel, []byte(s.msg))
				case "warn":
					_, _ = g.WriteLevel(zerolog.WarnLevel, []byte(s.msg))
				case "nolevel":
					_, _ = g.Write([]byte(s.msg))
				case "flush":
					_ = g.Flush()
				case "timer":
					_ = g.Flush()
				}
				if s.do != "enter" && out.String() != s.want {
					t.Fatalf("step %d (%s %q): output %q, want %q", i, s.do, s.msg, out.String(), s.want)
				}
			}
		})
	}
}

// TestLogGateBounds: under sustained load (a call always in flight) lines
// wait at most the gate's wait, and never pile up past logGateMax bytes.
func TestLogGateBounds(t *testing.T) {
	var out lockedBuffer
	g := newLogGate(&out)
	g.wait = 10 * time.Millisecond
	g.enter()
	defer g.leave()
	_, _ = g.WriteLevel(zerolog.InfoLevel, []byte("timed\n"))
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(out.String(), "timed") {
		if time.Now().After(deadline) {
			t.Fatal("a gathered line was never written while a call stayed in flight")
		}
		time.Sleep(time.Millisecond)
	}
	g.wait = time.Hour
	before := out.Writes()
	line := []byte(strings.Repeat("x", 1023) + "\n")
	for range logGateMax / len(line) {
		_, _ = g.WriteLevel(zerolog.InfoLevel, line)
	}
	if out.Writes() != before+1 {
		t.Fatalf("%d writes for %d KiB of lines, want one at the size bound", out.Writes()-before, logGateMax>>10)
	}
}

// TestLogGateScrubs: lines are scrubbed of registered secrets before they are
// gathered or written.
func TestLogGateScrubs(t *testing.T) {
	const secret = "gate-secret-8841x"
	redact.Register(secret)
	var out lockedBuffer
	g := newLogGate(&out)
	l := zerolog.New(g)
	l.Info().Msg("at once " + secret)
	g.enter()
	l.Info().Str("k", secret).Msg("gathered")
	g.leave()
	_ = g.Flush()
	if strings.Contains(out.String(), secret) || strings.Count(out.String(), "[REDACTED]") != 2 {
		t.Fatalf("not scrubbed: %s", out.String())
	}
}

// napServer runs a stdio server with one tool, nap, logging into logs; the
// returned writer is its stdin, the reader its stdout, stop closes stdin and
// waits for Run to return.
func napServer(t *testing.T, logs io.Writer) (*bufio.Writer, *bufio.Reader, func()) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	type out struct {
		Ok bool `json:"ok"`
	}
	app := App{Name: "gatesrv", Version: "1", Register: func(ctx context.Context, r *Registry) error {
		r.AddTools(toolkit.New(toolkit.Def{Name: "nap", Description: "Sleep ms.", Hints: toolkit.LocalRead},
			func(ctx context.Context, in struct {
				Ms int `json:"ms" mcp:"min=0;max=100"`
			}) (out, error) {
				select {
				case <-time.After(time.Duration(in.Ms) * time.Millisecond):
				case <-ctx.Done():
					return out{}, envelope.From(ctx.Err())
				}
				return out{true}, nil
			}))
		return nil
	}}
	done := make(chan int, 1)
	go func() { done <- Run(context.Background(), app, []string{"--log-level", "info"}, inR, outW, logs) }()
	w := bufio.NewWriter(inW)
	fmt.Fprintln(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	fmt.Fprintln(w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	rd := bufio.NewReader(outR)
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		inW.Close()
		go func() { _, _ = io.Copy(io.Discard, rd) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("server did not exit")
		}
	}
	t.Cleanup(stop)
	return w, rd, stop
}

// readAnswer reads the next answer to a tools/call (skipping initialize's).
func readAnswer(t *testing.T, rd *bufio.Reader) string {
	t.Helper()
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(line, `"id":0,`) {
			return line
		}
	}
}

// TestCallLinesSoonAfterAnswers runs the stdio server with calls queued
// behind each other and checks every call's line is written soon after the
// last answer, with nothing more from the client (no need to close stdin or
// wait for exit).
func TestCallLinesSoonAfterAnswers(t *testing.T) {
	var logs lockedBuffer
	w, rd, _ := napServer(t, &logs)
	const n = 12
	for i := 1; i <= n; i++ {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"nap","arguments":{"ms":%d}}}`+"\n", i, (i%4)*5)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	for range n {
		readAnswer(t, rd)
	}
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(logs.String(), `"message":"tool call"`) != n {
		if time.Now().After(deadline) {
			t.Fatalf("not every call line written 10 s after the last of %d answers:\n%s", n, logs.String())
		}
		time.Sleep(time.Millisecond)
	}
}

// writesCounting counts the writes that carry a call line.
type writesCounting struct {
	lockedBuffer
	callWrites atomic.Int64
}

func (w *writesCounting) Write(p []byte) (int, error) {
	if strings.Contains(string(p), `"message":"tool call"`) {
		w.callWrites.Add(1)
	}
	return w.lockedBuffer.Write(p)
}

// TestSequentialCallsShareAWrite: the lines of calls made one after another
// go out together, one write per timer period (here held back until stdin
// closes: the timer is set longer than the test), none lost on the way out. Issue 20: a write per call was ~9% of a cheap call.
func TestSequentialCallsShareAWrite(t *testing.T) {
	defer func(w time.Duration) { logGateWait = w }(logGateWait)
	logGateWait = time.Hour
	var logs writesCounting
	w, rd, stop := napServer(t, &logs)
	const n = 10
	for i := 1; i <= n; i++ {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"nap","arguments":{"ms":0}}}`+"\n", i)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if a := readAnswer(t, rd); !strings.Contains(a, `"ok":true`) {
			t.Fatalf("call %d: %s", i, a)
		}
	}
	if got := strings.Count(logs.String(), `"message":"tool call"`); got != 0 {
		t.Fatalf("%d call lines written while the client kept calling, want them gathered", got)
	}
	stop()
	if got := strings.Count(logs.String(), `"message":"tool call"`); got != n {
		t.Fatalf("%d of %d call lines written by the time the server exited:\n%s", got, n, logs.String())
	}
	if got := logs.callWrites.Load(); got != 1 {
		t.Fatalf("%d writes carried the %d call lines, want 1", got, n)
	}
}
