package client

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// contract is the recorded real answers in testdata/contract (cases.json;
// each case names its source, README.md says more) replayed against the
// client, separately from the fake: the client must send exactly the
// recorded request (route and parameters from the reference, not the
// original server's wrong URLs) and turn the answer into the wanted result
// (lengths in want.len) or error (retry advice in want.retryable,
// want.retry_after_s). A case marked off_shape holds an answer its route's
// shape refuses on purpose (a null or a rate-limit body sent with 200).
var contract = servetest.Contract{File: "testdata/contract/cases.json", MinCases: 20,
	Call: func(t *testing.T, base string, tc servetest.ContractCase) (any, error) {
		c := New(Config{GammaURL: base, ClobURL: base, DataURL: base, BTCURL: base, BTCFallbackURL: base,
			Timeout: 2 * time.Second, Retries: -1, RetryWait: time.Millisecond})
		defer c.CloseIdleConnections()
		return invoke(context.Background(), c, tc.Call, tc.Args)
	}}

// TestContract replays the recorded cases against the client, with no fake
// in between.
func TestContract(t *testing.T) { contract.Run(t) }

// marketView is a market with what the tools read through its methods, so
// a case pins those too.
type marketView struct {
	Market
	PriceNums []float64 `json:"prices()"`
	Volume    float64   `json:"vol()"`
	// ClosedAt is ParseGammaTime(closedTime) in UTC; "" when unreadable.
	ClosedAt string `json:"closedTime()"`
}

func viewMarket(m Market) marketView {
	v := marketView{Market: m, PriceNums: m.Prices(), Volume: m.Vol()}
	if at, ok := ParseGammaTime(m.ClosedTime); ok {
		v.ClosedAt = at.UTC().Format(time.RFC3339Nano)
	}
	return v
}

// bookView is a book with its best levels (the last elements as sent).
type bookView struct {
	Book
	Bid Level `json:"bestBid()"`
	Ask Level `json:"bestAsk()"`
}

// invoke calls the client method a case names.
func invoke(ctx context.Context, c *Client, call string, args json.RawMessage) (any, error) {
	var a struct {
		Ident, Token, Interval string
		Start, End             int64
		Fidelity               int
		Tokens                 []string
		Reqs                   []PriceReq
		Query                  map[string]string
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	q := url.Values{}
	for k, v := range a.Query {
		q.Set(k, v)
	}
	switch call {
	case "market":
		m, _, err := c.Market(ctx, a.Ident)
		if err != nil {
			return nil, err
		}
		return viewMarket(m), nil
	case "markets_keyset":
		p, _, err := c.MarketsKeyset(ctx, q)
		return p, err
	case "books":
		bs, _, err := c.Books(ctx, a.Tokens)
		if err != nil {
			return nil, err
		}
		out := make([]bookView, len(bs))
		for i, b := range bs {
			out[i].Book = b
			out[i].Bid, _ = b.BestBid()
			out[i].Ask, _ = b.BestAsk()
		}
		return out, nil
	case "prices":
		p, _, err := c.Prices(ctx, a.Reqs)
		return p, err
	case "history":
		h, _, err := c.History(ctx, HistoryQuery{Token: a.Token, Interval: a.Interval, Start: a.Start, End: a.End, Fidelity: a.Fidelity})
		return h, err
	case "builders":
		b, _, err := c.Builders(ctx, q)
		return b, err
	case "holders":
		h, _, err := c.Holders(ctx, q)
		return h, err
	case "search":
		s, _, err := c.Search(ctx, q)
		return s, err
	case "positions":
		p, _, err := c.Positions(ctx, q)
		return p, err
	case "activity":
		p, _, err := c.Activity(ctx, q)
		return p, err
	case "comments":
		cs, _, err := c.CommentsKeyset(ctx, q)
		return cs, err
	case "value":
		v, _, err := c.Value(ctx, q)
		return struct {
			Value
			Known bool `json:"known"`
		}{v, v.Known}, err
	}
	return nil, fmt.Errorf("unknown call %q", call)
}
