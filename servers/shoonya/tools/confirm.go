package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/confirm"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
)

const confirmID = "confirm_order"

// DefaultConfirmTimeout is how long place_order waits for a pre-2026-07-28
// client to answer the confirmation it asked through elicitation/create. A
// host that declares elicitation and never shows the question would
// otherwise hold the call until the client's own timeout; after it, the
// model hears why and gets the confirmation page instead.
const DefaultConfirmTimeout = 90 * time.Second

// clientCanElicit reports whether the caller's client declared elicitation:
// per request in _meta on 2026-07-28, on the session for older protocols.
func clientCanElicit(ctx context.Context, req mcp.CallToolRequest) bool {
	if modern(ctx) {
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

func modern(ctx context.Context) bool {
	return mcp.IsModernProtocol(server.RequestProtocolVersion(ctx))
}

// withConfirmation wraps place_order: no order leaves without a person's
// yes that the model cannot give by itself (SHOONYA_CONFIRM_ORDERS=require).
//
//   - A 2026-07-28 client that declares elicitation gets an input_required
//     result (SEP-2322) whose requestState is a one-time ticket bound to the
//     order's exact fields; its answer counts only with that ticket, once,
//     before it expires.
//   - An older client that declares elicitation is asked with
//     elicitation/create, waiting at most ConfirmTimeout.
//   - Otherwise (or when the question goes unanswered) nothing is sent: the
//     result carries a one-time confirmation page on the server's own
//     address where the person places the order. A retry by the model gets
//     the same link and sends nothing.
//
// Bad arguments, pre-trade limits and account guards are checked first, so
// a person is never asked to confirm an order that would be refused.
func withConfirmation(d *Deps, t toolkit.Tool) toolkit.Tool {
	inner := t.Handler
	t.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
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
		g := d.guard()
		if err := g.CheckTrading(ctx, user(ctx)); err != nil {
			return envelope.Fail(err), nil
		}
		if d.paper(ctx) {
			return inner(ctx, req) // nothing reaches the broker: no yes needed
		}
		key := d.keyOf(ctx, in, o)
		if e, err := g.Placed(ctx, user(ctx), key); err != nil {
			return envelope.Fail(err), nil
		} else if e != nil {
			return envelope.OK(&PlaceOut{OrderID: e.OrderNo, IdempotencyKey: key, Outcome: "already_placed", Mode: string(guard.Live), Next: alreadyPlacedNext}), nil
		}
		rep, err := g.Check(ctx, user(ctx), guardOrder(o, key), true)
		if err != nil {
			return envelope.Fail(err), nil
		}
		warning := ""
		if rep != nil {
			warning = fmt.Sprintf("This repeats an order sent %s ago (%s, idempotency key %s). Confirm only if you want a SECOND order.",
				d.now().Sub(rep.At).Round(time.Second), firstNonEmpty(rep.OrderNo, "answer pending"), rep.Key)
		}
		in.IdempotencyKey = key // the ticket and the page place exactly this order
		if d.Confirm == ConfirmOff {
			if rep == nil {
				return inner(ctx, req)
			}
			return d.offerPage(ctx, in, key, warning, "this order repeats one just sent (duplicate window, "+guard.EnvDuplicateWindow+")")
		}
		if ans := server.ElicitationResponse(req.Params.InputResponses, confirmID); ans != nil {
			return d.answered(ctx, in, ans, req.Params.RequestState, rep != nil)
		}
		if err := d.marginBeforeAsking(ctx, in); err != nil {
			return envelope.Fail(err), nil // never ask a yes to an order the broker would refuse for margin
		}
		if !clientCanElicit(ctx, req) {
			return d.offerPage(ctx, in, key, warning, "this client cannot ask the user (it declares no MCP elicitation)")
		}
		question := summary(in, o.Qty)
		if warning != "" {
			question = "WARNING: " + warning + " " + question
		}
		params := mcp.ElicitationParams{Message: question, RequestedSchema: confirmSchema}
		if modern(ctx) {
			tk, err := d.Tickets.Issue(ctx, user(ctx), in, question, warning)
			if err != nil {
				return envelope.Fail(ticketErr(d, err)), nil
			}
			return server.NewInputRequestBuilder(tk.ID).Elicit(confirmID, params).ToolResult(), nil
		}
		return d.askLegacy(ctx, in, key, warning, params, rep != nil)
	}
	return t
}

var confirmSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"confirm": map[string]any{"type": "boolean", "title": "Place this order", "description": "true to send the order to the exchange"},
	},
	"required": []string{"confirm"},
}

// answered handles a 2026-07-28 client's answer: it counts only with the
// one-time ticket issued for these exact fields (requestState).
func (d *Deps) answered(ctx context.Context, in PlaceIn, ans *mcp.ElicitationResult, state string, duplicate bool) (*mcp.CallToolResult, error) {
	digest, _, err := confirm.Digest(in)
	if err != nil {
		return envelope.Fail(envelope.New(envelope.Internal, "could not bind the confirmation to the order")), nil
	}
	if _, err := d.Tickets.Redeem(ctx, state, user(ctx), digest); err != nil {
		return envelope.Fail(confirm.RefusalOf(err)), nil
	}
	if ans.Action != mcp.ElicitationResponseActionAccept || !confirmed(ans.Content) {
		return envelope.Fail(declined()), nil
	}
	return d.placeResult(ctx, in, duplicate)
}

