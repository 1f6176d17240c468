package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// Exit codes of every command.
const (
	exitOK       = 0
	exitToolErr  = 1 // the tool answered with an error result
	exitUsage    = 2
	exitNoServer = 3 // the server could not be run (binary, start-up, transport)
	exitRefused  = 4 // the server refused the request (unknown tool, protocol error)
	// exitInterrupted is a call cancelled by Ctrl-C (128 + SIGINT, as shells report it)
	exitInterrupted = 130
)

// session is one running server and its MCP client: every call of a shell or
// batch goes to the same process, so logins and other state carry over.
type session struct {
	name   string
	c      *client.Client
	stderr *tail
	tools  []mcp.Tool
	// onProgress renders progress notifications of the call in flight.
	onProgress atomic.Pointer[func(mcp.ProgressNotificationParams)]
	nextToken  atomic.Int64
}

// tail keeps the server's last stderr lines, so a failure can show why. It
// is the stdio transport's stderr writer, so it sees lines as they are written.
type tail struct {
	mu      sync.Mutex
	lines   []string
	partial []byte
}

const tailLines = 12

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.partial = append(t.partial, p...)
	for {
		i := bytes.IndexByte(t.partial, '\n')
		if i < 0 {
			break
		}
		t.lines = append(t.lines, string(t.partial[:i]))
		t.partial = t.partial[i+1:]
	}
	if len(t.partial) > 64*1024 { // a line without end: keep its start
		t.lines = append(t.lines, string(t.partial[:1024])+"…")
		t.partial = t.partial[:0]
	}
	if len(t.lines) > tailLines {
		t.lines = append([]string(nil), t.lines[len(t.lines)-tailLines:]...)
	}
	return len(p), nil
}

// last returns the kept lines rendered for a person, after giving a dying
// server a moment to finish writing them.
func (t *tail) last() []string {
	time.Sleep(200 * time.Millisecond)
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]string, 0, len(t.lines)+1)
	for _, l := range t.lines {
		out = append(out, readableLog(l))
	}
	if len(t.partial) > 0 {
		out = append(out, readableLog(string(t.partial)))
	}
	return out
}

// readableLog turns a zerolog JSON line into "level: message (error: …)".
func readableLog(line string) string {
	var m map[string]any
	if json.Unmarshal([]byte(line), &m) != nil {
		return line
	}
	s := fmt.Sprint(m["level"], ": ", m["message"])
	for _, k := range []string{"error", "cause", "reason"} {
		if v, ok := m[k]; ok {
			s += fmt.Sprintf(" (%s: %v)", k, v)
		}
	}
	return s
}

// serverError is a failure of the server process or transport, with what the
// server itself last said on stderr.
type serverError struct {
	err    error
	server string
	stderr []string
}

func (e *serverError) Error() string {
	s := e.err.Error()
	if len(e.stderr) > 0 {
		s += "\n" + e.server + " said (last stderr lines):\n  " + strings.Join(e.stderr, "\n  ")
	}
	return s
}

func (e *serverError) Unwrap() error { return e.err }

// openSession spawns the server over stdio and initializes a client.
func openSession(ctx context.Context, name string) (*session, error) {
	if _, ok := findServer(name); !ok {
		return nil, fmt.Errorf("unknown server %q; `mcpfleet list` shows them", name)
	}
	bin, err := binary(name)
	if err != nil {
		return nil, err
	}
	s := &session{name: name, stderr: &tail{}}
	tr := transport.NewStdioWithOptions(bin, os.Environ(), nil, transport.WithCommandStderrWriter(s.stderr),
		transport.WithCommandFunc(func(ctx context.Context, command string, env []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Env = env
			ownProcessGroup(cmd)
			return cmd, nil
		}))
	c := client.NewClient(tr)
	s.c = c
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != string(mcp.MethodNotificationProgress) {
			return
		}
		f := s.onProgress.Load()
		if f == nil {
			return
		}
		b, err := json.Marshal(n.Params)
		if err != nil {
			return
		}
		var p mcp.ProgressNotificationParams
		if json.Unmarshal(b, &p) == nil {
			(*f)(p)
		}
	})
	// The process lives as long as the session, not as long as ctx (the start-up deadline).
	if err := c.Start(context.Background()); err != nil {
		return nil, s.fail(fmt.Errorf("%s could not be started: %w", name, err))
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "mcpfleet", Version: cliVersion()}
	if _, err := c.Initialize(ctx, init); err != nil {
		c.Close()
		return nil, s.fail(fmt.Errorf("%s did not start: %w", name, err))
	}
	return s, nil
}

