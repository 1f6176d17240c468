package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/mcpfleet/mcpfleet/pkg/telemetry/telemetrytest"
)

// The canary argument: an operation id only the tool call carries.
const traceCanaryOp = "op_canaryARG7f3a9c"

// TestTypeScriptTraceContinues is the acceptance check of tracing: the
// official TypeScript clients call ktrdr's tools with a traceparent (in
// params._meta on 2026-07-28 over stdio and HTTP, as the traceparent
// header from the 1.x client on 2025-11-25), the server exports over
// OTLP/HTTP to a loopback receiver, and the exported trace continues the
// client's: the tool call's server span is a child of the client's span,
// each upstream request a child of that, and no span holds the argument,
// the API key or the bearer token.
func TestTypeScriptTraceContinues(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	node, dir := tsClient(t)
	bins := buildFleet(t)
	script := filepath.Join(repoRoot(t), "cmd/mcpfleet/testdata/interop/trace.mjs")
	cases := []struct {
		sdk, era, transport, carrier string
		traceID, spanID              string
	}{
		{"client", "2026-07-28", "stdio", "meta", "4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7"},
		{"client", "2026-07-28", "http", "meta", "5bf92f3577b34da6a3ce929d0e0e4737", "10f067aa0ba902b8"},
		{"sdk", "2025-11-25", "http", "header", "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331"},
	}
	for _, tc := range cases {
		t.Run(tc.sdk+"/"+tc.era+"/"+tc.transport+"/"+tc.carrier, func(t *testing.T) {
			rcv := telemetrytest.Start(t)
			env := append(interopUpstream(t, bins, "ktrdr"),
				"OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL, "OTEL_BSP_SCHEDULE_DELAY=100")
			desc := map[string]any{"sdk": tc.sdk, "era": tc.era, "transport": tc.transport, "carrier": tc.carrier,
				"traceparent": "00-" + tc.traceID + "-" + tc.spanID + "-01", "token": canaryToken,
				"calls": []map[string]any{
					{"tool": "list_operations", "args": map[string]any{}},
					{"tool": "get_operation_status", "args": map[string]any{"operation_id": traceCanaryOp}},
				}}
			if tc.transport == "http" {
				desc["url"] = startHTTP(t, filepath.Join(bins, "ktrdr"), env) + "/mcp"
			} else {
				m := map[string]string{}
				for _, kv := range env {
					k, v, _ := strings.Cut(kv, "=")
					m[k] = v
				}
				desc["command"], desc["env"] = filepath.Join(bins, "ktrdr"), m
			}
			runTraceScript(t, node, dir, script, desc)

			for _, tool := range []string{"list_operations", "get_operation_status"} {
				srv := rcv.WaitFor(t, 15*time.Second, "the server span of "+tool, func(s telemetrytest.Span) bool {
					return s.Name == "tools/call "+tool && s.Kind == tracepb.Span_SPAN_KIND_SERVER
				})
				if srv.TraceID != tc.traceID || srv.ParentSpanID != tc.spanID {
					t.Errorf("%s: span in trace %s under %s, want the client's trace %s under its span %s", tool, srv.TraceID, srv.ParentSpanID, tc.traceID, tc.spanID)
				}
				if srv.Service != "ktrdr" || srv.Attrs["gen_ai.tool.name"] != tool || srv.Attrs["mcp.method.name"] != "tools/call" {
					t.Errorf("%s: server span %+v", tool, srv)
				}
				up := rcv.WaitFor(t, 15*time.Second, "an upstream span under "+tool, func(s telemetrytest.Span) bool {
					return s.ParentSpanID == srv.SpanID && s.Kind == tracepb.Span_SPAN_KIND_CLIENT
				})
				if up.TraceID != tc.traceID || up.Attrs["http.request.method"] != "GET" || up.Attrs["http.response.status_code"] == "" {
					t.Errorf("%s: upstream span %+v", tool, up)
				}
			}
			for _, s := range rcv.Spans(t) {
				for _, c := range []string{traceCanaryOp, canaryAPIKey, canaryToken} {
					if strings.Contains(s.Text(), c) {
						t.Errorf("span %q holds the canary %q: %s", s.Name, c, s.Text())
					}
				}
			}
		})
	}
}

func runTraceScript(t *testing.T, node, dir, script string, desc map[string]any) {
	t.Helper()
	arg, _ := json.Marshal(desc)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, string(arg))
	cmd.Env = append(os.Environ(), "MCP_CLIENT_DIR="+dir)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("trace.mjs: %v\nstdout: %s\nstderr: %s", err, stdout.String(), stderr.String())
	}
	var rep struct {
		tsReport
		MetaKey string `json:"meta_key"` // the SDK's TRACEPARENT_META_KEY
	}
	if err := json.Unmarshal(bytes.TrimSpace(stdout.Bytes()), &rep); err != nil || len(rep.Steps) < 3 {
		t.Fatalf("trace.mjs report %q: %v\nstderr: %s", stdout.String(), err, stderr.String())
	}
	for _, st := range rep.Steps {
		if !st.OK {
			t.Errorf("%s: %s", st.Step, st.Detail)
		}
	}
	if rep.MetaKey != "traceparent" {
		t.Errorf("the SDK's TRACEPARENT_META_KEY is %q", rep.MetaKey)
	}
}
