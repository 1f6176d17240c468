package serve

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"time"
)

// drainTimeout bounds how long a stdio server keeps answering after stdin closed.
const drainTimeout = 10 * time.Second

// drain lets requests already read finish after stdin closes. mcp-go cancels
// every in-flight handler the moment its input ends, so a client that writes a
// batch and closes stdin (a shell pipe, a script) would lose the replies. The
// reader holds back EOF until each request read has been answered on stdout, or
// drainTimeout passes — stdin closing still ends the server promptly.
//
// The reader only keeps the bytes; they are scanned for request ids when an
// answer is written (or at EOF). mcp-go reads each line on a new goroutine, and
// any parsing there grew that goroutine's stack on every call.
type drain struct {
	mu       sync.Mutex
	wmu      sync.Mutex      // one writer at a time: mcp-go's answers and lineReader's refusals
	unread   []byte          // read from the client, not yet scanned (a partial last line stays)
	noNL     int             // unread[:noNL] has no '\n': a long line is searched once, not on every read
	pending  map[string]bool // ids of requests read and not yet answered
	answered chan struct{}   // signalled on every answer
}

// maxUnread bounds the bytes kept unscanned while nothing is written (a client
// streaming notifications): past it the reader scans them itself.
const maxUnread = 64 << 10

func newDrain() *drain { return &drain{pending: map[string]bool{}, answered: make(chan struct{}, 1)} }

// scanLocked moves the ids of requests in the complete unread lines to pending.
func (d *drain) scanLocked() {
	last := bytes.LastIndexByte(d.unread[d.noNL:], '\n')
	if last < 0 {
		d.noNL = len(d.unread)
		return
	}
	last += d.noNL
	lines(d.unread[:last+1], false, func(e envelopeID) {
		if e.Method != "" { // a request to us (responses to our requests have no method)
			d.pending[string(e.ID)] = true
		}
	})
	tail := d.unread[last+1:]
	if cap(d.unread) > 1<<20 { // after a long line: do not keep its buffer
		d.unread = append([]byte(nil), tail...)
	} else {
		d.unread = append(d.unread[:0], tail...)
	}
	d.noNL = len(d.unread)
}

type envelopeID struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// lines calls f for each complete newline-terminated JSON line in p; ours
// marks lines mcp-go wrote (see peekEnvelope). A line that is not JSON is
// skipped: mcp-go answers it with a parse error and no id.
func lines(p []byte, ours bool, f func(envelopeID)) {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			i = len(p)
		}
		line := bytes.TrimSpace(p[:i])
		p = p[min(i+1, len(p)):]
		if len(line) == 0 || line[0] != '{' {
			continue
		}
		var e envelopeID
		if id, hasMethod, ok := peekEnvelope(line, ours); ok {
			e.ID = id
			if hasMethod {
				e.Method = "?" // only its presence matters
			}
		} else if json.Unmarshal(line, &e) != nil { // escaped keys, deep nesting, or not JSON
			continue
		}
		if len(e.ID) > 0 && string(e.ID) != "null" {
			f(e)
		}
	}
}

// record keeps bytes handed to mcp-go, to be scanned for request ids later.
func (d *drain) record(p []byte) {
	d.mu.Lock()
	d.unread = append(d.unread, p...)
	if len(d.unread) > maxUnread {
		d.scanLocked()
	}
	d.mu.Unlock()
}

// wait holds back EOF until every request read was answered, or drainTimeout.
func (d *drain) wait() {
	deadline := time.After(drainTimeout)
	for {
		d.mu.Lock()
		d.scanLocked()
		left := len(d.pending)
		d.mu.Unlock()
		if left == 0 {
			return
		}
		select {
		case <-d.answered:
		case <-deadline:
			return
		}
	}
}

type drainWriter struct {
	w io.Writer
	d *drain
}

func (dw drainWriter) Write(p []byte) (int, error) {
	d := dw.d
	var ids []string
	lines(p, true, func(e envelopeID) {
		if e.Method == "" { // a response from us
			ids = append(ids, string(e.ID))
		}
	})
	d.wmu.Lock()
	n, err := dw.w.Write(p)
	d.wmu.Unlock()
	d.mu.Lock()
	d.scanLocked() // the request this answers was read before the answer was written
	for _, id := range ids {
		delete(d.pending, id)
	}
	d.mu.Unlock()
	if len(ids) > 0 {
		select {
		case d.answered <- struct{}{}:
		default:
		}
	}
	return n, err
}

// busy reports whether a request read is still unanswered.
func (d *drain) busy() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.scanLocked()
	return len(d.pending) > 0
}
