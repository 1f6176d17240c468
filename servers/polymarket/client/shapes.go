package client

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// num is how Polymarket sends figures: decimal strings on some routes,
// numbers on others (testdata/contract/README.md).
var num = []string{drift.Number, drift.String}

// marketFields are what the tools read of a Gamma market row (types.go),
// under prefix ("" for a single market, "markets[]." in a page).
func marketFields(prefix string) []drift.Field {
	return []drift.Field{
		drift.Req(prefix+"id", drift.String, drift.Number),
		drift.Req(prefix+"question", drift.String),
		drift.Req(prefix+"conditionId", drift.String),
		drift.Req(prefix+"slug", drift.String),
		drift.Opt(prefix+"outcomes", drift.String, drift.Array), // a JSON string of a list, live
		drift.Opt(prefix+"outcomePrices", drift.String, drift.Array),
		drift.Opt(prefix+"clobTokenIds", drift.String, drift.Array),
		drift.Opt(prefix+"volume", num...),
		drift.Opt(prefix+"liquidity", num...),
		drift.Opt(prefix+"active", drift.Bool),
		drift.Opt(prefix+"closed", drift.Bool),
		drift.Opt(prefix+"endDate", drift.String),
	}
}

func eventFields(prefix string) []drift.Field {
	return []drift.Field{
		drift.Req(prefix+"id", drift.String, drift.Number),
		drift.Req(prefix+"slug", drift.String),
		drift.Req(prefix+"title", drift.String),
		drift.Opt(prefix+"markets", drift.Array),
		drift.Opt(prefix+"volume", num...),
	}
}

func bookFields(prefix string) []drift.Field {
	return []drift.Field{
		drift.Req(prefix+"asset_id", drift.String),
		drift.Req(prefix+"bids", drift.Array),
		drift.Req(prefix+"asks", drift.Array),
		drift.Req(prefix+"bids[].price", num...),
		drift.Req(prefix+"bids[].size", num...),
		drift.Req(prefix+"asks[].price", num...),
		drift.Req(prefix+"asks[].size", num...),
		drift.Opt(prefix+"tick_size", num...),
		drift.Opt(prefix+"min_order_size", num...),
	}
}

// errorShape: Gamma, the CLOB and the Data API answer errors as
// {"error": "..."}, Gamma adding "type" (testdata/contract error_*.json,
// observed_*_4xx.json).
var errorShape = []drift.Field{drift.Req("error", drift.String), drift.Opt("type", drift.String)}

