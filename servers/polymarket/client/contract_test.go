package client

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// Contract tests: the recorded real answers in testdata/contract replayed
// against the client, separately from the fake. Each exchange also checks the
// request the client sends (route and parameters from the reference, not the
// original server's wrong URLs).

type exchange struct {
	method, path string
	query        map[string]string // exactly these parameters; nil: not checked
	body         string            // the JSON body sent; "": none
	status       int
	file         string
}

// replay answers every request with the recorded answer in file (a client
// that retries gets it again) through servetest.Replay, which checks the
// request; the client must make one at least.
func replay(t *testing.T, ex exchange) *Client {
	t.Helper()
	body, err := os.ReadFile(filepath.Join("testdata", "contract", ex.file))
	if err != nil {
		t.Fatal(err)
	}
	rp := servetest.Answer(t, ex.method, ex.path, ex.status, body)
	rp.AnyBody = false
	rp.Exchanges[0].Request.Query, rp.Exchanges[0].Request.Body = ex.query, json.RawMessage(ex.body)
	srv := httptest.NewServer(rp)
	t.Cleanup(func() {
		srv.Close()
		if rp.Served() == 0 {
			t.Errorf("the client never asked for %s %s", ex.method, ex.path)
		}
	})
	return New(Config{GammaURL: srv.URL, ClobURL: srv.URL, DataURL: srv.URL, BTCURL: srv.URL, BTCFallbackURL: srv.URL,
		Timeout: 2 * time.Second, Retries: -1})
}

func TestContractMarketLive(t *testing.T) {
	c := replay(t, exchange{method: "GET", path: "/markets/1066851", status: 200, file: "market_live_2025-12-31.json"})
	m, _, err := c.Market(context.Background(), "1066851")
	if err != nil {
		t.Fatal(err)
	}
	if m.ID != "1066851" || len(m.Outcomes) != 2 || m.Outcomes[0] != "Up" || m.Prices()[1] != 0.415 ||
		len(m.ClobTokenIDs) != 2 || !strings.HasPrefix(m.ClobTokenIDs[0], "88518485469625721937") ||
		m.Vol() != 92509.470055 || float64(m.Liquidity) != 20579.7452 || m.BestAsk != 0.59 || !m.Active || m.Closed {
		t.Fatalf("%+v", m)
	}
}

func TestContractMarketBySlugAndCondition(t *testing.T) {
	c := replay(t, exchange{method: "GET", path: "/markets/slug/btc-updown-15m-1767200400", status: 200, file: "market_live_2025-12-31.json"})
	if m, _, err := c.Market(context.Background(), "btc-updown-15m-1767200400"); err != nil || m.Slug != "btc-updown-15m-1767200400" {
		t.Fatalf("%+v %v", m, err)
	}
}

func TestContractKeyset(t *testing.T) {
	c := replay(t, exchange{method: "GET", path: "/markets/keyset", query: map[string]string{"after_cursor": "abc"}, status: 200, file: "keyset_markets.json"})
	p, _, err := c.MarketsKeyset(context.Background(), url.Values{"after_cursor": {"abc"}})
	if err != nil || len(p.Markets) != 1 || p.NextCursor != "MTA2Njg1MQ==" {
		t.Fatalf("%+v %v", p, err)
	}
}

func TestContractBookOrder(t *testing.T) {
	tok := "8851848546962572193739008211889046036776198486765606333032192644001246174440"
	c := replay(t, exchange{method: "GET", path: "/book", query: map[string]string{"token_id": tok}, status: 200, file: "book.json"})
	bs, _, err := c.Books(context.Background(), []string{tok})
	if err != nil || len(bs) != 1 {
		t.Fatal(err)
	}
	bid, _ := bs[0].BestBid()
	ask, _ := bs[0].BestAsk()
	// bids ascending and asks descending: the best are the last elements, not [0]
	if bid.Price != 0.58 || bid.Size != 12.5 || ask.Price != 0.59 || bs[0].Bids[0].Price == bid.Price {
		t.Fatalf("best bid %v ask %v", bid, ask)
	}
}

