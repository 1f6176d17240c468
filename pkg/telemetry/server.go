package telemetry

import (
	"context"
	"net/http"
	"slices"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Attribute names. MCP and GenAI ones from the OpenTelemetry semantic
// conventions for MCP (source: open-telemetry/semantic-conventions-genai
// docs/gen-ai/mcp.md, "Server" span), the rest from the stable general
// registry; mcpfleet.* are this fleet's own.
const (
	AttrMCPMethod       = "mcp.method.name"
	AttrMCPProtocol     = "mcp.protocol.version"
	AttrToolName        = "gen_ai.tool.name"
	AttrOperation       = "gen_ai.operation.name"
	AttrErrorType       = "error.type"
	AttrRPCStatus       = "rpc.response.status_code"
	AttrNetTransport    = "network.transport"
	AttrNetProtocolName = "network.protocol.name"
	// AttrErrorCode is the envelope's error code of an isError result (a
	// closed set: envelope.Codes), which error.type ("tool_error") folds.
	AttrErrorCode = "mcpfleet.error.code"
)

// Scope is the instrumentation scope of the fleet's spans.
const Scope = "github.com/mcpfleet/mcpfleet"

// w3c reads traceparent and tracestate (W3C Trace Context) and nothing
// else: baggage is not read, since it is free-form data of the client's.
var w3c = propagation.TraceContext{}

// ToolSpans starts one server span per tool call, named "tools/call <tool>"
// as the MCP conventions say. Its parent is the client's trace context:
// params._meta.traceparent/tracestate (the 2026-07-28 protocol reserves
// these keys, SEP-414; older clients may send them too, and they are the
// only carrier on stdio), else the HTTP request's W3C traceparent header;
// when both are present and differ, the header's is linked (the MCP
// conventions: _meta is the parent, the transport's context a link).
//
// The span carries the method, the tool's name (only served tools reach
// this middleware: unknown names are refused before), the protocol version,
// the transport and the outcome (error.type tool_error and the envelope
// code, or the JSON-RPC code of a protocol error) — never an argument, a
// result, an error message (it may quote an argument), the session id or
// the caller. transport is "stdio" or "http".
func ToolSpans(tp trace.TracerProvider, transport string) server.ToolHandlerMiddleware {
	tracer, base := tp.Tracer(Scope), baseAttrs(mcp.MethodToolsCall, transport)
	base = append(base, attribute.String(AttrOperation, "execute_tool"))
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			name := req.Params.Name
			ctx, span := startServerSpan(ctx, tracer, string(mcp.MethodToolsCall)+" "+name, req.Params.Meta, req.Header,
				append(slices.Clip(base), attribute.String(AttrToolName, name)))
			defer span.End()
			res, err := next(ctx, req)
			endToolSpan(span, res, err)
			return res, err
		}
	}
}

// ResourceSpans is ToolSpans for resources/read: one server span named
// "resources/read", parented the same way. The conventions' mcp.resource.uri
// is left out on purpose: the URI is the client's and may name an account,
// an instrument or an id, like an argument.
func ResourceSpans(tp trace.TracerProvider, transport string) server.ResourceHandlerMiddleware {
	tracer, base := tp.Tracer(Scope), baseAttrs(mcp.MethodResourcesRead, transport)
	return func(next server.ResourceHandlerFunc) server.ResourceHandlerFunc {
		return func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			ctx, span := startServerSpan(ctx, tracer, string(mcp.MethodResourcesRead), req.Params.Meta, req.Header, slices.Clip(base))
			defer span.End()
			out, err := next(ctx, req)
			if err != nil {
				// The error's text may quote the URI: a fixed word instead.
				span.SetAttributes(attribute.String(AttrErrorType, "_OTHER"))
				span.SetStatus(codes.Error, "resource read failed")
			}
			return out, err
		}
	}
}

func baseAttrs(method mcp.MCPMethod, transport string) []attribute.KeyValue {
	base := []attribute.KeyValue{attribute.String(AttrMCPMethod, string(method))}
	if transport == "http" {
		return append(base, attribute.String(AttrNetTransport, "tcp"), attribute.String(AttrNetProtocolName, "http"))
	}
	return append(base, attribute.String(AttrNetTransport, "pipe"))
}

// startServerSpan starts a request's server span under the client's trace
// context, with the protocol version: 2026-07-28 requests name theirs in
// _meta, older ones on HTTP in the MCP-Protocol-Version header; mcp-go's
// stdio session may not have recorded what initialize settled (left out).
func startServerSpan(ctx context.Context, tracer trace.Tracer, name string, meta *mcp.Meta, header http.Header, attrs []attribute.KeyValue) (context.Context, trace.Span) {
	v := server.RequestProtocolVersion(ctx)
	if v == "" {
		v = header.Get(mcp.HeaderProtocolVersion)
	}
	if v != "" {
		attrs = append(attrs, attribute.String(AttrMCPProtocol, v))
	}
	opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...)}
	parent, link := clientContext(meta, header)
	if link.IsValid() {
		opts = append(opts, trace.WithLinks(trace.Link{SpanContext: link}))
	}
	if parent.IsValid() {
		ctx = trace.ContextWithRemoteSpanContext(ctx, parent)
	}
	return tracer.Start(ctx, name, opts...)
}

// clientContext is the client's span context from _meta (parent) and from
// the HTTP headers (parent when _meta has none, else a link when it differs).
func clientContext(meta *mcp.Meta, header http.Header) (parent, link trace.SpanContext) {
	fromMeta := metaContext(meta)
	var fromHeader trace.SpanContext
	if header.Get("traceparent") != "" {
		fromHeader = trace.SpanContextFromContext(w3c.Extract(context.Background(), propagation.HeaderCarrier(header)))
	}
	switch {
	case fromMeta.IsValid():
		if fromHeader.IsValid() && !fromHeader.Equal(fromMeta) {
			return fromMeta, fromHeader
		}
		return fromMeta, trace.SpanContext{}
	default:
		return fromHeader, trace.SpanContext{}
	}
}

// metaContext reads traceparent and tracestate from params._meta; a value
// that is not a string, or not a valid traceparent, is no context.
func metaContext(meta *mcp.Meta) trace.SpanContext {
	if meta == nil {
		return trace.SpanContext{}
	}
	tp, _ := meta.AdditionalFields["traceparent"].(string)
	if tp == "" {
		return trace.SpanContext{}
	}
	carrier := propagation.MapCarrier{"traceparent": tp}
	if ts, ok := meta.AdditionalFields["tracestate"].(string); ok && ts != "" {
		carrier["tracestate"] = ts
	}
	return trace.SpanContextFromContext(w3c.Extract(context.Background(), carrier))
}

// endToolSpan records the outcome. The status description is the code,
// never the message: envelope messages may quote an argument.
func endToolSpan(span trace.Span, res *mcp.CallToolResult, err error) {
	switch {
	case err != nil:
		// mcp-go answers a handler's Go error with JSON-RPC internal error.
		code := strconv.Itoa(mcp.INTERNAL_ERROR)
		span.SetAttributes(attribute.String(AttrErrorType, code), attribute.String(AttrRPCStatus, code))
		span.SetStatus(codes.Error, code)
	case res != nil && res.IsError:
		code := "tool_error"
		if b, ok := res.StructuredContent.(envelope.Body); ok && slices.Contains(envelope.Codes, b.Code) {
			code = string(b.Code)
		}
		span.SetAttributes(attribute.String(AttrErrorType, "tool_error"), attribute.String(AttrErrorCode, code))
		span.SetStatus(codes.Error, code)
	}
}
