package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzNormaliseExchanges: any arguments (the caller's JSON) come back as an
// object with every known exchange code upper-cased and no key of the
// caller's lost unless an alias took its place, or untouched when they are
// not exactly one object; never a panic.
func FuzzNormaliseExchanges(f *testing.F) {
	for _, s := range []string{`{"exchange":"nse","token":"22"}`, `{"instruments":["nfo|43650","NSE|22",7]}`, `[]`, `null`, `{"exchange":5}`, `{`, `{"exchange":"nse"} {}`, `{"exchange":"bogus"}`, `{"tradingsymbol":"SBIN-EQ","buy_or_sell":"b","product_type":"C"}`, `{"remarks":1,"idempotency_key":"k"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		out := normaliseArgs("place_order", json.RawMessage(raw))
		m, ok := out.(map[string]any)
		if !ok {
			return
		}
		var in map[string]any
		if err := json.Unmarshal([]byte(raw), &in); err != nil {
			t.Fatalf("an object from unparsable input %q", raw)
		}
		for k := range in {
			_, kept := m[k]
			a, aliased := argAliases["place_order"][k]
			if !aliased {
				a, aliased = argAliases["*"][k]
			}
			if _, moved := m[a.to]; !kept && (!aliased || !moved) {
				t.Fatalf("key %q lost: %v → %v", k, in, m)
			}
		}
		if s, ok := m["exchange"].(string); ok && s != wantExchange(in["exchange"].(string)) {
			t.Fatalf("exchange %q → %q", in["exchange"], s)
		}
	})
}

// wantExchange is what the normaliser must make of an "exchange" value:
// Noren's code when the value names one in any case, else the value as sent.
func wantExchange(s string) string {
	u := strings.ToUpper(strings.TrimSpace(s))
	for _, code := range []string{"NSE", "BSE", "NFO", "BFO", "CDS", "BCD", "MCX", "NCX"} {
		if u == code {
			return u
		}
	}
	return s
}

// TestAliasTable: each tool's aliases land on its schema names with the
// values in the schema's form.
func TestAliasTable(t *testing.T) {
	cases := []struct {
		tool, in, want string
	}{
		{"connect_shoonya_broker", `{"userid":"FA1","two_fa_token":"123456"}`, `{"totp":"123456","user_id":"FA1"}`},
		{"connect_shoonya_broker", `{"twoFA":"123456"}`, `{"totp":"123456"}`},
		{"modify_order", `{"orderno":"24","newquantity":"5","newprice_type":"SL-LMT","newprice":801.5,"newtrigger_price":"801"}`,
			`{"order_id":"24","order_type":"SL","price":801.5,"quantity":5,"trigger_price":801}`},
		{"cancel_order", `{"orderno":"24"}`, `{"order_id":"24"}`},
		{"place_order", `{"buy_or_sell":"s","product_type":"H","price_type":"SL-MKT","amo":"Yes","bookloss_price":"790"}`,
			`{"after_market":true,"order_type":"SL-M","product":"COVER","side":"SELL","stop_loss":790}`},
		{"search_scrip", `{"exchange":"nfo","searchtext":"BANKNIFTY"}`, `{"exchange":"NFO","search_text":"BANKNIFTY"}`},
		{"get_time_price_series", `{"interval":"d","starttime":1796270400}`, `{"from":"2026-12-03T09:30:00+05:30","interval":"day"}`},
		{"subscribe_market_feeds", `{"instrument":"nse|22","feed_type":1}`, `{"depth":false,"instruments":["NSE|22"]}`},
		{"unsubscribe_market_feeds", `{"subscription_id":"sub:depth:NSE|22,NFO|43650"}`, `{"depth":true,"instruments":["NSE|22","NFO|43650"]}`},
		{"unsubscribe_market_feeds", `{"subscription_id":"bogus"}`, `{"subscription_id":"bogus"}`},
		{"get_quotes", `{"tradingsymbol":"x","trading_symbol":"y"}`, `{"trading_symbol":"y","tradingsymbol":"x"}`},
	}
	for _, c := range cases {
		got, _ := json.Marshal(normaliseArgs(c.tool, json.RawMessage(c.in)))
		if string(got) != c.want {
			t.Errorf("%s %s → %s, want %s", c.tool, c.in, got, c.want)
		}
	}
}
