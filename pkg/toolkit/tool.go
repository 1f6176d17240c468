// Package toolkit defines mcpfleet tools: typed handlers, schemas derived from Go
// structs, explicit hints, and the envelope for every result. A handler returns
// (Out, error); the wrapper turns that into envelope.OK or envelope.Fail, recovers
// panics into an internal error, and never returns a Go error to mcp-go.
package toolkit

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Handler is the typed body of a tool.
type Handler[In, Out any] func(ctx context.Context, in In) (Out, error)

// Tool is one tool with its toolset (a group name used by --tools filters and docs).
type Tool struct {
	server.ServerTool
	Toolset string
}

// Name of the tool.
func (t Tool) Name() string { return t.Tool.Name }

// Def is what a tool is made of. In and Out are structs; their schemas are derived.
type Def struct {
	Name        string
	Title       string
	Description string
	Toolset     string
	Hints       Hints
}

type requestKey struct{}

// Request returns the MCP request of the call running in ctx (progress token,
// headers, _meta), or the zero request outside a tool call.
func Request(ctx context.Context) mcp.CallToolRequest {
	r, _ := ctx.Value(requestKey{}).(mcp.CallToolRequest)
	return r
}

// New builds a tool from a typed handler.
func New[In, Out any](d Def, h Handler[In, Out]) Tool {
	in, err := SchemaFor[In](false)
	if err != nil {
		panic(fmt.Sprintf("tool %s: input schema: %v", d.Name, err))
	}
	out, err := SchemaFor[Out](true)
	if err != nil {
		panic(fmt.Sprintf("tool %s: output schema: %v", d.Name, err))
	}
	t := mcp.Tool{
		Name:            d.Name,
		Title:           d.Title,
		Description:     d.Description,
		RawInputSchema:  in,
		RawOutputSchema: out,
		Annotations:     d.Hints.annotation(d.Title),
	}
	return Tool{Toolset: d.Toolset, ServerTool: server.ServerTool{Tool: t, Handler: wrap(d.Name, h, &lazySchema{raw: out})}}
}

func wrap[In, Out any](name string, h Handler[In, Out], outSchema *lazySchema) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
		defer func() {
			if p := recover(); p != nil {
				zerolog.Ctx(ctx).Error().Str("tool", name).Interface("panic", p).Bytes("stack", debug.Stack()).Msg("tool panicked")
				res = envelope.Fail(envelope.New(envelope.Internal, "internal error in %s; the server log has details", name))
			}
		}()
		var in In
		if err := Bind(req, &in); err != nil {
			return envelope.Fail(envelope.Invalid("", "arguments do not match the input schema: %v", err)), nil
		}
		ctx = context.WithValue(ctx, requestKey{}, req)
		out, err := h(ctx, in)
		if err != nil {
			e := envelope.From(err)
			ev := zerolog.Ctx(ctx).Warn()
			if e.Code == envelope.Internal {
				ev = zerolog.Ctx(ctx).Error()
			}
			ev.Str("tool", name).Str("code", string(e.Code)).AnErr("cause", e.Cause).Msg(e.Message)
			return envelope.Fail(e), nil
		}
		if p, ok := any(out).(envelope.Preencoder); ok {
			if enc := p.Preencoded(); enc != nil {
				// Encoded once by the handler: nothing to fill, and checked
				// against the output schema once per encoding, not per call.
				if err := enc.Check(outSchema.validate); err != nil {
					zerolog.Ctx(ctx).Error().Str("tool", name).Err(err).Msg("pre-encoded result breaks the output schema")
					return envelope.Fail(envelope.New(envelope.Internal, "output schema validation failed for %s; the server log has details", name)), nil
				}
				return envelope.OK(out), nil
			}
		}
		return envelope.OK(fillNils(out)), nil
	}
}

// Bind decodes a call's arguments into dst, as every toolkit handler gets them.
// Schema validation has run already (the server turns it on); this catches what
// schemas cannot express.
func Bind(req mcp.CallToolRequest, dst any) error {
	raw := req.GetRawArguments()
	if raw == nil {
		return nil
	}
	b, ok := raw.(json.RawMessage)
	if !ok {
		var err error
		if b, err = json.Marshal(raw); err != nil {
			return err
		}
	}
	if len(b) == 0 || string(b) == "null" {
		return nil
	}
	return json.Unmarshal(b, dst)
}
