package upstream

import (
	"context"
	"errors"
	"net/url"
	"strconv"

	"github.com/go-resty/resty/v2"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// traceScope is the instrumentation scope of upstream spans.
const traceScope = "github.com/mcpfleet/mcpfleet/pkg/upstream"

// startSpan starts the client span of one attempt (HTTP semantic
// conventions: every resend is a span of its own, with
// http.request.resend_count), as a child of the tool call's span in ctx. It
// starts nothing when ctx holds no recording span (tracing off, the trace
// not sampled, a call outside a tool call): no provider is configured here,
// the tool call's span brings its own.
//
// The span is named "<METHOD> <route>", route being the bounded name the
// metrics use (the registered route, else "other"): never the path, which
// holds ids, nor the query. Its attributes are the method, the upstream's
// host and port (from the configured base URL, without credentials), the
// status and the attempt; nothing of the request's path, query, headers or
// body, so no argument and no key can reach a span.
func (c *Client) startSpan(ctx context.Context, method, route string, attempt int) (context.Context, trace.Span) {
	parent := trace.SpanFromContext(ctx)
	if !parent.IsRecording() {
		return ctx, nil
	}
	attrs := []attribute.KeyValue{
		attribute.String("http.request.method", method),
		attribute.String("mcpfleet.upstream", c.cfg.Name),
		attribute.String("mcpfleet.upstream.route", route),
	}
	if u, err := url.Parse(c.cfg.BaseURL); err == nil && u.Hostname() != "" {
		attrs = append(attrs, attribute.String("server.address", u.Hostname()), attribute.String("url.scheme", u.Scheme))
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err == nil {
				attrs = append(attrs, attribute.Int("server.port", n))
			}
		}
	}
	if attempt > 1 {
		attrs = append(attrs, attribute.Int("http.request.resend_count", attempt-1))
	}
	return parent.TracerProvider().Tracer(traceScope).Start(ctx, method+" "+route,
		trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
}

// endSpan records one attempt's outcome: the status, and error.type for a
// status of 400 or more (its number, as the HTTP conventions say) or a
// failed exchange (a word from a fixed set: the error's text may hold the URL).
func endSpan(span trace.Span, res attemptResult) {
	if span == nil {
		return
	}
	if res.status != 0 {
		span.SetAttributes(attribute.Int("http.response.status_code", res.status))
	}
	var kind string
	switch {
	case res.err != nil:
		kind = transportKind(res.err)
	case res.status >= 400:
		kind = strconv.Itoa(res.status)
	}
	if kind != "" {
		span.SetAttributes(attribute.String("error.type", kind))
		span.SetStatus(codes.Error, kind)
	}
	span.End()
}

// transportKind names a failed exchange for error.type.
func transportKind(err error) string {
	var rd errRedirect
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, resty.ErrResponseBodyTooLarge):
		return "body_too_large"
	case errors.As(err, &rd):
		return "redirect"
	case isDialError(err):
		return "connect_error"
	case isTLSError(err):
		return "tls_error"
	}
	return "connection_error"
}
