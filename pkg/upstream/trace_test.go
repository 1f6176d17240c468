package upstream

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// TestNoSpanWithoutRecordingParent: outside a traced tool call (tracing
// off, an unsampled trace, a background poll) an attempt starts no span.
func TestNoSpanWithoutRecordingParent(t *testing.T) {
	c := New(Config{Name: "x", BaseURL: "http://127.0.0.1:1"})
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec), sdktrace.WithSampler(sdktrace.NeverSample()))
	unsampled, parent := tp.Tracer("t").Start(context.Background(), "tool")
	defer parent.End()
	for name, ctx := range map[string]context.Context{"no span": context.Background(), "unsampled": unsampled} {
		if _, span := c.startSpan(ctx, "GET", "other", 1); span != nil {
			t.Errorf("%s: a span was started", name)
		}
	}
	sampled, root := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("t").Start(context.Background(), "tool")
	_, span := c.startSpan(sampled, "GET", "other", 2)
	endSpan(span, attemptResult{status: 503})
	root.End()
	if got := len(rec.Ended()); got != 2 {
		t.Fatalf("%d spans ended, want the tool's and the attempt's", got)
	}
}

// BenchmarkStartSpanOff is what tracing costs an upstream attempt when it
// is off: a context lookup.
func BenchmarkStartSpanOff(b *testing.B) {
	c := New(Config{Name: "x", BaseURL: "http://127.0.0.1:1"})
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		_, span := c.startSpan(ctx, "GET", "other", 1)
		endSpan(span, attemptResult{status: 200})
	}
}

// BenchmarkStartSpanOn is one attempt's span with tracing on (recorded,
// not exported).
func BenchmarkStartSpanOn(b *testing.B) {
	c := New(Config{Name: "x", BaseURL: "http://127.0.0.1:1"})
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(tracetest.NewSpanRecorder()))
	ctx, root := tp.Tracer("t").Start(context.Background(), "tool")
	defer root.End()
	b.ReportAllocs()
	for b.Loop() {
		_, span := c.startSpan(ctx, "GET", "other", 1)
		endSpan(span, attemptResult{status: 200})
	}
}
