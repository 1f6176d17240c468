package serve

import (
	"bufio"
	"io"
	"os"
	"testing"
)

// BenchmarkLineGoroutine reads one line per new goroutine, as mcp-go's stdio
// server does (readNextLine), from a pipe: raw, and through the stdio
// wrappers. A wrapper chain too deep for a new goroutine's first stack makes
// every line copy the stack (runtime.newstack in a CPU profile).
func BenchmarkLineGoroutine(b *testing.B) {
	for _, bc := range []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"raw", func(r io.Reader) io.Reader { return r }},
		{"wrapped", func(r io.Reader) io.Reader {
			lr := newLineReader(r, 1<<20, func([]byte) {})
			lr.drain = newDrain()
			return lr
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			pr, pw, err := os.Pipe()
			if err != nil {
				b.Fatal(err)
			}
			defer pr.Close()
			defer pw.Close()
			br := bufio.NewReader(bc.wrap(pr))
			line := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}` + "\n")
			done := make(chan error, 1)
			for b.Loop() {
				go func() {
					_, err := br.ReadString('\n')
					done <- err
				}()
				if _, err := pw.Write(line); err != nil {
					b.Fatal(err)
				}
				if err := <-done; err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
