package serve

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// Canaries: an argument value and an API key that must appear in no span.
const (
	traceCanaryArg = "canaryARG7f3a9c"
	traceCanaryKey = "canary-KEY-b41d2e88aa"
)

type lookupIn struct {
	ID   string `json:"id" jsonschema:"the item"`
	Fail bool   `json:"fail,omitempty" jsonschema:"ask the flaky route"`
}

type lookupOut struct {
	OK bool `json:"ok"`
}

// fakeUpstream answers /items/<id> with 200 and /flaky/<id> with 503, and
// remembers whether any request carried trace headers.
type fakeUpstream struct {
	mu      sync.Mutex
	traced  []string
	queries []string
}

func (f *fakeUpstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	for _, h := range []string{"traceparent", "tracestate", "baggage"} {
		if v := r.Header.Get(h); v != "" {
			f.traced = append(f.traced, h+": "+v)
		}
	}
	f.queries = append(f.queries, r.URL.RawQuery)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if strings.HasPrefix(r.URL.Path, "/flaky/") {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, `{"error":"busy"}`)
		return
	}
	_, _ = io.WriteString(w, `{"ok":true}`)
}

func tracedApp(upURL string) App {
	up := upstream.New(upstream.Config{Name: "fakeup", BaseURL: upURL, SecretHeaders: map[string]string{"x-api-key": traceCanaryKey},
		RetryWait: time.Millisecond, RetryMaxWait: 2 * time.Millisecond})
	return App{Name: "tracesrv", Version: "0.0.1", DefaultPort: 8798,
		Register: func(ctx context.Context, r *Registry) error {
			r.AddTools(toolkit.New(toolkit.Def{Name: "lookup", Description: "Look an item up.", Hints: toolkit.RemoteRead},
				func(ctx context.Context, in lookupIn) (lookupOut, error) {
					route := "/items"
					if in.Fail {
						route = "/flaky"
					}
					path, err := upstream.Path(upstream.Lit(route), upstream.Arg("id", in.ID))
					if err != nil {
						return lookupOut{}, err
					}
					var out lookupOut
					err = up.GetJSON(ctx, "lookup "+in.ID, path, map[string][]string{"q": {in.ID}}, &out)
					return out, err
				}))
			r.Server.AddResourceTemplate(mcp.NewResourceTemplate("test://items/{id}", "Item"),
				func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
					return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "item"}}, nil
				})
			return nil
		}}
}

