package fake

import "testing"

// TestAlertRoutes: SetAlert, ModifyAlert, CancelAlert and GetPendingAlert
// with each failure text the fake documents (alerts.go), and a firing
// leaving the pending list.
func TestAlertRoutes(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	set := func(ait, d string) map[string]any {
		return obj(t, api(t, u, tok, "SetAlert", map[string]any{"exch": "NSE", "tsym": "RELIANCE-EQ", "ai_t": ait, "d": d, "validity": "GTT", "remarks": "k1"}))
	}
	for _, tc := range []struct {
		name, route string
		body        map[string]any
		emsg        string
	}{
		{"unknown symbol", "SetAlert", map[string]any{"exch": "NSE", "tsym": "NOSUCH-EQ", "ai_t": "LTP_A", "d": "10"}, EmsgAlertSymbol},
		{"unknown ai_t", "SetAlert", map[string]any{"exch": "NSE", "tsym": "RELIANCE-EQ", "ai_t": "VOL_A", "d": "10"}, EmsgAlertType},
		{"price not positive", "SetAlert", map[string]any{"exch": "NSE", "tsym": "RELIANCE-EQ", "ai_t": "LTP_B", "d": "0"}, EmsgAlertValue},
		{"value not a number", "SetAlert", map[string]any{"exch": "NSE", "tsym": "RELIANCE-EQ", "ai_t": "CH_PER_A", "d": "x"}, EmsgAlertValue},
		{"modify unknown", "ModifyAlert", map[string]any{"al_id": "1", "exch": "NSE", "tsym": "RELIANCE-EQ", "ai_t": "LTP_A", "d": "10"}, EmsgAlertNotFound},
		{"cancel unknown", "CancelAlert", map[string]any{"al_id": "1"}, EmsgAlertNotFound},
		{"nothing pending", "GetPendingAlert", map[string]any{}, EmsgNoData},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if m := obj(t, api(t, u, tok, tc.route, tc.body)); m["stat"] != "Not_Ok" || m["emsg"] != tc.emsg {
				t.Fatalf("%v, want emsg %q", m, tc.emsg)
			}
		})
	}
	lp, _ := s.LastPrice("NSE", "2885")
	a := set("LTP_A", fmtPx(lp+10, 2))
	b := set("LTP_B", fmtPx(lp-10, 2))
	if a["stat"] != "Ok" || a["al_id"] == "" || b["al_id"] == a["al_id"] {
		t.Fatalf("set: %v %v", a, b)
	}
	if m := obj(t, api(t, u, tok, "ModifyAlert", map[string]any{"al_id": a["al_id"], "exch": "NSE", "tsym": "RELIANCE-EQ", "ai_t": "LTP_A", "d": fmtPx(lp+20, 2), "remarks": "k1"})); m["stat"] != "Ok" {
		t.Fatalf("modify: %v", m)
	}
	rows := arr(t, api(t, u, tok, "GetPendingAlert", map[string]any{}))
	if len(rows) != 2 || rows[0]["al_id"] != b["al_id"] || rows[1]["d"] != fmtPx(lp+20, 2) || rows[1]["ai_t"] != "LTP_A" || rows[1]["remarks"] != "k1" {
		t.Fatalf("pending: %v", rows)
	}
	if err := s.SetPrice("NSE", "2885", lp+25); err != nil { // fires a, not b
		t.Fatal(err)
	}
	if n := s.PendingAlertCount("FA12345"); n != 1 {
		t.Fatalf("pending after the crossing: %d", n)
	}
	if m := obj(t, api(t, u, tok, "CancelAlert", map[string]any{"al_id": b["al_id"]})); m["stat"] != "Ok" || m["al_id"] != b["al_id"] {
		t.Fatalf("cancel: %v", m)
	}
	if n := s.PendingAlertCount("FA12345"); n != 0 {
		t.Fatalf("pending after cancel: %d", n)
	}
}
