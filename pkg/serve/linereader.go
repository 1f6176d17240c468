package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
)

// lineReader frames stdio input for mcp-go: it hands out complete lines only
// and answers, itself, the lines mcp-go would mishandle, then keeps serving:
//   - a line over max bytes (mcp-go's bufio would hold all of it): dropped
//     while it streams in, answered -32600 with its id when the id came first;
//   - a JSON-RPC batch: "batches are not supported";
//   - an object, array or boolean id: -32600 with id null, never echoed.
//
// Every byte is searched for '\n' once (a partial line is never rescanned),
// and lines that arrive whole are handed out in place, without a copy.
type lineReader struct {
	r        io.Reader
	max      int
	reject   func(line []byte) // writes one JSON-RPC error line to the client
	held     []byte            // read, not handed out: held[off:ready] good lines, held[ready:] a partial line
	off      int
	ready    int
	scanned  int  // held[ready:scanned] has no '\n'
	skipping bool // dropping the rest of an over-long line
	err      error
	drain    *drain // when set: told what mcp-go reads, and holds back EOF (see drain)
	// refuse, when set, answers a line mcp-go should not see (an error
	// line) or returns nil (resourcecheck.go)
	refuse func(line []byte) []byte
}

func newLineReader(r io.Reader, max int, reject func([]byte)) *lineReader {
	return &lineReader{r: r, max: max, reject: reject}
}

// Read hands out complete good lines. mcp-go calls it on a new goroutine for
// every line (readNextLine), whose first stack is small: only the source's
// Read and the line filter are called from this frame, and the rest of the
// work is in helpers that return before either, so the stack under the
// blocking read stays as shallow as a bare os.Stdin's. With the drain and the
// framing in the frames under it, every line grew the goroutine's stack
// (runtime.copystack, ~4 µs of a sequential call, issue 20;
// BenchmarkLineGoroutine).
func (lr *lineReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if n, done, err := lr.handOut(p); done {
			return n, err
		}
		inPlace := len(lr.held) == 0 && !lr.skipping
		buf := p // nothing held: read in place, usually whole lines arrive
		if !inPlace {
			buf = lr.room()
		}
		n, err := lr.r.Read(buf)
		lr.err = err
		if !inPlace {
			lr.grew(n)
			continue
		}
		// Filtered from this frame, not a helper's: the line checks are
		// the deepest calls made on mcp-go's goroutine.
		rest, good := lr.filter(p[:n], 0, 0)
		if out := lr.keep(p, rest, good); out > 0 {
			return out, nil
		}
	}
}

// handOut gives out good lines already held, or, once the source ended,
// what is left and then its error; done is false when a read is needed.
//
//go:noinline
func (lr *lineReader) handOut(p []byte) (n int, done bool, err error) {
	switch {
	case lr.off < lr.ready:
		n = copy(p, lr.held[lr.off:lr.ready])
	case lr.err == nil:
		return 0, false, nil
	case lr.off < len(lr.held): // a last line without '\n': mcp-go's to judge
		n = copy(p, lr.held[lr.off:])
	default:
		if lr.drain != nil && lr.err == io.EOF {
			lr.drain.wait()
		}
		return 0, true, lr.err
	}
	lr.off += n
	lr.compact()
	lr.handed(p[:n])
	return n, true, nil
}

// room is where a read goes behind a held partial line.
//
//go:noinline
func (lr *lineReader) room() []byte {
	if lr.off > 0 { // drop what was handed out (once per partial line)
		n := copy(lr.held, lr.held[lr.off:])
		lr.held = lr.held[:n]
		lr.ready -= lr.off
		lr.scanned -= lr.off
		lr.off = 0
	}
	if cap(lr.held)-len(lr.held) < 4096 {
		lr.held = slices.Grow(lr.held, max(4096, len(lr.held)))
	}
	return lr.held[len(lr.held):min(cap(lr.held), len(lr.held)+1<<20)]
}

// keep holds the partial line after the good lines read in place into p,
// and returns how many bytes of p are good lines to hand out.
//
//go:noinline
func (lr *lineReader) keep(p, buf []byte, good int) int {
	if len(buf) > good {
		lr.held = append(lr.held[:0], buf[good:]...)
		lr.off, lr.ready, lr.scanned = 0, 0, len(lr.held)
	}
	lr.handed(p[:good])
	return good
}

// grew files n bytes read into room behind a held partial line.
//
//go:noinline
func (lr *lineReader) grew(n int) {
	lr.held = lr.held[:len(lr.held)+n]
	lr.held, lr.ready = lr.filter(lr.held, lr.ready, lr.scanned)
	lr.scanned = len(lr.held)
	if lr.skipping {
		lr.scanned = lr.ready
	}
}

// handed tells the drain what mcp-go is given.
func (lr *lineReader) handed(p []byte) {
	if lr.drain != nil && len(p) > 0 {
		lr.drain.record(p)
	}
}

