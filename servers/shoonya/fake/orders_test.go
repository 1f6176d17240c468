package fake

import (
	"fmt"
	"testing"
)

func TestOrderLifecycle(t *testing.T) {
	s, u := newTestServer(t, Config{AllowMarketOrders: true})
	tok := oauthLogin(t, s, u)
	lp, _ := s.LastPrice("NSE", "2885")

	// MKT fills at once: trade + position.
	m := obj(t, api(t, u, tok, "PlaceOrder", placeBody("RELIANCE-EQ", "B", "MKT", 5, "0", "None", "mkt-1")))
	mkt, _ := m["norenordno"].(string)
	if m["stat"] != "Ok" || len(mkt) != 14 {
		t.Fatalf("place MKT: %v", m)
	}
	if st := s.OrderStatus(mkt); st != StatusComplete {
		t.Fatalf("MKT status %s", st)
	}

	// LMT below market rests OPEN; a tick through the price fills it.
	lmtPx := roundTick(lp*0.95, 0.05)
	m = obj(t, api(t, u, tok, "PlaceOrder", placeBody("RELIANCE-EQ", "B", "LMT", 2, fmtPx(lmtPx, 2), "None", nil)))
	lmt := m["norenordno"].(string)
	if st := s.OrderStatus(lmt); st != StatusOpen {
		t.Fatalf("LMT status %s", st)
	}
	if err := s.SetPrice("NSE", "2885", lmtPx-0.5); err != nil {
		t.Fatal(err)
	}
	if st := s.OrderStatus(lmt); st != StatusComplete {
		t.Fatalf("LMT after cross %s", st)
	}

	// SL-LMT sell waits in TRIGGER_PENDING until the trigger is hit.
	lp, _ = s.LastPrice("NSE", "2885")
	trg := roundTick(lp*0.98, 0.05)
	m = obj(t, api(t, u, tok, "PlaceOrder", placeBody("RELIANCE-EQ", "S", "SL-LMT", 1, fmtPx(trg-1, 2), fmtPx(trg, 2), "sl")))
	sl := m["norenordno"].(string)
	if st := s.OrderStatus(sl); st != StatusTriggerPending {
		t.Fatalf("SL status %s", st)
	}
	_ = s.SetPrice("NSE", "2885", trg-0.5)
	if st := s.OrderStatus(sl); st != StatusComplete {
		t.Fatalf("SL after trigger %s", st)
	}

	// Modify then cancel a resting order.
	lp, _ = s.LastPrice("NSE", "2885")
	m = obj(t, api(t, u, tok, "PlaceOrder", placeBody("RELIANCE-EQ", "B", "LMT", 1, fmtPx(roundTick(lp*0.9, 0.05), 2), "None", "rest")))
	rest := m["norenordno"].(string)
	mod := obj(t, api(t, u, tok, "ModifyOrder", map[string]any{"ordersource": "API", "actid": "FA12345", "norenordno": rest,
		"exch": "NSE", "tsym": "RELIANCE-EQ", "qty": "3", "prctyp": "LMT", "prc": fmtPx(roundTick(lp*0.91, 0.05), 2)}))
	if mod["stat"] != "Ok" || mod["result"] != rest {
		t.Fatalf("modify: %v", mod)
	}
	bad := obj(t, api(t, u, tok, "ModifyOrder", map[string]any{"norenordno": rest, "exch": "NSE", "tsym": "RELIANCE-EQ",
		"qty": "3", "prctyp": "LMT", "prc": fmtPx(roundTick(lp*0.91, 0.05), 2), "trgprc": "0"}))
	if bad["emsg"] != "Trigger price invalid - 0.00" {
		t.Fatalf("modify LMT with trgprc 0: %v", bad)
	}
	can := obj(t, api(t, u, tok, "CancelOrder", map[string]any{"ordersource": "API", "norenordno": rest}))
	if can["stat"] != "Ok" || can["result"] != rest {
		t.Fatalf("cancel: %v", can)
	}

	// Terminal orders cannot be cancelled or modified.
	for _, no := range []string{mkt, rest, "99999999999999"} {
		if m := obj(t, api(t, u, tok, "CancelOrder", map[string]any{"norenordno": no})); m["emsg"] != EmsgCancelNotFound {
			t.Fatalf("cancel %s: %v", no, m)
		}
		if m := obj(t, api(t, u, tok, "ModifyOrder", map[string]any{"norenordno": no, "exch": "NSE", "tsym": "RELIANCE-EQ",
			"qty": "1", "prctyp": "LMT", "prc": "100.00"})); m["emsg"] != EmsgOrderNotFound {
			t.Fatalf("modify %s: %v", no, m)
		}
	}

	// Order book: newest first, remarks echoed, statuses as Noren writes them.
	book := arr(t, api(t, u, tok, "OrderBook", map[string]any{"ordersource": "API"}))
	if len(book) != 4 || book[0]["norenordno"] != rest || book[0]["status"] != StatusCanceled || book[0]["remarks"] != "rest" {
		t.Fatalf("order book: %v", book)
	}
	if book[3]["remarks"] != "mkt-1" || book[3]["avgprc"] == nil || book[3]["stat"] != "Ok" || book[3]["fillshares"] != "5" {
		t.Fatalf("MKT row: %v", book[3])
	}
	if book[0]["fillshares"] != "0" || book[0]["avgprc"] != "0" || book[0]["exchordid"] == nil { // ShoonyaApi-py README OrderBook sample
		t.Fatalf("unfilled row: %v", book[0])
	}
	if _, has := book[2]["remarks"]; has {
		t.Fatalf("null remarks must not be echoed: %v", book[2])
	}

	// History newest first: Fill ← New ← NewAck ← PendingNew.
	hist := arr(t, api(t, u, tok, "SingleOrdHist", map[string]any{"norenordno": mkt}))
	var rpts []string
	for _, h := range hist {
		rpts = append(rpts, h["rpt"].(string))
	}
	if fmt.Sprint(rpts) != "[Fill New NewAck PendingNew]" {
		t.Fatalf("history %v", rpts)
	}
	if m := obj(t, api(t, u, tok, "SingleOrdHist", map[string]any{"norenordno": "1"})); m["emsg"] != EmsgNoData {
		t.Fatalf("unknown order hist: %v", m)
	}

	// Trades and positions.
	trades := arr(t, api(t, u, tok, "TradeBook", map[string]any{"actid": "FA12345"}))
	if len(trades) != 3 || trades[2]["flqty"] != "5" || trades[2]["remarks"] != "mkt-1" {
		t.Fatalf("trade book: %v", trades)
	}
	pos := arr(t, api(t, u, tok, "PositionBook", map[string]any{"actid": "FA12345"}))
	if len(pos) != 1 || pos[0]["netqty"] != "6" || pos[0]["daybuyqty"] != "7" || pos[0]["daysellqty"] != "1" {
		t.Fatalf("positions: %v", pos)
	}
	for _, k := range []string{"urmtom", "rpnl", "netavgprc", "lp", "prd", "token"} {
		if _, ok := pos[0][k].(string); !ok {
			t.Fatalf("position field %s missing or not a string: %v", k, pos[0])
		}
	}

	// Ledger: every PlaceOrder with its raw fields.
	if n := s.OrdersWithRemarks("mkt-1"); n != 1 {
		t.Fatalf("OrdersWithRemarks = %d", n)
	}
	led := s.Ledger()
	if len(led) != 4 || led[0].Fields["trgprc"] != "None" || led[0].NorenOrdNo != mkt || led[0].Era != EraOAuth {
		t.Fatalf("ledger: %+v", led[0])
	}
}

