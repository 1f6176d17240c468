// Command mcpfleet lists the fleet's servers and their tools, calls a tool end
// to end over stdio, prints client configuration snippets, and issues,
// lists and revokes bearer tokens for the servers.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

const usage = `usage:
  mcpfleet list [--json]                          the servers (--json: name, port, env vars; for cmd/mkdist)
  mcpfleet tools SERVER                           SERVER's tools with their arguments (types, defaults, enums)
  mcpfleet call [--save-images DIR] [--timeout 2m] SERVER TOOL '{"arg":"value"}'
                                                  call one tool over stdio and print the result as JSON
  mcpfleet shell [--save-images DIR] [--timeout 5m] SERVER
                                                  one server process, calls typed as TOOL {json}, Tab completes
  mcpfleet batch [--save-images DIR] [--timeout 5m] SERVER [FILE|-]
                                                  the calls in FILE (or stdin), one per line, in one process
  (a call waits --timeout, or as long as the tool's own timeout argument plus 30s; Ctrl-C cancels it)
  mcpfleet doctor [--state-dir DIR] [SERVER...]   check binaries, credentials, upstreams and Redis; say what to fix
  mcpfleet doctor --live [--json] [--include-paid] SERVER...|--all
                                                  read-only probe of every upstream route: ok, deprecated, drifted,
                                                  failing (exit 0, 5, 6, 7; docs/drift.md)
  mcpfleet config --client claude-desktop|claude-code|cursor|vscode --servers a,b
  mcpfleet token issue|list|revoke --server SERVER [--user ID] [--scopes read,write] [--expires 30d] [ID...]
                                                  bearer tokens for a team without an identity provider
                                                  (servers accept them with MCPFLEET_AUTH_ISSUED=1; mcpfleet token help)
  mcpfleet --version
Binaries are looked up in $MCPFLEET_BIN, then next to mcpfleet, then ./bin, then $PATH.
Exit codes: 0 ok, 1 a tool answered an error (doctor: something to fix), 2 usage, 3 the server could not be run,
4 the server refused the request (unknown tool, protocol error), 130 call cancelled by Ctrl-C.`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	return runWithInput(args, os.Stdin, stdout, stderr)
}

func runWithInput(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return exitUsage
	}
	switch args[0] {
	case "list":
		if len(args) == 2 && args[1] == "--json" {
			return listJSON(stdout, stderr)
		}
		for _, s := range servers {
			fmt.Fprintf(stdout, "%-16s %s\n", s.Name, s.Summary)
		}
		return exitOK
	case "tools":
		if len(args) != 2 {
			fmt.Fprintln(stderr, usage)
			return exitUsage
		}
		return listTools(args[1], stdout, stderr)
	case "call":
		return callCommand(args[1:], stdout, stderr)
	case "shell", "batch":
		return runSession(args[0], args[1:], stdin, stdout, stderr)
	case "doctor":
		return doctor(args[1:], stdout, stderr)
	case "config":
		return config(args[1:], stdout, stderr)
	case "token":
		return tokenCommand(args[1:], os.Getenv, stdout, stderr)
	case "--version", "-version", "version":
		fmt.Fprintln(stdout, "mcpfleet", cliVersion())
		return exitOK
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "unknown command %q\n%s\n", args[0], usage)
	return exitUsage
}

// binary finds a server's executable.
func binary(name string) (string, error) {
	var dirs []string
	if d := os.Getenv("MCPFLEET_BIN"); d != "" {
		dirs = append(dirs, d)
	}
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(exe))
	}
	dirs = append(dirs, "bin")
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return filepath.Abs(p)
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("no %s binary in $MCPFLEET_BIN, next to mcpfleet, ./bin or $PATH; run `make build`", name)
}

func listTools(name string, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s, err := openSession(ctx, name)
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return exitNoServer
	}
	defer s.Close()
	ts, err := s.listTools(ctx)
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return exitNoServer
	}
	for i, t := range ts {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		printTool(stdout, t)
	}
	return exitOK
}

// printTool shows one tool: name, read/write, summary, and each argument.
func printTool(w io.Writer, t mcp.Tool) {
	summary, _, _ := strings.Cut(t.Description, "\n")
	kind := "write"
	if t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint {
		kind = "read"
	}
	fmt.Fprintf(w, "%s (%s): %s\n", t.Name, kind, summary)
	schema := t.RawInputSchema
	if schema == nil {
		schema, _ = json.Marshal(t.InputSchema)
	}
	args := describeArgs(schema)
	if len(args) == 0 {
		fmt.Fprintln(w, "    (no arguments)")
	}
	for _, a := range args {
		fmt.Fprintln(w, "    "+a)
	}
}

func closestName(name string, ts []mcp.Tool) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return toolkit.Closest(name, names)
}

func callCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("call", flag.ContinueOnError)
	fs.SetOutput(stderr)
	saveDir := fs.String("save-images", "", "directory to write image results to")
	timeout := fs.Duration("timeout", defaultCallTimeout, "longest the call may take; a tool's own timeout argument (timeout_seconds) plus 30s extends it")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	rest := fs.Args()
	if len(rest) < 2 || len(rest) > 3 {
		fmt.Fprintln(stderr, usage)
		return exitUsage
	}
	raw := "{}"
	if len(rest) == 3 {
		raw = rest[2]
	}
	var callArgs map[string]any
	if err := json.Unmarshal([]byte(raw), &callArgs); err != nil {
		fmt.Fprintf(stderr, "mcpfleet: the arguments must be a JSON object: %v\n", err)
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	s, err := openSession(ctx, rest[0])
	cancel()
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return exitNoServer
	}
	defer s.Close()
	update, finish := progressPrinter(stderr)
	res, interrupted, err := s.callWaiting(*timeout, rest[1], callArgs, update)
	finish()
	if interrupted {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return exitInterrupted
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return exitFor(err)
	}
	var saved []string
	if *saveDir != "" {
		if saved, err = saveImages(res, *saveDir, rest[1]); err != nil {
			fmt.Fprintln(stderr, "mcpfleet:", err)
		}
	}
	callJSON(stdout, res, saved)
	if res.IsError {
		return exitToolErr
	}
	return exitOK
}

func config(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	fs.SetOutput(stderr)
	clientName := fs.String("client", "claude-desktop", "claude-desktop, claude-code, cursor or vscode")
	names := fs.String("servers", "", "comma-separated servers (default: all)")
	binDir := fs.String("bin-dir", "", "directory of the server binaries (default: next to mcpfleet)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	var picked []server
	if *names == "" {
		picked = servers
	} else {
		for _, n := range strings.Split(*names, ",") {
			s, ok := findServer(strings.TrimSpace(n))
			if !ok {
				fmt.Fprintf(stderr, "mcpfleet: unknown server %q; `mcpfleet list` shows them\n", n)
				return 2
			}
			picked = append(picked, s)
		}
	}
	dir := *binDir
	if dir == "" {
		if exe, err := os.Executable(); err == nil {
			dir = filepath.Dir(exe)
		}
	}
	out, err := clientConfig(*clientName, picked, dir)
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return 2
	}
	fmt.Fprintln(stdout, out)
	return 0
}

var errUnknownClient = errors.New("--client must be claude-desktop, claude-code, cursor or vscode")
