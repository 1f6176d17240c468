package tools_test

import (
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// niftyCalls are two NIFTY calls of the nearest expiry around the money
// (lower strike first) and a put at the lower strike, from the fake's master.
func niftyOptions(t *testing.T) (lowCE, highCE, lowPE fake.Instrument) {
	t.Helper()
	var ce, pe []fake.Instrument
	var first fake.Instrument
	for _, in := range fake.DefaultInstruments(clock.MustFromEnv().Now()) {
		if in.Exch != "NFO" || in.Symbol != "NIFTY" || in.OptType == "" {
			continue
		}
		if first.TSym == "" || in.Expiry.Before(first.Expiry) {
			first = in
		}
	}
	for _, in := range fake.DefaultInstruments(clock.MustFromEnv().Now()) {
		if in.Exch == "NFO" && in.Symbol == "NIFTY" && in.Expiry.Equal(first.Expiry) {
			switch in.OptType {
			case "CE":
				ce = append(ce, in)
			case "PE":
				pe = append(pe, in)
			}
		}
	}
	sort.Slice(ce, func(i, j int) bool { return ce[i].Strike < ce[j].Strike })
	sort.Slice(pe, func(i, j int) bool { return pe[i].Strike < pe[j].Strike })
	mid := len(ce) / 2
	for _, p := range pe {
		if p.Strike == ce[mid].Strike {
			lowPE = p
		}
	}
	return ce[mid], ce[mid+1], lowPE
}

func leg(in fake.Instrument, side string) map[string]any {
	return map[string]any{"exchange": "NFO", "trading_symbol": in.TSym, "side": side, "quantity": in.LS, "order_type": "MARKET", "product": "NORMAL"}
}

// refusingProxy serves the fake but answers the n-th PlaceOrder itself with
// the README's PlaceOrder failure sample, as the broker refuses an order.
func refusingProxy(t *testing.T, f *fake.Server, n int64) string {
	var seen atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/PlaceOrder") && seen.Add(1) == n {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"request_time":"10:10:10 07-12-2026","stat":"Not_Ok","emsg":"Error Occurred : 2 \"invalid input\""}`))
			return
		}
		f.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestBasketSecondLegRefused is the acceptance case: a bull call spread
// given sell-first goes out buy-first (the hedge), the broker refuses the
// second leg, and the result names the leg that went through (its order
// number) and stops; calling again with the same key never doubles leg 1.
func TestBasketSecondLegRefused(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{cfg: fake.Config{TickInterval: -1, RateLimit: fake.RateLimit{Disabled: true}}})
	t.Setenv("SHOONYA_REST_URL", refusingProxy(t, e.fake, 2)+fake.PathOAuthREST)
	e = &env{t: t, fake: e.fake, urls: e.urls, era: e.era, uid: e.uid, conn: servetest.NewWithOptions(t, app(), nil)}
	e.connect()
	low, high, _ := niftyOptions(t)
	args := map[string]any{"legs": []any{leg(high, "SELL"), leg(low, "BUY")}, "idempotency_key": "spread-1"}
	out := servetest.Decode[tools.BasketOut](t, e.call("place_basket", args))
	if out.Outcome != "partial" || len(out.Legs) != 2 {
		t.Fatalf("%+v", out)
	}
	l1, l2 := out.Legs[0], out.Legs[1]
	if l1.TradingSymbol != low.TSym || l1.Status != "placed" || l1.OrderID == "" {
		t.Fatalf("leg 1 (the hedge, first): %+v", l1)
	}
	if l2.TradingSymbol != high.TSym || l2.Status != "failed" || !strings.Contains(l2.Reason, "invalid") {
		t.Fatalf("leg 2: %+v", l2)
	}
	if !strings.Contains(out.Next, "STOPPED at leg 2") || !strings.Contains(out.Next, l1.OrderID) || !strings.Contains(out.Next, "one-sided") {
		t.Fatalf("next does not name what went through: %s", out.Next)
	}
	if n := e.fake.OrdersWithRemarks("spread-1:1"); n != 1 {
		t.Fatalf("leg 1 reached the broker %d times", n)
	}
	// The same call again: leg 1 is not sent again, leg 2 now goes.
	again := servetest.Decode[tools.BasketOut](t, e.call("place_basket", args))
	if again.Outcome != "placed" || again.Legs[0].Status != "already_placed" || again.Legs[0].OrderID != l1.OrderID || again.Legs[1].Status != "placed" {
		t.Fatalf("again: %+v", again)
	}
	if e.fake.OrdersWithRemarks("spread-1:1") != 1 || e.fake.OrdersWithRemarks("spread-1:2") != 1 {
		t.Fatalf("ledger: leg 1 %d, leg 2 %d", e.fake.OrdersWithRemarks("spread-1:1"), e.fake.OrdersWithRemarks("spread-1:2"))
	}
}

// TestBasketLegRejectedByRMS: a long strangle on an account with funds for
// one leg only: the broker accepts the second and its RMS rejects it; the
// basket reads the book, reports the rejection and stops.
func TestBasketLegRejectedByRMS(t *testing.T) {
	low, _, put := niftyOptions(t)
	acct := fake.DemoAccount()
	// Enough for the call at its protective limit (the fake counts a working
	// buy against the cash twice: as an order and in the new total), not the put too.
	acct.Cash = low.Price * 1.1 * 2 * float64(low.LS)
	e := newEnv(t, noren.Legacy, envOpt{account: &acct, cfg: fake.Config{TickInterval: -1, RateLimit: fake.RateLimit{Disabled: true}}})
	e.connect()
	ce, pe := leg(low, "BUY"), leg(put, "BUY")
	ce["product"], pe["product"] = "CNC", "CNC"
	out := servetest.Decode[tools.BasketOut](t, e.call("place_basket", map[string]any{"legs": []any{ce, pe, leg(put, "SELL")}}))
	if out.Outcome != "partial" || out.Legs[0].Status != "placed" || out.Legs[1].Status != "rejected" || out.Legs[2].Status != "not_sent" {
		lp, _ := e.fake.LastPrice("NFO", low.Token)
		t.Fatalf("%+v (cash %v, ce %v lp %v, pe %v)", out, acct.Cash, low.Price, lp, put.Price)
	}
	if !strings.Contains(out.Legs[1].Reason, fake.RejInsufficient) || !strings.Contains(out.Next, "Not sent: leg 3") {
		t.Fatalf("%+v", out)
	}
	if n := len(e.fake.Ledger()); n != 2 {
		t.Fatalf("%d orders reached the broker, want 2", n)
	}
}

// TestBasketTable: success, bad arguments, a 429, a timeout, paper mode and a halt.
func TestBasketTable(t *testing.T) {
	low, high, _ := niftyOptions(t)
	spread := func(key string) map[string]any {
		return map[string]any{"legs": []any{leg(low, "BUY"), leg(high, "SELL")}, "idempotency_key": key}
	}
	e := newEnv(t, noren.OAuth, envOpt{extra: fastTimeouts, cfg: fake.Config{TickInterval: -1, RateLimit: fake.RateLimit{Disabled: true}}})
	e.connect()
	oddLot := leg(high, "SELL")
	oddLot["quantity"] = low.LS + 1
	runWriteCases(t, e, "place_basket", "PlaceOrder", []writeCase{
		{name: "success", args: func(*env) map[string]any { return spread("bk-ok") }, sent: 2, check: func(t *testing.T, e *env, res string) {
			if !strings.Contains(res, `"outcome":"placed"`) || e.fake.OrdersWithRemarks("bk-ok:1") != 1 || e.fake.OrdersWithRemarks("bk-ok:2") != 1 {
				t.Fatalf("%s", res)
			}
		}},
		{name: "same key again sends nothing", args: func(*env) map[string]any { return spread("bk-ok") }, check: func(t *testing.T, _ *env, res string) {
			if strings.Count(res, `"status":"already_placed"`) != 2 {
				t.Fatalf("%s", res)
			}
		}},
		{name: "one leg", args: func(*env) map[string]any { return map[string]any{"legs": []any{leg(low, "BUY")}} }, code: envelope.InvalidArgument},
		{name: "leg off its lot: nothing sent", args: func(*env) map[string]any { return map[string]any{"legs": []any{leg(low, "BUY"), oddLot}} }, code: envelope.InvalidArgument,
			check: func(t *testing.T, _ *env, res string) {
				if !strings.Contains(res, "leg 2") {
					t.Fatalf("does not name the leg: %s", res)
				}
			}},
		{name: "limit without price", args: func(*env) map[string]any {
			l := leg(low, "BUY")
			l["order_type"] = "LIMIT"
			return map[string]any{"legs": []any{l, leg(high, "SELL")}}
		}, code: envelope.InvalidArgument},
		{name: "429 on leg 1: nothing placed", args: func(*env) map[string]any { return spread("bk-429") }, fault: &fake.Fault{Kind: fake.FaultRateLimit, Times: 1}, sent: 1,
			check: func(t *testing.T, _ *env, res string) {
				if !strings.Contains(res, `"outcome":"partial"`) || !strings.Contains(res, "No leg went through") || !strings.Contains(res, `"status":"not_sent"`) {
					t.Fatalf("%s", res)
				}
			}},
		// The broker took leg 1 and its answer was lost: the order book shows
		// it (recovered), so leg 2 goes; each leg reached the broker once.
		{name: "timeout on leg 1: recovered from the book", args: func(*env) map[string]any { return spread("bk-slow") }, fault: &fake.Fault{Kind: fake.FaultTimeout, Times: 1}, sent: 2,
			check: func(t *testing.T, e *env, res string) {
				if e.fake.OrdersWithRemarks("bk-slow:1") != 1 || e.fake.OrdersWithRemarks("bk-slow:2") != 1 {
					t.Fatalf("%s", res)
				}
			}},
	})

	p := newEnv(t, noren.OAuth, envOpt{extra: map[string]string{"SHOONYA_TRADING": "paper", "SHOONYA_CONFIRM_ORDERS": "require"}})
	p.connect()
	out := servetest.Decode[tools.BasketOut](t, p.call("place_basket", spread("bk-paper")))
	if out.Mode != "paper" || out.Outcome != "placed" || !strings.HasPrefix(out.Legs[0].OrderID, "P") || routeCalls(p, "PlaceOrder") != 0 {
		t.Fatalf("paper: %+v, %d sent", out, routeCalls(p, "PlaceOrder"))
	}

	h := newEnv(t, noren.OAuth, envOpt{extra: map[string]string{"SHOONYA_TRADING": "halted"}})
	h.connect()
	if body := servetest.ErrorBody(t, h.call("place_basket", spread("bk-halt"))); body.Code != envelope.PermissionDenied || routeCalls(h, "PlaceOrder") != 0 {
		t.Fatalf("halted: %+v", body)
	}
}

// TestBasketConfirmPage: without elicitation nothing is sent; the page lists
// every leg in sending order and places them on one POST, once.
func TestBasketConfirmPage(t *testing.T) {
	low, high, _ := niftyOptions(t)
	e := newEnv(t, noren.Legacy, envOpt{extra: map[string]string{"SHOONYA_CONFIRM_ORDERS": "require"}, cfg: fake.Config{TickInterval: -1}})
	e.connect()
	out := servetest.Decode[tools.BasketOut](t, e.call("place_basket", map[string]any{"legs": []any{leg(high, "SELL"), leg(low, "BUY")}, "idempotency_key": "bk-page"}))
	if out.Outcome != "confirmation_required" || out.ConfirmURL == "" || len(e.fake.Ledger()) != 0 {
		t.Fatalf("%+v", out)
	}
	body := getBody(t, out.ConfirmURL)
	i, j := strings.Index(body, "<li>BUY"), strings.Index(body, "<li>SELL")
	if i < 0 || j < i || !strings.Contains(body, low.TSym) || !strings.Contains(body, high.TSym) {
		t.Fatalf("the page does not list the legs buy first: %s", body)
	}
	page := confirmPage(t, out.ConfirmURL)
	if got := postConfirm(t, out.ConfirmURL, page, nil); !strings.Contains(got.body, "Basket placed") {
		t.Fatalf("POST: %d %s", got.status, got.body)
	}
	if got := postConfirm(t, out.ConfirmURL, page, nil); got.status != http.StatusGone || len(e.fake.Ledger()) != 2 {
		t.Fatalf("replay: %d, ledger %d", got.status, len(e.fake.Ledger()))
	}
}
