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
	"github.com/mcpfleet/mcpfleet/servers/shoonya/confirm"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/feed"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/orders"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/paper"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/session"
)

// ConfirmMode says whether place_order needs a person's yes.
type ConfirmMode string

const (
	// ConfirmRequire (the default): a person confirms every order, through
	// the client's elicitation or the one-time confirmation page.
	ConfirmRequire ConfirmMode = "require"
	// ConfirmOff: orders go without asking (autonomous trading, chosen
	// explicitly and logged at start); the account guards still apply.
	ConfirmOff ConfirmMode = "off"
	// ConfirmAuto is the old default, which sent orders unasked when the
	// client could not elicit; it now means require (logged at start).
	ConfirmAuto ConfirmMode = "auto"
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
	// ConfirmTimeout bounds the wait for an elicitation/create answer
	// (DefaultConfirmTimeout when 0).
	ConfirmTimeout time.Duration
	// Tickets and Page are the one-time confirmation (package confirm);
	// PageAddr is the page's loopback listener on stdio (127.0.0.1:0).
	Tickets  *confirm.Tickets
	Page     *confirm.Page
	PageAddr string
	pageMu   sync.Mutex
	pageRuns map[string]func(context.Context, confirm.Ticket) (string, error) // per tool
	// Guard is the account guards and the trading mode; nil: defaults in memory.
	Guard     *guard.Guard
	guardOnce sync.Once
	// Paper is the paper book (SHOONYA_TRADING=paper).
	Paper *paper.Book
	life  context.Context // the server's lifetime, for the page's listener
	Now   func() time.Time
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
		placeOrderTool(d),
		paperTool(d, modifyOrderTool(d), paperModify(d)), paperTool(d, cancelOrderTool(d), paperCancel(d)),
		paperTool(d, orderBookTool(d), paperOrderBook(d)), paperTool(d, tradeBookTool(d), paperTradeBook(d)),
		paperTool(d, positionsTool(d), paperPositions(d)), paperTool(d, holdingsTool(d), paperHoldings(d)),
		paperTool(d, limitsTool(d), paperLimits(d)),
		searchScripTool(d), quotesTool(d), optionChainTool(d), timePriceSeriesTool(d),
		subscribeTool(d), unsubscribeTool(d),
		exitOrderTool(d), convertPositionTool(d), // confirmed writes (exit.go, convert.go)
		placeBasketTool(d),                                // basket.go
		placeGTTTool(d), getGTTsTool(d), cancelGTTTool(d), // gtt.go
		orderMarginTool(d), basketMarginTool(d),
		paperTool(d, orderHistoryTool(d), paperHistory(d)),
		quotesBatchTool(d),
		watchlistsTool(d), editWatchlistTool(d),
		optionGreeksTool(d),
	}
	all = append(all, alertTools(d)...)
	for i, t := range all {
		all[i] = normalisedArguments(markedPaper(d, t))
	}
	return all
}

// do runs fn with the caller's session and one automatic re-login.
func do[T any](ctx context.Context, d *Deps, fn func(a *noren.Auth) (T, error)) (T, error) {
	return session.Do(ctx, d.Sessions, fn)
}
