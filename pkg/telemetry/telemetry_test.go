package telemetry_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/telemetry"
	"github.com/mcpfleet/mcpfleet/pkg/telemetry/telemetrytest"
)

func getenv(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// sdkGoroutines counts goroutines running OpenTelemetry SDK or exporter code.
func sdkGoroutines() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	n := 0
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "go.opentelemetry.io/otel/sdk") || strings.Contains(g, "go.opentelemetry.io/otel/exporters") {
			n++
		}
	}
	return n
}

// TestOffUnlessConfigured: without an endpoint (or with tracing disabled)
// the provider is a no-op and no SDK goroutine runs; with one, the batch
// processor's goroutine does (so the count can fail), and Shutdown ends it.
func TestOffUnlessConfigured(t *testing.T) {
	off := []map[string]string{
		{},
		{"OTEL_SERVICE_NAME": "x", "OTEL_TRACES_SAMPLER": "always_on"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_SDK_DISABLED": "true"},
		{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1", "OTEL_TRACES_EXPORTER": "none"},
	}
	before := sdkGoroutines()
	for _, env := range off {
		tr, err := telemetry.FromEnv(context.Background(), getenv(env), "s", "1")
		if err != nil {
			t.Fatalf("%v: %v", env, err)
		}
		if tr.Enabled() || !telemetry.IsNoop(tr.Provider) {
			t.Fatalf("%v: tracing is on", env)
		}
		if err := tr.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if n := sdkGoroutines(); n != before {
		t.Fatalf("%d SDK goroutines with tracing off (%d before)", n, before)
	}
	on, err := telemetry.FromEnv(context.Background(), getenv(map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"}), "s", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !on.Enabled() || telemetry.IsNoop(on.Provider) {
		t.Fatal("an endpoint did not turn tracing on")
	}
	// The batch processor's goroutine may not have run yet: until it does,
	// its stack names only sync.WaitGroup.Go.
	for i := 0; i < 200 && sdkGoroutines() == before; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	if sdkGoroutines() == before {
		t.Fatalf("no SDK goroutine with tracing on (%d before): the off check above proves nothing", before)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = on.Shutdown(ctx)
	for i := 0; i < 100 && sdkGoroutines() != before; i++ {
		time.Sleep(10 * time.Millisecond)
	}
	if n := sdkGoroutines(); n != before {
		t.Fatalf("%d SDK goroutines after Shutdown (%d before)", n, before)
	}
}

// TestRefusesWhatItCannotHonour: settings that would break stdio or need gRPC
// are start-up errors naming the fix.
func TestRefusesWhatItCannotHonour(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"OTEL_TRACES_EXPORTER": "console"}, "stdout"},
		{map[string]string{"OTEL_TRACES_EXPORTER": "otlp,console"}, "use otlp"},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, "http/protobuf"},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json"}, "http/protobuf"},
		{map[string]string{"OTEL_SDK_DISABLED": "maybe"}, "true or false"},
	}
	for _, tc := range cases {
		_, err := telemetry.FromEnv(context.Background(), getenv(tc.env), "s", "1")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want an error with %q", tc.env, err, tc.want)
		}
	}
}

// TestExportsOverOTLPHTTP: a configured provider exports to the endpoint in
// OTLP/protobuf, flushed by Shutdown, with the server's name as service.name
// unless OTEL_SERVICE_NAME says otherwise.
func TestExportsOverOTLPHTTP(t *testing.T) {
	for _, tc := range []struct{ env, want string }{{"", "ktrdr"}, {"renamed", "renamed"}} {
		rcv := telemetrytest.Start(t)
		env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": rcv.URL}
		t.Setenv("OTEL_SERVICE_NAME", tc.env) // read by the SDK's resource detector itself
		tr, err := telemetry.FromEnv(context.Background(), getenv(env), "ktrdr", "1.2.3")
		if err != nil {
			t.Fatal(err)
		}
		_, span := tr.Provider.Tracer("t").Start(context.Background(), "one")
		span.End()
		if err := tr.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
		got := rcv.Spans(t)
		if len(got) != 1 || got[0].Name != "one" || got[0].Service != tc.want || got[0].ResourceAttrs["service.version"] != "1.2.3" {
			t.Fatalf("exported %+v, want span one of service %s 1.2.3", got, tc.want)
		}
	}
}
