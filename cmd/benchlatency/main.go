// Command benchlatency measures what a user of an MCP server feels: the
// latency the server adds to a tool call whose upstream answers after a fixed
// delay, its peak RSS under that load, and its cold start. It runs the server
// as a client would (stdio, then streamable HTTP), in front of a proxy that
// delays every upstream request, and times the same upstream requests made
// directly as the anchor. .ci/bench-latency runs it for every server.
//
//	benchlatency -label ktrdr -upstream http://127.0.0.1:18932 -tool list_operations \
//	    -- bin/ktrdr --api-url '{upstream}/api/v1'
//	benchlatency bare   # the anchor server: bare mcp-go, one tool that sleeps -delay
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

type config struct {
	label, upstream, tool, args string
	delay                       time.Duration
	n, httpCalls, conc, cold    int
	env, setup                  listFlag
	command                     []string
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "bare" {
		bare(os.Args[2:])
		return
	}
	var c config
	flag.StringVar(&c.label, "label", "", "name in the results")
	flag.StringVar(&c.upstream, "upstream", "", "the fake upstream's base URL (empty: the server has none); {upstream} in the command and -env is the delaying proxy in front of it")
	flag.DurationVar(&c.delay, "delay", 50*time.Millisecond, "added to every upstream request")
	flag.StringVar(&c.tool, "tool", "", "tool to call")
	flag.StringVar(&c.args, "args", "{}", "its arguments (JSON); {n} is the call's number (8 digits), so calls can differ")
	flag.IntVar(&c.n, "n", 200, "sequential calls over stdio")
	flag.IntVar(&c.httpCalls, "http-calls", 800, "calls over streamable HTTP")
	flag.IntVar(&c.conc, "c", 16, "concurrent HTTP clients")
	flag.IntVar(&c.cold, "cold", 7, "cold starts (spawn to initialize answered)")
	flag.Var(&c.env, "env", "NAME=value for the server (repeatable)")
	flag.Var(&c.setup, "setup", "tool=args called once per process before measuring (repeatable)")
	flag.Parse()
	c.command = flag.Args()
	if c.tool == "" || len(c.command) == 0 {
		fmt.Fprintln(os.Stderr, "usage: benchlatency -label L -tool T [-upstream URL] -- server args...")
		os.Exit(2)
	}
	res, err := run(c)
	if err != nil {
		fmt.Fprintln(os.Stderr, c.label+":", err)
		os.Exit(1)
	}
	_ = json.NewEncoder(os.Stdout).Encode(res)
}

// result is one server's figures, in milliseconds and MiB.
type result struct {
	Label, Tool                    string
	UpstreamRequests               float64 // per call, as recorded over stdio
	StdioP50, StdioP99             float64
	StdioAnchorP50, StdioAnchorP99 float64
	HTTPP50, HTTPP99               float64
	HTTPAnchorP50, HTTPAnchorP99   float64
	StdioPeakRSSMiB                float64
	HTTPPeakRSSMiB                 float64
	ColdStartMs                    float64
}

