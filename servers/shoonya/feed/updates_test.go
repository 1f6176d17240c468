package feed

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
)

var received = time.Date(2026, 12, 4, 4, 0, 0, 0, time.UTC) // 09:30 IST, a Friday

// The om sample is the ShoonyaApi-py README's field table filled the way the
// README's OrderBook samples fill the same fields.
const omFill = `{"t":"om","norenordno":"24120400000123","uid":"FA12345","actid":"FA12345","exch":"NSE","tsym":"RELIANCE-EQ",
"qty":"10","prc":"1300.00","prd":"C","status":"COMPLETE","reporttype":"Fill","trantype":"B","prctyp":"LMT","ret":"DAY",
"fillshares":"10","avgprc":"1299.50","fltm":"04-12-2026 09:29:58","flid":"77","flqty":"10","flprc":"1299.50",
"exchordid":"1100000012345","remarks":"mcp:abc","exch_tm":"04-12-2026 09:29:58"}`

func TestParseUpdate(t *testing.T) {
	tests := []struct {
		name, frame string
		ok          bool
		check       func(t *testing.T, u Update)
	}{
		{"fill", omFill, true, func(t *testing.T, u Update) {
			if u.Kind != "order" || u.OrderID != "24120400000123" || u.Status != "COMPLETE" || u.Event != "Fill" ||
				u.Side != "BUY" || u.Product != "CNC" || u.OrderType != "LIMIT" || *u.FilledQuantity != 10 || *u.AveragePrice != 1299.5 ||
				*u.PendingQuantity != 0 || u.Fill == nil || u.Fill.ID != "77" || *u.Fill.Quantity != 10 || *u.Fill.Price != 1299.5 {
				t.Fatalf("%+v", u)
			}
			if u.ExchangeTime != "2026-12-04T09:29:58+05:30" || u.Fill.Time != "2026-12-04T09:29:58+05:30" || u.ReceivedAt != "2026-12-04T09:30:00+05:30" {
				t.Fatalf("times: %+v", u)
			}
		}},
		{"rejected with reason", `{"t":"om","norenordno":"1","status":"REJECT","reporttype":"Rejected","qty":"5","fillshares":"0","rejreason":"RMS:Margin Exceeds\u200b"}`, true, func(t *testing.T, u Update) {
			if u.Status != "REJECTED" || u.RejectReason != "RMS:Margin Exceeds" || *u.PendingQuantity != 0 || u.Fill != nil {
				t.Fatalf("%+v", u)
			}
		}},
		{"partly cancelled", `{"t":"om","norenordno":"2","status":"CANCELED","reporttype":"Canceled","qty":"10","fillshares":"4","cancelqty":"6"}`, true, func(t *testing.T, u Update) {
			if *u.CancelledQty != 6 || *u.PendingQuantity != 0 {
				t.Fatalf("%+v", u)
			}
		}},
		{"open, numbers as numbers", `{"t":"om","norenordno":"3","status":"OPEN","reporttype":"NewAck","qty":10,"fillshares":4,"prc":1300.5}`, true, func(t *testing.T, u Update) {
			if *u.PendingQuantity != 6 || *u.Price != 1300.5 {
				t.Fatalf("%+v", u)
			}
		}},
		{"garbage number is left out", `{"t":"om","norenordno":"4","status":"OPEN","qty":"ten","prc":{"x":1}}`, true, func(t *testing.T, u Update) {
			if u.Quantity != nil || u.Price != nil || u.PendingQuantity != nil {
				t.Fatalf("%+v", u)
			}
		}},
		{"unknown time shape passes through", `{"t":"om","norenordno":"5","exch_tm":"yesterday"}`, true, func(t *testing.T, u Update) {
			if u.ExchangeTime != "yesterday" {
				t.Fatalf("%+v", u)
			}
		}},
		{"alert firing", `{"t":"am","al_id":"2412040001","ai_t":"LTP_A","d":"1400","lp":"1400.05","exch":"NSE","tsym":"RELIANCE-EQ","remarks":"breakout"}`, true, func(t *testing.T, u Update) {
			if u.Kind != "alert" || u.AlertID != "2412040001" || u.Condition != "LTP_ABOVE" || *u.Threshold != 1400 || *u.LastPrice != 1400.05 || u.Remarks != "breakout" {
				t.Fatalf("%+v", u)
			}
		}},
		{"tick frame", `{"t":"tf","e":"NSE","tk":"22","lp":"1"}`, false, nil},
		{"om without order number", `{"t":"om","status":"OPEN"}`, false, nil},
		{"am without alert id", `{"t":"am","ai_t":"LTP_A"}`, false, nil},
		{"array", `[{"t":"om"}]`, false, nil},
		{"truncated", `{"t":"om","norenordno":"1`, false, nil},
		{"null", `null`, false, nil},
		{"empty", ``, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, err := ParseUpdate([]byte(tt.frame), received)
			if (err == nil) != tt.ok {
				t.Fatalf("err = %v, want ok=%v", err, tt.ok)
			}
			if tt.check != nil {
				tt.check(t, u)
			}
		})
	}
}

