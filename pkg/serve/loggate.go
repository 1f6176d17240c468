package serve

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/redact"
)

// logGate writes a server's JSON log lines to its stderr, gathering the info
// lines logged while tool calls are in flight into one write.
//
// Issue 20: one write(2) per call's info line was ~9% of a cheap call's
// server CPU. A plain time-based batch was tried and dropped (a client that
// killed the server right after its last call lost those lines); the gate
// keeps that guarantee:
//   - a call's line is written before its response: the call still counts as
//     in flight while its line is logged, and the last call to finish writes
//     out everything gathered before mcp-go writes that call's answer. With
//     one call at a time (stdio, sequential) every line is written at once;
//     under concurrency the lines of overlapping calls go out together.
//   - a line logged while no call is in flight (start-up, shutdown) is
//     written at once, and so is every warning or error, after what is
//     pending (order is kept).
//   - under sustained load nothing waits longer than logGateWait or past
//     logGateMax bytes; Run flushes on the way out.
type logGate struct {
	w        io.Writer
	inflight atomic.Int64
	// pending, when set (stdio), says whether a request read is still
	// unanswered; the transport then writes out gathered lines just before
	// the answer that leaves none (drainWriter.beforeLast), so lines of
	// requests queued behind each other are gathered too, not only of those
	// running at the same moment.
	pending atomic.Pointer[func() bool]
	mu      sync.Mutex
	buf     []byte
	armed   bool
	wait    time.Duration
}

const (
	logGateWait = 50 * time.Millisecond
	logGateMax  = 32 << 10
)

func newLogGate(w io.Writer) *logGate { return &logGate{w: w, wait: logGateWait} }

// Write is a line without a level (zerolog uses WriteLevel): at once.
func (g *logGate) Write(p []byte) (int, error) { return g.WriteLevel(zerolog.NoLevel, p) }

// WriteLevel scrubs the line of secrets and writes or gathers it.
func (g *logGate) WriteLevel(l zerolog.Level, p []byte) (int, error) {
	n := len(p)
	line := redact.Scrub(p)
	gather := l < zerolog.WarnLevel && (g.inflight.Load() > 0 || g.transportBusy())
	g.mu.Lock()
	defer g.mu.Unlock()
	if !gather {
		if err := g.flushLocked(); err != nil {
			return 0, err
		}
		if _, err := g.w.Write(line); err != nil {
			return 0, err
		}
		return n, nil
	}
	g.buf = append(g.buf, line...)
	if len(g.buf) >= logGateMax {
		return n, g.flushLocked()
	}
	if !g.armed {
		g.armed = true
		time.AfterFunc(g.wait, func() { _ = g.Flush() })
	}
	return n, nil
}

// enter counts a call in flight; leave uncounts it and, when it was the last,
// writes out what is pending. Both are nil-safe (a logger without a gate).
func (g *logGate) enter() {
	if g != nil {
		g.inflight.Add(1)
	}
}

func (g *logGate) leave() {
	if g != nil && g.inflight.Add(-1) == 0 && g.pending.Load() == nil {
		_ = g.Flush()
	}
}

// followTransport hands the flush to a transport that knows which requests
// are unanswered (see pending).
func (g *logGate) followTransport(pending func() bool) {
	if g != nil {
		g.pending.Store(&pending)
	}
}

func (g *logGate) transportBusy() bool {
	f := g.pending.Load()
	return f != nil && (*f)()
}

// Flush writes out what is pending.
func (g *logGate) Flush() error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.armed = false
	return g.flushLocked()
}

func (g *logGate) flushLocked() error {
	if len(g.buf) == 0 {
		return nil
	}
	_, err := g.w.Write(g.buf)
	g.buf = g.buf[:0]
	return err
}

// gateLogs puts a logGate under a JSON logger and returns it (nil for a
// console logger, which a person watches line by line). Any writer gets the
// gate, a test's buffer too: the gate's lock is what keeps concurrent calls'
// lines whole.
func gateLogs(l zerolog.Logger, stderr io.Writer, format string) (zerolog.Logger, *logGate) {
	f, isFile := stderr.(*os.File)
	if format == "console" || (isFile && format == "auto" && isatty.IsTerminal(f.Fd())) {
		return l, nil
	}
	g := newLogGate(stderr)
	return l.Output(g), g
}