func withFields(m map[string]any, kv ...string) map[string]any {
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func TestPlaceOrderValidation(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := legacyLogin(t, u)
	place := func(b map[string]any) map[string]any {
		_, raw := post(t, u.LegacyREST+"PlaceOrder", b, tok, "")
		return obj(t, raw)
	}
	tests := []struct {
		name    string
		body    map[string]any
		emsg    string // Not_Ok from the OMS
		rejects string // accepted, then REJECTED with this reason
	}{
		{"bad trantype", placeBody("SBIN-EQ", "X", "LMT", 1, "800.00", "None", nil), EmsgInvalidInput, ""},
		{"bad qty", placeBody("SBIN-EQ", "B", "LMT", 0, "800.00", "None", nil), EmsgInvalidInput, ""},
		{"unknown symbol", placeBody("NOPE-EQ", "B", "LMT", 1, "800.00", "None", nil), EmsgInvalidInput, ""},
		{"SL without trigger", placeBody("SBIN-EQ", "B", "SL-LMT", 1, "800.00", "None", nil), EmsgInvalidInput, ""},
		{"lot size", placeBody(firstNiftyOption(s), "B", "LMT", 1, "10.00", "None", nil), "", RejLotSize},
		{"tick size", placeBody("SBIN-EQ", "B", "LMT", 1, "800.03", "None", nil), "", RejTickSize},
		{"market blocked by default", placeBody("SBIN-EQ", "B", "MKT", 1, "0", "None", nil), "", RejMarketBlocked},
		{"SL-M blocked by default", placeBody("SBIN-EQ", "B", "SL-MKT", 1, "0", "900.00", nil), "", RejMarketBlocked},
		{"under one tick", placeBody("SBIN-EQ", "B", "LMT", 1, "4.9406564584124654e-324", "None", nil), "", RejTickSize},
		{"cover without blprc", withFields(placeBody("SBIN-EQ", "B", "LMT", 1, "800.00", "None", nil), "prd", "H"), EmsgInvalidInput, ""},
		{"bracket without bpprc", withFields(placeBody("SBIN-EQ", "B", "LMT", 1, "800.00", "None", nil), "prd", "B", "blprc", "5.00"), EmsgInvalidInput, ""},
		{"bracket with legs", withFields(placeBody("SBIN-EQ", "B", "LMT", 1, "800.00", "None", nil), "prd", "B", "blprc", "5.00", "bpprc", "10.00"), "", ""},
		{"insufficient funds", placeBody("TCS-EQ", "B", "LMT", 10000, "3100.00", "None", nil), "", RejInsufficient},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := place(tc.body)
			if tc.emsg != "" {
				if m["stat"] != "Not_Ok" || m["emsg"] != tc.emsg {
					t.Fatalf("got %v", m)
				}
				return
			}
			no, _ := m["norenordno"].(string)
			if tc.rejects == "" { // accepted and working
				if m["stat"] != "Ok" || s.OrderStatus(no) == StatusRejected || s.OrderStatus(no) == "" {
					t.Fatalf("got %v status %s", m, s.OrderStatus(no))
				}
				return
			}
			if m["stat"] != "Ok" || s.OrderStatus(no) != StatusRejected {
				t.Fatalf("got %v status %s", m, s.OrderStatus(no))
			}
			book := arr(t, func() string {
				_, raw := post(t, u.LegacyREST+"OrderBook", map[string]any{"uid": "FA12345"}, tok, "")
				return raw
			}())
			if book[0]["rejreason"] != tc.rejects || book[0]["status"] != StatusRejected {
				t.Fatalf("book row %v", book[0])
			}
		})
	}
	if got := len(s.Ledger()); got != len(tests) {
		t.Fatalf("ledger has %d entries, want %d", got, len(tests))
	}
}

func firstNiftyOption(s *Server) string {
	for _, in := range s.cat.all {
		if in.Symbol == "NIFTY" && in.OptType == "CE" {
			return in.TSym
		}
	}
	return ""
}

func TestSymbolEncoding(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	for _, tsym := range []string{"M%26M-EQ", "M&M-EQ"} { // quote_plus'd and \u0026 (json.Marshal escapes &)
		m := obj(t, api(t, u, tok, "PlaceOrder", placeBody(tsym, "B", "MKT", 1, "0", "None", nil)))
		if m["stat"] != "Ok" {
			t.Fatalf("%s: %v", tsym, m)
		}
	}
}

func TestFillOrderOnDemand(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	m := obj(t, api(t, u, tok, "PlaceOrder", placeBody("INFY-EQ", "S", "LMT", 1, "1600.00", "None", "far")))
	no := m["norenordno"].(string)
	if err := s.FillOrder(no, 0); err != nil {
		t.Fatal(err)
	}
	if s.OrderStatus(no) != StatusComplete || s.FillOrder(no, 0) == nil {
		t.Fatal("fill on demand")
	}
}
