package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
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
		do   string // enter, leave, info, warn, nolevel, flush
		msg  string
		want string // the whole output after the step
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"no call in flight: at once", []step{{do: "info", msg: "a", want: "a"}, {do: "info", msg: "b", want: "ab"}}},
		{"gathered until the last call leaves", []step{
			{do: "enter"}, {do: "enter"}, {do: "info", msg: "a", want: ""}, {do: "leave", want: ""},
			{do: "info", msg: "b", want: ""}, {do: "leave", want: "ab"}}},
		{"a warning goes out at once, after what is pending", []step{
			{do: "enter"}, {do: "info", msg: "a", want: ""}, {do: "warn", msg: "W", want: "aW"},
			{do: "info", msg: "b", want: "aW"}, {do: "leave", want: "aWb"}}},
		{"a line without a level goes out at once", []step{
			{do: "enter"}, {do: "info", msg: "a", want: ""}, {do: "nolevel", msg: "N", want: "aN"}, {do: "leave", want: "aN"}}},
		{"flush writes what is pending", []step{
			{do: "enter"}, {do: "info", msg: "a", want: ""}, {do: "flush", want: "a"}, {do: "leave", want: "a"}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out lockedBuffer
			g := newLogGate(&out)
			g.wait = time.Hour // the timer is TestLogGateTimer's
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
	if strings.Contains(out.String(), secret) || strings.Count(out.String(), "[REDACTED]") != 2 {
		t.Fatalf("not scrubbed: %s", out.String())
	}
}

// TestCallLinesBeforeAnswers runs the stdio server with concurrent calls and
// checks, as each answer arrives, that the line of every call answered so far
// that is no longer overlapped by another is already in the log — in
// particular, once the last answer is read every call's line is written: a
// client that kills the server right then loses none (the reason an earlier
// time-based batch was dropped).
func TestCallLinesBeforeAnswers(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var logs lockedBuffer
	app := App{Name: "gatesrv", Version: "1", Register: func(ctx context.Context, r *Registry) error {
		r.AddTools(toolkit.New(toolkit.Def{Name: "nap", Description: "Sleep ms.", Hints: toolkit.LocalRead},
			func(ctx context.Context, in struct {
				Ms int `json:"ms" mcp:"min=0;max=100"`
			}) (struct {
				Ok bool `json:"ok"`
			}, error) {
				select {
				case <-time.After(time.Duration(in.Ms) * time.Millisecond):
				case <-ctx.Done():
					return struct {
						Ok bool `json:"ok"`
					}{}, envelope.From(ctx.Err())
				}
				return struct {
					Ok bool `json:"ok"`
				}{true}, nil
			}))
		return nil
	}}
	done := make(chan int, 1)
	go func() { done <- Run(context.Background(), app, []string{"--log-level", "info"}, inR, outW, &logs) }()
	defer func() {
		inW.Close()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("server did not exit")
		}
	}()
	w := bufio.NewWriter(inW)
	fmt.Fprintln(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	fmt.Fprintln(w, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	const n = 12
	for i := 1; i <= n; i++ {
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"nap","arguments":{"ms":%d}}}`+"\n", i, (i%4)*5)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	rd := bufio.NewReader(outR)
	answers := 0
	for answers < n {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("after %d answers: %v", answers, err)
		}
		if strings.Contains(line, `"id":0`) {
			continue
		}
		answers++
	}
	// Read at the moment the last answer arrived: no waiting.
	if got := strings.Count(logs.String(), `"message":"tool call"`); got != n {
		t.Fatalf("%d call lines written when the last of %d answers arrived:\n%s", got, n, logs.String())
	}
}
