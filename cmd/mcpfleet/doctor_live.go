package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/redact"
)

// liveReport is `mcpfleet doctor --live --json`: the worst status and each
// server's probe (docs/drift.md documents the schema).
type liveReport struct {
	Status  string         `json:"status"`
	Servers []drift.Report `json:"servers"`
}

// probeTimeout bounds one server's whole probe.
const probeTimeout = 3 * time.Minute

// doctorLive runs each server's read-only drift probe (its binary's
// drift-probe command, with this environment: the operator's keys and
// network) and prints a table or JSON. Exit code: the worst route's
// (drift.ExitCode): 0 ok, 5 deprecated, 6 drifted, 7 failing; 2 usage.
func doctorLive(args []string, stdout, stderr io.Writer) int {
	redact.RegisterEnv() // the keys in this environment are scrubbed from everything printed
	var names []string
	all, asJSON, paid := false, false, false
	for _, a := range args {
		switch a {
		case "--live":
		case "--all":
			all = true
		case "--json":
			asJSON = true
		case "--include-paid":
			paid = true
		default:
			if strings.HasPrefix(a, "-") {
				fmt.Fprintf(stderr, "mcpfleet doctor: unknown flag %s\n%s\n", a, usage)
				return exitUsage
			}
			names = append(names, a)
		}
	}
	var picked []server
	switch {
	case all && len(names) > 0, !all && len(names) == 0:
		fmt.Fprintln(stderr, "mcpfleet doctor --live: name the servers to probe, or --all")
		return exitUsage
	case all:
		for _, s := range servers {
			if len(s.Upstreams) > 0 {
				picked = append(picked, s)
			}
		}
	default:
		for _, n := range names {
			s, ok := findServer(n)
			if !ok {
				fmt.Fprintf(stderr, "mcpfleet: unknown server %q; `mcpfleet list` shows them\n", n)
				return exitUsage
			}
			if len(s.Upstreams) == 0 {
				fmt.Fprintf(stderr, "mcpfleet doctor --live: %s has no upstream to probe\n", n)
				return exitUsage
			}
			picked = append(picked, s)
		}
	}
	rep := liveReport{Status: drift.OK, Servers: []drift.Report{}}
	for _, s := range picked {
		r := probeServer(s.Name, paid)
		rep.Servers = append(rep.Servers, r)
		if drift.ExitCode(r.Status) > drift.ExitCode(rep.Status) {
			rep.Status = r.Status
		}
	}
	if asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(stdout, redact.String(string(b)))
	} else {
		printLive(stdout, rep)
	}
	return drift.ExitCode(rep.Status)
}

// probeServer runs `<server> drift-probe`; a probe that cannot run is a
// failing report that says why.
func probeServer(name string, paid bool) drift.Report {
	fail := func(why string) drift.Report {
		return drift.Report{Server: name, Status: drift.StatusFailed, CheckedAt: time.Now().UTC(), Routes: []drift.Result{}, Error: why}
	}
	bin, err := binary(name)
	if err != nil {
		return fail(err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	args := []string{"drift-probe"}
	if paid {
		args = append(args, "--include-paid")
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = os.Environ()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	runErr := cmd.Run()
	var r drift.Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil || r.Server == "" {
		why := "its drift-probe command gave no report"
		if runErr != nil {
			why += " (" + runErr.Error() + ")"
		}
		if tail := strings.TrimSpace(errb.String()); tail != "" {
			why += ": " + lastLine(tail)
		}
		return fail(redact.String(why))
	}
	return r
}

func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

func printLive(w io.Writer, rep liveReport) {
	for _, s := range rep.Servers {
		fmt.Fprintf(w, "%s  %s\n", s.Server, strings.ToUpper(s.Status))
		if s.Error != "" {
			fmt.Fprintf(w, "  the probe did not run: %s\n", redact.String(s.Error))
		}
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
		if len(s.Routes) > 0 {
			fmt.Fprintln(tw, "  UPSTREAM\tROUTE\tREQUEST\tSTATUS\tHTTP\tMS\tDETAIL")
		}
		for _, r := range s.Routes {
			var detail []string
			for _, f := range r.Findings {
				detail = append(detail, f.String())
			}
			if r.Error != "" {
				detail = append(detail, r.Error)
			}
			code, ms := "-", "-"
			if r.HTTP != 0 {
				code = fmt.Sprint(r.HTTP)
			}
			if r.Status != drift.StatusSkip {
				ms = fmt.Sprint(r.LatencyMS)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s %s\t%s\t%s\t%s\t%s\n", r.Upstream, r.Route, r.Method, r.Path, r.Status, code, ms,
				redact.String(strings.Join(detail, "; ")))
		}
		_ = tw.Flush()
	}
	fmt.Fprintf(w, "overall: %s (exit %d)\n", rep.Status, drift.ExitCode(rep.Status))
}