// Shapes are what this client reads from each route (its Op), shared by
// the contract tests, the live probe and the run-time watch.
var Shapes = []drift.Shape{
	{Route: "list markets", Fields: append([]drift.Field{drift.Req("markets", drift.Array),
		drift.Opt("next_cursor", drift.String, drift.Null)}, marketFields("markets[].")...), Error: errorShape},
	{Route: "get market", Fields: marketFields(""), Error: errorShape},
	{Route: "list events", Fields: append([]drift.Field{drift.Req("events", drift.Array),
		drift.Opt("next_cursor", drift.String, drift.Null)}, eventFields("events[].")...), Error: errorShape},
	{Route: "get event", Fields: eventFields(""), Error: errorShape},
	{Route: "search", Fields: []drift.Field{drift.Opt("events", drift.Array), drift.Opt("tags", drift.Array),
		drift.Opt("pagination.hasMore", drift.Bool), drift.Opt("pagination.totalResults", drift.Number)}, Error: errorShape},
	// GET /comments/keyset: {"comments":[…],"next_cursor"} (next_cursor
	// absent on the last page; Polymarket/ts-sdk packages/bindings/src/gamma/comment.ts
	// ListCommentsKeysetResponseSchema).
	{Route: "list comments", Fields: []drift.Field{drift.Req("comments", drift.Array),
		drift.Opt("next_cursor", drift.String, drift.Null), drift.Req("comments[].id", drift.String, drift.Number),
		drift.Opt("comments[].body", drift.String, drift.Null), drift.Opt("comments[].createdAt", drift.String, drift.Null),
		drift.Opt("comments[].parentCommentID", drift.String, drift.Number, drift.Null),
		drift.Opt("comments[].parentEntityType", drift.String, drift.Null).OneOf("Event", "Series", "PerpsAsset")}, Error: errorShape},
	{Route: "get order book", Fields: bookFields(""), Error: errorShape},
	{Route: "get order books", Fields: append([]drift.Field{drift.Req("", drift.Array)}, bookFields("[].")...), Error: errorShape},
	{Route: "get prices", Fields: []drift.Field{drift.Req("", drift.Object)}, Error: errorShape},
	{Route: "get price history", Fields: []drift.Field{drift.Req("history", drift.Array),
		drift.Req("history[].t", drift.Number), drift.Req("history[].p", num...)}, Error: errorShape},
	{Route: "get top holders", Fields: []drift.Field{drift.Req("", drift.Array, drift.Null), drift.Req("[].token", drift.String),
		drift.Req("[].holders", drift.Array), drift.Req("[].holders[].proxyWallet", drift.String),
		drift.Req("[].holders[].amount", num...), drift.Opt("[].holders[].outcomeIndex", drift.Number)}, Error: errorShape},
	// Data API v2 (docs.polymarket.com/api-reference/data-api/overview): {data, pagination}, snake_case.
	{Route: "get user positions", Fields: []drift.Field{drift.Req("data", drift.Array, drift.Null), drift.Req("pagination", drift.Object),
		drift.Opt("pagination.next_cursor", drift.String), drift.Req("pagination.has_more", drift.Bool),
		drift.Req("data[].token_id", drift.String), drift.Req("data[].condition_id", drift.String), drift.Req("data[].current_size", num...),
		drift.Opt("data[].current_value", num...), drift.Opt("data[].unrealized_pnl", num...), drift.Opt("data[].outcome", drift.String),
		drift.Opt("data[].current_price", num...), drift.Opt("data[].status", drift.String).OneOf("OPEN", "REDEEMABLE", "CLOSED")}, Error: errorShape},
	// Activity types and sides: every type the API answers today
	// (ActivityTypes); a new one is drift the watch reports once a day
	// while the row still passes through. Side BUY/SELL, "" on non-trades
	// (source: rs-clob-client src/data/types/).
	{Route: "get user activity", Fields: []drift.Field{drift.Req("", drift.Array), drift.Req("[].timestamp", drift.Number),
		drift.Req("[].type", drift.String).OneOf(ActivityTypes...),
		drift.Opt("[].side", drift.String).OneOf("BUY", "SELL", ""), drift.Opt("[].size", num...),
		drift.Opt("[].usdcSize", num...), drift.Opt("[].price", num...)}, Error: errorShape},
	// GET /value: [{"user","value"}] (the Data API OpenAPI, /value).
	{Route: "get portfolio value", Fields: []drift.Field{drift.Req("", drift.Array), drift.Req("[].user", drift.String),
		drift.Req("[].value", num...)}, Error: errorShape},
	{Route: "get builder leaderboard", Fields: []drift.Field{drift.Req("", drift.Array), drift.Req("[].rank", drift.String, drift.Number),
		drift.Req("[].builder", drift.String), drift.Req("[].volume", num...)}, Error: errorShape},
	// Coinbase GET /v2/prices/BTC-USD/spot: {"data":{"amount","base","currency"}}.
	{Route: "btc spot", Fields: []drift.Field{drift.Req("data.amount", drift.String)}},
	// Kraken GET /0/public/Ticker: {"error":[],"result":{pair:{"c":[price,vol],...}}}.
	{Route: "btc spot (fallback)", Fields: []drift.Field{drift.Req("error", drift.Array), drift.Req("result", drift.Object)}},
}

func init() { drift.Default().Register(Shapes...) }

