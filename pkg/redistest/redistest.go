// Package redistest starts throw-away redis-server processes for tests.
//
// Each call to Start or StartServer launches its own redis-server on a free
// loopback port (127.0.0.1) with persistence off (--save "" --appendonly no)
// and its working directory in a test temp dir, waits until it answers PING,
// and stops it in t.Cleanup. Tests that run in parallel therefore never share
// state, and no test needs FLUSHALL.
//
// When the redis-server binary is not on PATH the test is skipped with a
// message saying so. Set MCPFLEET_REQUIRE_REDIS to any non-empty value (CI
// does) to turn that skip into a failure, so Redis-backed tests can never be
// skipped silently where they are supposed to run.
//
// Typical use:
//
//	rdb := redistest.Start(t) // one server, one client
//
//	srv := redistest.StartServer(t) // one server, several clients
//	a, b := srv.NewClient(t), srv.NewClient(t)
package redistest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// RequireEnv names the environment variable that turns a missing
// redis-server binary from a skip into a test failure.
const RequireEnv = "MCPFLEET_REQUIRE_REDIS"

// Binary is the redis-server executable looked up on PATH.
const Binary = "redis-server"

// startTimeout bounds how long one server may take to answer PING.
const startTimeout = 10 * time.Second

// Server is one running redis-server owned by a test.
type Server struct {
	addr string
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	out  *lockedBuffer // the server's stdout/stderr, shown when it fails
}

// Start starts a fresh redis-server and returns a client connected to it.
// The client and the server are closed when the test ends.
func Start(t testing.TB) *redis.Client {
	t.Helper()
	return StartServer(t).NewClient(t)
}

// Addr returns the host:port a client returned by Start (or NewClient) is
// connected to.
func Addr(c *redis.Client) string { return c.Options().Addr }

// StartServer starts a fresh redis-server for t and stops it in t.Cleanup.
func StartServer(t testing.TB) *Server {
	t.Helper()
	bin, err := exec.LookPath(Binary)
	if err != nil {
		msg := fmt.Sprintf("redistest: %s not found on PATH (install it, e.g. apt-get install redis-server): %v", Binary, err)
		if os.Getenv(RequireEnv) != "" {
			t.Fatalf("%s; %s is set, so Redis-backed tests must run", msg, RequireEnv)
		}
		t.Skip(msg)
	}
	dir := t.TempDir()
	// A free port found by listening on :0 can be taken by someone else
	// before redis-server binds it; retry a few times with a new port.
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		s, err := launch(bin, dir)
		if err == nil {
			t.Cleanup(s.stop)
			return s
		}
		lastErr = err
	}
	t.Fatalf("redistest: could not start %s: %v", Binary, lastErr)
	return nil
}

// Addr is the server's host:port on the loopback interface.
func (s *Server) Addr() string { return s.addr }

// NewClient returns a new client (its own connection pool) for the server,
// closed when the test ends. Two clients act like two replicas of a service.
func (s *Server) NewClient(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(clientOptions(s.addr))
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func clientOptions(addr string) *redis.Options {
	return &redis.Options{
		Addr: addr,
		// The Redis packaged by distributions may predate these handshakes;
		// turning them off keeps test output free of fallback warnings.
		DisableIdentity:          true,
		MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
	}
}

func launch(bin, dir string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	out := &lockedBuffer{}
	cmd := exec.Command(bin,
		"--port", strconv.Itoa(port),
		"--bind", "127.0.0.1",
		"--save", "",
		"--appendonly", "no",
		"--dir", dir,
		"--daemonize", "no",
		"--logfile", "",
		"--loglevel", "warning",
	)
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = sysProcAttr()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), cmd: cmd, done: make(chan struct{}), out: out}
	go func() { _ = cmd.Wait(); close(s.done) }()
	if err := s.waitReady(); err != nil {
		s.stop()
		return nil, fmt.Errorf("%w; server output: %s", err, out.String())
	}
	return s, nil
}

// waitReady polls PING until the server answers, exits or times out.
func (s *Server) waitReady() error {
	opts := clientOptions(s.addr)
	opts.MaxRetries = -1
	opts.DialTimeout = 200 * time.Millisecond
	c := redis.NewClient(opts)
	defer c.Close()
	deadline := time.Now().Add(startTimeout)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-s.done:
			return errors.New("redis-server exited before answering PING")
		case <-time.After(delay):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("redis-server did not answer PING within %v: %w", startTimeout, err)
		}
	}
}

// stop terminates the server and waits for it to exit.
func (s *Server) stop() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(5 * time.Second):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// lockedBuffer collects process output written from exec's copy goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
