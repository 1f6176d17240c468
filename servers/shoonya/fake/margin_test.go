package fake

import "testing"

// TestMarginRoutes: GetOrderMargin and GetBasketMargin answer the documented
// fields, refuse bad legs as the OMS refuses syntax, and quote what
// PlaceOrder then checks.
func TestMarginRoutes(t *testing.T) {
	s, u := newTestServer(t, Config{TickInterval: -1})
	tok := oauthLogin(t, s, u)
	leg := func(tsym, side, prctyp, prc string, qty string) map[string]any {
		return map[string]any{"uid": "FA12345", "actid": "FA12345", "exch": exchOf(tsym), "tsym": tsym, "qty": qty, "prc": prc,
			"prd": "C", "trantype": side, "prctyp": prctyp}
	}
	cases := []struct {
		name, route string
		body        map[string]any
		want        map[string]any
	}{
		{"enough", "GetOrderMargin", leg("TCS-EQ", "B", "LMT", "3100", "10"),
			map[string]any{"stat": "Ok", "ordermargin": "31000.00", "cash": "1000000.00", "marginusedprev": "0.00", "marginused": "31000.00", "remarks": RemarksMarginOK}},
		{"short", "GetOrderMargin", leg("TCS-EQ", "B", "LMT", "3100", "1000"),
			map[string]any{"stat": "Ok", "ordermargin": "3100000.00", "marginused": "2100000.00", "remarks": RemarksInsufficient}},
		{"unknown symbol", "GetOrderMargin", leg("NOPE-EQ", "B", "LMT", "1", "1"), map[string]any{"stat": "Not_Ok", "emsg": EmsgInvalidInput}},
		{"limit without price", "GetOrderMargin", leg("TCS-EQ", "B", "LMT", "0", "1"), map[string]any{"stat": "Not_Ok", "emsg": EmsgInvalidInput}},
		{"basket", "GetBasketMargin", func() map[string]any {
			b := leg("TCS-EQ", "B", "LMT", "3100", "10")
			b["basketlists"] = []any{leg("SBIN-EQ", "B", "LMT", "800", "10")}
			return b
		}(), map[string]any{"stat": "Ok", "marginused": "39000.00", "marginusedtrade": "39000.00"}},
		{"basket market leg", "GetBasketMargin", func() map[string]any {
			b := leg("TCS-EQ", "B", "LMT", "3100", "10")
			b["basketlists"] = []any{leg("SBIN-EQ", "B", "MKT", "0", "10")}
			return b
		}(), map[string]any{"stat": "Not_Ok", "emsg": EmsgInvalidInput}},
		{"basket not a list", "GetBasketMargin", func() map[string]any {
			b := leg("TCS-EQ", "B", "LMT", "3100", "10")
			b["basketlists"] = "SBIN-EQ"
			return b
		}(), map[string]any{"stat": "Not_Ok", "emsg": EmsgInvalidInput}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := obj(t, api(t, u, tok, c.route, c.body))
			for k, v := range c.want {
				if m[k] != v {
					t.Fatalf("%s = %v, want %v: %v", k, m[k], v, m)
				}
			}
		})
	}
	// What the margin route calls short, PlaceOrder rejects for funds.
	no := obj(t, api(t, u, tok, "PlaceOrder", placeBody("TCS-EQ", "B", "LMT", 1000, "3100.00", "None", nil)))["norenordno"]
	hist := arr(t, api(t, u, tok, "SingleOrdHist", map[string]any{"norenordno": no}))
	if hist[0]["status"] != StatusRejected || hist[0]["rejreason"] != RejInsufficient {
		t.Fatalf("history %v", hist[0])
	}
}
