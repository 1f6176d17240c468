package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestOfficialGoSDKClient drives every server with the official Go SDK client
// (github.com/modelcontextprotocol/go-sdk v1.8.0) over stdio and streamable
// HTTP in both protocol eras: connect (initialize or server/discover), list
// tools, a valid call, an invalid one, an unknown tool, resources, and per
// server what it promises: live resource updates (shoonya), progress before
// the result and cancellation (ktrdr).
func TestOfficialGoSDKClient(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			env := interopUpstream(t, bins, s.Name)
			for _, era := range interopEras {
				for _, tr := range interopTransports {
					t.Run(era+"/"+tr, func(t *testing.T) {
						r := &goRun{t: t, server: s.Name, era: era, transport: tr, bin: filepath.Join(bins, s.Name), env: env}
						r.run()
					})
				}
			}
		})
	}
}

// goRun is one server, era and transport driven by the Go SDK client.
type goRun struct {
	t                      *testing.T
	server, era, transport string
	bin                    string
	env                    []string

	wire    wire
	stderr  servetest.Buffer
	mu      sync.Mutex
	updates map[string]int // resources/updated per URI
	onProg  func(*gosdk.ProgressNotificationParams)
}

// fail names where the run broke; the subtest name says the same, for logs
// that lose it.
func (r *goRun) fail(step string, format string, args ...any) {
	r.t.Helper()
	r.t.Errorf("go-sdk %s %s %s: %s: %s", r.server, r.era, r.transport, step, fmt.Sprintf(format, args...))
}

func (r *goRun) run() {
	t := r.t
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r.updates = map[string]int{}
	client := gosdk.NewClient(&gosdk.Implementation{Name: "mcpfleet-interop", Version: "1"}, &gosdk.ClientOptions{
		Capabilities: &gosdk.ClientCapabilities{},
		ResourceUpdatedHandler: func(_ context.Context, req *gosdk.ResourceUpdatedNotificationRequest) {
			r.mu.Lock()
			r.updates[req.Params.URI]++
			r.mu.Unlock()
		},
		ProgressNotificationHandler: func(_ context.Context, req *gosdk.ProgressNotificationClientRequest) {
			r.mu.Lock()
			f := r.onProg
			r.mu.Unlock()
			if f != nil {
				f(req.Params)
			}
		},
	})
	cs, err := client.Connect(ctx, r.transportFor(), &gosdk.ClientSessionOptions{ProtocolVersion: r.era})
	if err != nil {
		r.fail("connect", "%v\nserver stderr: %s", err, r.stderr.String())
		return
	}
	defer func() {
		if err := cs.Close(); err != nil && !errors.Is(err, gosdk.ErrConnectionClosed) && r.transport == "http" {
			r.fail("close", "%v", err)
		}
	}()
	init := cs.InitializeResult()
	if init.ProtocolVersion != r.era {
		r.fail("connect", "negotiated %s", init.ProtocolVersion)
	}
	plan := interopPlans[r.server]
	r.capabilities(init.Capabilities, plan)

	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) == 0 {
		r.fail("tools/list", "err %v, result %+v", err, tools)
		return
	}
	r.call(ctx, cs, "call valid", plan.Valid, false)
	r.call(ctx, cs, "call invalid", plan.Invalid, true)
	if _, err := cs.CallTool(ctx, &gosdk.CallToolParams{Name: "no_such_tool", Arguments: map[string]any{}}); err == nil ||
		!strings.Contains(err.Error(), "unknown tool") {
		r.fail("call unknown tool", "want a JSON-RPC error naming the unknown tool, got %v", err)
	}
	r.resources(ctx, cs)
	r.ping(ctx, cs)
	switch r.server {
	case "shoonya":
		r.liveFeed(ctx, cs)
	case "ktrdr":
		r.progress(ctx, cs)
		r.cancellation(ctx, cs)
	}
	// The session is still usable after every step.
	if _, err := cs.ListTools(ctx, nil); err != nil {
		r.fail("tools/list at the end", "%v", err)
	}
	if t.Failed() {
		t.Logf("received on the wire:\n%.6000s\nserver stderr:\n%.4000s", r.wire.String(), r.stderr.String())
	}
}

func (r *goRun) transportFor() gosdk.Transport {
	t := r.t
	if r.transport == "http" {
		base := startHTTP(t, r.bin, r.env)
		rec := recordingRT{rt: bearer{http.DefaultTransport}, w: &r.wire}
		return &gosdk.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: rec}, MaxRetries: -1}
	}
	cmd := exec.Command(r.bin)
	cmd.Env = r.env
	cmd.Stderr = &r.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = stdin.Close(); _ = cmd.Process.Kill(); _ = cmd.Wait() })
	return &gosdk.IOTransport{Reader: teeReadCloser{io.TeeReader(stdout, &r.wire), stdout}, Writer: stdin}
}

