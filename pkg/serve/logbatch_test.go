package serve

import (
	"bytes"
	"sync"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

type lockedBuf struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
}

func (l *lockedBuf) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes++
	return l.b.Write(p)
}

func (l *lockedBuf) snapshot() (string, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String(), l.writes
}

func TestLogBatchKeepsOrderAndFlushes(t *testing.T) {
	out := &lockedBuf{}
	b := newLogBatch(out, time.Hour) // the timer never fires here: flushes are explicit
	log := zerolog.New(b)
	log.Info().Msg("one")
	log.Info().Msg("two")
	if s, _ := out.snapshot(); s != "" {
		t.Fatalf("info lines must wait for the batch, got %q", s)
	}
	log.Warn().Msg("three")
	s, writes := out.snapshot()
	if want := `{"level":"info","message":"one"}` + "\n" + `{"level":"info","message":"two"}` + "\n" + `{"level":"warn","message":"three"}` + "\n"; s != want {
		t.Fatalf("a warning goes out at once, after what was pending:\n%s", s)
	}
	if writes != 2 {
		t.Fatalf("%d writes, want 2 (the batch, then the warning)", writes)
	}
	log.Info().Msg("four")
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if s, _ := out.snapshot(); !bytes.HasSuffix([]byte(s), []byte(`"four"}`+"\n")) {
		t.Fatalf("Flush writes what is pending: %q", s)
	}
}

func TestLogBatchTimerAndSizeFlush(t *testing.T) {
	out := &lockedBuf{}
	b := newLogBatch(out, 5*time.Millisecond)
	tl := zerolog.New(b)
	tl.Info().Msg("tick")
	deadline := time.Now().Add(5 * time.Second)
	for {
		if s, _ := out.snapshot(); s != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the timer never flushed the batch")
		}
		time.Sleep(5 * time.Millisecond)
	}
	big := newLogBatch(out, time.Hour)
	line := bytes.Repeat([]byte("x"), 1024)
	_, before := out.snapshot()
	for range logBatchMax/len(line) + 1 {
		if _, err := big.WriteLevel(zerolog.InfoLevel, line); err != nil {
			t.Fatal(err)
		}
	}
	if _, after := out.snapshot(); after != before+1 {
		t.Fatalf("a full batch is written early: %d writes", after-before)
	}
}
