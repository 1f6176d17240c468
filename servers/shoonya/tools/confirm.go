package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

const confirmID = "confirm_order"

// clientCanElicit reports whether the caller's client declared elicitation:
// per request in _meta on 2026-07-28, on the session for older protocols.
func clientCanElicit(ctx context.Context, req mcp.CallToolRequest) bool {
	if mcp.IsModernProtocol(server.RequestProtocolVersion(ctx)) {
		if caps := req.Params.Meta.ClientCapabilities(); caps != nil && caps.Elicitation != nil {
			return true
		}
		return false
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return s.GetClientCapabilities().Elicitation != nil
	}
	return false
}

// withConfirmation wraps place_order: before the order is handled, the user
// confirms it through MCP elicitation. The handler returns an input_required
// result (SEP-2322): 2026-07-28 clients answer and retry; for older clients
// mcp-go performs elicitation/create and re-invokes the handler, so one code
// path serves both eras. Bad arguments and pre-trade limits are checked first,
// so the user is never asked to confirm an order that would be refused.
func withConfirmation(d *Deps, t toolkit.Tool) toolkit.Tool {
	inner := t.Handler
	t.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if d.Confirm == ConfirmOff {
			return inner(ctx, req)
		}
		if e := t.CheckArguments(req); e != nil {
			return envelope.Fail(e), nil
		}
		var in PlaceIn
		if err := toolkit.Bind(req, &in); err != nil {
			return envelope.Fail(envelope.Invalid("", "arguments do not match the input schema: %v", err)), nil
		}
		o, err := mapOrder(in)
		if err != nil {
			return envelope.Fail(err), nil
		}
		if o.Price > 0 || o.Trigger > 0 {
			if err := d.Limits.CheckStatic(o.Exch, defaultStr(in.Product, "CNC"), o.Qty, max(o.Price, o.Trigger)); err != nil {
				return envelope.Fail(err), nil
			}
		}
		if ans := server.ElicitationResponse(req.Params.InputResponses, confirmID); ans != nil {
			if ans.Action != mcp.ElicitationResponseActionAccept || !confirmed(ans.Content) {
				return envelope.Fail(envelope.New(envelope.PermissionDenied, "the user did not confirm the order, so nothing was sent; ask the user before trying again").WithDetail("limit", "confirmation")), nil
			}
			return inner(ctx, req)
		}
		if !clientCanElicit(ctx, req) {
			if d.Confirm == ConfirmRequire {
				return envelope.Fail(envelope.New(envelope.PermissionDenied, "order confirmation is required (SHOONYA_CONFIRM_ORDERS=require) but this client cannot ask the user (no MCP elicitation); use a client with elicitation or set SHOONYA_CONFIRM_ORDERS=auto").WithDetail("limit", "confirmation")), nil
			}
			return inner(ctx, req)
		}
		return server.NewInputRequestBuilder("").Elicit(confirmID, mcp.ElicitationParams{
			Message: summary(in, o.Qty),
			RequestedSchema: map[string]any{
				"type": "object",
				"properties": map[string]any{
					"confirm": map[string]any{"type": "boolean", "title": "Place this order", "description": "true to send the order to the exchange"},
				},
				"required": []string{"confirm"},
			},
		}).ToolResult(), nil
	}
	return t
}

func confirmed(content any) bool {
	m, ok := content.(map[string]any)
	if !ok {
		b, _ := json.Marshal(content)
		_ = json.Unmarshal(b, &m)
	}
	v, _ := m["confirm"].(bool)
	return v
}

func summary(in PlaceIn, qty int) string {
	px := "as a protective LIMIT near the last price (Shoonya rejects API market orders)"
	switch in.OrderType {
	case "LIMIT":
		px = fmt.Sprintf("limit %g", in.Price)
	case "SL":
		px = fmt.Sprintf("limit %g, trigger %g", in.Price, in.TriggerPrice)
	case "SL-M":
		px = fmt.Sprintf("trigger %g, as SL with a protective limit near the trigger", in.TriggerPrice)
	}
	legs := ""
	if in.StopLoss > 0 {
		legs += fmt.Sprintf(", stop-loss %g", in.StopLoss)
	}
	if in.Target > 0 {
		legs += fmt.Sprintf(", target %g", in.Target)
	}
	return fmt.Sprintf("Place a REAL order on Shoonya: %s %d %s on %s, %s%s, product %s, validity %s?",
		in.Side, qty, in.TradingSymbol, in.Exchange, px, legs, defaultStr(in.Product, "CNC"), defaultStr(in.Validity, "DAY"))
}
