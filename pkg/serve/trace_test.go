package serve_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/telemetry/telemetrytest"
)

// TestRunFlushesTracesOnExit: with an OTLP endpoint set, the spans of a
// stdio run are exported by the time Run returns (the batch delay is the
// SDK's 5 s: only the flush on exit can have sent them); without one,
// nothing reaches the collector.
func TestRunFlushesTracesOnExit(t *testing.T) {
	t.Setenv("MCPFLEET_STATE", "memory")
	in := initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"msg":"hi"},"_meta":{"traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}}}` + "\n"
	for _, on := range []bool{false, true} {
		rcv := telemetrytest.Start(t)
		if on {
			t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", rcv.URL)
		}
		var out strings.Builder
		if code := serve.Run(context.Background(), testApp(), nil, strings.NewReader(in), &out, io.Discard); code != 0 {
			t.Fatalf("exit %d", code)
		}
		if !strings.Contains(out.String(), "hi") {
			t.Fatalf("stdout: %s", out.String())
		}
		spans := rcv.Spans(t)
		switch {
		case !on && rcv.Exports() > 0:
			t.Fatalf("exported %d spans with no OTEL_* set", len(spans))
		case on && (len(spans) != 1 || spans[0].Name != "tools/call echo" || spans[0].TraceID != "4bf92f3577b34da6a3ce929d0e0e4736" || spans[0].Service != "testsrv"):
			t.Fatalf("exported on exit: %+v", spans)
		}
	}
}
