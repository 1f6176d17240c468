// Command mcpfleet lists the fleet's servers and their tools, calls a tool end
// to end over stdio, and prints client configuration snippets.
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

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

const usage = `usage:
  mcpfleet list                                   the servers
  mcpfleet tools SERVER                           the tools SERVER serves (spawns bin/SERVER)
  mcpfleet call SERVER TOOL '{"arg":"value"}'     call one tool over stdio and print the result
  mcpfleet config --client claude-desktop|claude-code|cursor|vscode --servers a,b
Binaries are looked up in $MCPFLEET_BIN, then next to mcpfleet, then ./bin, then $PATH.
Exit codes: 0 ok, 1 the tool answered an error, 2 usage, 3 the server could not be run.`

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	switch args[0] {
	case "list":
		for _, s := range servers {
			fmt.Fprintf(stdout, "%-10s %s\n", s.Name, s.Summary)
		}
		return 0
	case "tools":
		if len(args) != 2 {
			fmt.Fprintln(stderr, usage)
			return 2
		}
		return listTools(args[1], stdout, stderr)
	case "call":
		if len(args) < 3 || len(args) > 4 {
			fmt.Fprintln(stderr, usage)
			return 2
		}
		raw := "{}"
		if len(args) == 4 {
			raw = args[3]
		}
		return callTool(args[1], args[2], raw, stdout, stderr)
	case "config":
		return config(args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "unknown command %q\n%s\n", args[0], usage)
	return 2
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

// connect spawns the server over stdio and initializes a client.
func connect(ctx context.Context, name string) (*client.Client, error) {
	if _, ok := findServer(name); !ok {
		return nil, fmt.Errorf("unknown server %q; `mcpfleet list` shows them", name)
	}
	bin, err := binary(name)
	if err != nil {
		return nil, err
	}
	c, err := client.NewStdioMCPClient(bin, os.Environ())
	if err != nil {
		return nil, err
	}
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "mcpfleet", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		c.Close()
		return nil, fmt.Errorf("initialize %s: %w", name, err)
	}
	return c, nil
}

func listTools(name string, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := connect(ctx, name)
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return 3
	}
	defer c.Close()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return 3
	}
	for _, t := range res.Tools {
		summary, _, _ := strings.Cut(t.Description, "\n")
		ro := "write"
		if t.Annotations.ReadOnlyHint != nil && *t.Annotations.ReadOnlyHint {
			ro = "read"
		}
		fmt.Fprintf(stdout, "%-34s %-5s %s\n", t.Name, ro, summary)
	}
	return 0
}

func callTool(name, tool, raw string, stdout, stderr io.Writer) int {
	var args map[string]any
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		fmt.Fprintf(stderr, "mcpfleet: the arguments must be a JSON object: %v\n", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	c, err := connect(ctx, name)
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return 3
	}
	defer c.Close()
	var req mcp.CallToolRequest
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return 3
	}
	out := map[string]any{"isError": res.IsError}
	if res.StructuredContent != nil {
		out["structuredContent"] = res.StructuredContent
	} else {
		var texts []string
		for _, c := range res.Content {
			if tc, ok := c.(mcp.TextContent); ok {
				texts = append(texts, tc.Text)
			}
		}
		out["text"] = strings.Join(texts, "\n")
	}
	for _, c := range res.Content {
		if ic, ok := c.(mcp.ImageContent); ok {
			out["image"] = map[string]any{"mimeType": ic.MIMEType, "base64Bytes": len(ic.Data)}
		}
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
	if res.IsError {
		return 1
	}
	return 0
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
