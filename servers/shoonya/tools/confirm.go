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

// write is one money-moving action a person confirms: place_order,
// exit_order, convert_position, the GTT writes and place_basket all go
// through the same machinery (confirmed below).
type write[In, Out any] struct {
	tool string
	// vet checks the arguments and everything that can be checked before a
	// person is asked (pre-trade limits, account guards, "already done"),
	// completes in (e.g. the idempotency key) and says what to ask.
	vet func(ctx context.Context, in *In) (plan[Out], error)
	// send performs the action once a person said yes (dup: the yes was to a
	// repeat inside the duplicate window).
	send func(ctx context.Context, in In, dup bool) (Out, error)
	// pending is the result when nothing was sent and a person confirms on the page.
	pending func(in In, c pendingConfirm) Out
	// said is what the page tells the person once sent.
	said func(Out) string
	// then is the check the model makes after the page, e.g. "Then check get_order_book."
	then string
	// beforeAsk, when set, refuses before a person is asked what the broker
	// would refuse anyway (place_order: not enough margin).
	beforeAsk func(ctx context.Context, in In) error
}

// plan is what vet decided.
type plan[Out any] struct {
	summary string   // exactly what will be sent
	legs    []string // each order sent, in sending order (baskets)
	warning string   // shown above the question (e.g. a repeat of an order just sent)
	// dup: the warning is the duplicate window; with SHOONYA_CONFIRM_ORDERS=off
	// such a call still needs a person's yes.
	dup bool
	// done answers at once without asking (already placed).
	done *Out
	// direct sends without asking: paper mode, where nothing reaches the broker.
	direct bool
	button string // the page's button
}

// pendingConfirm is how the result of a call that sent nothing points at the page.
type pendingConfirm struct{ URL, Expires, Next string }

func (p plan[Out]) question() string {
	q := p.summary
	if len(p.legs) > 0 {
		q += " Sent in this order:"
		for i, l := range p.legs {
			q += fmt.Sprintf(" %d) %s;", i+1, l)
		}
	}
	if p.warning != "" {
		q = "WARNING: " + p.warning + " " + q
	}
	return q
}

func (p plan[Out]) ask(tool, summary string) confirm.Ask {
	return confirm.Ask{Tool: tool, Summary: summary, Warning: p.warning, Legs: p.legs, Button: p.button}
}

// withConfirmation wraps t so nothing w does leaves without a person's yes that
// the model cannot give by itself (SHOONYA_CONFIRM_ORDERS=require):
//
//   - A 2026-07-28 client that declares elicitation gets an input_required
//     result (SEP-2322) whose requestState is a one-time ticket bound to the
//     tool and its exact fields; its answer counts only with that ticket,
//     once, before it expires.
//   - An older client that declares elicitation is asked with
//     elicitation/create, waiting at most ConfirmTimeout.
//   - Otherwise (or when the question goes unanswered) nothing is sent: the
//     result carries a one-time confirmation page on the server's own
//     address where the person sends it. A retry by the model gets the same
//     link and sends nothing.
//
// Bad arguments, pre-trade limits and account guards are checked first (vet),
// so a person is never asked to confirm what would be refused.
func withConfirmation[In, Out any](d *Deps, t toolkit.Tool, w write[In, Out]) toolkit.Tool {
	d.onPage(w.tool, func(ctx context.Context, tk confirm.Ticket) (string, error) {
		var in In
		if err := json.Unmarshal(tk.Order, &in); err != nil {
			return "", err
		}
		out, err := w.send(serve.WithUser(ctx, tk.User), in, tk.Warning != "")
		if err != nil {
			return "", errors.New(envelope.From(err).Message)
		}
		return w.said(out), nil
	})
	t.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if e := t.CheckArguments(req); e != nil {
			return envelope.Fail(e), nil
		}
		var in In
		if err := toolkit.Bind(req, &in); err != nil {
			return envelope.Fail(envelope.Invalid("", "arguments do not match the input schema: %v", err)), nil
		}
		p, err := w.vet(ctx, &in)
		switch {
		case err != nil:
			return envelope.Fail(err), nil
		case p.done != nil:
			return envelope.OK(p.done), nil
		case p.direct:
			return w.result(ctx, in, false)
		}
		if d.Confirm == ConfirmOff {
			if !p.dup {
				return w.result(ctx, in, false)
			}
			return w.offerPage(ctx, d, in, p, "this repeats an order just sent (duplicate window, "+guard.EnvDuplicateWindow+")")
		}
		if ans := server.ElicitationResponse(req.Params.InputResponses, confirmID); ans != nil {
			return w.answered(ctx, d, in, ans, req.Params.RequestState, p.dup)
		}
		if w.beforeAsk != nil {
			if err := w.beforeAsk(ctx, in); err != nil {
				return envelope.Fail(err), nil // never ask a yes the broker would refuse anyway
			}
		}
		if !clientCanElicit(ctx, req) {
			return w.offerPage(ctx, d, in, p, "this client cannot ask the user (it declares no MCP elicitation)")
		}
		question := p.question()
		params := mcp.ElicitationParams{Message: question, RequestedSchema: confirmSchema}
		if modern(ctx) {
			tk, err := d.Tickets.IssueFor(ctx, user(ctx), in, p.ask(w.tool, question))
			if err != nil {
				return envelope.Fail(ticketErr(d, err)), nil
			}
			return server.NewInputRequestBuilder(tk.ID).Elicit(confirmID, params).ToolResult(), nil
		}
		return w.askLegacy(ctx, d, in, p, params)
	}
	return t
}

