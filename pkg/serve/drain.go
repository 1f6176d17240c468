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
type drain struct {
	mu       sync.Mutex
	pending  map[string]bool // ids of requests read and not yet answered
	answered chan struct{}   // signalled on every answer
}

func newDrain() *drain { return &drain{pending: map[string]bool{}, answered: make(chan struct{}, 1)} }

type envelopeID struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// lines calls f for each complete newline-terminated JSON line in p.
func lines(p []byte, f func(envelopeID)) {
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
		if json.Unmarshal(line, &e) == nil && len(e.ID) > 0 && string(e.ID) != "null" {
			f(e)
		}
	}
}

type drainReader struct {
	r     io.Reader
	d     *drain
	carry []byte
}

func (dr *drainReader) Read(p []byte) (int, error) {
	n, err := dr.r.Read(p)
	if n > 0 {
		buf := append(dr.carry, p[:n]...)
		last := bytes.LastIndexByte(buf, '\n')
		if last >= 0 {
			lines(buf[:last+1], func(e envelopeID) {
				if e.Method != "" { // a request to us (responses to our requests have no method)
					dr.d.mu.Lock()
					dr.d.pending[string(e.ID)] = true
					dr.d.mu.Unlock()
				}
			})
			dr.carry = append(dr.carry[:0], buf[last+1:]...)
		} else {
			dr.carry = buf
		}
	}
	if err == io.EOF {
		dr.d.wait()
	}
	return n, err
}

func (d *drain) wait() {
	deadline := time.After(drainTimeout)
	for {
		d.mu.Lock()
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
	n, err := dw.w.Write(p)
	lines(p[:n], func(e envelopeID) {
		if e.Method == "" { // a response from us
			dw.d.mu.Lock()
			delete(dw.d.pending, string(e.ID))
			dw.d.mu.Unlock()
			select {
			case dw.d.answered <- struct{}{}:
			default:
			}
		}
	})
	return n, err
}
