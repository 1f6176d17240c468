//go:build unix

package serve_test

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// TestMain lets the test binary serve testApp over its own stdio, as a client
// spawns a server (TestStdioLeavesInheritedPipesBlocking).
func TestMain(m *testing.M) {
	// This package's servers keep their state in memory unless a test
	// chooses otherwise, through the variable users set: none writes a state
	// file into the tester's home.
	if os.Getenv("MCPFLEET_STATE") == "" {
		_ = os.Setenv("MCPFLEET_STATE", "memory")
	}
	if os.Getenv("SERVE_TEST_STDIO_CHILD") == "1" {
		os.Exit(serve.Run(context.Background(), testApp(), nil, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestStdioLeavesInheritedPipesBlocking: a stdio server killed with SIGKILL
// leaves the pipes it inherited as it found them. O_NONBLOCK belongs to the
// open file description the client shares with the server, so a server that
// set it (and would put it back only on a normal exit) left the client's
// end non-blocking after a kill.
func TestStdioLeavesInheritedPipesBlocking(t *testing.T) {
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = inR.Close(); _ = inW.Close(); _ = outR.Close(); _ = outW.Close() }()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "SERVE_TEST_STDIO_CHILD=1")
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Serving: initialize is answered.
	if _, err := io.WriteString(inW, initBody+"\n"); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil || !strings.Contains(line, `"result"`) {
		t.Fatalf("initialize: %q %v", line, err)
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	for name, f := range map[string]*os.File{"stdin": inR, "stdout": outW} {
		rc, err := f.SyscallConn()
		if err != nil {
			t.Fatal(err)
		}
		var flags int
		if err := rc.Control(func(fd uintptr) { flags, err = unix.FcntlInt(fd, unix.F_GETFL, 0) }); err != nil {
			t.Fatal(err)
		}
		if flags&unix.O_NONBLOCK != 0 {
			t.Errorf("the server's %s was left non-blocking after SIGKILL", name)
		}
	}
}

// syncBuffer is a goroutine-safe log sink.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestStdioCallLineBeforeAnswer: a call's log line is on stderr before its
// answer is on stdout, so a client that kills the server right after an
// answer loses no line (lines gathered and written later were lost).
func TestStdioCallLineBeforeAnswer(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- serve.Run(context.Background(), testApp(), nil, inR, outW, &stderr) }()
	out := bufio.NewReader(outR)
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(initBody)
	if _, err := out.ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i := range 5 {
		send(`{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"tools/call","params":{"name":"echo","arguments":{"msg":"m"}}}`)
		if line, err := out.ReadString('\n'); err != nil || !strings.Contains(line, `"result"`) {
			t.Fatalf("call %d: %q %v", i, line, err)
		}
		// The answer is out: its line must be there already.
		if got := strings.Count(stderr.String(), `"message":"tool call"`); got != i+1 {
			t.Fatalf("after answer %d, %d call lines on stderr:\n%s", i+1, got, stderr.String())
		}
	}
	go func() { _, _ = io.Copy(io.Discard, out) }()
	_ = inW.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("server did not exit on EOF")
	}
}
