package serve

import (
	"bufio"
	"bytes"
	"io"
	"testing"

	"github.com/rs/zerolog"
)

// chunky returns its data in reads of the given sizes, cycling.
type chunky struct {
	data  []byte
	sizes []byte
	i     int
}

func (c *chunky) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := 1
	if len(c.sizes) > 0 {
		n = int(c.sizes[c.i%len(c.sizes)])%97 + 1
		c.i++
	}
	n = min(n, len(p), len(c.data))
	copy(p, c.data[:n])
	c.data = c.data[n:]
	return n, nil
}

var fuzzTools = toolNames{names: []string{"x"}, set: map[string]bool{"x": true}}

// referenceFilter is stdioIn's contract, written the slow, obvious way.
func referenceFilter(in []byte, max int) (out []byte, refused int) {
	for len(in) > 0 {
		line, rest, nl := bytes.Cut(in, []byte("\n"))
		in = rest
		h, ok := parseHead(line)
		if len(line) > max || ok && (h.batch || h.badID || fuzzTools.unknown(h)) {
			refused++
			continue
		}
		out = append(out, line...)
		if nl {
			out = append(out, '\n')
		}
	}
	return out, refused
}

// FuzzStdioIn: whatever the line sizes and read sizes, mcp-go is handed
// exactly the good lines, and every other line is answered once.
func FuzzStdioIn(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"x"}`+"\n"+`[1]`+"\n"+`{"id":{}}`+"\n"), []byte{3, 50}, uint8(16))
	f.Add([]byte(`{"id":1,"method":"tools/call","params":{"name":"y"}}`+"\n"+`{"id":2,"method":"tools/call","params":{"name":"x"}}`+"\n"), []byte{9}, uint8(90))
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nb\n\ncc"), []byte{1}, uint8(8))
	f.Add([]byte(`{"id":"k","x":"`+string(bytes.Repeat([]byte("y"), 200))+`"}`+"\n{}\n"), []byte{7, 90, 2}, uint8(40))
	f.Fuzz(func(t *testing.T, in, sizes []byte, max8 uint8) {
		max := int(max8) + 1
		want, wantRefused := referenceFilter(in, max)
		var answers bytes.Buffer
		out := &stdioOut{w: &answers, pending: map[string]bool{}, answered: make(chan struct{}, 1)}
		// A 16-byte buffer: lines longer than it arrive in pieces.
		r := &stdioIn{r: bufio.NewReaderSize(&chunky{data: in, sizes: sizes}, 16), max: max, tools: fuzzTools, out: out, log: zerolog.Nop()}
		var got []byte
		buf := make([]byte, 1+len(sizes)%64)
		for {
			n, err := r.Read(buf)
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		refused := bytes.Count(answers.Bytes(), []byte("\n"))
		if !bytes.Equal(got, want) || refused != wantRefused {
			t.Fatalf("max %d\nin   %q\ngot  %q (%d refused)\nwant %q (%d refused)", max, in, got, refused, want, wantRefused)
		}
	})
}

func TestLeadingID(t *testing.T) {
	for in, want := range map[string]string{
		`{"jsonrpc":"2.0","id":"L1","params":{"x":"yyyy`: `"L1"`,
		`{"id":7,"method":"a","id":8,"params":"cut`:      `8`,
		`{"params":{"x":"yyy`:                            ``,
		`{"id":{"a":1},"params":"`:                       ``,
		`[{"id":1}`:                                      ``,
		`{"id":12`:                                       ``,
	} {
		if got := string(leadingID([]byte(in))); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}

func TestResponseID(t *testing.T) {
	for in, want := range map[string]string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`:                  `1`,
		`{"jsonrpc":"2.0","id":1.0,"result":{}}`:                            `1`,
		`{"jsonrpc":"2.0","id":"a\u0041","error":{"code":1,"message":"x"}}`: `"aA"`,
		`{"jsonrpc":"2.0","result":{},"id":"late"}`:                         `"late"`,
		`{"jsonrpc":"2.0","id":2,"method":"sampling/createMessage"}`:        ``,
		`{"jsonrpc":"2.0","method":"notifications/progress"}`:               ``,
		`{"jsonrpc":"2.0","id":null,"error":{}}`:                            ``,
		`not json`:                                                          ``,
	} {
		if got, _ := responseID([]byte(in)); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}
