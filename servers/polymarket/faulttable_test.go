package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
)

// TestFaultTable runs every polymarket read tool against Gamma, the CLOB and
// the Data API failing, cutting or emptying their answers or refusing in
// their documented shapes: each answers an error or says its result is not
// whole; what Polymarket's users and market writers wrote arrives marked.
func TestFaultTable(t *testing.T) {
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	connect := func(t testing.TB, base string) *servetest.Conn { return connect(t, base, opts{}) }
	id, _, cond, tok := f.Market(3)
	servetest.FaultTable{
		Upstream: base,
		Connect:  connect,
		Exempt: map[string]string{"execute-python-code": "runs code in the local sandbox; its kernel reads no Polymarket API through this server",
			"get_market_feed":         "reads this server's live feed (quotes the market socket already sent); no request upstream",
			"unsubscribe_market_feed": "drops subscriptions held here; no request upstream"},
		Rows: []servetest.FaultRow{
			{Tool: "search_markets", Args: map[string]any{"query": "fake", "limit": 3}, ThirdParty: []string{"title", "question"}},
			{Tool: "list_markets", Args: map[string]any{"limit": 5}, ThirdParty: []string{"question"}},
			{Tool: "get_market", Single: true, Args: map[string]any{"identifier": id}, ThirdParty: []string{"question", "description"}},
			{Tool: "list_events", Args: map[string]any{"limit": 3}, ThirdParty: []string{"title", "question"}},
			{Tool: "get_event", Single: true, Args: map[string]any{"identifier": "900001"}, ThirdParty: []string{"title", "description", "question"}},
			{Tool: "get_order_books", Args: map[string]any{"token_ids": []string{tok[0], tok[1]}}},
			{Tool: "get_prices", Args: map[string]any{"token_ids": []string{tok[0]}}},
			{Tool: "get_price_history", Args: map[string]any{"token_id": tok[0], "interval": "1d"}},
			{Tool: "get_btc_price", Single: true},
			{Tool: "get_user_positions", Args: map[string]any{"user": fake.KnownUser}},
			{Tool: "get_user_activity", Args: map[string]any{"user": fake.KnownUser}},
			{Tool: "get_top_holders", Args: map[string]any{"condition_id": cond}, ThirdParty: []string{"name", "pseudonym"}},
			{Tool: "list_comments", Args: map[string]any{"entity_type": "event", "entity_id": 900001, "limit": 5}, ThirdParty: []string{"body"}},
			{Tool: "get_builder_leaderboard", Args: map[string]any{"limit": 10}},
			{Tool: "find_trending_markets", Args: map[string]any{"limit": 3}, ThirdParty: []string{"question"}},
			{Tool: "find_closing_soon", Args: map[string]any{"hours": 720}, ThirdParty: []string{"question"}},
			{Tool: "find_longshots", Args: map[string]any{"limit": 3}, ThirdParty: []string{"question"}},
			{Tool: "find_volatile_markets", Args: map[string]any{"limit": 3}, ThirdParty: []string{"question"}},
			{Tool: "subscribe_market_feed", Args: map[string]any{"markets": []string{cond}}},
		},
		Refusals: []servetest.Refusal{
			{Name: "500 internal error", Status: 500, ContentType: "application/json", Body: `{"type":"internal error","error":"cannot get the information"}`,
				Source: "wasabipesto/themis#21"},
			{Name: "400 error", Status: 400, ContentType: "application/json", Body: `{"error":"Invalid token id"}`,
				Source: "docs.polymarket.com CLOB /book (400 Invalid token id)"},
			{Name: "cloudflare 403", Status: 403, ContentType: "text/html; charset=UTF-8",
				Body:   `<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body><h1>Sorry, you have been blocked</h1></body></html>`,
				Source: "Polymarket/py-clob-client#91, #101, #143"},
			// null is an empty answer, except /holders', where it means nobody holds
			// (polyoxide docs/specs/data/holders.md, verified live 2026-08-03).
			{Name: "200 null", Status: 200, ContentType: "application/json", Body: `null`, Source: "Polymarket/rs-clob-client tests/data.rs",
				NothingFor: []string{"get_top_holders"}},
		},
	}.Run(t)
}
