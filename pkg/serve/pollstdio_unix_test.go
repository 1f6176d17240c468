//go:build unix

package serve

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func nonblocking(t *testing.T, f *os.File) bool {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var flags int
	if err := rc.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0) }); err != nil {
		t.Fatal(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return flags&unix.O_NONBLOCK != 0
}

// blockingPipe is a pipe as a client hands it to a server: blocking
// descriptors, which os.NewFile does not register with the poller.
func blockingPipe(t *testing.T) (r, w *os.File) {
	t.Helper()
	var fds [2]int
	if err := unix.Pipe(fds[:]); err != nil { // Pipe2 is not on darwin
		t.Fatal(err)
	}
	unix.CloseOnExec(fds[0])
	unix.CloseOnExec(fds[1])
	r, w = os.NewFile(uintptr(fds[0]), "r"), os.NewFile(uintptr(fds[1]), "w")
	t.Cleanup(func() { _ = r.Close(); _ = w.Close() })
	return r, w
}

// TestPollable: a pipe or a socket comes back as a pollable copy (a deadline
// can be set only on those) that reads and writes what the original does, and
// the original's blocking mode is what it was once the copy is put back; a
// terminal-less char device and a regular file come back as nil (used as is).
func TestPollable(t *testing.T) {
	pipeR, pipeW := blockingPipe(t)
	sock, err := net.ListenUnix("unix", &net.UnixAddr{Name: filepath.Join(t.TempDir(), "s"), Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()
	sockFile, err := sock.File() // a blocking dup of the listener
	if err != nil {
		t.Fatal(err)
	}
	defer sockFile.Close()
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer devNull.Close()
	regular, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer regular.Close()
	goPipeR, goPipeW, err := os.Pipe() // already non-blocking: left so
	if err != nil {
		t.Fatal(err)
	}
	defer goPipeR.Close()
	defer goPipeW.Close()

	for _, tc := range []struct {
		name     string
		f        *os.File
		pollable bool
	}{
		{"blocking pipe, read end", pipeR, true},
		{"blocking pipe, write end", pipeW, true},
		{"socket", sockFile, true},
		{"os.Pipe (non-blocking already)", goPipeR, true},
		{"/dev/null", devNull, false},
		{"regular file", regular, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			was := nonblocking(t, tc.f)
			p, restore := pollable(tc.f)
			if (p != nil) != tc.pollable {
				t.Fatalf("pollable copy: %v, want %v", p != nil, tc.pollable)
			}
			if p == nil {
				if restore != nil {
					t.Fatal("no copy, yet a restore")
				}
				return
			}
			if err := p.SetDeadline(time.Time{}); err != nil {
				t.Fatalf("the copy is not served by the poller: %v", err)
			}
			if !nonblocking(t, tc.f) {
				t.Fatal("the shared pipe is still blocking")
			}
			restore()
			if got := nonblocking(t, tc.f); got != was {
				t.Fatalf("after restore: non-blocking %v, was %v", got, was)
			}
			if _, err := p.Write([]byte("x")); !errors.Is(err, os.ErrClosed) {
				t.Fatalf("copy after restore: %v, want closed", err)
			}
		})
	}
}

// TestPollableCarriesTheStream: what the client writes reaches the copy, and
// the copy's EOF is the client's close; the original descriptor stays open
// after the copy is closed.
func TestPollableCarriesTheStream(t *testing.T) {
	r, w := blockingPipe(t)
	p, restore := pollable(r)
	if p == nil {
		t.Fatal("a blocking pipe: no pollable copy")
	}
	go func() {
		_, _ = w.Write([]byte("{\"jsonrpc\":\"2.0\"}\n"))
		_ = w.Close()
	}()
	b, err := io.ReadAll(p)
	if err != nil || string(b) != "{\"jsonrpc\":\"2.0\"}\n" {
		t.Fatalf("read %q, %v", b, err)
	}
	restore()
	if _, err := r.Stat(); err != nil {
		t.Fatalf("the original was closed with the copy: %v", err)
	}
}

// TestStdioServedThroughThePoller runs the stdio transport on blocking pipes,
// as a client spawns a server: while it serves, the pipes are non-blocking
// (read through the poller) and initialize is answered; once stdin closes and
// Run returns, both are blocking again.
func TestStdioServedThroughThePoller(t *testing.T) {
	inR, inW := blockingPipe(t)
	outR, outW := blockingPipe(t)
	done := make(chan int, 1)
	go func() {
		done <- Run(context.Background(), App{Name: "pollsrv", Version: "1"}, nil, inR, outW, io.Discard)
	}()
	if _, err := inW.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}` + "\n")); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.Contains(line, `"id":1,"result"`) {
		t.Fatalf("initialize: %q, %v", line, err)
	}
	// The answer was written, so Run has swapped both ends by now.
	if !nonblocking(t, inR) || !nonblocking(t, outW) {
		t.Fatalf("serving: stdin non-blocking %v, stdout %v; want both", nonblocking(t, inR), nonblocking(t, outW))
	}
	_ = inW.Close()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after stdin closed")
	}
	if nonblocking(t, inR) || nonblocking(t, outW) {
		t.Fatalf("after Run: stdin non-blocking %v, stdout %v; want neither", nonblocking(t, inR), nonblocking(t, outW))
	}
}