// Probes read one row of every route the tools use: a live market and
// event found first, then their book, prices, history, holders, comments,
// and one holder's positions and activity. The CLOB's POST /books and
// /prices are reads (Polymarket's CLOB reference: batch quote lookups).
func (c *Client) Probes() []drift.Probe {
	g, cl, d := c.gamma.Sender(), c.clob.Sender(), c.data.Sender()
	page := url.Values{"limit": {"1"}, "closed": {"false"}}
	market := func(e map[string][]byte) (m struct {
		ID          json.RawMessage `json:"id"`
		ConditionID string          `json:"conditionId"`
		Tokens      string          `json:"clobTokenIds"`
	}, token string, err error) {
		var p struct {
			Markets []json.RawMessage `json:"markets"`
		}
		if json.Unmarshal(e["list markets"], &p) != nil || len(p.Markets) == 0 {
			return m, "", errors.New("no market listed")
		}
		_ = json.Unmarshal(p.Markets[0], &m)
		var toks []string
		if json.Unmarshal([]byte(m.Tokens), &toks) != nil || len(toks) == 0 {
			return m, "", errors.New("the market lists no token")
		}
		return m, toks[0], nil
	}
	withToken := func(fill func(c *drift.Call, token string)) func(map[string][]byte, *drift.Call) error {
		return func(e map[string][]byte, c *drift.Call) error {
			_, tok, err := market(e)
			if err == nil {
				fill(c, tok)
			}
			return err
		}
	}
	holder := func(e map[string][]byte, c *drift.Call) error {
		var hs []struct {
			Holders []struct {
				ProxyWallet string `json:"proxyWallet"`
			} `json:"holders"`
		}
		if json.Unmarshal(e["get top holders"], &hs) != nil || len(hs) == 0 || len(hs[0].Holders) == 0 {
			return errors.New("no holder listed")
		}
		c.Query = url.Values{"user": {hs[0].Holders[0].ProxyWallet}, "limit": {"1"}}
		return nil
	}
	eventID := func(e map[string][]byte) (string, error) {
		var p struct {
			Events []struct {
				ID json.RawMessage `json:"id"`
			} `json:"events"`
		}
		if json.Unmarshal(e["list events"], &p) != nil || len(p.Events) == 0 {
			return "", errors.New("no event listed")
		}
		return unquote(p.Events[0].ID), nil
	}
	read := "a read: Polymarket's CLOB answers quotes for the tokens posted, nothing is placed"
	return []drift.Probe{
		{Upstream: "Gamma", Route: "list markets", Path: "/markets/keyset", Query: page, Send: g},
		{Upstream: "Gamma", Route: "get market", Path: "/markets/{id}", Needs: []string{"list markets"}, Send: g,
			Prepare: func(e map[string][]byte, c *drift.Call) error {
				m, _, _ := market(e) // a market without tokens still has an id
				if len(m.ID) == 0 {
					return errors.New("no market listed")
				}
				c.Path = "/markets/" + url.PathEscape(unquote(m.ID))
				return nil
			}},
		{Upstream: "Gamma", Route: "list events", Path: "/events/keyset", Query: page, Send: g},
		{Upstream: "Gamma", Route: "get event", Path: "/events/{id}", Needs: []string{"list events"}, Send: g,
			Prepare: func(e map[string][]byte, c *drift.Call) error {
				id, err := eventID(e)
				c.Path = "/events/" + url.PathEscape(id)
				return err
			}},
		{Upstream: "Gamma", Route: "search", Path: "/public-search", Query: url.Values{"q": {"bitcoin"}, "limit_per_type": {"1"}}, Send: g},
		{Upstream: "Gamma", Route: "list comments", Path: "/comments/keyset", Needs: []string{"list events"}, Send: g,
			Prepare: func(e map[string][]byte, c *drift.Call) error {
				id, err := eventID(e)
				c.Query = url.Values{"parent_entity_type": {"Event"}, "parent_entity_id": {id}, "limit": {"1"}}
				return err
			}},
		{Upstream: "CLOB", Route: "get order book", Path: "/book", Needs: []string{"list markets"}, Send: cl,
			Prepare: withToken(func(c *drift.Call, t string) { c.Query = url.Values{"token_id": {t}} })},
		{Upstream: "CLOB", Route: "get order books", Method: http.MethodPost, Path: "/books", ReadOnly: read,
			Needs: []string{"list markets"}, Send: cl,
			Prepare: withToken(func(c *drift.Call, t string) { c.JSON = []map[string]string{{"token_id": t}} })},
		{Upstream: "CLOB", Route: "get prices", Method: http.MethodPost, Path: "/prices", ReadOnly: read,
			Needs: []string{"list markets"}, Send: cl,
			Prepare: withToken(func(c *drift.Call, t string) { c.JSON = []PriceReq{{TokenID: t, Side: "BUY"}} })},
		{Upstream: "CLOB", Route: "get price history", Path: "/prices-history", Needs: []string{"list markets"}, Send: cl,
			Prepare: withToken(func(c *drift.Call, t string) {
				c.Query = url.Values{"market": {t}, "interval": {"1d"}, "fidelity": {"60"}}
			})},
		{Upstream: "Data API", Route: "get top holders", Path: "/holders", Needs: []string{"list markets"}, Send: d,
			Prepare: func(e map[string][]byte, c *drift.Call) error {
				m, _, _ := market(e)
				if m.ConditionID == "" {
					return errors.New("no market listed")
				}
				c.Query = url.Values{"market": {m.ConditionID}, "limit": {"1"}}
				return nil
			}},
		{Upstream: "Data API", Route: "get user positions", Path: "/v2/positions", Needs: []string{"get top holders"}, Send: d, Prepare: holder},
		{Upstream: "Data API", Route: "get user activity", Path: "/activity", Needs: []string{"get top holders"}, Send: d, Prepare: holder},
		{Upstream: "Data API", Route: "get portfolio value", Path: "/value", Needs: []string{"get top holders"}, Send: d,
			Prepare: func(e map[string][]byte, c *drift.Call) error {
				err := holder(e, c)
				c.Query.Del("limit")
				return err
			}},
		{Upstream: "Data API", Route: "get builder leaderboard", Path: "/v1/builders/leaderboard", Query: url.Values{"limit": {"1"}}, Send: d},
		{Upstream: "Coinbase", Route: "btc spot", Path: "/v2/prices/BTC-USD/spot", Send: c.btc.Sender()},
		{Upstream: "Kraken", Route: "btc spot (fallback)", Path: "/0/public/Ticker", Query: url.Values{"pair": {"XBTUSD"}}, Send: c.btcFallback.Sender()},
	}
}

// unquote reads an id sent as a string or a number.
func unquote(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
