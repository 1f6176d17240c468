package drift

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redact"
)

// Exit codes of a probe (the server's drift-probe command and
// `mcpfleet doctor --live`): the most severe route decides.
const (
	ExitOK         = 0
	ExitUsage      = 2
	ExitNoProbe    = 3 // the probe could not run (no binary, bad configuration)
	ExitDeprecated = 5
	ExitDrifted    = 6
	ExitFailing    = 7
)

// ExitCode maps the worst status to its exit code.
func ExitCode(status string) int {
	switch status {
	case StatusDepr:
		return ExitDeprecated
	case StatusDrift:
		return ExitDrifted
	case StatusFailed:
		return ExitFailing
	}
	return ExitOK
}

// Report is one server's probe, the JSON the drift-probe command prints
// (docs/drift.md documents it; `mcpfleet doctor --live --json` prints a
// list of them).
type Report struct {
	Server    string    `json:"server"`
	Status    string    `json:"status"`
	CheckedAt time.Time `json:"checked_at"`
	Routes    []Result  `json:"routes"`
	Error     string    `json:"error,omitempty"`
}

// Setup builds a server's probes from its environment (the same settings
// the server reads) and returns the shapes they are checked against.
type Setup func(ctx context.Context) ([]Probe, []Shape, error)

// Command is a server's "drift-probe" subcommand: it runs setup's probes
// and prints one Report as JSON on stdout. Flags: --include-paid.
func Command(server string, setup Setup) func(ctx context.Context, args []string) int {
	return func(ctx context.Context, args []string) int {
		return runCommand(ctx, server, setup, args, os.Stdout, os.Stderr)
	}
}

func runCommand(ctx context.Context, server string, setup Setup, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(server+" drift-probe", flag.ContinueOnError)
	fs.SetOutput(stderr)
	paid := fs.Bool("include-paid", false, "also run probes that cost money (an OpenAI search)")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	rep := Report{Server: server, CheckedAt: time.Now().UTC(), Routes: []Result{}}
	code := ExitOK
	probes, shapes, err := setup(ctx)
	var un Unprobed
	if errors.As(err, &un) {
		rep.Status, rep.Error = StatusSkip, un.Error()
		b, _ := json.Marshal(rep)
		fmt.Fprintln(stdout, string(b))
		return ExitOK
	}
	if err != nil {
		rep.Status, rep.Error, code = StatusFailed, err.Error(), ExitNoProbe
	} else {
		rep.Routes = Run(ctx, probes, shapes, Options{IncludePaid: *paid})
		rep.Status = Worst(rep.Routes)
		code = ExitCode(rep.Status)
	}
	b, _ := json.Marshal(rep)
	// The messages are the clients' own scrubbed errors; this is the last
	// net for a secret a client learnt at run time (a session token).
	fmt.Fprintln(stdout, redact.String(string(b)))
	return code
}

// Unprobed is a Setup error for a server whose upstream is not probed
// live, with the reason: its report is "skipped", exit 0, and its run-time
// watch still reports drift. From a Sender it skips that one route (Noren
// refusing a session that expired: no answer to judge).
type Unprobed string

func (u Unprobed) Error() string { return string(u) }
