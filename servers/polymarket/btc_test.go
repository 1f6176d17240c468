package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// TestBTCPriceSaysItIsNotTheResolutionSource: the spot price is labelled
// as not what BTC markets settle on, with the reason the settling price is
// not read (PolyBolt needs credentials and serves Pyth:
// docs.polymarket.com/migrate/rtds-to-polybolt); given a market, its
// resolutionSource is named (third-party), or its rules pointed to; an
// unknown market is an error, not a bare spot price.
func TestBTCPriceSaysItIsNotTheResolutionSource(t *testing.T) {
	s := start(t, opts{})
	generated, _, _, _ := s.fake.Market(4)
	for _, tc := range []struct {
		name, market, resolvesOn, note string
		errCode                        envelope.Code
	}{
		{"no market: spot, labelled", "", "", "PolyBolt", ""},
		{"a live BTC up/down market names Chainlink's stream", "1066851", "https://data.chain.link/streams/btc-usd", "resolves on resolves_on", ""},
		{"by slug", "btc-updown-15m-1767200400", "https://data.chain.link/streams/btc-usd", "resolves on resolves_on", ""},
		{"a market without a resolutionSource points to its rules", generated, "", "its rules", ""},
		{"an unknown market is an error", "999999999", "", "", envelope.NotFound},
		{"a malformed one too, before any request", "Robert'); DROP", "", "", envelope.InvalidArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{}
			if tc.market != "" {
				args["market"] = tc.market
			}
			res := s.conn.Call(t, "get_btc_price", args)
			if tc.errCode != "" {
				if b := servetest.ErrorBody(t, res); b.Code != tc.errCode {
					t.Fatalf("%+v", b)
				}
				return
			}
			if res.IsError {
				t.Fatalf("%+v", servetest.ErrorBody(t, res))
			}
			out := servetest.Decode[tools.BTCOut](t, res)
			if out.Price != fake.BTCPrice || out.IsResolutionSource || out.ResolvesOn != tc.resolvesOn ||
				!strings.Contains(out.ResolutionNote, "not a resolution source") || !strings.Contains(out.ResolutionNote, tc.note) {
				t.Fatalf("%+v", out)
			}
			if (tc.resolvesOn != "") != (len(out.ThirdParty) == 1 && out.ThirdParty[0] == "resolves_on") {
				t.Fatalf("third_party %v", out.ThirdParty)
			}
		})
	}
}
