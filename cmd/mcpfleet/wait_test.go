package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

// TestCallDeadline: the CLI waits as long as a tool's own timeout argument
// asks (plus a grace), never less than --timeout; the old fixed two minutes
// cut wait_for_operation {"timeout_seconds":180} at 120 s.
func TestCallDeadline(t *testing.T) {
	wait := &mcp.Tool{Name: "wait_for_operation", RawInputSchema: json.RawMessage(
		`{"type":"object","properties":{"operation_id":{"type":"string"},"timeout_seconds":{"type":"integer","minimum":1,"maximum":600,"default":45}}}`)}
	noDefault := &mcp.Tool{Name: "w", RawInputSchema: json.RawMessage(`{"type":"object","properties":{"timeout_seconds":{"type":"integer","maximum":300}}}`)}
	millis := &mcp.Tool{Name: "m", RawInputSchema: json.RawMessage(`{"type":"object","properties":{"timeoutMs":{"type":"integer"}}}`)}
	plain := &mcp.Tool{Name: "health_check", RawInputSchema: json.RawMessage(`{"type":"object","properties":{}}`)}
	cases := []struct {
		name  string
		tool  *mcp.Tool
		args  map[string]any
		floor time.Duration
		want  time.Duration
	}{
		{"180 s asked", wait, map[string]any{"timeout_seconds": 180.0}, defaultCallTimeout, 210 * time.Second},
		{"600 s asked", wait, map[string]any{"timeout_seconds": 600.0}, defaultSessionTimeout, 630 * time.Second},
		{"default 45 s under the floor", wait, nil, defaultCallTimeout, defaultCallTimeout},
		{"short floor, default 45 s", wait, nil, time.Second, 75 * time.Second},
		{"no default: the maximum", noDefault, nil, time.Second, 330 * time.Second},
		{"milliseconds", millis, map[string]any{"timeoutMs": 200000.0}, time.Second, 230 * time.Second},
		{"no timeout argument", plain, nil, defaultCallTimeout, defaultCallTimeout},
		{"unknown tool", nil, nil, defaultCallTimeout, defaultCallTimeout},
	}
	for _, tc := range cases {
		if got := callDeadline(tc.floor, tc.tool, tc.args); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// longKtrdr starts an in-process fake KTRDR whose trainings run for
// training, points the ktrdr server at it and starts one training.
func longKtrdr(t *testing.T, training time.Duration) (*fake.Server, string, string) {
	t.Helper()
	cliEnv(t, "ktrdr")
	f := fake.New(fake.Options{NoSeed: true, Scripts: map[string]fake.Script{"training": {Duration: training, Steps: 20}}})
	base, stop := f.Start()
	t.Cleanup(stop)
	t.Setenv("KTRDR_API_URL", base)
	resp, err := http.Post(base+"/trainings/start", "application/json",
		strings.NewReader(`{"strategy_name":"neuro_mean_reversion","symbols":["AAPL"],"timeframes":["1h"]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var started struct {
		TaskID string `json:"task_id"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&started); err != nil || started.TaskID == "" {
		t.Fatalf("training start: %v %+v", err, started)
	}
	return f, base, started.TaskID
}

// TestCallWaitsAsLongAsTheTool: with --timeout 1s (the CLI's own limit, as
// the old hard-coded 120 s was) a wait_for_operation asked to wait up to 20 s
// for a training that ends after about 3 s gets its answer, through call and
// through shell and batch sessions; without the tool's argument honoured the
// CLI would cut it at 1 s with "context deadline exceeded", exit 3, as the old
// fixed two minutes cut a 180 s wait (TestCallDeadline: 180 s asked is 210 s
// waited).
func TestCallWaitsAsLongAsTheTool(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	_, _, id := longKtrdr(t, 3*time.Second)
	args := `{"operation_id":"` + id + `","timeout_seconds":20}`
	code, out, errs := runCLI(t, "", "call", "--timeout", "1s", "ktrdr", "wait_for_operation", args)
	if code != exitOK || !strings.Contains(out, `"finished": true`) {
		t.Fatalf("call: exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	for _, cmd := range []string{"shell", "batch"} {
		_, _, id = longKtrdr(t, 3*time.Second)
		line := `wait_for_operation {"operation_id":"` + id + `","timeout_seconds":20}` + "\n"
		code, out, errs = runCLI(t, line, cmd, "--timeout", "1s", "ktrdr")
		if code != exitOK || !strings.Contains(out, `"finished": true`) {
			t.Fatalf("%s: exit %d\nstdout %s\nstderr %s", cmd, code, out, errs)
		}
	}
	// A tool without a timeout argument still gets the --timeout floor.
	code, _, errs = runCLI(t, "", "call", "--timeout", "1ms", "ktrdr", "health_check")
	if code != exitNoServer || !strings.Contains(errs, "gave no answer within") {
		t.Fatalf("1 ms floor: exit %d, stderr %s", code, errs)
	}
}

// cliBinary builds the mcpfleet CLI itself (the shell's line editor needs a
// terminal, so the pty test runs it as a process).
func cliBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(buildFleet(t), "mcpfleet")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/mcpfleet")
	cmd.Dir = repoRoot(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build mcpfleet: %v\n%s", err, out)
	}
	return bin
}

// ptyOutput collects what the shell writes to its terminal.
type ptyOutput struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (p *ptyOutput) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.Write(b)
}

func (p *ptyOutput) String() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.buf.String()
}

// waitFor waits until the terminal shows want after from, and returns where it ends.
func (p *ptyOutput) waitFor(t *testing.T, from int, want string, within time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		s := p.String()
		if from <= len(s) {
			if i := strings.Index(s[from:], want); i >= 0 {
				return from + i + len(want)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("the terminal never showed %q; it shows:\n%s", want, p.String())
	return 0
}

// TestShellCtrlCCancelsTheCallAndKeepsTheShell: in `mcpfleet shell` on a
// terminal, Ctrl-C during a long wait_for_operation cancels that call: the
// server stops polling the backend (notifications/cancelled reached it), the
// prompt comes back, and the same server process answers the next call.
// Before, the terminal's SIGINT reached the server too and ended the session.
func TestShellCtrlCCancelsTheCallAndKeepsTheShell(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bin := cliBinary(t) // before longKtrdr: its environment has a HOME of its own
	f, base, id := longKtrdr(t, 10*time.Minute)
	statusPath := strings.TrimPrefix(base, "http://")
	statusPath = statusPath[strings.Index(statusPath, "/"):] + "/operations/" + id
	cmd := exec.Command(bin, "shell", "ktrdr")
	cmd.Env = os.Environ()
	tty, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	out := &ptyOutput{}
	go func() { _, _ = io.Copy(out, tty) }()

	at := out.waitFor(t, 0, "ktrdr> ", 30*time.Second)
	if _, err := tty.WriteString(`wait_for_operation {"operation_id":"` + id + `","timeout_seconds":300}` + "\r"); err != nil {
		t.Fatal(err)
	}
	at = out.waitFor(t, at, "%", 30*time.Second)    // the progress bar: the call is in flight
	time.Sleep(700 * time.Millisecond)              // a few polls
	if _, err := tty.Write([]byte{3}); err != nil { // Ctrl-C
		t.Fatal(err)
	}
	at = out.waitFor(t, at, "cancelled:", 10*time.Second)
	at = out.waitFor(t, at, "ktrdr> ", 10*time.Second)
	polls := f.Count("GET", statusPath)
	time.Sleep(3 * time.Second) // the wait polls every 0.5-5 s: a live wait would poll again
	if after := f.Count("GET", statusPath); after != polls {
		t.Fatalf("the server kept polling after Ctrl-C (%d → %d polls): the cancellation never reached it", polls, after)
	}
	if _, err := tty.WriteString("health_check\r"); err != nil {
		t.Fatal(err)
	}
	at = out.waitFor(t, at, `"status": "healthy"`, 20*time.Second)
	if _, err := tty.WriteString("quit\r"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("the shell did not end on quit:\n%s", out.String())
	}
	if f.Status(id) != fake.StatusRunning {
		t.Fatalf("the training is %s: cancelling the wait must not cancel the operation", f.Status(id))
	}
}
