package serve

import (
	"io"
	"os"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/redact"
)

// logBatch gathers debug and info lines (one "tool call" line per call) and
// writes them in one write at most every interval, instead of a system call
// per call — under load that syscall was ~6% of a server's CPU. Warn and
// above are written at once, after whatever is pending, so order is kept and
// problems are never delayed. At most interval of info lines is lost if the
// process dies without Run's flush.
type logBatch struct {
	mu       sync.Mutex
	w        io.Writer
	buf      []byte
	armed    bool
	interval time.Duration
}

const logBatchMax = 64 << 10 // write out early past this many bytes

func newLogBatch(w io.Writer, interval time.Duration) *logBatch {
	return &logBatch{w: w, interval: interval}
}

// Write is an info-level write (zerolog uses WriteLevel).
func (b *logBatch) Write(p []byte) (int, error) { return b.WriteLevel(zerolog.InfoLevel, p) }

func (b *logBatch) WriteLevel(l zerolog.Level, p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if l >= zerolog.WarnLevel || l == zerolog.NoLevel {
		if err := b.flushLocked(); err != nil {
			return 0, err
		}
		return b.w.Write(p)
	}
	b.buf = append(b.buf, p...)
	if len(b.buf) >= logBatchMax {
		return len(p), b.flushLocked()
	}
	if !b.armed {
		b.armed = true
		time.AfterFunc(b.interval, func() { _ = b.Flush() })
	}
	return len(p), nil
}

// Flush writes out what is pending.
func (b *logBatch) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.armed = false
	return b.flushLocked()
}

func (b *logBatch) flushLocked() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}

// batchLogs puts a logBatch under a JSON logger writing to a real file (a
// server process's stderr); a console logger (a person watching) and test
// buffers keep writing line by line. It returns the logger to use and the
// flush to run at exit, or a nil flush when there is nothing to flush.
func batchLogs(l zerolog.Logger, stderr io.Writer, format string) (zerolog.Logger, func()) {
	f, ok := stderr.(*os.File)
	if !ok && format != "console" {
		// Any other writer (a test's buffer) gets one line at a time, under
		// a lock: concurrent calls log concurrently.
		return l.Output(zerolog.SyncWriter(redact.Writer{W: stderr})), nil
	}
	if !ok || format == "console" || (format == "auto" && isatty.IsTerminal(f.Fd())) {
		return l, nil
	}
	b := newLogBatch(redact.Writer{W: stderr}, 50*time.Millisecond)
	return l.Output(b), func() { _ = b.Flush() }
}
