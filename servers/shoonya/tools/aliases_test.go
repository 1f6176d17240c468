package tools_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// The seed design's and ShoonyaApi-py's argument names reach the broker as
// the schema's names would: an order placed with README's own example names
// and values (buy_or_sell 'B', product_type 'C', price_type 'LMT',
// retention, remarks, tradingsymbol) and one with the seed's
// (transaction_type, product_type, price_trigger) go out as the canonical
// call does.
func TestSeedAndSDKArgumentNamesPlaceOrders(t *testing.T) {
	e := quietEnv(t, fake.Config{}, noValueLimit)
	lp, _ := e.fake.LastPrice("NSE", "3045")
	px := math.Floor(lp*0.98/0.05) * 0.05
	cases := []struct {
		name string
		args map[string]any
		want map[string]string // Noren fields of the PlaceOrder sent
	}{
		{"ShoonyaApi-py README", map[string]any{"buy_or_sell": "B", "product_type": "C", "exchange": "nse", "tradingsymbol": "SBIN-EQ",
			"quantity": 1, "discloseqty": 0, "price_type": "LMT", "price": px, "retention": "DAY", "remarks": "my_order_001"},
			map[string]string{"trantype": "B", "prd": "C", "prctyp": "LMT", "ret": "DAY", "tsym": "SBIN-EQ", "exch": "NSE", "remarks": "my_order_001"}},
		{"seed design", map[string]any{"transaction_type": "SELL", "product_type": "INTRADAY", "exchange": "NSE", "tradingsymbol": "SBIN-EQ",
			"quantity": 2, "order_type": "SL", "price": px, "price_trigger": px + 0.05, "retention": "day", "remarks": "seed-sl-1"},
			map[string]string{"trantype": "S", "prd": "I", "prctyp": "SL-LMT", "qty": "2", "remarks": "seed-sl-1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", c.args))
			if out.Outcome != "placed" {
				t.Fatalf("%+v", out)
			}
			le := lastLedger(t, e.fake)
			for k, v := range c.want {
				if le.Fields[k] != v {
					t.Fatalf("sent %s=%q, want %q (all: %v)", k, le.Fields[k], v, le.Fields)
				}
			}
		})
	}
	// An alias beside its schema name is refused, not silently chosen.
	res := e.call("place_order", order(map[string]any{"tradingsymbol": "SBIN-EQ", "idempotency_key": "both-names"}))
	if !res.IsError || !strings.Contains(servetest.Text(res), "tradingsymbol") {
		t.Fatalf("both names: %s", servetest.Text(res))
	}
}

// Option chain (strikeprice, count), candles (start_time/end_time in Unix
// seconds, interval "D") and feeds ({"exchange","token"} objects with
// feed_type; subscription_id back into unsubscribe) by the seed's names.
func TestSeedArgumentNamesReadTools(t *testing.T) {
	e, _ := candleEnv(t, fake.Config{})
	chain := servetest.Decode[tools.ChainOut](t, e.call("get_option_chain", map[string]any{"exchange": "nfo", "tradingsymbol": "NIFTY", "strikeprice": 25000, "count": 2}))
	if len(chain.Rows) != 4 {
		t.Fatalf("chain by strikeprice/count: %+v", chain)
	}
	to := mustTime(t, candleNow)
	daily := servetest.Decode[tools.SeriesOut](t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885",
		"tradingsymbol": "RELIANCE-EQ", "interval": "D", "start_time": to.AddDate(0, 0, -14).Unix(), "end_time": to.Unix()}))
	if daily.Interval != "day" || len(daily.Candles) < 8 || daily.Candles[len(daily.Candles)-1].Time != "2026-12-03" {
		t.Fatalf("daily by start_time/end_time: %+v", daily)
	}
	intra := servetest.Decode[tools.SeriesOut](t, e.call("get_time_price_series", map[string]any{"exchange": "NSE", "token": "2885",
		"interval": 15, "start_time": json.Number("1796270400"), "end_time": "1796292000"})) // 2026-12-03 09:30 to 15:30 IST
	if intra.Interval != "15" || len(intra.Candles) != 24 || intra.Candles[0].Time != time.Unix(1796270400, 0).In(tools.IST).Format(time.RFC3339) {
		t.Fatalf("intraday by Unix seconds: %d candles from %v", len(intra.Candles), intra.Candles)
	}

	sub := servetest.Decode[tools.SubscribeOut](t, e.call("subscribe_market_feeds", map[string]any{
		"instruments": []map[string]any{{"exchange": "nse", "token": "2885"}, {"exchange": "NSE", "token": 1594}}, "feed_type": "depth"}))
	if len(sub.Depth) != 2 || sub.SubscriptionID == "" {
		t.Fatalf("subscribe by objects and feed_type: %+v", sub)
	}
	unsub := servetest.Decode[tools.FeedOut](t, e.call("unsubscribe_market_feeds", map[string]any{"subscription_id": sub.SubscriptionID}))
	if len(unsub.Depth) != 0 {
		t.Fatalf("unsubscribe by subscription_id: %+v", unsub)
	}
}

// tools/list shows one name per argument: no alias is in any schema.
func TestAliasesInvisibleInToolsList(t *testing.T) {
	e := newEnv(t, "oauth", envOpt{})
	aliases := []string{"tradingsymbol", "transaction_type", "buy_or_sell", "product_type", "retention", "price_trigger", "price_type",
		"remarks", "two_fa_token", "twoFA", "strikeprice", "count", "start_time", "end_time", "feed_type", "subscription_id", "orderno"}
	for _, tool := range e.conn.Built.Registry.Tools() {
		b, _ := json.Marshal(tool.Tool.InputSchema)
		for _, a := range aliases {
			if strings.Contains(string(b), `"`+a+`"`) {
				t.Errorf("%s's schema shows the alias %q", tool.Tool.Name, a)
			}
		}
	}
}

// get_option_chain without strike_price centres on the nearest future's
// last price (at the money); strike_price 0 is refused, as the broker
// refuses strprc=0.
func TestOptionChainAtTheMoney(t *testing.T) {
	e, _ := candleEnv(t, fake.Config{})
	out := servetest.Decode[tools.ChainOut](t, e.call("get_option_chain", map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY", "strike_count": 2}))
	if len(out.Rows) != 4 || out.Legs != 8 {
		t.Fatalf("at the money: %+v", out)
	}
	if res := e.call("get_option_chain", map[string]any{"exchange": "NFO", "trading_symbol": "NIFTY", "strike_price": 0}); !res.IsError ||
		!strings.Contains(servetest.Text(res), "strike_price") {
		t.Fatalf("strike_price 0: %s", servetest.Text(res))
	}
}