func run(c config) (*result, error) {
	r := &result{Label: c.label, Tool: c.tool}
	px := &proxy{delay: c.delay}
	if c.upstream != "" {
		u, err := url.Parse(c.upstream)
		if err != nil {
			return nil, err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		px.rp = httputil.NewSingleHostReverseProxy(u)
		go func() { _ = http.Serve(ln, px) }()
		px.url = "http://" + ln.Addr().String()
	}
	subst := func(s string) string { return strings.ReplaceAll(s, "{upstream}", px.url) }
	var env, cmd []string
	for _, e := range c.env {
		env = append(env, subst(e))
	}
	for _, a := range c.command {
		cmd = append(cmd, subst(a))
	}
	argsOf := func(n int) map[string]any {
		var m map[string]any
		_ = json.Unmarshal([]byte(strings.ReplaceAll(c.args, "{n}", fmt.Sprintf("%08d", n))), &m)
		return m
	}

	// Cold start: spawn to initialize answered, the median of c.cold.
	var colds []time.Duration
	for range c.cold {
		start := time.Now()
		cl, _, err := startStdio(cmd, env)
		if err != nil {
			return nil, err
		}
		colds = append(colds, time.Since(start))
		_ = cl.Close()
	}
	r.ColdStartMs = ms(pct(colds, 50))

	// Sequential calls over stdio; each call's upstream requests are recorded.
	cl, pid, err := startStdio(cmd, env)
	if err != nil {
		return nil, err
	}
	if err := setup(cl, c.setup); err != nil {
		return nil, err
	}
	warm := c.n + c.httpCalls // warm-up calls get numbers no measured call has
	for i := range 5 {        // warm-up: first fetches, lazy state
		if _, err := call(cl, c.tool, argsOf(warm+i)); err != nil {
			return nil, err
		}
	}
	// Each call is followed at once by its anchor (the same upstream requests,
	// made directly), so both see the same state of a shared machine.
	var lat, anchor []time.Duration
	var calls [][]recorded
	for i := range c.n {
		px.record()
		d, err := call(cl, c.tool, argsOf(i))
		if err != nil {
			return nil, err
		}
		rs := px.take()
		lat = append(lat, d)
		calls = append(calls, rs)
		anchor = append(anchor, replay(px, [][]recorded{rs}, 1, 1)...)
	}
	r.StdioPeakRSSMiB = peakRSS(pid)
	_ = cl.Close()
	r.StdioP50, r.StdioP99 = ms(pct(lat, 50)), ms(pct(lat, 99))
	total := 0
	for _, rs := range calls {
		total += len(rs)
	}
	r.UpstreamRequests = float64(total) / float64(len(calls))
	r.StdioAnchorP50, r.StdioAnchorP99 = ms(pct(anchor, 50)), ms(pct(anchor, 99))

	// Streamable HTTP at c.conc clients, each with its own connection, in
	// blocks that alternate with blocks of the anchor at the same concurrency.
	if c.httpCalls == 0 { // stdio only: one process to profile
		return r, nil
	}
	anchorBlock := func(n int) []time.Duration { return replay(px, calls, n, c.conc) }
	lat, anchor, r.HTTPPeakRSSMiB, err = loadHTTP(c, cmd, env, argsOf, anchorBlock)
	if err != nil {
		return nil, err
	}
	r.HTTPP50, r.HTTPP99 = ms(pct(lat, 50)), ms(pct(lat, 99))
	r.HTTPAnchorP50, r.HTTPAnchorP99 = ms(pct(anchor, 50)), ms(pct(anchor, 99))
	return r, nil
}

// startStdio spawns the server and initializes a client; pid is the server's.
func startStdio(cmd, env []string) (*client.Client, int, error) {
	var proc *exec.Cmd
	t := transport.NewStdioWithOptions(cmd[0], env, cmd[1:],
		transport.WithCommandStderrWriter(io.Discard),
		transport.WithCommandFunc(func(ctx context.Context, command string, env, args []string) (*exec.Cmd, error) {
			// Not ctx: it ends when start-up does, and the process must outlive it.
			proc = exec.Command(command, args...)
			proc.Env = append(os.Environ(), env...)
			return proc, nil
		}))
	cl := client.NewClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := cl.Start(ctx); err != nil {
		return nil, 0, err
	}
	if err := initialize(ctx, cl); err != nil {
		_ = cl.Close()
		return nil, 0, err
	}
	return cl, proc.Process.Pid, nil
}

func initialize(ctx context.Context, cl *client.Client) error {
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "benchlatency", Version: "1"}
	_, err := cl.Initialize(ctx, init)
	return err
}

func setup(cl *client.Client, steps []string) error {
	for _, s := range steps {
		tool, args, _ := strings.Cut(s, "=")
		var m map[string]any
		_ = json.Unmarshal([]byte(args), &m)
		if _, err := call(cl, tool, m); err != nil {
			return fmt.Errorf("setup %s: %w", tool, err)
		}
	}
	return nil
}

// call times one tools/call; a protocol error or an isError result fails it.
func call(cl *client.Client, tool string, args map[string]any) (time.Duration, error) {
	var req mcp.CallToolRequest
	req.Params.Name, req.Params.Arguments = tool, args
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	res, err := cl.CallTool(ctx, req)
	d := time.Since(start)
	if err != nil {
		return d, fmt.Errorf("%s: %w", tool, err)
	}
	if res.IsError {
		b, _ := json.Marshal(res.Content)
		return d, fmt.Errorf("%s answered an error: %.300s", tool, b)
	}
	return d, nil
}

