package fake

import (
	"encoding/json"
	"fmt"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"strings"
	"testing"
	"time"
)

func TestSearchAndQuotes(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	tests := []struct {
		exch, stext, wantTSym string
	}{
		{"NSE", "RELIANCE", "RELIANCE-EQ"},
		{"NSE", "M%26M", "M&M-EQ"},
		{"NSE", "nifty", "Nifty 50"},
		{"BSE", "SBIN", "SBIN"},
	}
	for _, tc := range tests {
		m := obj(t, api(t, u, tok, "SearchScrip", map[string]any{"exch": tc.exch, "stext": tc.stext}))
		vals, _ := m["values"].([]any)
		if m["stat"] != "Ok" || len(vals) == 0 || vals[0].(map[string]any)["tsym"] != tc.wantTSym {
			t.Fatalf("search %s %s: %v", tc.exch, tc.stext, m)
		}
	}
	if m := obj(t, api(t, u, tok, "SearchScrip", map[string]any{"exch": "NSE", "stext": "ZZZZ"})); m["emsg"] != "No Data :  " {
		t.Fatalf("search no data: %v", m)
	}
	// Multi-word option search.
	opt, _ := s.Instrument("NFO", firstNiftyOption(s))
	m := obj(t, api(t, u, tok, "SearchScrip", map[string]any{"exch": "NFO", "stext": "NIFTY " + expiryCode(opt.Expiry)[:5] + " C"}))
	if vals, _ := m["values"].([]any); m["stat"] != "Ok" || len(vals) == 0 {
		t.Fatalf("option search: %v", m)
	}

	// The README's phrasing: symbol, day and month, option side as the
	// contract name spells it ('BANKNIFTY 30DEC CE').
	var bank *Instrument
	for _, in := range s.cat.all {
		if in.Symbol == "BANKNIFTY" && in.OptType == "CE" {
			bank = in
			break
		}
	}
	day := expiryCode(bank.Expiry)[:5]
	m = obj(t, api(t, u, tok, "SearchScrip", map[string]any{"exch": "NFO", "stext": "BANKNIFTY " + day + " CE"}))
	vals, _ := m["values"].([]any)
	if m["stat"] != "Ok" || len(vals) == 0 {
		t.Fatalf("search BANKNIFTY %s CE: %v", day, m)
	}
	for _, v := range vals {
		in := s.cat.bySymbol("NFO", v.(map[string]any)["tsym"].(string))
		if in == nil || in.Symbol != "BANKNIFTY" || in.OptType != "CE" || expiryCode(in.Expiry)[:5] != day {
			t.Fatalf("search BANKNIFTY %s CE found %v", day, v)
		}
	}

	q := obj(t, api(t, u, tok, "GetQuotes", map[string]any{"exch": "NSE", "token": "2885"}))
	for _, k := range []string{"lp", "o", "h", "l", "c", "v", "bp1", "sp5", "bq1", "sq5", "uc", "lc", "isin", "cname", "ltt"} {
		if _, ok := q[k].(string); !ok {
			t.Fatalf("GetQuotes missing %s: %v", k, q)
		}
	}
	if m := obj(t, api(t, u, tok, "GetQuotes", map[string]any{"exch": "NSE", "token": "1"})); m["emsg"] != EmsgNoData {
		t.Fatalf("quotes unknown: %v", m)
	}
	si := obj(t, api(t, u, tok, "GetSecurityInfo", map[string]any{"exch": "NSE", "token": "1594"}))
	if si["tsym"] != "INFY-EQ" || si["frzqty"] == nil {
		t.Fatalf("security info %v", si)
	}
}

func TestOptionChain(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	fut := ""
	for _, in := range s.cat.all {
		if in.InstName == "FUTIDX" && in.Symbol == "NIFTY" {
			fut = in.TSym
		}
	}
	for _, tc := range []struct {
		exch, tsym, strprc string
		cnt, want          int
	}{
		{"NFO", fut, "25000", 4, 16},
		{"NFO", firstNiftyOption(s), "25012.4", 2, 8},
		{"NSE", "Nifty 50", "25000.0", 1, 4},
	} {
		m := obj(t, api(t, u, tok, "GetOptionChain", map[string]any{"exch": tc.exch, "tsym": tc.tsym,
			"strprc": tc.strprc, "cnt": fmt.Sprint(tc.cnt)}))
		vals, _ := m["values"].([]any)
		if m["stat"] != "Ok" || len(vals) != tc.want {
			t.Fatalf("%s cnt %d: got %d legs: %v", tc.tsym, tc.cnt, len(vals), m)
		}
		ce, pe := 0, 0
		for _, v := range vals {
			leg := v.(map[string]any)
			switch leg["optt"] {
			case "CE":
				ce++
			case "PE":
				pe++
			}
			if !strings.HasPrefix(leg["tsym"].(string), "NIFTY") || leg["token"] == "" || leg["ls"] != "65" {
				t.Fatalf("leg %v", leg)
			}
		}
		if ce != pe {
			t.Fatalf("CE %d PE %d", ce, pe)
		}
	}
	if m := obj(t, api(t, u, tok, "GetOptionChain", map[string]any{"exch": "NFO", "tsym": "NOPE", "strprc": "1", "cnt": "2"})); m["stat"] != "Not_Ok" {
		t.Fatalf("unknown chain: %v", m)
	}
}

