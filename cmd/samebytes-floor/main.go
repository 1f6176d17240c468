// Command samebytes-floor is the benchmark floor of issue 20, as a process: a
// bare mcp-go server whose one tool answers exactly the structured bytes and
// text a real server's tool answered (no validation, middleware, hooks or
// logging), so ours-vs-floor over a real transport compares the same answer.
// Benchmark-only; nothing in the product runs it.
//
//	samebytes-floor capture --tool T --args JSON -- CMD ARGS... > answer.json
//	samebytes-floor serve --answer answer.json [--http 127.0.0.1:PORT]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// answerFile is what capture writes and serve reads.
type answerFile struct {
	Tool       string          `json:"tool"`
	Structured json.RawMessage `json:"structured"`
	Text       string          `json:"text"`
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "samebytes-floor:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: samebytes-floor capture|serve [flags]")
	}
	switch args[0] {
	case "capture":
		return capture(args[1:], stdout)
	case "serve":
		return serveFloor(args[1:])
	}
	return fmt.Errorf("unknown command %q (capture or serve)", args[0])
}

// capture starts CMD over stdio, calls the tool once and prints its answer.
func capture(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("capture", flag.ContinueOnError)
	tool := fs.String("tool", "", "tool to call")
	argsJSON := fs.String("args", "{}", "JSON arguments")
	repeat := fs.Int("calls", 2, "calls before capturing (the last answer is kept: a cached read is cached by then)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cmd := fs.Args()
	if *tool == "" || len(cmd) == 0 {
		return errors.New("capture needs --tool and a server command after --")
	}
	var targs map[string]any
	if err := json.Unmarshal([]byte(*argsJSON), &targs); err != nil {
		return fmt.Errorf("--args: %w", err)
	}
	c, err := client.NewStdioMCPClient(cmd[0], os.Environ(), cmd[1:]...)
	if err != nil {
		return err
	}
	defer func() { _ = c.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := servetest.Initialize(ctx, c, mcp.LATEST_PROTOCOL_VERSION); err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	var req mcp.CallToolRequest
	req.Params.Name = *tool
	req.Params.Arguments = targs
	var res *mcp.CallToolResult
	for range max(*repeat, 1) {
		if res, err = c.CallTool(ctx, req); err != nil {
			return err
		}
	}
	if res.IsError {
		return fmt.Errorf("%s answered an error: %s", *tool, servetest.Text(res))
	}
	a := answerFile{Tool: *tool, Structured: res.RawStructuredContent, Text: servetest.Text(res)}
	return json.NewEncoder(stdout).Encode(a)
}

// serveFloor serves one captured answer over stdio, or streamable HTTP with
// mcp-go's defaults (as the mcpbench echo anchor does).
func serveFloor(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	file := fs.String("answer", "", "answer.json from capture")
	addr := fs.String("http", "", "serve streamable HTTP on this address instead of stdio")
	if err := fs.Parse(args); err != nil {
		return err
	}
	b, err := os.ReadFile(*file)
	if err != nil {
		return err
	}
	var a answerFile
	if err := json.Unmarshal(b, &a); err != nil || a.Tool == "" {
		return fmt.Errorf("%s is not a captured answer: %v", *file, err)
	}
	srv := servetest.Floor(a.Tool, servetest.Answer{Structured: a.Structured, Text: a.Text})
	stop, err := recordUntilSignal()
	if err != nil {
		return err
	}
	defer stop()
	if *addr != "" {
		return server.NewStreamableHTTPServer(srv).Start(*addr)
	}
	return server.ServeStdio(srv)
}

// recordUntilSignal writes a CPU profile (MCPFLEET_CPUPROFILE) and a runtime
// trace (MCPFLEET_TRACE), as the servers do, with the servers' own
// serve.StartRecordings, until the process is told to
// stop or its serving ends, so the floor's recordings sit beside ours in the
// same run (issue 20). mcp-go's bare servers do not return on a signal, hence
// the handler, which ends every recording before it exits.
func recordUntilSignal() (func(), error) {
	stopAll, err := serve.StartRecordings(os.Getenv)
	if err != nil {
		if stopAll != nil {
			stopAll()
		}
		return nil, err
	}
	if stopAll == nil {
		return func() {}, nil
	}
	var once sync.Once
	stop := func() { once.Do(stopAll) }
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	go func() {
		<-sig
		stop()
		os.Exit(0)
	}()
	return stop, nil
}
