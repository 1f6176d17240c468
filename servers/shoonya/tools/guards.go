package tools

import (
	"context"
	"fmt"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// guard is the account guards (Deps.Guard), or the defaults in memory for
// Deps built by hand.
func (d *Deps) guard() *guard.Guard {
	d.guardOnce.Do(func() {
		if d.Guard == nil {
			d.Guard = guard.New(guard.Defaults(), kv.NewMemory(), d.now)
		}
	})
	return d.Guard
}

// paper reports whether orders go to the paper book (SHOONYA_TRADING=paper).
func (d *Deps) paper(ctx context.Context) bool {
	m, _, err := d.guard().Effective(ctx)
	return err == nil && m == guard.Paper
}

// guardOrder is what the guards see of o: valued at the price sent, else the trigger.
func guardOrder(o noren.OrderRequest, key string) guard.Order {
	return guard.Order{Key: key, Exch: o.Exch, TSym: o.TSym, Side: o.TranType, Qty: o.Qty, Value: orderValue(o.Qty, o.Price, o.Trigger)}
}

// sendFailed tells the guards how a PlaceOrder that returned err ended:
// the broker's refusal counts toward the freeze; a lost answer keeps the
// order counted (it may exist); anything else gives its value back.
func (d *Deps) sendFailed(ctx context.Context, g guard.Order, err error) {
	if noren.IsOutcomeUnknown(err) {
		return
	}
	e := envelope.From(err)
	if msg, ok := e.Details["broker_message"]; ok && e.Code != envelope.Unauthenticated && e.Code != envelope.RateLimited && e.Code != envelope.UpstreamUnavailable {
		d.guard().Rejected(ctx, user(ctx), g.Key, g.Value, fmt.Sprint(msg))
		return
	}
	d.guard().Released(ctx, user(ctx), g.Key, g.Value)
}