// loadHTTP serves the command over streamable HTTP and calls it from c.conc
// clients in httpBlocks blocks, each followed by a block of anchorBlock; it
// returns both latencies and the server's peak RSS.
func loadHTTP(c config, cmd, env []string, argsOf func(int) map[string]any, anchorBlock func(n int) []time.Duration) (lat, anchor []time.Duration, rss float64, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, 0, err
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	proc := exec.Command(cmd[0], append(cmd[1:], "--transport", "http", "--addr", addr)...)
	proc.Env = append(os.Environ(), env...)
	if err := proc.Start(); err != nil {
		return nil, nil, 0, err
	}
	defer stop(proc)
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if conn, err := net.Dial("tcp", addr); err == nil {
			_ = conn.Close()
			break
		}
		if time.Now().After(end) {
			return nil, nil, 0, fmt.Errorf("HTTP server did not listen on %s", addr)
		}
	}
	clients := make([]*client.Client, c.conc)
	for i := range clients {
		cl, err := client.NewStreamableHttpClient("http://" + addr + "/mcp")
		if err != nil {
			return nil, nil, 0, err
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = cl.Start(ctx)
		if err == nil {
			err = initialize(ctx, cl)
		}
		cancel()
		if err != nil {
			return nil, nil, 0, err
		}
		defer cl.Close()
		clients[i] = cl
	}
	if err := setup(clients[0], c.setup); err != nil {
		return nil, nil, 0, err
	}
	for i, cl := range clients { // warm-up
		if _, err := call(cl, c.tool, argsOf(c.n+c.httpCalls+5+i)); err != nil {
			return nil, nil, 0, err
		}
	}
	var mu sync.Mutex
	for b := range httpBlocks {
		work := make(chan int)
		var wg sync.WaitGroup
		for _, cl := range clients {
			wg.Go(func() {
				for n := range work {
					d, cerr := call(cl, c.tool, argsOf(n))
					mu.Lock()
					lat = append(lat, d)
					if cerr != nil && err == nil {
						err = cerr
					}
					mu.Unlock()
				}
			})
		}
		per := c.httpCalls / httpBlocks
		for n := b * per; n < (b+1)*per; n++ {
			work <- c.n + n // after the stdio calls' numbers: a state file shared by both loads caches nothing for these
		}
		close(work)
		wg.Wait()
		anchor = append(anchor, anchorBlock(per)...)
	}
	return lat, anchor, peakRSS(proc.Process.Pid), err
}

// httpBlocks is how many times the HTTP load and its anchor alternate.
const httpBlocks = 4

// recorded is one upstream request as the server sent it.
type recorded struct {
	method, uri string
	header      http.Header
	body        []byte
}

// proxy delays every request by delay, then forwards it to the fake upstream;
// while recording, it keeps what it forwards.
type proxy struct {
	rp    *httputil.ReverseProxy
	url   string
	delay time.Duration
	mu    sync.Mutex
	on    bool
	got   []recorded
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	if p.on {
		p.got = append(p.got, recorded{r.Method, r.URL.RequestURI(), r.Header.Clone(), body})
	}
	p.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	time.Sleep(p.delay)
	p.rp.ServeHTTP(w, r)
}

func (p *proxy) record() {
	p.mu.Lock()
	p.on, p.got = true, nil
	p.mu.Unlock()
}

func (p *proxy) take() []recorded {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.on = false
	return p.got
}

// replay is the anchor: the upstream requests of the recorded calls, made
// directly (through the same delaying proxy), n calls by conc workers; each
// sample is one call's requests in sequence. A call with no upstream request
// (a server without one, or a cache hit) is a zero sample.
func replay(p *proxy, calls [][]recorded, n, conc int) []time.Duration {
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: conc}}
	work := make(chan []recorded)
	var mu sync.Mutex
	var out []time.Duration
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			for rs := range work {
				start := time.Now()
				for _, rq := range rs {
					req, err := http.NewRequest(rq.method, p.url+rq.uri, bytes.NewReader(rq.body))
					if err != nil {
						continue
					}
					req.Header = rq.header.Clone()
					if resp, err := hc.Do(req); err == nil {
						_, _ = io.Copy(io.Discard, resp.Body)
						_ = resp.Body.Close()
					}
				}
				d := time.Since(start)
				mu.Lock()
				out = append(out, d)
				mu.Unlock()
			}
		})
	}
	for i := range n {
		work <- calls[i%len(calls)]
	}
	close(work)
	wg.Wait()
	return out
}

// pct is the p-th percentile (nearest rank).
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// peakRSS is the process's VmHWM in MiB (Linux), 0 where unknown.
func peakRSS(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseFloat(f[1], 64)
			return kb / 1024
		}
	}
	return 0
}

// bare is the anchor server: mcp-go alone, one tool "call" that GETs --get
// (the upstream, through the bench's delaying proxy) and answers "ok", over
// stdio or (--transport http) streamable HTTP. What a server costs beyond it
// is what the server itself adds.
func bare(args []string) {
	fs := flag.NewFlagSet("bare", flag.ExitOnError)
	get := fs.String("get", "", "URL the tool fetches")
	tr := fs.String("transport", "stdio", "stdio or http")
	addr := fs.String("addr", "127.0.0.1:0", "HTTP address")
	_ = fs.Parse(args)
	s := server.NewMCPServer("bare", "1", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("call"), func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, *get, nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
		return mcp.NewToolResultText("ok"), nil
	})
	var err error
	if *tr == "http" {
		err = server.NewStreamableHTTPServer(s).Start(*addr)
	} else {
		err = server.ServeStdio(s)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// stop ends a server as an operator does (SIGTERM), so it exits through its
// own shutdown (MCPFLEET_CPUPROFILE is written then); killed after 5 s.
func stop(proc *exec.Cmd) {
	_ = proc.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = proc.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = proc.Process.Kill()
		<-done
	}
}
