package serve

import (
	"bytes"
	"io"
	"testing"
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

// referenceFilter is lineReader's contract, written the slow, obvious way.
func referenceFilter(in []byte, max int) (out []byte, refused int) {
	for len(in) > 0 {
		i := bytes.IndexByte(in, '\n')
		if i < 0 { // last line without '\n'
			if len(in) > max {
				return out, refused + 1
			}
			return append(out, in...), refused
		}
		line := in[:i]
		in = in[i+1:]
		t := bytes.TrimLeft(line, " \t\r\n")
		bad := len(line) > max || len(t) > 0 && t[0] == '['
		if !bad && len(t) > 0 && t[0] == '{' {
			id, _, ok := peekEnvelope(line, false)
			bad = ok && badID(id)
		}
		if bad {
			refused++
			continue
		}
		out = append(append(out, line...), '\n')
	}
	return out, refused
}

func FuzzLineReader(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"method":"x"}`+"\n"+`[1]`+"\n"+`{"id":{}}`+"\n"), []byte{3, 50}, uint8(16))
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\nb\n\ncc"), []byte{1}, uint8(8))
	f.Add([]byte(`{"id":"k","x":"`+string(bytes.Repeat([]byte("y"), 200))+`"}`+"\n{}\n"), []byte{7, 90, 2}, uint8(40))
	f.Fuzz(func(t *testing.T, in, sizes []byte, max8 uint8) {
		max := int(max8) + 1
		want, wantRefused := referenceFilter(in, max)
		refused := 0
		lr := newLineReader(&chunky{data: in, sizes: sizes}, max, func([]byte) { refused++ })
		var got []byte
		buf := make([]byte, 1+len(sizes)%64)
		for {
			n, err := lr.Read(buf)
			got = append(got, buf[:n]...)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(got, want) || refused != wantRefused {
			t.Fatalf("max %d\nin   %q\ngot  %q (%d refused)\nwant %q (%d refused)", max, in, got, refused, want, wantRefused)
		}
	})
}

// BenchmarkLineReaderLongLine: reading one 16 MiB line in 4 KiB reads must be
// linear (issue 11: 19.8 s of CPU before). A notification: the drain waits
// for no answer at EOF.
func BenchmarkLineReaderLongLine(b *testing.B) {
	line := append(append([]byte(`{"jsonrpc":"2.0","method":"notifications/x","params":{"x":"`), bytes.Repeat([]byte("a"), 16<<20)...), []byte("\"}}\n")...)
	buf := make([]byte, 4096)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		dr := newLineReader(bytes.NewReader(line), 32<<20, func([]byte) {})
		dr.drain = newDrain()
		for {
			if _, err := dr.Read(buf); err != nil {
				break
			}
		}
	}
}

// BenchmarkLineReaderRequest: the per-call cost of framing and the drain
// (no allocation).
func BenchmarkLineReaderRequest(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"get_exchanges","arguments":{}}}` + "\n")
	src := bytes.NewReader(line)
	dr := newLineReader(src, 4<<20, func([]byte) {})
	dr.drain = newDrain()
	buf := make([]byte, 4096)
	b.ReportAllocs()
	for b.Loop() {
		src.Reset(line)
		n, _ := dr.Read(buf)
		if n != len(line) {
			b.Fatal(n)
		}
		dr.drain.pending = map[string]bool{}
	}
}

func BenchmarkLineAccept(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":25,"method":"tools/call","params":{"name":"get_exchanges","arguments":{}}}`)
	lr := newLineReader(nil, 4<<20, func([]byte) {})
	for b.Loop() {
		if !lr.accept(line) {
			b.Fatal("refused")
		}
	}
}