func TestContractPrices(t *testing.T) {
	for _, f := range []string{"prices_live_strings.json", "prices_sdk_numbers.json"} {
		c := replay(t, exchange{method: "POST", path: "/prices", body: `[{"token_id":"1","side":"BUY"}]`, status: 200, file: f})
		p, _, err := c.Prices(context.Background(), []PriceReq{{TokenID: "1", Side: "buy"}})
		if err != nil || p["1"]["BUY"] != 0.5 {
			t.Fatalf("%s: %v %v", f, p, err)
		}
	}
}

func TestContractHistory(t *testing.T) {
	c := replay(t, exchange{method: "GET", path: "/prices-history", query: map[string]string{"market": "123", "interval": "1d", "fidelity": "60"},
		status: 200, file: "history.json"})
	h, _, err := c.History(context.Background(), HistoryQuery{Token: "123", Interval: "1d", Fidelity: 60})
	if err != nil || len(h) != 2 || h[1].P != 0.51 || h[1].T != 1060 {
		t.Fatalf("%+v %v", h, err)
	}
}

func TestContractDataAPI(t *testing.T) {
	ctx := context.Background()
	c := replay(t, exchange{method: "GET", path: "/v1/builders/leaderboard", query: map[string]string{"timePeriod": "WEEK"}, status: 200, file: "builders.json"})
	b, _, err := c.Builders(ctx, url.Values{"timePeriod": {"WEEK"}})
	if err != nil || len(b) != 2 || b[0].Rank != "1" || b[0].Volume != 5e6 || b[1].ActiveUsers != 3 {
		t.Fatalf("%+v %v", b, err)
	}
	cond := "0x2e6af11e4b853b05ba7135239b21d77e808889b6ce1e735de856c94c4e5b5fce"
	c = replay(t, exchange{method: "GET", path: "/holders", query: map[string]string{"market": cond}, status: 200, file: "holders.json"})
	h, _, err := c.Holders(ctx, url.Values{"market": {cond}})
	if err != nil || len(h) != 1 || h[0].Holders[0].Amount != 1234.5 {
		t.Fatalf("%+v %v", h, err)
	}
	c = replay(t, exchange{method: "GET", path: "/public-search", status: 200, file: "search_nulls.json"})
	s, _, err := c.Search(ctx, url.Values{"q": {"x"}})
	if err != nil || len(s.Events) != 0 || s.Pagination == nil {
		t.Fatalf("%+v %v", s, err)
	}
}

func TestContractErrors(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		ex   exchange
		call func(c *Client) error
		code envelope.Code
		msg  string
	}{
		{exchange{method: "GET", path: "/positions", status: 400, file: "error_invalid_user.json"},
			func(c *Client) error { _, _, err := c.Positions(ctx, url.Values{"user": {"0x1"}}); return err },
			envelope.InvalidArgument, "Invalid user address"},
		{exchange{method: "GET", path: "/book", status: 404, file: "error_no_orderbook.json"},
			func(c *Client) error { _, _, err := c.Books(ctx, []string{"1"}); return err },
			envelope.NotFound, "no order book"},
		{exchange{method: "GET", path: "/markets/keyset", status: 500, file: "error_gamma_500.json"},
			func(c *Client) error { _, _, err := c.MarketsKeyset(ctx, url.Values{}); return err },
			envelope.UpstreamError, "cannot get the information"},
		{exchange{method: "GET", path: "/positions", status: 200, file: "null.json"},
			func(c *Client) error { _, _, err := c.Positions(ctx, url.Values{}); return err },
			envelope.UpstreamError, "null"},
	}
	for _, tc := range cases {
		t.Run(tc.ex.file, func(t *testing.T) {
			err := tc.call(replay(t, tc.ex))
			e := envelope.From(err)
			if err == nil || e.Code != tc.code || !strings.Contains(e.Message, tc.msg) {
				t.Fatalf("%v", err)
			}
		})
	}
}