// traced is a server built with an in-memory span recorder.
func traced(t *testing.T, transport string) (*Built, *tracetest.SpanRecorder, *fakeUpstream) {
	t.Helper()
	fake := &fakeUpstream{}
	up := httptest.NewServer(fake)
	t.Cleanup(up.Close)
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	app := tracedApp(up.URL)
	o, err := ParseOptions(app, []string{"--transport", transport}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o.State, o.Tracing = StateMemory, tp
	log, _ := NewLogger(io.Discard, "info")
	b, err := Build(context.Background(), app, o, log)
	if err != nil {
		t.Fatal(err)
	}
	return b, rec, fake
}

const (
	legacyInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	modernKeys = `"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}`
)

// traceparent is a client's W3C traceparent with the given ids, sampled.
func traceparent(traceID, spanID string) string { return "00-" + traceID + "-" + spanID + "-01" }

// callLine is a tools/call of lookup; meta is extra _meta members ("" for none).
func callLine(id int, fail bool, meta string) string {
	args := fmt.Sprintf(`{"id":%q,"fail":%v}`, traceCanaryArg, fail)
	m := ""
	if meta != "" {
		m = `,"_meta":{` + meta + `}`
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"lookup","arguments":%s%s}}`, id, args, m)
}

func metaTrace(tp, ts string) string {
	s := `"traceparent":"` + tp + `"`
	if ts != "" {
		s += `,"tracestate":"` + ts + `"`
	}
	return s
}

func serveLines(t *testing.T, b *Built, lines ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := serveStdio(ctx, b, strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, &errb); err != nil && err != io.EOF {
		t.Fatalf("stdio: %v: %s", err, errb.String())
	}
	return out.String()
}

func postMCP(t *testing.T, url, body string, hdr map[string]string) (string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 && resp.StatusCode != 202 {
		t.Fatalf("POST %s: %d %s", body, resp.StatusCode, b)
	}
	return string(b), resp.Header
}

// toolSpans is the server spans of lookup calls, in the order they ended.
func toolSpans(rec *tracetest.SpanRecorder) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.SpanKind() == trace.SpanKindServer {
			out = append(out, s)
		}
	}
	return out
}

// childrenOf is the upstream client spans under parent.
func childrenOf(rec *tracetest.SpanRecorder, parent sdktrace.ReadOnlySpan) []sdktrace.ReadOnlySpan {
	var out []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.SpanKind() == trace.SpanKindClient && s.Parent().SpanID() == parent.SpanContext().SpanID() {
			out = append(out, s)
		}
	}
	return out
}

func attrMap(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

// spanText is every string a span exports: name, attributes, status,
// events, links and their attributes, trace state, resource.
func spanText(s sdktrace.ReadOnlySpan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %v %s %s ", s.Name(), attrMap(s), s.Status().Description, s.SpanContext().TraceState())
	for _, e := range s.Events() {
		fmt.Fprintf(&b, "%s %v ", e.Name, e.Attributes)
	}
	for _, l := range s.Links() {
		fmt.Fprintf(&b, "%v %v ", l.SpanContext.TraceState(), l.Attributes)
	}
	for _, kv := range s.Resource().Attributes() {
		fmt.Fprintf(&b, "%s=%s ", kv.Key, kv.Value.Emit())
	}
	return b.String()
}

// checkSpans holds the properties every traced call shares: the server
// span is a child of want (the client's span; invalid: a root), carries
// the MCP attributes, has one client span per upstream attempt, and no
// span holds an argument or the key.
func checkSpans(t *testing.T, rec *tracetest.SpanRecorder, fake *fakeUpstream, want trace.SpanContext, era, transport string, attempts []int) {
	t.Helper()
	servers := toolSpans(rec)
	if len(servers) != len(attempts) {
		t.Fatalf("%d server spans, want %d: %v", len(servers), len(attempts), rec.Ended())
	}
	for i, s := range servers {
		if s.Name() != "tools/call lookup" {
			t.Errorf("server span named %q", s.Name())
		}
		if want.IsValid() {
			if s.Parent().SpanID() != want.SpanID() || s.SpanContext().TraceID() != want.TraceID() || !s.Parent().IsRemote() {
				t.Errorf("server span %v has parent %v, want the client's %v", s.SpanContext(), s.Parent(), want)
			}
			if want.TraceState().Len() > 0 && s.SpanContext().TraceState().String() != want.TraceState().String() {
				t.Errorf("tracestate %q, want %q", s.SpanContext().TraceState(), want.TraceState())
			}
		} else if s.Parent().IsValid() {
			t.Errorf("server span has parent %v without a client context", s.Parent())
		}
		a := attrMap(s)
		wantTransport := map[string]string{"stdio": "pipe", "http": "tcp"}[transport]
		wantEra, optional := strings.CutSuffix(era, "?")
		if optional && a["mcp.protocol.version"] == "" {
			wantEra = "" // optional, and absent
		}
		for k, v := range map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "lookup", "gen_ai.operation.name": "execute_tool",
			"mcp.protocol.version": wantEra, "network.transport": wantTransport} {
			if got, ok := a[k]; got != v || (v == "") == ok {
				t.Errorf("server span %s = %q, want %q (all: %v)", k, a[k], v, a)
			}
		}
		kids := childrenOf(rec, s)
		if len(kids) != attempts[i] {
			t.Fatalf("server span %d has %d upstream spans, want %d", i, len(kids), attempts[i])
		}
		for n, k := range kids {
			ka := attrMap(k)
			if k.Name() != "GET other" || ka["http.request.method"] != "GET" || ka["server.address"] != "127.0.0.1" || ka["mcpfleet.upstream"] != "fakeup" {
				t.Errorf("upstream span %q %v", k.Name(), ka)
			}
			if n > 0 && ka["http.request.resend_count"] != fmt.Sprint(n) {
				t.Errorf("attempt %d: resend_count %q", n+1, ka["http.request.resend_count"])
			}
		}
		if attempts[i] > 1 { // the flaky route: 503s, an isError result
			if a["error.type"] != "tool_error" || a["mcpfleet.error.code"] != string(envelope.UpstreamUnavailable) {
				t.Errorf("failed call: error.type %q, code %q", a["error.type"], a["mcpfleet.error.code"])
			}
			if ka := attrMap(kids[0]); ka["http.response.status_code"] != "503" || ka["error.type"] != "503" {
				t.Errorf("503 attempt: %v", ka)
			}
		} else if _, ok := a["error.type"]; ok {
			t.Errorf("successful call has error.type %q", a["error.type"])
		}
	}
	for _, s := range rec.Ended() {
		txt := spanText(s)
		for _, c := range []string{traceCanaryArg, traceCanaryKey} {
			if strings.Contains(txt, c) {
				t.Errorf("span %q holds canary %q: %s", s.Name(), c, txt)
			}
		}
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.traced) > 0 {
		t.Errorf("trace headers reached the third-party upstream: %v", fake.traced)
	}
	if len(fake.queries) == 0 || !strings.Contains(fake.queries[0], traceCanaryArg) {
		t.Errorf("the upstream never saw the argument (the canary scan proves nothing): %v", fake.queries)
	}
}

func spanContext(t *testing.T, traceID, spanID, state string) trace.SpanContext {
	t.Helper()
	tid, err1 := trace.TraceIDFromHex(traceID)
	sid, err2 := trace.SpanIDFromHex(spanID)
	ts, err3 := trace.ParseTraceState(state)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatal(err1, err2, err3)
	}
	return trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, TraceState: ts, Remote: true})
}

const (
	clientTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
	clientSpan  = "00f067aa0ba902b7"
	headerTrace = "0af7651916cd43dd8448eb211c80319c"
	headerSpan  = "b7ad6b7169203331"
)

// TestTraceContinuesOverStdio: the client's _meta traceparent is the tool
// span's parent in both eras (and tracestate is kept); without one the
// span is a root. A failing upstream call shows one span per attempt.
func TestTraceContinuesOverStdio(t *testing.T) {
	tp := traceparent(clientTrace, clientSpan)
	t.Run("2025-11-25", func(t *testing.T) {
		b, rec, fake := traced(t, "stdio")
		out := serveLines(t, b, legacyInit, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			callLine(2, false, metaTrace(tp, "")), callLine(3, true, metaTrace(tp, "")))
		if !strings.Contains(out, `\"ok\":true`) || !strings.Contains(out, "upstream_unavailable") {
			t.Fatalf("answers: %s", out)
		}
		// A 2025-11-25 request names no version: it is the session's, which
		// mcp-go's stdio session may not have recorded yet for the first
		// call (the attribute is recommended, not required).
		checkSpans(t, rec, fake, spanContext(t, clientTrace, clientSpan, ""), "2025-11-25?", "stdio", []int{1, 3})
	})
	t.Run("2026-07-28", func(t *testing.T) {
		b, rec, fake := traced(t, "stdio")
		out := serveLines(t, b, callLine(2, false, modernKeys+","+metaTrace(tp, "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE")))
		if !strings.Contains(out, `\"ok\":true`) {
			t.Fatalf("answers: %s", out)
		}
		checkSpans(t, rec, fake, spanContext(t, clientTrace, clientSpan, "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE"), "2026-07-28", "stdio", []int{1})
	})
	t.Run("no trace context", func(t *testing.T) {
		b, rec, fake := traced(t, "stdio")
		serveLines(t, b, callLine(2, false, modernKeys+`,"traceparent":"00-zz-nothex-01"`))
		checkSpans(t, rec, fake, trace.SpanContext{}, "2026-07-28", "stdio", []int{1})
	})
}