func declined() *envelope.Error {
	return envelope.New(envelope.PermissionDenied, "the user did not confirm the order, so nothing was sent; ask the user before trying again").
		WithDetail("limit", "confirmation").WithRetryable(false)
}

// askLegacy asks a pre-2026-07-28 client with elicitation/create and waits
// at most ConfirmTimeout; no answer (or a client that fails the request)
// gets the confirmation page.
func (d *Deps) askLegacy(ctx context.Context, in PlaceIn, key, warning string, params mcp.ElicitationParams, duplicate bool) (*mcp.CallToolResult, error) {
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return d.offerPage(ctx, in, key, warning, "this server could not reach the client to ask")
	}
	wait := d.ConfirmTimeout
	if wait <= 0 {
		wait = DefaultConfirmTimeout
	}
	actx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	ans, err := srv.RequestElicitation(actx, mcp.ElicitationRequest{
		Request: mcp.Request{Method: string(mcp.MethodElicitationCreate)}, Params: params})
	if err != nil {
		if ctx.Err() != nil {
			return envelope.Fail(envelope.New(envelope.Timeout, "the call was cancelled before the user answered; nothing was sent")), nil
		}
		why := "the client did not show the confirmation or failed it (" + err.Error() + ")"
		if errors.Is(err, context.DeadlineExceeded) || actx.Err() != nil {
			why = fmt.Sprintf("the user did not answer the confirmation within %s (%s)", wait, EnvConfirmTimeout)
		}
		zerolog.Ctx(ctx).Warn().Str("why", why).Msg("order confirmation not answered; offering the confirmation page")
		return d.offerPage(ctx, in, key, warning, why)
	}
	if ans == nil || ans.Action != mcp.ElicitationResponseActionAccept || !confirmed(ans.Content) {
		return envelope.Fail(declined()), nil
	}
	return d.placeResult(ctx, in, duplicate)
}

// placeResult places a confirmed order and answers as the tool does.
func (d *Deps) placeResult(ctx context.Context, in PlaceIn, allowDuplicate bool) (*mcp.CallToolResult, error) {
	out, err := d.place(ctx, in, allowDuplicate)
	if err != nil {
		return envelope.Fail(err), nil
	}
	return envelope.OK(&out), nil
}

// offerPage answers with a one-time confirmation page; nothing is sent.
func (d *Deps) offerPage(ctx context.Context, in PlaceIn, key, warning, why string) (*mcp.CallToolResult, error) {
	o, _ := mapOrder(in)
	sum := summary(in, o.Qty)
	if d.Page == nil {
		return envelope.Fail(envelope.New(envelope.PermissionDenied, "nothing was sent: %s, and no confirmation page is configured; use a client with MCP elicitation", why).WithDetail("limit", "confirmation")), nil
	}
	if err := d.startPage(); err != nil {
		return envelope.Fail(envelope.New(envelope.PermissionDenied, "nothing was sent: %s, and the confirmation page could not start (%v); set %s to a free loopback address", why, err, EnvConfirmAddr).WithDetail("limit", "confirmation")), nil
	}
	tk, err := d.Tickets.Issue(ctx, user(ctx), in, sum, warning)
	if err != nil {
		return envelope.Fail(ticketErr(d, err)), nil
	}
	out := PlaceOut{IdempotencyKey: key, Outcome: "confirmation_required", Mode: string(guard.Live),
		ConfirmURL: d.Page.URL(tk.ID), ConfirmExpires: tk.Expires.In(istZone).Format(time.RFC3339),
		Next: "NOTHING WAS SENT: " + why + ". Give the user confirm_url: they open it in a browser, check the order and press the button (once, before confirm_expires). " +
			"Then check get_order_book. Calling place_order again sends nothing (it returns the same link)."}
	if warning != "" {
		out.Next += " " + warning
	}
	return envelope.OK(&out), nil
}

var istZone = time.FixedZone("IST", 5*3600+1800)

func ticketErr(d *Deps, err error) *envelope.Error {
	return envelope.New(envelope.UpstreamUnavailable, "the confirmation could not be stored (%s), so nothing was sent; try again shortly", d.Tickets.State.Where()).
		WithRetryable(true).WithCause(err)
}

// startPage opens the page's loopback listener on first use (stdio); on
// the HTTP transport the page is served beside /mcp already.
func (d *Deps) startPage() error {
	ctx := d.life
	if ctx == nil {
		ctx = context.Background()
	}
	return d.Page.Listen(ctx, firstNonEmpty(d.PageAddr, "127.0.0.1:0"))
}

// pagePlace places a ticket's order for the person who pressed the button.
func (d *Deps) pagePlace(ctx context.Context, tk confirm.Ticket) (string, error) {
	var in PlaceIn
	if err := json.Unmarshal(tk.Order, &in); err != nil {
		return "", err
	}
	out, err := d.place(serve.WithUser(ctx, tk.User), in, tk.Warning != "")
	if err != nil {
		return "", errors.New(envelope.From(err).Message)
	}
	if out.Outcome == "already_placed" {
		return "Already placed earlier as order " + out.OrderID + "; nothing new was sent.", nil
	}
	s := "Placed: order " + out.OrderID + " (" + out.Outcome + ")."
	if out.Converted != "" {
		s += " " + out.Converted + "."
	}
	return s + " The assistant can follow it with get_order_book.", nil
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
		in.Side, qty, in.TradingSymbol, strings.ToUpper(in.Exchange), px, legs, defaultStr(in.Product, "CNC"), defaultStr(in.Validity, "DAY"))
}
