// Package telemetry is the fleet's OpenTelemetry tracing: a tracer provider
// built from the standard OTEL_* variables at start-up (off, a no-op, unless
// an OTLP endpoint is configured), one server span per tool call joined to
// the client's trace (ToolSpans), and the attribute names both use.
//
// Nothing here sets otel's global provider or propagator: the provider is
// made by serve.Run and handed to the server (serve.Options.Tracing), and
// pkg/upstream starts its child spans from the span in the call's context
// (trace.SpanFromContext(ctx).TracerProvider()), so a library that reads the
// globals never sees ours and tests can run providers side by side.
package telemetry

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/redact"
)

// The variables FromEnv reads itself; the OTLP exporter and the SDK read
// the rest of the standard set (headers, timeout, sampler, resource).
// source: https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/
// and https://opentelemetry.io/docs/specs/otel/protocol/exporter/
const (
	EnvSDKDisabled    = "OTEL_SDK_DISABLED"
	EnvTracesExporter = "OTEL_TRACES_EXPORTER"
	EnvEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	EnvTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	EnvProtocol       = "OTEL_EXPORTER_OTLP_PROTOCOL"
	EnvTracesProtocol = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
	envHeaders        = "OTEL_EXPORTER_OTLP_HEADERS"
	envTracesHeaders  = "OTEL_EXPORTER_OTLP_TRACES_HEADERS"
)

// Env is what --help lists about tracing (serve.SpineEnv includes it).
func Env() []env.Var {
	return []env.Var{
		{Name: EnvEndpoint, Help: "e.g. http://127.0.0.1:4318: export traces over OTLP/HTTP (off unless this or the next is set; docs/deploy.md \"Traces\")"},
		{Name: EnvTracesEndpoint, Help: "the full traces URL (…/v1/traces), instead of the one above"},
		{Name: envHeaders + ", " + envTracesHeaders, Help: "k=v,… headers sent to the collector (secret: scrubbed from logs)"},
		{Name: EnvProtocol + ", " + EnvTracesProtocol, Help: "http/protobuf only (the default)"},
		{Name: EnvTracesExporter, Help: "otlp (the default once an endpoint is set) or none"},
		{Name: EnvSDKDisabled, Help: "true: no traces whatever else is set"},
		{Name: "OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG", Help: "as the OpenTelemetry SDK reads them (service.name defaults to the server's name)"},
	}
}

// Tracing is the process's tracer provider and how to flush it.
type Tracing struct {
	// Provider is a no-op provider when tracing is off: every span it starts
	// is non-recording and nothing is exported.
	Provider trace.TracerProvider
	sdk      *sdktrace.TracerProvider // nil when off
}

// Enabled reports whether spans are recorded and exported.
func (t *Tracing) Enabled() bool { return t != nil && t.sdk != nil }

// Shutdown flushes the spans still queued and stops the exporter, waiting
// at most until ctx ends. Off, it does nothing.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if !t.Enabled() {
		return nil
	}
	return t.sdk.Shutdown(ctx)
}

// Off is tracing turned off: a no-op provider, no goroutine, no exporter.
func Off() *Tracing { return &Tracing{Provider: noop.NewTracerProvider()} }

// FromEnv builds the tracer provider the OTEL_* variables describe, for a
// server named service at version. Tracing is off unless an OTLP endpoint
// is set (OTEL_EXPORTER_OTLP_ENDPOINT or _TRACES_ENDPOINT) or
// OTEL_TRACES_EXPORTER=otlp asks for the SDK's default one
// (http://localhost:4318); OTEL_SDK_DISABLED=true and
// OTEL_TRACES_EXPORTER=none keep it off. Settings it cannot honour are
// errors naming the fix: a "console" exporter would write to stdout, which
// belongs to the stdio protocol, and the gRPC exporter is not built in.
func FromEnv(ctx context.Context, getenv func(string) string, service, version string) (*Tracing, error) {
	if v := strings.TrimSpace(getenv(EnvSDKDisabled)); v != "" {
		off, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("%s must be true or false, not %q", EnvSDKDisabled, v)
		}
		if off {
			return Off(), nil
		}
	}
	switch exp := strings.ToLower(strings.TrimSpace(getenv(EnvTracesExporter))); exp {
	case "none":
		return Off(), nil
	case "":
		if strings.TrimSpace(getenv(EnvTracesEndpoint)+getenv(EnvEndpoint)) == "" {
			return Off(), nil
		}
	case "otlp":
	default:
		return nil, fmt.Errorf("%s=%q is not supported: use otlp (with %s, e.g. http://127.0.0.1:4318) or none; console would write to stdout, which the stdio protocol owns", EnvTracesExporter, exp, EnvEndpoint)
	}
	proto := strings.TrimSpace(getenv(EnvTracesProtocol))
	if proto == "" {
		proto = strings.TrimSpace(getenv(EnvProtocol))
	}
	if proto != "" && proto != "http/protobuf" {
		return nil, fmt.Errorf("OTLP protocol %q is not supported: set %s=http/protobuf and point %s at the collector's OTLP/HTTP port (4318)", proto, EnvProtocol, EnvEndpoint)
	}
	// The collector's headers often carry an API key: keep it out of logs.
	redact.SecretEnv(envHeaders, envTracesHeaders)
	// The exporter reads the headers, timeout, compression and TLS files
	// from the same variables itself; the endpoint is given as read here
	// (OTEL_EXPORTER_OTLP_ENDPOINT gets the signal's path appended, the
	// _TRACES_ one is used as is; the spec's default is http://localhost:4318).
	// It dials nothing until the first export.
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(tracesURL(getenv)))
	if err != nil {
		return nil, fmt.Errorf("OTLP trace exporter: %w", err)
	}
	// Defaults first: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win.
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", service), attribute.String("service.version", version)),
		resource.WithFromEnv())
	if err != nil {
		return nil, fmt.Errorf("OTEL_RESOURCE_ATTRIBUTES: %w", err)
	}
	// The sampler (OTEL_TRACES_SAMPLER, default parentbased_always_on: a
	// client's unsampled traceparent is not recorded here either) and the
	// batching (OTEL_BSP_*) are the SDK's, read from the environment.
	sdk := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	return &Tracing{Provider: sdk, sdk: sdk}, nil
}

// IsNoop reports whether tp records nothing (Off's provider, or any otel
// no-op provider): the server then installs no tracing middleware at all.
func IsNoop(tp trace.TracerProvider) bool {
	_, ok := tp.(noop.TracerProvider)
	return ok
}

// tracesURL is where spans go, from the OTLP exporter variables.
// source: https://opentelemetry.io/docs/specs/otel/protocol/exporter/#endpoint-urls-for-otlphttp
func tracesURL(getenv func(string) string) string {
	if u := strings.TrimSpace(getenv(EnvTracesEndpoint)); u != "" {
		return u
	}
	base := strings.TrimSpace(getenv(EnvEndpoint))
	if base == "" {
		base = "http://localhost:4318"
	}
	return strings.TrimSuffix(base, "/") + "/v1/traces"
}
