package client

import (
	"context"
	"net/url"
	"strings"
	"time"
)

// Books fetches order books: GET /book for one token, POST /books for several
// (source: rs-clob-client tests/clob.rs; docs.polymarket.com/api-reference/
// rate-limits: batch routes rather than N GETs).
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
// (source: Vex-Foundation/Vex#72, verified live; py-clob-client#78). The answer maps token → side → price
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

// HistoryQuery selects a price history: Interval (a window ending now) and/or
// Start/End (unix seconds; together with an interval the timestamps set the
// window: they are not exclusive, polyoxide spec-deviations "prices-history
// interval and fidelity rules", 2026-10-02), and Fidelity in minutes.
type HistoryQuery struct {
	Token      string
	Interval   string
	Start, End int64
	Fidelity   int
}

// History rules of GET /prices-history, measured live (a public
// historical-data cookbook, 2026-08-11; polyoxide spec-deviations,
// 2026-10-02): a startTs–endTs window may span at most 15 days (1,296,000 s;
// longer is 400 "invalid filters: 'startTs' and 'endTs' interval is too
// long"), and interval 1m needs fidelity ≥ 10, 1w ≥ 5 (absent counts as 1:
// 400 "invalid filters: minimum 'fidelity' for '1m' range is 10").
const (
	MaxHistoryWindow = 15 * 24 * 60 * 60
	// MaxHistoryChunks bounds one call's stitched windows (15 days each: 180 days).
	MaxHistoryChunks = 12
)

// MinFidelity is Polymarket's smallest fidelity (minutes) for an interval.
func MinFidelity(interval string) int {
	switch interval {
	case "1m":
		return 10
	case "1w":
		return 5
	}
	return 1
}

// History fetches GET /prices-history?market=<token id> (source: rs-clob-client
// tests/clob.rs; the original called /price-history?token_id=, which does not exist).
func (c *Client) History(ctx context.Context, h HistoryQuery) ([]Point, Source, error) {
	q := url.Values{"market": {h.Token}}
	if h.Interval != "" {
		q.Set("interval", h.Interval)
	}
	if h.Start > 0 {
		q.Set("startTs", itoa(h.Start))
	}
	if h.End > 0 {
		q.Set("endTs", itoa(h.End))
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

// Span is a stitched history: the points and how many ≤15-day windows were read.
type Span struct {
	Points    []Point
	Windows   int
	Truncated bool // the span needed more than MaxHistoryChunks windows: the earliest part is left out
	Src       Source
}

// HistorySpan reads [start, end] as consecutive windows of at most 15 days,
// newest first, at most MaxHistoryChunks of them, and stitches them in time
// order without duplicates. Points outside a window are dropped: Polymarket
// appends a point stamped "now" to every window (polyoxide spec-deviations,
// "prices-history appends a point at the current time").
func (c *Client) HistorySpan(ctx context.Context, token string, start, end int64, fidelity int) (Span, error) {
	var sp Span
	var chunks [][]Point
	first := true
	for hi := end; hi > start; hi -= MaxHistoryWindow {
		if len(chunks) == MaxHistoryChunks {
			sp.Truncated = true
			break
		}
		lo := max(start, hi-MaxHistoryWindow)
		pts, src, err := c.History(ctx, HistoryQuery{Token: token, Start: lo, End: hi, Fidelity: fidelity})
		if err != nil {
			return Span{}, err
		}
		if first {
			sp.Src, first = src, false
		} else {
			sp.Src = sp.Src.Merge(src)
		}
		in := make([]Point, 0, len(pts))
		for _, p := range pts {
			if int64(p.T) >= lo && int64(p.T) <= hi {
				in = append(in, p)
			}
		}
		chunks = append(chunks, in)
		sp.Windows++
	}
	last := int64(-1)
	for i := len(chunks) - 1; i >= 0; i-- {
		for _, p := range chunks[i] {
			if int64(p.T) > last {
				sp.Points = append(sp.Points, p)
				last = int64(p.T)
			}
		}
	}
	if sp.Points == nil {
		sp.Points = []Point{}
	}
	return sp, nil
}

// ParseGammaTime reads Gamma's timestamps: RFC 3339 with any fraction, or the
// space-separated "2026-06-04 00:34:19+00" of closedTime (polyoxide
// spec-deviations, "timestamps are not uniformly RFC 3339").
func ParseGammaTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07", "2006-01-02 15:04:05.999999999-07:00", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