// TestTraceContinuesOverHTTP: on HTTP the W3C traceparent header is the
// parent when _meta has none (2025-11-25 clients that trace the HTTP
// request); with both, _meta is the parent and the header's span a link
// (the MCP semantic conventions).
func TestTraceContinuesOverHTTP(t *testing.T) {
	t.Run("2025-11-25 header", func(t *testing.T) {
		b, rec, fake := traced(t, "http")
		ts := httptest.NewServer(HTTPHandler(b))
		defer ts.Close()
		_, h := postMCP(t, ts.URL, legacyInit, nil)
		sid := h.Get("Mcp-Session-Id")
		hdr := map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25", "traceparent": traceparent(headerTrace, headerSpan)}
		postMCP(t, ts.URL, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{"Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25"})
		postMCP(t, ts.URL, callLine(2, false, ""), hdr)
		checkSpans(t, rec, fake, spanContext(t, headerTrace, headerSpan, ""), "2025-11-25", "http", []int{1})
	})
	t.Run("2026-07-28 _meta and header", func(t *testing.T) {
		b, rec, fake := traced(t, "http")
		ts := httptest.NewServer(HTTPHandler(b))
		defer ts.Close()
		hdr := map[string]string{"Mcp-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "lookup",
			"traceparent": traceparent(headerTrace, headerSpan)}
		body, _ := postMCP(t, ts.URL, callLine(2, true, modernKeys+","+metaTrace(traceparent(clientTrace, clientSpan), "")), hdr)
		if !strings.Contains(body, "upstream_unavailable") {
			t.Fatalf("answer: %s", body)
		}
		checkSpans(t, rec, fake, spanContext(t, clientTrace, clientSpan, ""), "2026-07-28", "http", []int{3})
		links := toolSpans(rec)[0].Links()
		if len(links) != 1 || links[0].SpanContext.SpanID().String() != headerSpan || links[0].SpanContext.TraceID().String() != headerTrace {
			t.Fatalf("links %+v, want the header's span", links)
		}
	})
}