// compact forgets what was handed out, and a large buffer once it is empty.
func (lr *lineReader) compact() {
	if lr.off < len(lr.held) {
		return
	}
	if cap(lr.held) > 64<<10 {
		releaseSoon(int64(cap(lr.held)))
		lr.held = nil
	} else {
		lr.held = lr.held[:0]
	}
	lr.off, lr.ready, lr.scanned = 0, 0, 0
}

// filter checks the complete lines of buf[w:] (buf[w:scanned] has no '\n'),
// moves the good ones down to buf[w:] and drops the rest. It returns buf with
// the good lines ending at good, then the partial last line, if it is kept.
func (lr *lineReader) filter(buf []byte, w, scanned int) (_ []byte, good int) {
	rd := w
	for {
		i := bytes.IndexByte(buf[scanned:], '\n')
		if i < 0 {
			break
		}
		end := scanned + i + 1
		if lr.skipping {
			lr.skipping = false // the end of the over-long line
		} else if lr.accept(buf[rd : end-1]) {
			if w != rd {
				copy(buf[w:], buf[rd:end])
			}
			w += end - rd
		}
		rd, scanned = end, end
	}
	if lr.skipping {
		return buf[:w], w
	}
	if len(buf)-rd > lr.max {
		releaseSoon(int64(len(buf)))
		lr.reject(rpcErrorLine(peekIDPrefix(buf[rd:min(len(buf), rd+64<<10)]), -32600,
			fmt.Sprintf("request line longer than %d bytes (MCPFLEET_STDIO_MAX_LINE_BYTES): send smaller arguments", lr.max)))
		lr.skipping = true
		return buf[:w], w
	}
	if w != rd {
		n := copy(buf[w:], buf[rd:])
		buf = buf[:w+n]
	}
	return buf, w
}

// accept reports whether mcp-go should see line; if not, it was answered.
func (lr *lineReader) accept(line []byte) bool {
	if len(line) > lr.max {
		lr.reject(rpcErrorLine(peekIDPrefix(line[:min(len(line), 64<<10)]), -32600,
			fmt.Sprintf("request line longer than %d bytes (MCPFLEET_STDIO_MAX_LINE_BYTES): send smaller arguments", lr.max)))
		return false
	}
	i := skipSpace(line, 0)
	if i == len(line) {
		return true
	}
	switch line[i] {
	case '[':
		lr.reject(rpcErrorLine(nil, -32600, "JSON-RPC batches are not supported: send one JSON-RPC message per line"))
		return false
	case '{':
		if mayHaveBadID(line) && peekBadID(line) {
			lr.reject(rpcErrorLine(nil, -32600, "invalid request: id must be a string or a number"))
			return false
		}
		if lr.refuse != nil {
			if out := lr.refuse(line); out != nil {
				lr.reject(out)
				return false
			}
		}
	}
	return true
}

// mayHaveBadID is the cheap test before parsing: some "id" key is followed by
// an object, array or boolean. Almost every line fails it in one bytes.Index.
func mayHaveBadID(line []byte) bool {
	for rest := line; ; {
		i := bytes.Index(rest, []byte(`"id"`))
		if i < 0 {
			return false
		}
		rest = rest[i+4:]
		j := skipSpace(rest, 0)
		if j < len(rest) && rest[j] == ':' {
			if j = skipSpace(rest, j+1); j < len(rest) && badID(rest[j:]) {
				return true
			}
		}
	}
}

func peekBadID(line []byte) bool {
	id, _, ok := peekEnvelope(line, false)
	return ok && badID(id)
}

func badID(id []byte) bool {
	return len(id) > 0 && (id[0] == '{' || id[0] == '[' || id[0] == 't' || id[0] == 'f')
}

// peekIDPrefix returns the top-level "id" of a JSON object that may be cut
// short, if it was complete before the cut; nil otherwise.
func peekIDPrefix(b []byte) []byte {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil
	}
	var id []byte
	for i = skipSpace(b, i+1); i < len(b) && b[i] == '"'; i = skipSpace(b, i+1) {
		end := skipString(b, i)
		if end < 0 {
			return id
		}
		key := b[i+1 : end-1]
		if i = skipSpace(b, end); i >= len(b) || b[i] != ':' {
			return id
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 {
			return id
		}
		if string(key) == "id" && !badID(b[i:vend]) {
			id = b[i:vend]
		}
		if i = skipSpace(b, vend); i >= len(b) || b[i] != ',' {
			return id
		}
	}
	return id
}

// rpcErrorLine is one JSON-RPC error response line; id nil is null.
func rpcErrorLine(id []byte, code int, msg string) []byte {
	if len(id) == 0 {
		id = []byte("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcErr          `json:"error"`
	}{"2.0", json.RawMessage(id), rpcErr{code, msg}})
	return append(b, '\n')
}

type rpcErr struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// refusal is the message of an error line, for the log (never the request).
func refusal(line []byte) string {
	var e struct {
		Error rpcErr `json:"error"`
	}
	_ = json.Unmarshal(line, &e)
	return e.Error.Message
}