func TestTPSeries(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	st := LastSession(clock.MustFromEnv().Now()).Add(-6 * 24 * time.Hour)
	rows := arr(t, api(t, u, tok, "TPSeries", map[string]any{"ordersource": "API", "exch": "NSE", "token": "2885",
		"st": fmt.Sprintf("%d.0", st.Unix()), "intrv": "5"}))
	if len(rows) < 75 { // at least one full day of 5-min bars in any 7-day window
		t.Fatalf("got %d rows", len(rows))
	}
	first, _ := time.ParseInLocation("02-01-2006 15:04:05", rows[0]["time"].(string), IST)
	last, _ := time.ParseInLocation("02-01-2006 15:04:05", rows[len(rows)-1]["time"].(string), IST)
	if !first.After(last) {
		t.Fatalf("want newest first: %v .. %v", first, last)
	}
	for _, k := range []string{"into", "inth", "intl", "intc", "intvwap", "intv", "intoi", "v", "oi", "ssboe"} {
		if _, ok := rows[0][k].(string); !ok {
			t.Fatalf("missing %s: %v", k, rows[0])
		}
	}
	// deterministic
	again := arr(t, api(t, u, tok, "TPSeries", map[string]any{"exch": "NSE", "token": "2885",
		"st": fmt.Sprint(st.Unix()), "intrv": "5"}))
	if again[len(again)-1]["intc"] != rows[len(rows)-1]["intc"] {
		t.Fatal("candles differ between calls")
	}
	if m := obj(t, api(t, u, tok, "TPSeries", map[string]any{"exch": "NSE", "token": "2885", "st": "1", "intrv": "D"})); m["emsg"] != EmsgInvalidInput {
		t.Fatalf("intrv D: %v", m)
	}
	_, raw := post(t, u.OAuthREST+"TPSeries", map[string]any{"uid": "FA12345", "exch": "NSE", "token": "2885",
		"st": fmt.Sprint(clock.MustFromEnv().Now().Add(-90 * 24 * time.Hour).Unix())}, tok, "")
	if m := obj(t, raw); m["emsg"] != EmsgServerTimeout {
		t.Fatalf("long range via jKey: %v", m)
	}
}

func TestEODChartData(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	to := clock.MustFromEnv().Now()
	for _, sym := range []string{"NSE:RELIANCE-EQ", "NSE:Nifty 50"} {
		raw := api(t, u, tok, "EODChartData", map[string]any{"sym": sym,
			"from": fmt.Sprint(to.AddDate(0, -1, 0).Unix()), "to": fmt.Sprint(to.Unix())})
		var rows []string // an array of JSON *strings*
		if err := json.Unmarshal([]byte(raw), &rows); err != nil || len(rows) < 15 {
			t.Fatalf("%s: %v %s", sym, err, raw)
		}
		var row map[string]string
		if err := json.Unmarshal([]byte(rows[0]), &row); err != nil {
			t.Fatal(err)
		}
		if _, err := time.Parse("02-Jan-2006", row["time"]); err != nil || row["time"] != strings.ToUpper(row["time"]) {
			t.Fatalf("time %q", row["time"])
		}
		for _, k := range []string{"into", "inth", "intl", "intc", "ssboe", "intv"} {
			if row[k] == "" {
				t.Fatalf("missing %s in %v", k, row)
			}
		}
	}
	raw := api(t, u, tok, "EODChartData", map[string]any{"sym": "NSE:RELIANCE-EQ", "from": "0", "to": fmt.Sprint(to.Unix())})
	var rows []string
	_ = json.Unmarshal([]byte(raw), &rows)
	if len(rows) != eodMaxRows {
		t.Fatalf("want truncation to %d rows, got %d", eodMaxRows, len(rows))
	}
}

// TestChartsRequireJKey: with the switch on, OAuth chart routes want the token
// in the body too (openalgo's claim, broker/shoonya/api/data.py); the Bearer alone fails.
func TestChartsRequireJKey(t *testing.T) {
	for _, require := range []bool{false, true} {
		s, u := newTestServer(t, Config{ChartsRequireJKey: require})
		tok := oauthLogin(t, s, u)
		body := map[string]any{"uid": "FA12345", "exch": "NSE", "token": "2885", "st": fmt.Sprint(LastSession(clock.MustFromEnv().Now()).Unix())}
		_, bearerOnly := post(t, u.OAuthREST+"TPSeries", body, "", tok)
		_, both := post(t, u.OAuthREST+"TPSeries", body, tok, tok)
		if strings.HasPrefix(both, "{") && strings.Contains(both, EmsgSessionExpired) {
			t.Fatalf("require=%t: jKey+Bearer refused: %s", require, both)
		}
		if refused := strings.Contains(bearerOnly, EmsgSessionExpired); refused != require {
			t.Fatalf("require=%t: Bearer only → %s", require, bearerOnly)
		}
	}
}
