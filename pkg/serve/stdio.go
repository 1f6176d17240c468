package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// serveStdio runs the stdio transport: mcp-go's StdioServer between a
// stdioIn, which frames and checks the client's lines, and a stdioOut, which
// sees every answer go out.
func serveStdio(ctx context.Context, b *Built, stdin io.Reader, stdout, stderr io.Writer) error {
	s := server.NewStdioServer(b.Server)
	s.SetErrorLogger(log.New(redact.Writer{W: stderr}, "", 0))
	// Progress before the result, and no answer to a cancelled request
	// (delivery.go). Inside stdioOut: a dropped answer still counts as given.
	scope := toolkit.NewDelivery().NewScope(ctx)
	s.SetContextFunc(func(ctx context.Context) context.Context { return toolkit.WithScope(ctx, scope) })
	w := scopeWriter{w: stdout, s: scope, peerRead: waitPeerRead(stdout)}
	out := &stdioOut{w: w, pending: map[string]bool{}, answered: make(chan struct{}, 1)}
	in := &stdioIn{
		r:      bufio.NewReaderSize(stdin, 64<<10),
		max:    b.Options.Limits.MaxLineBytes,
		tools:  newToolNames(b.Registry),
		out:    out,
		log:    b.Log,
		drain:  drainTimeout,
		refuse: b.Registry.resourceRefusal,
	}
	return s.Listen(ctx, in, out)
}

// drainTimeout bounds how long a stdio server keeps answering after stdin closed.
const drainTimeout = 10 * time.Second

// stdioIn hands mcp-go the client's lines one at a time and answers, itself,
// the lines mcp-go would mishandle, then keeps serving:
//   - a line over max bytes (mcp-go's bufio would hold all of it): dropped
//     while it streams in, answered -32600 with its id when the id came first;
//   - a JSON-RPC batch: "batches are not supported" (MCP 2025-06-18 removed them);
//   - an object, array or boolean id: -32600 with id null, never echoed;
//   - a tools/call of a tool this server does not serve: -32602 naming the
//     nearest tools, as the HTTP gate answers it (unknowntool.go).
//
// It also lets requests already read finish after stdin closes: mcp-go
// cancels every in-flight handler the moment its input ends, so a client that
// writes a batch and closes stdin (a shell pipe, a script) would lose the
// replies. At the end of the input, Read holds back EOF until each request
// read has been answered on stdout, or drainTimeout passes.
type stdioIn struct {
	r     *bufio.Reader
	max   int
	tools toolNames
	out   *stdioOut
	log   zerolog.Logger
	drain time.Duration // how long EOF waits for answers
	// refuse answers a message mcp-go should not see (an error line) or
	// returns nil (resourcecheck.go)
	refuse func(h rpcHead) []byte
	line   []byte // the rest of the line being handed out
	err    error  // the input's error, returned once the last line is out
}

func (in *stdioIn) Read(p []byte) (int, error) {
	for len(in.line) == 0 {
		if in.err != nil {
			if errors.Is(in.err, io.EOF) {
				in.out.wait(in.drain)
			}
			return 0, in.err
		}
		var line []byte
		line, in.err = in.next()
		if len(line) > 0 && in.accept(line) {
			in.line = line
		}
	}
	n := copy(p, in.line)
	in.line = in.line[n:]
	return n, nil
}

// next reads one line, '\n' included. An over-long one is answered and
// skipped (nil line), with the id found in its first max bytes (at most 64 KiB).
func (in *stdioIn) next() ([]byte, error) {
	var line []byte
	for {
		chunk, err := in.r.ReadSlice('\n')
		size := len(line) + len(bytes.TrimSuffix(chunk, []byte("\n")))
		if size > in.max {
			keep := min(in.max, 64<<10)
			head := line[:min(len(line), keep)]
			head = append(head[:len(head):len(head)], chunk[:min(len(chunk), keep-len(head))]...)
			in.reject(leadingID(head), fmt.Sprintf("request line longer than %d bytes (MCPFLEET_STDIO_MAX_LINE_BYTES): send smaller arguments", in.max))
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = in.r.ReadSlice('\n')
			}
			return nil, err
		}
		line = append(line, chunk...)
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, err
		}
	}
}