// fail wraps a transport or process error with the server's last words.
func (s *session) fail(err error) error {
	return &serverError{err: err, server: s.name, stderr: s.stderr.last()}
}

func (s *session) Close() { s.c.Close() }

// listTools caches the server's tools for completion and suggestions.
func (s *session) listTools(ctx context.Context) ([]mcp.Tool, error) {
	if s.tools != nil {
		return s.tools, nil
	}
	res, err := s.c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, s.fail(err)
	}
	s.tools = res.Tools
	return s.tools, nil
}

func (s *session) toolNames(ctx context.Context) []string {
	ts, _ := s.listTools(ctx)
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return names
}

// unknownToolError is a call to a tool the server does not serve.
type unknownToolError struct {
	tool, server, suggestion string
}

func (e *unknownToolError) Error() string {
	s := fmt.Sprintf("%s has no tool %q", e.server, e.tool)
	if e.suggestion != "" {
		s += "; did you mean " + e.suggestion + "?"
	}
	return s + " (`mcpfleet tools " + e.server + "` lists them)"
}

// call runs one tool, rendering progress through progress (may be nil).
func (s *session) call(ctx context.Context, tool string, args map[string]any, progress func(mcp.ProgressNotificationParams)) (*mcp.CallToolResult, error) {
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	if progress != nil {
		req.Params.Meta = &mcp.Meta{ProgressToken: mcp.ProgressToken(fmt.Sprintf("cli-%d", s.nextToken.Add(1)))}
		s.onProgress.Store(&progress)
		defer s.onProgress.Store(nil)
	}
	res, err := s.c.CallTool(ctx, req)
	if err == nil {
		return res, nil
	}
	if strings.Contains(err.Error(), "not found") || strings.Contains(err.Error(), "unknown tool") {
		names := s.toolNames(ctx)
		known := false
		for _, n := range names {
			known = known || n == tool
		}
		if !known && len(names) > 0 {
			return nil, &unknownToolError{tool: tool, server: s.name, suggestion: toolkit.Closest(tool, names)}
		}
	}
	return nil, s.fail(err)
}

// callWaiting runs one call with the CLI's deadline for it (callDeadline:
// the floor, or the tool's own timeout argument plus a grace) and Ctrl-C
// cancelling it. interrupted reports a Ctrl-C: the client has sent
// notifications/cancelled and the server is still serving.
func (s *session) callWaiting(floor time.Duration, tool string, args map[string]any, progress func(mcp.ProgressNotificationParams)) (res *mcp.CallToolResult, interrupted bool, err error) {
	limit := callDeadline(floor, s.findTool(context.Background(), tool), args)
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	ctx, stop := interruptible(ctx)
	defer stop()
	res, err = s.call(ctx, tool, args, progress)
	switch {
	case err == nil:
		return res, false, nil
	case wasInterrupted(ctx):
		return nil, true, fmt.Errorf("%s cancelled (Ctrl-C): notifications/cancelled sent; %s keeps running", tool, s.name)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, false, &serverError{err: fmt.Errorf("%s gave no answer within %s (raise --timeout, or pass the tool a shorter timeout argument)", tool, limit.Round(time.Second)), server: s.name}
	}
	return nil, false, err
}

// exitFor maps a call's error to the exit code.
func exitFor(err error) int {
	var u *unknownToolError
	if errors.As(err, &u) {
		return exitRefused
	}
	var se *serverError
	if errors.As(err, &se) && strings.Contains(se.err.Error(), "transport") {
		return exitNoServer
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &se) {
		return exitNoServer
	}
	return exitRefused
}

// saveImages writes a result's images to dir and returns their paths.
func saveImages(res *mcp.CallToolResult, dir, tool string) ([]string, error) {
	var paths []string
	n := 0
	for _, c := range res.Content {
		ic, ok := c.(mcp.ImageContent)
		if !ok {
			continue
		}
		n++
		b, err := base64.StdEncoding.DecodeString(ic.Data)
		if err != nil {
			return paths, fmt.Errorf("image %d is not base64: %w", n, err)
		}
		ext := ".bin"
		switch ic.MIMEType {
		case "image/png":
			ext = ".png"
		case "image/jpeg":
			ext = ".jpg"
		case "image/webp":
			ext = ".webp"
		case "image/svg+xml":
			ext = ".svg"
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return paths, err
		}
		p := filepath.Join(dir, fmt.Sprintf("%s-%s-%d%s", tool, time.Now().UTC().Format("20060102T150405"), n, ext))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return paths, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