type teeReadCloser struct {
	io.Reader
	io.Closer
}

// recordingRT copies every response body into w as the client reads it.
type recordingRT struct {
	rt http.RoundTripper
	w  io.Writer
}

func (c recordingRT) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.rt.RoundTrip(r)
	if err == nil {
		resp.Body = teeReadCloser{io.TeeReader(resp.Body, c.w), resp.Body}
	}
	return resp, err
}

// capabilities: a server advertises resource subscriptions only when it has
// resources a client can watch.
func (r *goRun) capabilities(caps *gosdk.ServerCapabilities, plan interopPlan) {
	if caps == nil || caps.Tools == nil {
		r.fail("capabilities", "no tools capability: %+v", caps)
		return
	}
	sub := caps.Resources != nil && caps.Resources.Subscribe
	if sub != plan.Subscribable {
		r.fail("capabilities", "resources.subscribe is %v; the server has %s", sub,
			map[bool]string{true: "resources to watch", false: "no resource to watch"}[plan.Subscribable])
	}
}

func (r *goRun) call(ctx context.Context, cs *gosdk.ClientSession, step string, c interopCall, wantError bool) *gosdk.CallToolResult {
	r.t.Helper()
	res, err := cs.CallTool(ctx, &gosdk.CallToolParams{Name: c.Tool, Arguments: c.Args})
	if err != nil {
		r.fail(step, "%s: protocol error %v", c.Tool, err)
		return nil
	}
	b, _ := json.Marshal(res)
	if res.IsError != wantError || !strings.Contains(string(b), c.Want) {
		r.fail(step, "%s: isError %v (want %v), want %q in %.600s", c.Tool, res.IsError, wantError, c.Want, b)
	}
	return res
}

// ping is answered in 2025-11-25 and removed in 2026-07-28 (-32601). The Go
// SDK sends it without request _meta in both eras: over HTTP its
// MCP-Protocol-Version header says 2026-07-28, so the server answers -32601;
// on stdio nothing but _meta carries the era, and a request without it is a
// 2025-11-25 request (2026-07-28 requires _meta on every request), so it is
// answered. With _meta, stdio answers -32601 too (pkg/serve's tests).
func (r *goRun) ping(ctx context.Context, cs *gosdk.ClientSession) {
	err := cs.Ping(ctx, nil)
	removed := r.era >= "2026-07-28" && r.transport == "http"
	switch {
	case !removed && err != nil:
		r.fail("ping", "%v", err)
	case removed && (err == nil || !strings.Contains(err.Error(), "removed")):
		r.fail("ping", "want -32601 (removed in 2026-07-28), got %v", err)
	}
}

// resources lists resources and templates and reads the first resource.
func (r *goRun) resources(ctx context.Context, cs *gosdk.ClientSession) {
	caps := cs.InitializeResult().Capabilities
	if caps.Resources == nil {
		return
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		r.fail("resources/list", "%v", err)
		return
	}
	if _, err := cs.ListResourceTemplates(ctx, nil); err != nil {
		r.fail("resources/templates/list", "%v", err)
	}
	if len(list.Resources) == 0 {
		return
	}
	uri := list.Resources[0].URI
	got, err := cs.ReadResource(ctx, &gosdk.ReadResourceParams{URI: uri})
	if err != nil || len(got.Contents) == 0 {
		r.fail("resources/read", "%s: err %v", uri, err)
	}
	if _, err := cs.ReadResource(ctx, &gosdk.ReadResourceParams{URI: "nosuch://resource"}); err == nil {
		r.fail("resources/read unknown", "nosuch://resource was read")
	}
}