// accept reports whether mcp-go should see line; if not, it was answered.
// A request mcp-go will see is recorded as pending until its answer goes out.
func (in *stdioIn) accept(line []byte) bool {
	h, ok := parseHead(line)
	switch {
	case !ok:
		return true // blank, or not JSON: mcp-go answers the parse error
	case h.batch:
		in.reject(nil, "JSON-RPC batches are not supported: send one JSON-RPC message per line")
		return false
	case h.badID:
		in.reject(nil, "invalid request: id must be a string or a number")
		return false
	case in.tools.unknown(h):
		_, _ = in.out.Write(rpcErrorLine(h.ID, mcp.INVALID_PARAMS, in.tools.message(h.tool)))
		return false
	}
	if out := removedLine(h); out != nil {
		_, _ = in.out.Write(out)
		return false
	}
	if in.refuse != nil {
		if out := in.refuse(h); out != nil {
			_, _ = in.out.Write(out)
			return false
		}
	}
	if h.Method != "" {
		in.out.expect(h.ID)
	}
	return true
}

// reject answers a line mcp-go never sees.
func (in *stdioIn) reject(id json.RawMessage, msg string) {
	in.log.Warn().Msg("refused a stdio request line: " + msg)
	_, _ = in.out.Write(rpcErrorLine(id, -32600, msg))
}

// leadingID is the top-level "id" of a JSON object cut short, if it was
// complete before the cut (encoding/json's decoder reads the object member by
// member and stops where the text ends).
func leadingID(b []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var id json.RawMessage
	for dec.More() {
		key, err := dec.Token()
		var v json.RawMessage
		if err != nil || dec.Decode(&v) != nil || dec.InputOffset() == int64(len(b)) {
			break // a value that ends with the text may be cut short (12 of 123)
		}
		if key == "id" && !isBadID(v) {
			id = v
		}
	}
	return id
}

// stdioOut is the stdout of a stdio server: one writer at a time (mcp-go's
// answers and stdioIn's refusals), and the ids of requests still unanswered.
type stdioOut struct {
	w        io.Writer
	mu       sync.Mutex
	pending  map[string]bool // requests read and not yet answered, by idKey
	answered chan struct{}   // signalled on every answer
}

// expect records a request handed to mcp-go.
func (o *stdioOut) expect(id json.RawMessage) {
	if k, ok := idKey(id); ok {
		o.mu.Lock()
		o.pending[k] = true
		o.mu.Unlock()
	}
}

func (o *stdioOut) Write(p []byte) (int, error) {
	o.mu.Lock()
	n, err := o.w.Write(p)
	answered := false
	for _, line := range bytes.Split(p, []byte("\n")) {
		if id, ok := responseID(line); ok && o.pending[id] {
			delete(o.pending, id)
			answered = true
		}
	}
	o.mu.Unlock()
	if answered {
		select {
		case o.answered <- struct{}{}:
		default:
		}
	}
	return n, err
}

// wait returns once every request read was answered, or after d.
func (o *stdioOut) wait(d time.Duration) {
	deadline := time.After(d)
	for {
		o.mu.Lock()
		left := len(o.pending)
		o.mu.Unlock()
		if left == 0 {
			return
		}
		select {
		case <-o.answered:
		case <-deadline:
			return
		}
	}
}

// responseID is the idKey of a response line (an id and no method). The
// decoder stops at "result" or "error" once the id is read: an answer's
// result may be megabytes, and a response has no method.
func responseID(line []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	var id json.RawMessage
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return "", false
		}
		switch key {
		case "method":
			return "", false
		case "result", "error":
			if id != nil {
				return idKey(id)
			}
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return "", false
		}
		if key == "id" {
			id = v
		}
	}
	return idKey(id)
}

// idKey is a request id in one spelling (mcp-go may write 1.0 back as 1, or
// an escaped string unescaped); ok is false for no id or null.
func idKey(id json.RawMessage) (string, bool) {
	var v any
	if len(id) == 0 || json.Unmarshal(id, &v) != nil || v == nil {
		return "", false
	}
	b, _ := json.Marshal(v)
	return string(b), true
}

// rpcErrorLine is one JSON-RPC error response line; id nil is null.
func rpcErrorLine(id json.RawMessage, code int, msg string) []byte {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   rpcErr          `json:"error"`
	}{"2.0", id, rpcErr{code, msg}})
	return append(b, '\n')
}

type rpcErr struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}