func FuzzParseUpdate(f *testing.F) {
	for _, s := range []string{omFill, `{"t":"am","al_id":"1","d":"x"}`, `{"t":"om","norenordno":1,"qty":"1e400"}`, `{}`, `{"t":"ok"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		u, err := ParseUpdate(b, received)
		if err != nil {
			return
		}
		if u.Kind != "order" && u.Kind != "alert" {
			t.Fatalf("kind %q", u.Kind)
		}
		for _, p := range []*float64{u.Quantity, u.Price, u.FilledQuantity, u.PendingQuantity, u.AveragePrice} {
			if p != nil && (*p != *p) {
				t.Fatal("NaN kept")
			}
		}
	})
}

func TestUpdateLogKeepsEachEventOnceAndCaps(t *testing.T) {
	ctx := context.Background()
	l := &UpdateLog{State: kv.NewMemory(), Max: 3}
	u, _ := ParseUpdate([]byte(omFill), received)
	for i := 0; i < 2; i++ { // a second replica's socket hears the same frame
		added, err := l.Append(ctx, "u1", u)
		if err != nil || added != (i == 0) {
			t.Fatalf("append %d: added=%v err=%v", i, added, err)
		}
	}
	for _, st := range []string{"OPEN", "PENDING", "TRIGGER_PENDING", "CANCELED"} {
		v := u
		v.Status, v.Fill = st, nil
		if _, err := l.Append(ctx, "u1", v); err != nil {
			t.Fatal(err)
		}
	}
	log, err := l.Read(ctx, "u1")
	if err != nil || len(log.Updates) != 3 || log.Dropped != 2 || log.Updates[0].Status != "CANCELED" || log.Since != u.ReceivedAt {
		t.Fatalf("%+v %v", log, err)
	}
	if other, _ := l.Read(ctx, "u2"); len(other.Updates) != 0 || other.Updates == nil {
		t.Fatalf("another user's log: %+v", other)
	}
	if !strings.HasSuffix(log.Since, "+05:30") {
		t.Fatal(log.Since)
	}
}

// TestChangedNotifiesOnlyItsURI: an order update notifies subscribers of
// OrdersURI (here and, through Relay, on the other replicas), not those of
// the all-instruments feed, and only the user's own.
func TestChangedNotifiesOnlyItsURI(t *testing.T) {
	var got []string
	n := NewNotifier(func(session, uri string) error { got = append(got, session+" "+uri); return nil })
	var relayed []string
	n.Relay = func(user, uri string) { relayed = append(relayed, user+" "+uri) }
	n.Subscribe("s1", "u1", OrdersURI)
	n.Subscribe("s2", "u1", AllURI)
	n.Subscribe("s3", "u2", OrdersURI)
	n.Changed("u1", OrdersURI)
	n.drain()
	if len(got) != 1 || got[0] != "s1 "+OrdersURI || len(relayed) != 1 || relayed[0] != "u1 "+OrdersURI {
		t.Fatalf("sent %v, relayed %v", got, relayed)
	}
	got = nil
	n.UpdatedURI("u1", InstrumentURI("NSE", "22")) // a tick still reaches the all-instruments subscriber
	n.drain()
	if len(got) != 1 || got[0] != "s2 "+AllURI {
		t.Fatalf("tick sent %v", got)
	}
}
