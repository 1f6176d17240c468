package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/peterh/liner"
)

const shellHelp = `Type a call as: TOOL {"arg":"value"}   (arguments may be left out: TOOL alone sends {})
  tools            list the tools            help TOOL   a tool's arguments
  help             this text                 quit        end the session (also Ctrl-D)
Tab completes tool names; Ctrl-C cancels the call in flight.`

// lineReader is where a session's calls come from: a line editor on a
// terminal, plain lines from a pipe or file.
type lineReader interface {
	read(prompt string) (string, error)
	close()
}

type plainReader struct{ sc *bufio.Scanner }

func (p plainReader) read(string) (string, error) {
	if p.sc.Scan() {
		return p.sc.Text(), nil
	}
	if err := p.sc.Err(); err != nil {
		return "", err
	}
	return "", io.EOF
}
func (plainReader) close() {}

type ttyReader struct{ l *liner.State }

func (t ttyReader) read(prompt string) (string, error) {
	s, err := t.l.Prompt(prompt)
	if err == liner.ErrPromptAborted {
		return "", nil
	}
	if err == nil && strings.TrimSpace(s) != "" {
		t.l.AppendHistory(s)
	}
	return s, err
}
func (t ttyReader) close() { t.l.Close() }

// runSession is `mcpfleet shell` and `mcpfleet batch`: one server process for
// every call, so state (a broker login, a pending operation) carries over.
// batch stops at nothing: it runs every line and exits 1 if any call failed.
func runSession(cmd string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	saveDir := fs.String("save-images", "", "directory to write image results to")
	timeout := fs.Duration("timeout", defaultSessionTimeout, "longest one call may take; a tool's own timeout argument (timeout_seconds) plus 30s extends it")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	rest := fs.Args()
	if len(rest) < 1 || (cmd == "shell" && len(rest) != 1) || len(rest) > 2 {
		fmt.Fprintln(stderr, usage)
		return exitUsage
	}
	name := rest[0]
	in := stdin
	if cmd == "batch" && len(rest) == 2 && rest[1] != "-" {
		f, err := os.Open(rest[1])
		if err != nil {
			fmt.Fprintln(stderr, "mcpfleet:", err)
			return exitUsage
		}
		defer f.Close()
		in = f
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	s, err := openSession(ctx, name)
	cancel()
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return exitNoServer
	}
	defer s.Close()
	names := s.toolNames(context.Background())
	interactive := cmd == "shell" && isTerminal(stdout) && isFile(in)
	var r lineReader
	if interactive {
		l := liner.NewLiner()
		l.SetCtrlCAborts(true)
		l.SetCompleter(func(line string) []string {
			var out []string
			for _, n := range names {
				if strings.HasPrefix(n, line) {
					out = append(out, n+" ")
				}
			}
			return out
		})
		r = ttyReader{l}
		fmt.Fprintf(stdout, "%s: %d tools. `help` for how to call them.\n", name, len(names))
	} else {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 64*1024), 8*1024*1024)
		r = plainReader{sc}
	}
	defer r.close()
	failed := 0
	for {
		line, err := r.read(name + "> ")
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fmt.Fprintln(stderr, "mcpfleet:", err)
			}
			break
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		tool, raw, _ := strings.Cut(line, " ")
		raw = strings.TrimSpace(raw)
		switch tool {
		case "quit", "exit":
			return sessionExit(failed)
		case "help", "?":
			if raw == "" {
				fmt.Fprintln(stdout, shellHelp)
			} else {
				printToolHelp(s, raw, stdout)
			}
			continue
		case "tools":
			sorted := append([]string(nil), names...)
			sort.Strings(sorted)
			fmt.Fprintln(stdout, strings.Join(sorted, "\n"))
			continue
		}
		if !interactive {
			fmt.Fprintf(stdout, "> %s\n", line)
		}
		var callArgs map[string]any
		if raw != "" {
			if err := json.Unmarshal([]byte(raw), &callArgs); err != nil {
				fmt.Fprintf(stdout, "error: the arguments after %s must be one JSON object: %v\n", tool, err)
				failed++
				continue
			}
		}
		code := sessionCall(s, tool, callArgs, *timeout, *saveDir, stdout, stderr)
		if code == exitNoServer {
			return exitNoServer
		}
		if code != exitOK {
			failed++
		}
	}
	return sessionExit(failed)
}

func sessionExit(failed int) int {
	if failed > 0 {
		return exitToolErr
	}
	return exitOK
}

func isFile(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && f == os.Stdin
}

// sessionCall runs one call of a session; Ctrl-C cancels just that call
// (notifications/cancelled) and the session goes on.
func sessionCall(s *session, tool string, args map[string]any, timeout time.Duration, saveDir string, stdout, stderr io.Writer) int {
	update, finish := progressPrinter(stderr)
	res, interrupted, err := s.callWaiting(timeout, tool, args, update)
	finish()
	if interrupted {
		fmt.Fprintln(stdout, "cancelled:", err)
		return exitInterrupted
	}
	if err != nil {
		fmt.Fprintln(stdout, "error:", err)
		return exitFor(err)
	}
	if err := renderResult(stdout, res, tool, saveDir); err != nil {
		fmt.Fprintln(stdout, "error:", err)
	}
	if res.IsError {
		return exitToolErr
	}
	return exitOK
}

func printToolHelp(s *session, name string, w io.Writer) {
	ts, err := s.listTools(context.Background())
	if err != nil {
		fmt.Fprintln(w, "error:", err)
		return
	}
	for _, t := range ts {
		if t.Name == name {
			printTool(w, t)
			return
		}
	}
	fmt.Fprintln(w, "error:", (&unknownToolError{tool: name, server: s.name, suggestion: closestName(name, ts)}).Error())
}
