package tools

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/confirm"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/paper"
)

// configureGuards builds the order safety from the environment: the shared
// state, the account guards, the paper book and the confirmation page (on
// the HTTP transport beside /mcp; on stdio its own loopback listener, opened
// when first needed).
func (d *Deps) configureGuards(ctx context.Context, r *serve.Registry, db *store.DB) error {
	st, err := kv.For(ctx, r.Redis, db)
	if err != nil {
		return err
	}
	gc, err := guard.FromEnv()
	if err != nil {
		return err
	}
	d.Guard = guard.New(gc, st, d.now)
	d.Paper = &paper.Book{State: st, Now: d.now}
	d.Tickets = &confirm.Tickets{State: st, Now: d.now}
	for _, x := range []struct {
		env string
		dst *time.Duration
	}{{EnvConfirmTimeout, &d.ConfirmTimeout}, {EnvConfirmTTL, &d.Tickets.TTL}} {
		if v := env.Or(x.env, ""); v != "" {
			t, err := time.ParseDuration(v)
			if err != nil || t <= 0 {
				return fmt.Errorf("%s must be a positive duration like 90s, not %q", x.env, v)
			}
			*x.dst = t
		}
	}
	d.PageAddr = env.Or(EnvConfirmAddr, "127.0.0.1:0")
	d.Page = &confirm.Page{Tickets: d.Tickets, Place: d.pagePlace, Log: r.Log,
		Halt: func(ctx context.Context, reason string) error {
			return d.Guard.Halt(ctx, "a person on the confirmation page", reason)
		}}
	if base := env.Or("SHOONYA_CONFIRM_URL", r.HTTPBase()); base != "" {
		d.Page.SetBase(base)
		r.HandlePage(confirm.Path, d.Page)
	}
	return nil
}

// logOrderSafety says at start how orders are guarded; autonomous trading is never silent.
func logOrderSafety(r *serve.Registry, d *Deps) {
	g := d.guard()
	ev := r.Log.Info()
	if d.Confirm == ConfirmOff && g.Mode == guard.Live {
		ev = r.Log.Warn()
	}
	ev.Str("trading", string(g.Mode)).Str("confirm_orders", string(d.Confirm)).Int("max_orders_per_day", g.MaxOrdersPerDay).
		Float64("max_day_value", g.MaxDayValue).Str("duplicate_window", g.DuplicateWindow.String()).Int("max_rejections", g.MaxRejections).
		Str("guard_state", g.State.Where()).Msg(safetyLine(d))
	if strings.EqualFold(strings.TrimSpace(os.Getenv(EnvConfirm)), string(ConfirmAuto)) {
		r.Log.Warn().Msg(EnvConfirm + "=auto is gone (it sent orders unasked when the client could not ask the user): it now means require")
	}
}

func safetyLine(d *Deps) string {
	switch {
	case d.guard().Mode == guard.Paper:
		return "PAPER trading: orders fill in the paper book; nothing is sent to the broker's order routes"
	case d.guard().Mode == guard.Halted:
		return "trading HALTED (" + guard.EnvTrading + "=halted): every order is refused"
	case d.Confirm == ConfirmOff:
		return "AUTONOMOUS trading: " + EnvConfirm + "=off, orders are sent without asking a person (account guards still apply)"
	}
	return "every order needs a person's yes (client prompt or one-time confirmation page)"
}