// onPage registers what the confirmation page runs for tool's tickets.
func (d *Deps) onPage(tool string, run func(context.Context, confirm.Ticket) (string, error)) {
	d.pageMu.Lock()
	defer d.pageMu.Unlock()
	if d.pageRuns == nil {
		d.pageRuns = map[string]func(context.Context, confirm.Ticket) (string, error){}
	}
	d.pageRuns[tool] = run
}

var confirmSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"confirm": map[string]any{"type": "boolean", "title": "Send it", "description": "true to send exactly what is shown to the broker"},
	},
	"required": []string{"confirm"},
}

// answered handles a 2026-07-28 client's answer: it counts only with the
// one-time ticket issued for this tool and these exact fields (requestState).
func (w write[In, Out]) answered(ctx context.Context, d *Deps, in In, ans *mcp.ElicitationResult, state string, dup bool) (*mcp.CallToolResult, error) {
	raw, err := json.Marshal(in)
	if err != nil {
		return envelope.Fail(envelope.New(envelope.Internal, "could not bind the confirmation to the request")), nil
	}
	if _, err := d.Tickets.Redeem(ctx, state, user(ctx), confirm.DigestFor(w.tool, raw)); err != nil {
		return envelope.Fail(confirm.RefusalFor(w.tool, err)), nil
	}
	if ans.Action != mcp.ElicitationResponseActionAccept || !confirmed(ans.Content) {
		return envelope.Fail(declined(w.tool)), nil
	}
	return w.result(ctx, in, dup)
}

func declined(tool string) *envelope.Error {
	return envelope.New(envelope.PermissionDenied, "the user did not confirm, so nothing was sent; ask the user before calling %s again", tool).
		WithDetail("limit", "confirmation").WithRetryable(false)
}

// askLegacy asks a pre-2026-07-28 client with elicitation/create and waits
// at most ConfirmTimeout; no answer (or a client that fails the request)
// gets the confirmation page.
func (w write[In, Out]) askLegacy(ctx context.Context, d *Deps, in In, p plan[Out], params mcp.ElicitationParams) (*mcp.CallToolResult, error) {
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return w.offerPage(ctx, d, in, p, "this server could not reach the client to ask")
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
		zerolog.Ctx(ctx).Warn().Str("tool", w.tool).Str("why", why).Msg("confirmation not answered; offering the confirmation page")
		return w.offerPage(ctx, d, in, p, why)
	}
	if ans == nil || ans.Action != mcp.ElicitationResponseActionAccept || !confirmed(ans.Content) {
		return envelope.Fail(declined(w.tool)), nil
	}
	return w.result(ctx, in, p.dup)
}

// result sends and answers as the tool does.
func (w write[In, Out]) result(ctx context.Context, in In, dup bool) (*mcp.CallToolResult, error) {
	out, err := w.send(ctx, in, dup)
	if err != nil {
		return envelope.Fail(err), nil
	}
	return envelope.OK(&out), nil
}

// offerPage answers with a one-time confirmation page; nothing is sent.
func (w write[In, Out]) offerPage(ctx context.Context, d *Deps, in In, p plan[Out], why string) (*mcp.CallToolResult, error) {
	if d.Page == nil {
		return envelope.Fail(envelope.New(envelope.PermissionDenied, "nothing was sent: %s, and no confirmation page is configured; use a client with MCP elicitation", why).WithDetail("limit", "confirmation")), nil
	}
	if err := d.startPage(); err != nil {
		return envelope.Fail(envelope.New(envelope.PermissionDenied, "nothing was sent: %s, and the confirmation page could not start (%v); set %s to a free loopback address", why, err, EnvConfirmAddr).WithDetail("limit", "confirmation")), nil
	}
	tk, err := d.Tickets.IssueFor(ctx, user(ctx), in, p.ask(w.tool, p.summary))
	if err != nil {
		return envelope.Fail(ticketErr(d, err)), nil
	}
	next := "NOTHING WAS SENT: " + why + ". Give the user confirm_url: they open it in a browser, check what is shown and press the button (once, before confirm_expires). " +
		w.then + " Calling " + w.tool + " again sends nothing (it returns the same link)."
	if p.warning != "" {
		next += " " + p.warning
	}
	out := w.pending(in, pendingConfirm{URL: d.Page.URL(tk.ID), Expires: tk.Expires.In(istZone).Format(time.RFC3339), Next: next})
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

// pagePlace runs a ticket's action for the person who pressed the button.
func (d *Deps) pagePlace(ctx context.Context, tk confirm.Ticket) (string, error) {
	tool := firstNonEmpty(tk.Tool, confirm.PlaceOrder)
	d.pageMu.Lock()
	run := d.pageRuns[tool]
	d.pageMu.Unlock()
	if run == nil {
		return "", fmt.Errorf("this server does not offer %s", tool)
	}
	return run(ctx, tk)
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
