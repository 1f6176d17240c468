// Package tools defines the shoonya MCP tools over the Noren client, the
// per-user sessions, the safe order path and the live feed.
package tools

import (
	"context"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/feed"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/session"
)

// ConfirmMode says when place_order asks the user through MCP elicitation.
type ConfirmMode string

const (
	ConfirmAuto    ConfirmMode = "auto"    // ask where the client supports elicitation, else proceed
	ConfirmRequire ConfirmMode = "require" // ask; refuse when the client cannot be asked
	ConfirmOff     ConfirmMode = "off"     // never ask
)

// Deps are what the tools stand on.
type Deps struct {
	Sessions *session.Manager
	Callback *session.Callback // OAuth redirect receiver; nil when SHOONYA_OAUTH_REDIRECT_URL is unset
	Hub      *feed.Hub
	Placer   *orders.Placer
	Limits   orders.Limits
	Pacer    *orders.Pacer
	Confirm  ConfirmMode
	Now      func() time.Time
	// ChainConcurrency bounds the option chain's parallel quote calls (the
	// client-side limiter paces them at 20/s, 200/min).
	ChainConcurrency int
	// Scrips caches search_scrip's answers (NewScripCache); nil: one in this
	// process, made on first use.
	Scrips    *cache.Cache[SearchOut]
	scripOnce sync.Once
}

func (d *Deps) client() *noren.Client { return d.Sessions.Client }

func (d *Deps) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

func user(ctx context.Context) string { return serve.UserID(ctx) }

// All returns every tool in a stable order.
func All(d *Deps) []toolkit.Tool {
	all := []toolkit.Tool{
		connectTool(d),
		placeOrderTool(d), modifyOrderTool(d), cancelOrderTool(d),
		orderBookTool(d), tradeBookTool(d), positionsTool(d), holdingsTool(d), limitsTool(d),
		searchScripTool(d), quotesTool(d), optionChainTool(d), timePriceSeriesTool(d),
		subscribeTool(d), unsubscribeTool(d),
	}
	for i, t := range all {
		all[i] = caseInsensitiveExchanges(t)
	}
	return all
}

// do runs fn with the caller's session and one automatic re-login.
func do[T any](ctx context.Context, d *Deps, fn func(a *noren.Auth) (T, error)) (T, error) {
	return session.Do(ctx, d.Sessions, fn)
}
