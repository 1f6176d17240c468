package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// Each fault, on each host, ends in a coded error within the call's deadline
// (the server runs with --timeout 2s here); faults that clear after one
// request are retried through.
func TestFaults(t *testing.T) {
	probes := []struct {
		name  string
		route string
		tool  string
		args  func(f *fake.Server) map[string]any
	}{
		{"gamma", fake.RouteMarket, "get_market", func(f *fake.Server) map[string]any {
			id, _, _, _ := f.Market(7)
			return map[string]any{"identifier": id}
		}},
		{"clob", fake.RouteBooks, "get_order_books", func(f *fake.Server) map[string]any {
			_, _, _, tok := f.Market(7)
			return map[string]any{"token_ids": []string{tok[0], tok[1]}}
		}},
		{"data", fake.RoutePositions, "get_user_positions", func(*fake.Server) map[string]any {
			return map[string]any{"user": fake.KnownUser}
		}},
	}
	cases := []struct {
		fault     fake.Fault
		code      envelope.Code
		retryable bool
		message   string
		retryAtLeast,
		retryAtMost time.Duration
	}{
		{fault: fake.Fault{Kind: fake.FaultLatency, LatencyMs: 6000}, code: envelope.Timeout, retryable: true},
		{fault: fake.Fault{Kind: fake.Fault429, RetryAfter: 30}, code: envelope.RateLimited, retryable: true,
			retryAtLeast: 29 * time.Second, retryAtMost: 30 * time.Second},
		{fault: fake.Fault{Kind: fake.Fault429, RetryAfter: 40, RetryAfterDate: true}, code: envelope.RateLimited, retryable: true,
			retryAtLeast: 38 * time.Second, retryAtMost: 40 * time.Second},
		{fault: fake.Fault{Kind: fake.FaultCF403}, code: envelope.UpstreamUnavailable, retryable: true, message: "Cloudflare"},
		{fault: fake.Fault{Kind: fake.Fault425}, code: envelope.UpstreamUnavailable, retryable: true, message: "425"},
		{fault: fake.Fault{Kind: fake.Fault500}, code: envelope.UpstreamError, retryable: true, message: "cannot get the information"},
		{fault: fake.Fault{Kind: fake.FaultNull}, code: envelope.UpstreamError, retryable: true, message: "null"},
		{fault: fake.Fault{Kind: fake.FaultMalformed}, code: envelope.UpstreamError, retryable: true, message: "JSON"},
		{fault: fake.Fault{Kind: fake.FaultReset}, retryable: true},
	}
	for _, p := range probes {
		for _, tc := range cases {
			t.Run(p.name+"/"+tc.fault.Kind+map[bool]string{true: "-date"}[tc.fault.RetryAfterDate], func(t *testing.T) {
				s := start(t, opts{timeout: "2s"})
				f := tc.fault
				f.Route = p.route
				s.fake.SetFault(f)
				begin := time.Now()
				res := s.conn.Call(t, p.tool, p.args(s.fake))
				took := time.Since(begin)
				b := servetest.ErrorBody(t, res)
				if tc.code != "" && b.Code != tc.code || b.Retryable != tc.retryable || !strings.Contains(b.Message, tc.message) {
					t.Fatalf("got %+v", b)
				}
				if tc.code == "" && b.Code != envelope.UpstreamUnavailable && b.Code != envelope.UpstreamError {
					t.Fatalf("reset: got %+v", b)
				}
				if tc.retryAtMost > 0 {
					if b.RetryAfterS == nil {
						t.Fatalf("no retry_after_s: %+v", b)
					}
					if d := time.Duration(*b.RetryAfterS * float64(time.Second)); d < tc.retryAtLeast || d > tc.retryAtMost {
						t.Fatalf("retry_after %v, want %v..%v", d, tc.retryAtLeast, tc.retryAtMost)
					}
				}
				// bounded: the 2 s deadline plus scheduling slack on a loaded machine
				if took > 8*time.Second {
					t.Fatalf("took %v past a 2 s deadline", took)
				}
			})
		}
	}
}

// A fault that clears after one request is retried within the same call.
func TestTransientFaultsRetried(t *testing.T) {
	for _, kind := range []string{fake.Fault425, fake.Fault500, fake.FaultReset} {
		t.Run(kind, func(t *testing.T) {
			s := start(t, opts{timeout: "3s"})
			s.fake.SetFault(fake.Fault{Kind: kind, Route: fake.RouteMarket, Count: 1})
			id, _, _, _ := s.fake.Market(1)
			out := call[tools.MarketOut](t, s, "get_market", map[string]any{"identifier": id})
			if out.Market.ID != id || s.fake.Count(fake.RouteMarket) != 2 {
				t.Fatalf("%+v after %d requests", out, s.fake.Count(fake.RouteMarket))
			}
		})
	}
}

// A short Retry-After (seconds or an HTTP date) is waited out inside the
// call's deadline and the retry answers.
func TestRetryAfterHonoured(t *testing.T) {
	for _, date := range []bool{false, true} {
		t.Run(map[bool]string{false: "seconds", true: "http-date"}[date], func(t *testing.T) {
			s := start(t, opts{timeout: "4s"})
			s.fake.SetFault(fake.Fault{Kind: fake.Fault429, Route: fake.RouteMarket, Count: 1, RetryAfter: 1, RetryAfterDate: date})
			id, _, _, _ := s.fake.Market(1)
			if out := call[tools.MarketOut](t, s, "get_market", map[string]any{"identifier": id}); out.Market.ID != id {
				t.Fatalf("%+v", out)
			}
			if n := s.fake.Count(fake.RouteMarket); n != 2 {
				t.Fatalf("%d requests, want 2", n)
			}
		})
	}
}

// The ghost book (py-clob-client #180) is flagged and /price's numbers win.
func TestGhostBook(t *testing.T) {
	s := start(t, opts{})
	_, _, _, tok := s.fake.Market(9)
	s.fake.SetFault(fake.Fault{Kind: fake.FaultGhost})
	out := call[tools.BooksOut](t, s, "get_order_books", map[string]any{"token_ids": []string{tok[0], tok[1]}})
	prices := call[tools.PricesOut](t, s, "get_prices", map[string]any{"token_ids": []string{tok[0], tok[1]}})
	for i, b := range out.Books {
		if !strings.Contains(b.Warning, "ghost") || *b.BestBid != *prices.Prices[i].Bid || *b.BestAsk != *prices.Prices[i].Ask || b.Bids[0][0] != 0.01 {
			t.Fatalf("book %d: %+v", i, b)
		}
	}
}

// A failed refresh serves the last good copy marked stale.
func TestStaleOnError(t *testing.T) {
	s := start(t, opts{timeout: "1s"})
	_, _, _, tok := s.fake.Market(2)
	first := call[tools.PricesOut](t, s, "get_prices", map[string]any{"token_ids": []string{tok[0]}})
	if first.Stale {
		t.Fatal("fresh answer marked stale")
	}
	s.fake.SetFault(fake.Fault{Kind: fake.Fault500, Route: fake.RoutePrices})
	deadline := time.Now().Add(10 * time.Second)
	for {
		out := call[tools.PricesOut](t, s, "get_prices", map[string]any{"token_ids": []string{tok[0]}})
		if out.Stale {
			if *out.Prices[0].Bid != *first.Prices[0].Bid {
				t.Fatalf("stale copy differs: %+v", out)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("never served stale after the CLOB cache TTL")
		}
		time.Sleep(500 * time.Millisecond)
	}
}
