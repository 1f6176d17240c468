package sandbox

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"syscall"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Outcomes of a run (Result.Outcome, the label of mcpfleet_sandbox_runs_total):
// decided by the server, never by text the code wrote.
const (
	OutcomeOK          = "ok"
	OutcomeError       = "error"   // the code raised or ended itself with a status ≠ 0
	OutcomeTimeout     = "timeout" // the server's wall clock, or the CPU limit the server set
	OutcomeCrash       = "crash"   // the interpreter was killed by a signal
	OutcomeTruncated   = "truncated"
	OutcomeCancelled   = "cancelled"
	OutcomeUnavailable = "unavailable"
)

// exitPreludeFailed is the prelude's own status when it could not start the
// code (its request unreadable); it counts as such only before the prelude's
// "run" line.
const exitPreludeFailed = 2

type verdictFacts struct {
	stdoutOver, stderrOver, reportOver, timedOut, cancelled bool
}

type verdictOut struct {
	success     bool
	outcome     string
	err         string
	unavailable string // a missing layer: only the helper says so
	layers      string
	unexpected  bool
	hideStderr  bool // stderr is the prelude's or the helper's, not the user's
}

// reportType is what an exception's type name may look like: a Python
// identifier (dotted for nested classes). The server's own errors all have a
// space or a parenthesis before their first colon ("timeout (wall clock):",
// "sandbox unavailable:"), so no exception can take their wording.
var reportType = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)

// runLine is what the prelude writes on the result pipe right before the
// code runs: the code cannot write before it.
const runLine = "run"

// exitStatus is the supervisor's line on statusFD.
type exitStatus struct {
	ok          bool // a line was read
	unavailable string
	signal      syscall.Signal
	code        int
	cpuUS       int64
}

func parseStatus(line string) exitStatus {
	f := strings.Fields(line)
	switch {
	case len(f) == 2 && f[0] == "unavailable":
		return exitStatus{ok: true, unavailable: f[1]}
	case len(f) == 4 && f[2] == "cpu_us":
		n, err1 := strconv.Atoi(f[1])
		cpu, err2 := strconv.ParseInt(f[3], 10, 64)
		if err1 != nil || err2 != nil {
			return exitStatus{}
		}
		switch f[0] {
		case "exit":
			return exitStatus{ok: true, code: n, cpuUS: cpu}
		case "signal":
			return exitStatus{ok: true, signal: syscall.Signal(n), cpuUS: cpu}
		}
	}
	return exitStatus{}
}

// verdict decides a run's outcome on the server's side from what the code
// cannot produce: the helper's first line on the result pipe (written
// before the interpreter exists), the supervisor's status line (the
// interpreter's real wait status and CPU time, on a descriptor the
// interpreter never holds) and the server's own facts (caps, wall clock,
// cancellation). Success is the interpreter exiting with status 0 by itself;
// any other status is the code's own and is named as such. The prelude's
// report, which the code could have written too, only supplies the text of
// an exception (exit status 1), shown as the exception it claims to be.
func (s *Sandbox) verdict(pipe, status string, f verdictFacts) verdictOut {
	first, rest, _ := strings.Cut(pipe, "\n")
	if layer, ok := strings.CutPrefix(first, "unavailable "); ok {
		return verdictOut{unavailable: strings.TrimSpace(layer), outcome: OutcomeUnavailable}
	}
	layers, ok := strings.CutPrefix(first, "ok ")
	if !ok {
		// bwrap failed before the helper ran (no namespaces, no bwrap...).
		return verdictOut{unavailable: LayerBwrap, outcome: OutcomeUnavailable}
	}
	st := parseStatus(status)
	if st.unavailable != "" {
		return verdictOut{unavailable: st.unavailable, outcome: OutcomeUnavailable}
	}
	started := rest == runLine || strings.HasPrefix(rest, runLine+"\n")
	v := verdictOut{layers: layers, outcome: OutcomeError}
	cpuLimitUS := int64(s.spec.CPUSeconds) * 1_000_000
	switch {
	case f.stdoutOver:
		v.outcome, v.err = OutcomeTruncated, fmt.Sprintf("output truncated: the code printed more than %d KiB and was stopped; print a summary instead", s.cfg.MaxOutput>>10)
	case f.stderrOver:
		v.outcome, v.err = OutcomeTruncated, fmt.Sprintf("output truncated: the code wrote more than %d KiB to stderr and was stopped", s.cfg.MaxStderr>>10)
	case f.reportOver:
		v.outcome, v.err = OutcomeTruncated, fmt.Sprintf("output truncated: the code wrote more than %d KiB to the sandbox's result channel and was stopped", maxReportBytes>>10)
	case f.timedOut:
		v.outcome, v.err = OutcomeTimeout, fmt.Sprintf("timeout (wall clock): the code ran longer than %s and was stopped", s.cfg.Timeout)
	case f.cancelled:
		v.outcome, v.err = OutcomeCancelled, "cancelled (request ended): the request ended before the code finished"
	case !st.ok:
		v.outcome, v.err = OutcomeCrash, "the sandbox's supervisor ended without reporting how the run ended"
		v.unexpected, v.hideStderr = true, !started
	case st.signal != 0 && (st.signal == syscall.SIGXCPU || st.signal == syscall.SIGKILL) && st.cpuUS >= cpuLimitUS-cpuLimitUS/20:
		// The kernel's CPU rlimit (soft: SIGXCPU, hard: SIGKILL), and the
		// process really used the CPU time the server allowed.
		v.outcome, v.err = OutcomeTimeout, fmt.Sprintf("timeout (CPU): the code used its %d s of CPU time and was stopped", s.spec.CPUSeconds)
	case st.signal != 0:
		v.outcome, v.err = OutcomeCrash, fmt.Sprintf("the Python process was killed by signal %s (%s)", signalName(st.signal), st.signal)
		v.unexpected = true
	case !started && st.code == exitPreludeFailed:
		v.err = "the sandbox could not start the code (its request could not be read)"
		v.unexpected, v.hideStderr = true, true
	case !started:
		v.err = fmt.Sprintf("the Python interpreter ended with exit status %d before the code started", st.code)
		v.unexpected, v.hideStderr = true, true
	case st.code == 0:
		v.success, v.outcome = true, OutcomeOK
	case st.code == 1:
		if kind, msg, ok := lastReport(rest); ok {
			v.err = kind
			if msg != "" {
				v.err += ": " + msg
			}
		} else {
			v.err = "the code ended the Python process with exit status 1 (no exception was reported)"
		}
	default:
		v.err = fmt.Sprintf("the code ended the Python process with exit status %d", st.code)
	}
	return v
}

// signalName is the signal's C name (SIGSEGV), so a model can look it up.
func signalName(sig syscall.Signal) string {
	names := map[syscall.Signal]string{
		syscall.SIGABRT: "SIGABRT", syscall.SIGBUS: "SIGBUS", syscall.SIGFPE: "SIGFPE", syscall.SIGILL: "SIGILL",
		syscall.SIGKILL: "SIGKILL", syscall.SIGPIPE: "SIGPIPE", syscall.SIGSEGV: "SIGSEGV", syscall.SIGSYS: "SIGSYS",
		syscall.SIGTERM: "SIGTERM", syscall.SIGTRAP: "SIGTRAP", syscall.SIGXCPU: "SIGXCPU", syscall.SIGXFSZ: "SIGXFSZ",
	}
	if n, ok := names[sig]; ok {
		return n
	}
	return "signal " + strconv.Itoa(int(sig))
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
