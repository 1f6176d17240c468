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
// lines logged while the server is busy into one write.
//
// Issue 20: one write(2) per call's info line was ~9% of a cheap call's
// server CPU (sequential stdio: ~11 µs of ~130 µs), so lines are not written
// one per call but:
//   - an info line logged while a call is in flight (stdio: while a request
//     read is unanswered) is gathered, and what is gathered goes out wait
//     after the first of it, or at logGateMax bytes;
//   - a line logged while the server is idle (start-up, shutdown) is written
//     at once, and so is every warning or error, after what is pending (order
//     is kept); Run flushes on the way out (stdin closed, SIGTERM, SIGINT).
//
// A timer that fires once per wait is all the machinery. A "write once the
// server goes quiet" timer, reset after every answer, was measured and
// dropped: the resets woke idle threads more often than the writes they
// saved (more context switches per call than writing each line at once).
//
// The price: a call's line reaches stderr up to wait after its answer
// (earlier versions wrote it before), so a client that kills the server with
// SIGKILL within wait of its last answer loses that call's line. A client
// that closes stdin or sends SIGTERM, as the MCP stdio shutdown sequence
// says, loses nothing.
type logGate struct {
	w        io.Writer
	inflight atomic.Int64
	// pending, when set (stdio), says whether a request read is still
	// unanswered, so lines of requests queued behind each other are
	// gathered too, not only of those running at the same moment.
	pending atomic.Pointer[func() bool]
	mu      sync.Mutex
	buf     []byte
	armed   bool
	wait    time.Duration // the longest a gathered line waits
}

const logGateMax = 32 << 10

// logGateWait is a variable only so a test can hold lines back for as long as
// it runs.
var logGateWait = 10 * time.Millisecond

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

// enter and leave count a call in flight. Both are nil-safe (a logger
// without a gate).
func (g *logGate) enter() {
	if g != nil {
		g.inflight.Add(1)
	}
}

func (g *logGate) leave() {
	if g != nil {
		g.inflight.Add(-1)
	}
}

// followTransport tells the gate which requests are unanswered (see pending).
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
