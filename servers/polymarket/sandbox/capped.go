package sandbox

import (
	"bytes"
	"debug/elf"
	"io"
	"sync"
	"unicode/utf8"
)

// capped keeps the first max bytes written and calls onOverflow once when
// more arrive (the run is then stopped: a flood should not run for 30 s).
type capped struct {
	mu         sync.Mutex
	buf        bytes.Buffer
	max        int
	overflow   bool
	onOverflow func()
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	room := c.max - c.buf.Len()
	if len(p) <= room {
		c.buf.Write(p)
		c.mu.Unlock()
		return len(p), nil
	}
	if room > 0 {
		c.buf.Write(p[:room])
	}
	first := !c.overflow
	c.overflow = true
	f := c.onOverflow
	c.mu.Unlock()
	if first && f != nil {
		f()
	}
	return len(p), nil
}

func (c *capped) overflowed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.overflow
}

func (c *capped) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// text is the kept bytes as valid UTF-8, with a note when some were dropped.
func (c *capped) text(what string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.buf.Bytes()
	if c.overflow { // drop a rune cut in half at the cap
		for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
			b = b[:len(b)-1]
		}
	}
	s := string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
	if c.overflow {
		s += "\n[" + what + " truncated]"
	}
	return s
}

// elfInterpreter is the program's ELF loader (PT_INTERP): execve opens it
// for execution too, so Landlock must allow it.
func elfInterpreter(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			b, err := io.ReadAll(p.Open())
			if err != nil {
				return ""
			}
			return string(bytes.TrimRight(b, "\x00"))
		}
	}
	return ""
}
