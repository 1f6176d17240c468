package serve

import (
	"bytes"
	"io"
	"os"
	"testing"
)

// waitPeerRead applies to pipes (how clients spawn a stdio server), not to
// other writers; on a pipe it returns once the reader took every byte.
func TestWaitPeerRead(t *testing.T) {
	if waitPeerRead(&bytes.Buffer{}) != nil {
		t.Fatal("a buffer has no peer to wait for")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	wait := waitPeerRead(w)
	if wait == nil {
		t.Fatal("no wait for a pipe")
	}
	msg := []byte(`{"jsonrpc":"2.0","method":"notifications/progress"}` + "\n")
	if _, err := w.Write(msg); err != nil {
		t.Fatal(err)
	}
	read := make(chan struct{})
	go func() {
		_, _ = io.ReadFull(r, make([]byte, len(msg)))
		close(read)
	}()
	<-read
	wait() // nothing unread: returns at once
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if waitPeerRead(f) != nil {
		t.Fatal("a regular file has no reader to wait for")
	}
}
