package client

import (
	"context"
	"net/url"
	"strings"
)

// Books fetches order books: GET /book for one token, POST /books for several
// (ref: polymarket.md §1.3, §1.5: batch routes rather than N GETs).
func (c *Client) Books(ctx context.Context, tokens []string) ([]Book, Source, error) {
	if len(tokens) == 1 {
		b, src, err := c.get(ctx, c.clob, "get order book", "/book", url.Values{"token_id": {tokens[0]}})
		if err != nil {
			return nil, src, notFoundHint(err, "no order book for token "+tokens[0]+" (the market may be resolved or closed); get_market shows the market's state and get_prices its last prices")
		}
		bk, err := decode[Book]("get order book", b)
		return []Book{bk}, src, err
	}
	body := make([]map[string]string, len(tokens))
	for i, t := range tokens {
		body[i] = map[string]string{"token_id": t}
	}
	b, src, err := c.post(ctx, c.clob, "get order books", "/books", body)
	if err != nil {
		return nil, src, err
	}
	l, err := decode[[]Book]("get order books", b)
	return l, src, err
}

// PriceReq is one token and side for POST /prices.
type PriceReq struct {
	TokenID string `json:"token_id"`
	Side    string `json:"side"`
}

// Prices fetches best prices: side BUY = best bid, SELL = best ask
// (ref: polymarket.md §1.3, §4.6). The answer maps token → side → price
// (decimal strings live, numbers in SDK fixtures: both decode).
func (c *Client) Prices(ctx context.Context, reqs []PriceReq) (map[string]map[string]float64, Source, error) {
	for i := range reqs {
		reqs[i].Side = strings.ToUpper(reqs[i].Side)
	}
	b, src, err := c.post(ctx, c.clob, "get prices", "/prices", reqs)
	if err != nil {
		return nil, src, err
	}
	raw, err := decode[map[string]map[string]numValue]("get prices", b)
	if err != nil {
		return nil, src, err
	}
	out := make(map[string]map[string]float64, len(raw))
	for tok, sides := range raw {
		m := map[string]float64{}
		for s, p := range sides {
			m[strings.ToUpper(s)] = float64(p)
		}
		out[tok] = m
	}
	return out, src, nil
}

// HistoryQuery selects a price history: Interval or Start/End (unix seconds,
// mutually exclusive upstream), and Fidelity in minutes.
type HistoryQuery struct {
	Token      string
	Interval   string
	Start, End int64
	Fidelity   int
}

// History fetches GET /prices-history?market=<token id> (ref: polymarket.md
// §1.3: the original called /price-history?token_id=, which does not exist).
func (c *Client) History(ctx context.Context, h HistoryQuery) ([]Point, Source, error) {
	q := url.Values{"market": {h.Token}}
	if h.Interval != "" {
		q.Set("interval", h.Interval)
	} else {
		q.Set("startTs", itoa(h.Start))
		if h.End > 0 {
			q.Set("endTs", itoa(h.End))
		}
	}
	if h.Fidelity > 0 {
		q.Set("fidelity", itoa(int64(h.Fidelity)))
	}
	b, src, err := c.get(ctx, c.clob, "get price history", "/prices-history", q)
	if err != nil {
		return nil, src, err
	}
	v, err := decode[struct {
		History []Point `json:"history"`
	}]("get price history", b)
	if v.History == nil {
		v.History = []Point{}
	}
	return v.History, src, err
}
