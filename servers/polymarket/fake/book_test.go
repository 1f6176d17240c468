package fake

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
)

// TestBooksQuoteAsTheCLOB: every open token's book, at the cheap and the
// dear end of the fake's prices too, quotes decimal strings within [tick,
// 1−tick], bids ascending and asks descending (best last), and its best
// prices are what /price answers for BUY and SELL.
func TestBooksQuoteAsTheCLOB(t *testing.T) {
	s := New(Options{})
	base, stop := s.Start()
	defer stop()
	get := func(t *testing.T, path string, v any) {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", path, res.StatusCode)
		}
		if err := json.NewDecoder(res.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	num := func(t *testing.T, v string) float64 {
		t.Helper()
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("price %q is not a decimal string", v)
		}
		return f
	}
	// the extremes: the fake's markets run from 0.02 to 0.98 (outcome 1 the rest)
	var cheap, dear int = -1, -1
	for i := range NumOpen {
		switch m := s.markets[i]; {
		case m.price <= 0.02 && cheap < 0:
			cheap = i
		case m.price >= 0.98 && dear < 0:
			dear = i
		}
	}
	cases := []struct {
		name   string
		market int
	}{{"cheapest", cheap}, {"dearest", dear}, {"middle", 4}, {"another", 37}}
	for _, tc := range cases {
		for o := range 2 {
			t.Run(tc.name+"/outcome"+strconv.Itoa(o), func(t *testing.T) {
				if tc.market < 0 {
					t.Fatal("no market at this end of the price range")
				}
				_, _, _, tok := s.Market(tc.market)
				var b struct {
					Bids, Asks []struct{ Price, Size string }
					Tick       string `json:"tick_size"`
				}
				get(t, "/book?token_id="+tok[o], &b)
				tick := num(t, b.Tick)
				if len(b.Bids) == 0 || len(b.Asks) == 0 {
					t.Fatalf("empty side: %+v", b)
				}
				for side, lv := range map[string][]struct{ Price, Size string }{"bids": b.Bids, "asks": b.Asks} {
					for i, l := range lv {
						p := num(t, l.Price)
						num(t, l.Size)
						if p < tick-1e-9 || p > 1-tick+1e-9 {
							t.Fatalf("%s[%d] = %s outside [tick, 1-tick]", side, i, l.Price)
						}
						if i == 0 {
							continue
						}
						prev := num(t, lv[i-1].Price)
						if side == "bids" && p <= prev || side == "asks" && p >= prev {
							t.Fatalf("%s not in the CLOB's order at %d: %v", side, i, lv)
						}
					}
				}
				var buy, sell map[string]string
				get(t, "/price?side=BUY&token_id="+tok[o], &buy)
				get(t, "/price?side=SELL&token_id="+tok[o], &sell)
				if bb := b.Bids[len(b.Bids)-1].Price; num(t, bb) != num(t, buy["price"]) {
					t.Fatalf("best bid %s, /price BUY %s", bb, buy["price"])
				}
				if ba := b.Asks[len(b.Asks)-1].Price; num(t, ba) != num(t, sell["price"]) {
					t.Fatalf("best ask %s, /price SELL %s", ba, sell["price"])
				}
			})
		}
	}
}
