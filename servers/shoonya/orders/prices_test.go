package orders

import (
	"context"
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

var sbin = Instrument{TSym: "SBIN-EQ", Tick: 0.05, Decimals: 2, Upper: 974.9, Lower: 649.95, LTP: 812.45}

func TestCheckPrice(t *testing.T) {
	cases := []struct {
		p    float64
		in   Instrument
		ok   bool
		says string
	}{
		{800, sbin, true, ""},
		{800.05, sbin, true, ""},
		{5e-324, sbin, false, "multiple"},
		{0.01, sbin, false, "multiple"},
		{800.03, sbin, false, "800.00 or 800.05"},
		{975, sbin, false, "circuit"},
		{649.9, sbin, false, "circuit"},
		{math.NaN(), sbin, false, "positive price"},
		{math.Inf(1), sbin, false, "positive price"},
		{-1, sbin, false, "positive price"},
		{2e7, sbin, false, "positive price"},
		{76.1225, Instrument{TSym: "USDINR", Tick: 0.0025, Decimals: 4}, true, ""},
		{76.123, Instrument{TSym: "USDINR", Tick: 0.0025, Decimals: 4}, false, "multiple"},
		{123.45, Instrument{TSym: "X"}, true, ""}, // no tick, no circuits known: only the static bounds
	}
	for _, c := range cases {
		err := CheckPrice("price", c.p, c.in)
		if (err == nil) != c.ok {
			t.Errorf("%v on %s: %v", c.p, c.in.TSym, err)
			continue
		}
		if err != nil {
			e := envelope.From(err)
			if e.Code != envelope.InvalidArgument || !strings.Contains(e.Message, c.says) {
				t.Errorf("%v: %s %q, want text %q", c.p, e.Code, e.Message, c.says)
			}
		}
	}
}

func TestProtective(t *testing.T) {
	px, how := Protective("B", 812.45, sbin)
	if math.Abs(px-816.55) > 1e-9 || !strings.Contains(how, "0.5%") {
		t.Fatalf("buy %v %s", px, how)
	}
	if px, _ := Protective("S", 812.45, sbin); math.Abs(px-808.35) > 1e-9 {
		t.Fatalf("sell %v", px)
	}
	// Capped at the circuit limits.
	if px, _ := Protective("B", 973, sbin); px != sbin.Upper {
		t.Fatalf("buy near upper circuit %v", px)
	}
	if px, _ := Protective("S", 650, sbin); px != sbin.Lower {
		t.Fatalf("sell near lower circuit %v", px)
	}
	// Options use the wider slabs: 5% under ₹10.
	opt := Instrument{TSym: "NIFTY25NOV26C26000", Tick: 0.05, Decimals: 2, Option: true}
	if px, _ := Protective("B", 4, opt); math.Abs(px-4.2) > 1e-9 {
		t.Fatalf("option buy %v", px)
	}
	for _, c := range []struct {
		ref  float64
		opt  bool
		want float64
	}{{50, false, 2}, {300, false, 1}, {900, false, 0.5}, {5, true, 5}, {50, true, 3}, {300, true, 2}, {900, true, 1}} {
		if got := ProtectionPct(c.ref, c.opt); got != c.want {
			t.Errorf("ProtectionPct(%v, %t) = %v", c.ref, c.opt, got)
		}
	}
	if TickDecimals(0.05) != 2 || TickDecimals(0.0025) != 4 || TickDecimals(1) != 0 {
		t.Fatal("tick decimals")
	}
}

// TestLostAnswerUnreadableBook: when the answer is lost and the order book
// cannot be read afterwards, the error says the book could not be checked,
// never that no order is in it.
func TestLostAnswerUnreadableBook(t *testing.T) {
	calls := 0
	book := func(context.Context) ([]noren.Order, error) {
		calls++
		if calls == 1 {
			return nil, nil
		}
		return nil, envelope.New(envelope.UpstreamUnavailable, "Shoonya is unreachable")
	}
	lost := func(context.Context) (string, error) {
		return "", envelope.New(envelope.OutcomeUnknown, "lost").WithCause(noren.ErrOutcomeUnknown)
	}
	p := NewPlacer()
	p.LookupDelays = []time.Duration{0, 0}
	_, err := p.Place(context.Background(), "u", "key-9", book, lost, nil)
	e := envelope.From(err)
	if e.Code != envelope.OutcomeUnknown || !strings.Contains(e.Message, "could not be checked") || strings.Contains(e.Message, "in the order book yet") || e.Details["order_book"] != "unreadable" {
		t.Fatalf("%+v", e)
	}
	if !errors.Is(err, noren.ErrOutcomeUnknown) {
		t.Fatal("cause lost")
	}
}

func TestCheckLot(t *testing.T) {
	nifty := Instrument{TSym: "NIFTY25NOVF", LotSize: 75, Exch: "NFO"}
	cases := []struct {
		qty   int
		in    Instrument
		valid []int // nil: accepted
	}{
		{75, nifty, nil},
		{150, nifty, nil},
		{10, nifty, []int{75}},
		{100, nifty, []int{75, 150}},
		{7, Instrument{TSym: "RELIANCE-EQ", LotSize: 1, Exch: "NSE"}, nil},
		{7, Instrument{TSym: "X", Exch: "NSE"}, nil},                      // lot size unknown
		{1, Instrument{TSym: "CRUDEOIL", LotSize: 100, Exch: "MCX"}, nil}, // left to the broker
	}
	for _, c := range cases {
		err := CheckLot("quantity", c.qty, c.in)
		if c.valid == nil {
			if err != nil {
				t.Errorf("%d of %s: %v", c.qty, c.in.TSym, err)
			}
			continue
		}
		var e *envelope.Error
		if !errors.As(err, &e) || e.Code != envelope.InvalidArgument || e.Details["lot_size"] != c.in.LotSize || !slices.Equal(e.Details["valid_quantities"].([]int), c.valid) {
			t.Errorf("%d of %s: %v", c.qty, c.in.TSym, err)
		}
	}
}

func TestWire(t *testing.T) {
	for _, c := range []struct {
		p    float64
		dec  int
		want string
	}{{26132 * 0.05, 2, "1306.6"}, {0.1 + 0.2, 2, "0.3"}, {83.0025, 4, "83.0025"}, {800, 0, "800"}} {
		if got := strconv.FormatFloat(Wire(c.p, c.dec), 'f', -1, 64); got != c.want {
			t.Errorf("Wire(%v, %d) = %s, want %s", c.p, c.dec, got, c.want)
		}
	}
}