// TestNoTracingNoMiddleware: without a provider (or with the no-op one)
// no tracing middleware runs: a call's context holds no span.
func TestNoTracingNoMiddleware(t *testing.T) {
	var seen trace.SpanContext
	app := App{Name: "plain", Register: func(ctx context.Context, r *Registry) error {
		r.AddTools(toolkit.New(toolkit.Def{Name: "peek", Description: "Peek.", Hints: toolkit.LocalRead},
			func(ctx context.Context, in struct{}) (lookupOut, error) {
				seen = trace.SpanContextFromContext(ctx)
				return lookupOut{OK: true}, nil
			}))
		return nil
	}}
	log, _ := NewLogger(io.Discard, "info")
	b, err := Build(context.Background(), app, Options{Transport: "stdio"}, log)
	if err != nil {
		t.Fatal(err)
	}
	serveLines(t, b, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"peek","arguments":{},"_meta":{`+modernKeys+`,"traceparent":"`+traceparent(clientTrace, clientSpan)+`"}}}`)
	if seen.IsValid() {
		t.Fatalf("a span context %v reached the tool with tracing off", seen)
	}
	if b.Registry.Tracing == nil {
		t.Fatal("Registry.Tracing is nil; want the no-op provider")
	}
}

// TestResourceReadSpan: resources/read is a server span of its own under
// the client's _meta traceparent, without the URI (the client's, like an
// argument).
func TestResourceReadSpan(t *testing.T) {
	b, rec, _ := traced(t, "stdio")
	out := serveLines(t, b, `{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"test://items/`+traceCanaryArg+`","_meta":{`+
		modernKeys+","+metaTrace(traceparent(clientTrace, clientSpan), "")+`}}}`)
	if !strings.Contains(out, `"text":"item"`) {
		t.Fatalf("answer: %s", out)
	}
	spans := rec.Ended()
	if len(spans) != 1 || spans[0].Name() != "resources/read" || spans[0].SpanKind() != trace.SpanKindServer ||
		spans[0].Parent().SpanID().String() != clientSpan || spans[0].SpanContext().TraceID().String() != clientTrace {
		t.Fatalf("spans %v", spans)
	}
	if a := attrMap(spans[0]); a["mcp.method.name"] != "resources/read" || a["mcp.protocol.version"] != "2026-07-28" {
		t.Errorf("attributes %v", a)
	}
	if txt := spanText(spans[0]); strings.Contains(txt, traceCanaryArg) {
		t.Errorf("the URI is in the span: %s", txt)
	}
}
