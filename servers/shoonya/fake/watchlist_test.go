package fake

import "testing"

// TestMarketWatches: names, a watch's scrips, adds and deletes that repeat
// harmlessly, and refusals of unknown watches and scrips.
func TestMarketWatches(t *testing.T) {
	s, u := newTestServer(t, Config{TickInterval: -1})
	tok := oauthLogin(t, s, u)
	call := func(route string, j map[string]any) map[string]any {
		j["ordersource"], j["uid"] = "API", "FA12345"
		return obj(t, api(t, u, tok, route, j))
	}
	if m := call("MWList", map[string]any{}); len(m["values"].([]any)) != 5 {
		t.Fatalf("names %v", m)
	}
	for _, step := range []struct {
		route, wl, scrips string
		want              string // stat or emsg
	}{
		{"AddMultiScripsToMW", "2", "NSE|22#NSE|2885", "Ok"},
		{"AddMultiScripsToMW", "2", "NSE|22", "Ok"},
		{"DeleteMultiMWScrips", "2", "NSE|2885", "Ok"},
		{"AddMultiScripsToMW", "9", "NSE|22", EmsgInvalidMW},
		{"AddMultiScripsToMW", "2", "NSE|999999", EmsgInvalidInput},
	} {
		m := call(step.route, map[string]any{"wlname": step.wl, "scrips": step.scrips})
		if m["stat"] != step.want && m["emsg"] != step.want {
			t.Fatalf("%+v: %v", step, m)
		}
	}
	vals := call("MarketWatch", map[string]any{"wlname": "2"})["values"].([]any)
	if len(vals) != 1 || vals[0].(map[string]any)["tsym"] != "ACC-EQ" {
		t.Fatalf("watch 2: %v", vals)
	}
	if m := call("MarketWatch", map[string]any{"wlname": "3"}); m["emsg"] != EmsgNoData {
		t.Fatalf("empty watch: %v", m)
	}
}
