package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"syscall"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Exit statuses of the prelude: the run's done status (see doneStatus) when
// the code ran to its end, 1 it raised (the report says what), 2 the
// prelude itself failed. bwrap exits with its child's status, or 128+n when
// the child was killed by signal n.
const (
	exitRaised        = 1
	exitPreludeFailed = 2
	exitHelperFailed  = 3
)

type verdictFacts struct {
	stdoutOver, stderrOver, reportOver, timedOut, cancelled bool
}

type verdictOut struct {
	success     bool
	err         string
	unavailable string // a missing layer: only the helper's first line says so
	layers      string
	unexpected  bool
	hideStderr  bool // stderr is the prelude's or the helper's, not the user's
}

// reportType is what an exception's type name may look like: a Python
// identifier (dotted for nested classes), never text with spaces such as the
// server's own "sandbox unavailable: ...".
var reportType = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// verdict decides a run's outcome on the server's side, from what the code
// cannot forge: the helper's first line on the result pipe (written before
// any user code), the process's exit status and the supervisor's own facts
// (caps, wall clock, cancellation). Success is the exit status chosen for
// this run and told only to the prelude, not 0: code that ends the process
// itself has not run to its end. The prelude's report, which the code could
// have written too, only ever supplies the text of a failure the exit
// status already decided, and it is shown as the exception it claims to be.
func (s *Sandbox) verdict(pipe string, waitErr error, done int, f verdictFacts) verdictOut {
	first, rest, _ := strings.Cut(pipe, "\n")
	if layer, ok := strings.CutPrefix(first, "unavailable "); ok {
		return verdictOut{unavailable: strings.TrimSpace(layer)}
	}
	layers, ok := strings.CutPrefix(first, "ok ")
	if !ok {
		// bwrap failed before the helper ran (no namespaces, no bwrap...).
		return verdictOut{unavailable: LayerBwrap}
	}
	v := verdictOut{layers: layers}
	status, signal := exitOf(waitErr)
	switch {
	case f.stdoutOver:
		v.err = fmt.Sprintf("output truncated: the code printed more than %d KiB and was stopped; print a summary instead", s.cfg.MaxOutput>>10)
	case f.stderrOver:
		v.err = fmt.Sprintf("output truncated: the code wrote more than %d KiB to stderr and was stopped", s.cfg.MaxStderr>>10)
	case f.reportOver:
		v.err = fmt.Sprintf("output truncated: the code wrote more than %d KiB to the sandbox's result channel and was stopped", maxReportBytes>>10)
	case f.timedOut:
		v.err = fmt.Sprintf("timeout: the code ran longer than %s and was stopped", s.cfg.Timeout)
	case f.cancelled:
		v.err = "cancelled: the request ended before the code finished"
	case signal == syscall.SIGXCPU || signal == syscall.SIGKILL:
		v.err = fmt.Sprintf("timeout: the code used its %d s of CPU time and was stopped", s.spec.CPUSeconds)
	case signal != 0:
		v.err = fmt.Sprintf("the Python process crashed (signal %s)", signal)
		v.unexpected = true
	case status == done:
		v.success = true
	case status == exitRaised:
		if kind, msg, ok := lastReport(rest); ok {
			v.err = kind
			if msg != "" {
				v.err += ": " + msg
			}
		} else {
			v.err = "the Python process ended with status 1 and no report of its exception"
			v.unexpected = true
		}
	case status == exitPreludeFailed:
		v.err = "the sandbox could not start the code (its request could not be read)"
		v.unexpected, v.hideStderr = true, true
	default:
		v.err = fmt.Sprintf("the code ended the Python process itself (exit status %d) before it finished", status)
	}
	return v
}

// lastReport is the prelude's report: the last line of the pipe, a JSON
// object {"type", "message"} whose type looks like an exception's name.
func lastReport(rest string) (kind, msg string, ok bool) {
	rest = strings.TrimRight(rest, "\n")
	if i := strings.LastIndexByte(rest, '\n'); i >= 0 {
		rest = rest[i+1:]
	}
	var r struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	if json.Unmarshal([]byte(rest), &r) != nil || !reportType.MatchString(r.Type) || len(r.Type) > 200 {
		return "", "", false
	}
	return r.Type, extract.Cut(strings.ToValidUTF8(r.Message, "\uFFFD"), 4000), true
}

// exitOf is the exit status, or the signal that ended the helper: bwrap
// reports a child killed by signal n as status 128+n, and bwrap itself may
// be the one killed (by the wall clock or a cap).
func exitOf(err error) (int, syscall.Signal) {
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		if err == nil {
			return 0, 0
		}
		return -1, 0
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok {
		return ee.ExitCode(), 0
	}
	if ws.Signaled() {
		return -1, ws.Signal()
	}
	if c := ws.ExitStatus(); c > 128 && c < 128+65 {
		return c, syscall.Signal(c - 128)
	}
	return ws.ExitStatus(), 0
}
