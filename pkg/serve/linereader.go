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
}

func newLineReader(r io.Reader, max int, reject func([]byte)) *lineReader {
	return &lineReader{r: r, max: max, reject: reject}
}

func (lr *lineReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if lr.off < lr.ready {
			n := copy(p, lr.held[lr.off:lr.ready])
			lr.off += n
			lr.compact()
			return n, nil
		}
		if lr.err != nil {
			if lr.off < len(lr.held) { // a last line without '\n': mcp-go's to judge
				n := copy(p, lr.held[lr.off:])
				lr.off += n
				lr.compact()
				return n, nil
			}
			return 0, lr.err
		}
		if len(lr.held) == 0 && !lr.skipping {
			// Nothing held: read in place; usually whole lines arrive.
			n, err := lr.r.Read(p)
			lr.err = err
			buf, good := lr.filter(p[:n], 0, 0)
			if len(buf) > good {
				lr.held = append(lr.held[:0], buf[good:]...)
				lr.off, lr.ready, lr.scanned = 0, 0, len(lr.held)
			}
			if good > 0 {
				return good, nil
			}
			continue
		}
		// A partial line is held: read more behind it.
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
		n, err := lr.r.Read(lr.held[len(lr.held):min(cap(lr.held), len(lr.held)+1<<20)])
		lr.err = err
		lr.held = lr.held[:len(lr.held)+n]
		lr.held, lr.ready = lr.filter(lr.held, lr.ready, lr.scanned)
		lr.scanned = len(lr.held)
		if lr.skipping {
			lr.scanned = lr.ready
		}
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
