// Package toolkit defines mcpfleet tools: typed handlers, schemas derived from Go
// structs, explicit hints, and the envelope for every result. A handler returns
// (Out, error); the wrapper turns that into envelope.OK or envelope.Fail, recovers
// panics into an internal error, and never returns a Go error to mcp-go.
package toolkit

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
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
	// NeedsWrite puts a tool whose readOnlyHint is true under the server's
	// write scope all the same (OAuth): it changes nothing, but what it does
	// is a privilege (running code in the sandbox).
	NeedsWrite bool
	input      *inputCheck
}

// CheckArguments validates a call's arguments against the tool's input schema,
// as the tool's own handler does first; a wrapper that reads the arguments
// before the handler (order confirmation) calls it so it never acts on bad input.
func (t Tool) CheckArguments(req mcp.CallToolRequest) *envelope.Error {
	if t.input == nil {
		return nil
	}
	raw, err := rawArguments(req)
	if err != nil {
		return envelope.Invalid("", "arguments must be a JSON object: %v", err)
	}
	return t.input.check(raw)
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
	ic := &inputCheck{raw: in}
	return Tool{Toolset: d.Toolset, input: ic,
		ServerTool: server.ServerTool{Tool: t, Handler: wrap(d.Name, h, ic)}}
}

// The lines it logs go through the call's logger (zerolog.Ctx), which names
// the tool already (serve's call logger): a second "tool" key would repeat it.
func wrap[In, Out any](name string, h Handler[In, Out], inCheck *inputCheck) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
		defer func() {
			if p := recover(); p != nil {
				zerolog.Ctx(ctx).Error().Interface("panic", p).Bytes("stack", debug.Stack()).Msg("tool panicked")
				res = envelope.Fail(envelope.New(envelope.Internal, "internal error in %s; the server log has details", name))
			}
		}()
		raw, err := rawArguments(req)
		if err != nil {
			return envelope.Fail(envelope.Invalid("", "arguments must be a JSON object: %v", err)), nil
		}
		// The one validation pass: readable per-field errors (mcp-go's own
		// input validation is off, see serve.Build).
		if e := inCheck.check(raw); e != nil {
			return envelope.Fail(e), nil
		}
		var in In
		if len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &in); err != nil {
				return envelope.Fail(envelope.Invalid("", "arguments do not fit the tool: %v", err)), nil
			}
		}
		ctx = context.WithValue(ctx, requestKey{}, req)
		out, err := h(ctx, in)
		if err != nil {
			e := envelope.From(err)
			ev := zerolog.Ctx(ctx).Warn()
			if e.Code == envelope.Internal {
				ev = zerolog.Ctx(ctx).Error()
			}
			ev.Str("code", string(e.Code)).AnErr("cause", e.Cause).Msg(e.Message)
			return envelope.Fail(e), nil
		}
		// One box for the result: a pointer to it (no copy; the pointer's
		// method set has every method of Out), filled in place.
		v := resultRef(&out)
		fillNilsAt(&out)
		return envelope.OK(v), nil
	}
}

// resultRef is the result as envelope.OK takes it: &out for a value type (it
// encodes the same), the value itself when Out is a pointer or an interface
// (boxing those copies nothing, and a method on *X is still found).
func resultRef[Out any](out *Out) any {
	switch reflect.TypeFor[Out]().Kind() {
	case reflect.Pointer, reflect.Interface:
		return any(*out)
	}
	return out
}

// rawArguments returns a call's arguments as JSON bytes (nil when absent).
func rawArguments(req mcp.CallToolRequest) (json.RawMessage, error) {
	raw := req.GetRawArguments()
	if raw == nil {
		return nil, nil
	}
	if b, ok := raw.(json.RawMessage); ok {
		return b, nil
	}
	return json.Marshal(raw)
}

// Bind decodes a call's arguments into dst without schema validation (toolkit
// handlers get theirs validated and decoded by the wrapper).
func Bind(req mcp.CallToolRequest, dst any) error {
	b, err := rawArguments(req)
	if err != nil || len(b) == 0 || string(b) == "null" {
		return err
	}
	return json.Unmarshal(b, dst)
}