// liveFeed: after subscribe_market_feeds, a client watching an instrument's
// resource and the all-instruments resource gets resources/updated as ticks
// arrive (legacy: resources/subscribe; 2026-07-28: subscriptions/listen).
func (r *goRun) liveFeed(ctx context.Context, cs *gosdk.ClientSession) {
	r.call(ctx, cs, "subscribe_market_feeds", interopCall{"subscribe_market_feeds",
		map[string]any{"instruments": []string{"NSE|22"}}, "NSE"}, false)
	const one, all = "shoonya://feed/NSE/22", "shoonya://feed"
	for _, uri := range []string{one, all} {
		if err := cs.Subscribe(ctx, &gosdk.SubscribeParams{URI: uri}); err != nil {
			r.fail("subscribe", "%s: %v", uri, err)
			return
		}
	}
	if r.era == "2025-11-25" {
		if err := cs.Subscribe(ctx, &gosdk.SubscribeParams{URI: "shoonya://nosuch"}); err == nil {
			r.fail("subscribe unknown URI", "shoonya://nosuch was accepted")
		}
	}
	// Ticks every 100 ms on the fake: a handful of updates is well within
	// the wait; none at all is a feed that never reaches this client.
	deadline := time.Now().Add(30 * time.Second)
	for {
		r.mu.Lock()
		n1, nAll := r.updates[one], r.updates[all]
		r.mu.Unlock()
		if n1 >= 3 && nAll >= 1 {
			break
		}
		if time.Now().After(deadline) {
			r.fail("resources/updated", "%d updates of %s, %d of %s", n1, one, nAll, all)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, uri := range []string{one, all} {
		if err := cs.Unsubscribe(ctx, &gosdk.UnsubscribeParams{URI: uri}); err != nil {
			r.fail("unsubscribe", "%s: %v", uri, err)
		}
	}
}

// startLoad starts a ktrdr data load and returns its operation id.
func (r *goRun) startLoad(ctx context.Context, cs *gosdk.ClientSession) string {
	res := r.call(ctx, cs, "trigger_data_loading", interopCall{"trigger_data_loading",
		map[string]any{"symbol": "AAPL", "timeframe": "1h", "mode": "tail"}, "operation_id"}, false)
	if res == nil {
		return ""
	}
	b, _ := json.Marshal(res.StructuredContent)
	var out struct {
		OperationID string `json:"operation_id"`
	}
	_ = json.Unmarshal(b, &out)
	if out.OperationID == "" {
		r.fail("trigger_data_loading", "no operation_id in %s", b)
	}
	return out.OperationID
}

// progress: wait_for_operation with a progress token sends increasing
// notifications/progress, every one before the result.
func (r *goRun) progress(ctx context.Context, cs *gosdk.ClientSession) {
	id := r.startLoad(ctx, cs)
	if id == "" {
		return
	}
	token := "interop-progress-" + r.era + "-" + r.transport
	var got []float64
	r.mu.Lock()
	r.onProg = func(p *gosdk.ProgressNotificationParams) {
		if p.ProgressToken == token {
			r.mu.Lock()
			got = append(got, p.Progress)
			r.mu.Unlock()
		}
	}
	r.mu.Unlock()
	defer func() { r.mu.Lock(); r.onProg = nil; r.mu.Unlock() }()
	params := &gosdk.CallToolParams{Name: "wait_for_operation", Arguments: map[string]any{"operation_id": id, "timeout_seconds": 60}}
	params.SetProgressToken(token)
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		r.fail("progress", "wait_for_operation: err %v, result %+v", err, res)
		return
	}
	// The result's structured content, not the tool's output schema in tools/list.
	if err := progressOrder(r.wire.String(), token, regexp.MustCompile(`"waited_seconds":[0-9]`)); err != nil {
		r.fail("progress", "%v", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := 1; i < len(got); i++ {
		if got[i] <= got[i-1] {
			r.fail("progress", "progress did not increase: %v", got)
		}
	}
}

// cancellation: a client that cancels wait_for_operation gets its call back at
// once (the SDK: context.Canceled), and the session keeps working.
func (r *goRun) cancellation(ctx context.Context, cs *gosdk.ClientSession) {
	id := r.startLoad(ctx, cs)
	if id == "" {
		return
	}
	token := "interop-cancel-" + r.era + "-" + r.transport
	callCtx, cancelCall := context.WithCancel(ctx)
	defer cancelCall()
	r.mu.Lock()
	r.onProg = func(p *gosdk.ProgressNotificationParams) {
		if p.ProgressToken == token {
			cancelCall() // the wait is under way: cancel it
		}
	}
	r.mu.Unlock()
	defer func() { r.mu.Lock(); r.onProg = nil; r.mu.Unlock() }()
	params := &gosdk.CallToolParams{Name: "wait_for_operation", Arguments: map[string]any{"operation_id": id, "timeout_seconds": 60}}
	params.SetProgressToken(token)
	if _, err := cs.CallTool(callCtx, params); !errors.Is(err, context.Canceled) {
		r.fail("cancellation", "wait_for_operation after cancel: %v", err)
	}
	// The cancelled request's notification (stdio; the SDK also POSTs it
	// over HTTP) must not break the session.
	r.call(ctx, cs, "call after cancellation", interopPlans["ktrdr"].Valid, false)
}
