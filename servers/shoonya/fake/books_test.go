package fake

import "testing"

func TestEmptyBooks(t *testing.T) {
	noHold := DemoAccount()
	noHold.Holdings = nil
	for _, tc := range []struct {
		name  string
		cfg   Config
		array bool
	}{
		{"not ok object", Config{Accounts: []Account{noHold}}, false},
		{"empty array", Config{Accounts: []Account{noHold}, EmptyBooksAsArray: true}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, u := newTestServer(t, tc.cfg)
			tok := oauthLogin(t, s, u)
			for _, route := range []string{"OrderBook", "TradeBook", "PositionBook", "Holdings"} {
				raw := api(t, u, tok, route, map[string]any{"actid": "FA12345", "prd": "C"})
				if tc.array {
					if raw != "[]" {
						t.Fatalf("%s: %s", route, raw)
					}
					continue
				}
				if m := obj(t, raw); m["stat"] != "Not_Ok" || m["emsg"] != `Error Occurred : 5 "no data"` {
					t.Fatalf("%s: %s", route, raw)
				}
			}
		})
	}
}

func TestHoldingsAndLimits(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	h := arr(t, api(t, u, tok, "Holdings", map[string]any{"actid": "FA12345", "prd": "C"}))
	if len(h) != 2 || h[0]["holdqty"] != "10" || h[0]["upldprc"] != "1250.40" {
		t.Fatalf("holdings %v", h)
	}
	scrips := h[0]["exch_tsym"].([]any)
	if len(scrips) != 2 || scrips[0].(map[string]any)["token"] != "2885" {
		t.Fatalf("exch_tsym %v", scrips)
	}
	if m := obj(t, api(t, u, tok, "Holdings", map[string]any{})); m["emsg"] != EmsgHoldingsMissing {
		t.Fatalf("holdings without prd: %v", m)
	}
	l := obj(t, api(t, u, tok, "Limits", map[string]any{"actid": "FA12345"}))
	if l["stat"] != "Ok" || l["cash"] != "1000000.00" || l["urmtom"] == nil {
		t.Fatalf("limits %v", l)
	}
	ud := obj(t, api(t, u, tok, "UserDetails", map[string]any{}))
	if ud["actid"] != "FA12345" || ud["uprev"] != "INVESTOR" {
		t.Fatalf("user details %v", ud)
	}
}
