package chart

import (
	"strings"
	"testing"
)

func TestValidSymbol(t *testing.T) {
	for s, want := range map[string]bool{
		"BINANCE:BTCUSDT": true, "NASDAQ:AAPL": true, "BYBIT:BTCUSDT.P": true, "CME_MINI:ES1!": true, "LSE:RR.": true,
		"(NASDAQ:MARA+NASDAQ:RIOT+NASDAQ:WULF/NASDAQ:MSTR)/10": true, "BINANCE:BTCUSDT/BINANCE:ETHUSDT": true,
		"AAPL": false, "": false, "binance:btcusdt": false, "A:B:C": false, "NASDAQ:AAPL; rm -rf": false, "(AAPL)/2": false,
	} {
		if got := ValidSymbol(s); got != want {
			t.Errorf("ValidSymbol(%q) = %v", s, got)
		}
	}
}

func TestLimitMessages(t *testing.T) {
	for _, tc := range []struct {
		msg        string
		kind       LimitKind
		value, pln string
	}{
		{"Exceed Max Usage Resolution Limit (800x600)", LimitResolution, "800x600", "BASIC"},
		{"Exceed Max Usage Resolution Limit (1920x1600)", LimitResolution, "1920x1600", "MEGA"},
		{"Exceed Max Usage Parameter Limit (3)", LimitParameter, "3", "BASIC"},
		{"Exceed Max Usage Parameter Limit (25)", LimitParameter, "25", "ULTRA"},
		{"exceed max usage parameter limit (7)", LimitParameter, "7", ""},
	} {
		k, v, ok := ParseLimitMessage(tc.msg)
		if !ok || k != tc.kind || v != tc.value || PlanForLimit(k, v) != tc.pln {
			t.Errorf("%q → %v %v %v plan %q", tc.msg, k, v, ok, PlanForLimit(k, v))
		}
	}
	if _, _, ok := ParseLimitMessage("Forbidden"); ok {
		t.Error("Forbidden parsed as a limit")
	}
}

func TestBarsAndPlans(t *testing.T) {
	if n, _ := Bars("1Y", "1m"); n < 500000 {
		t.Errorf("1Y at 1m = %d bars", n)
	}
	if n, _ := Bars("3M", "1D"); n > MaxBars {
		t.Errorf("3M at 1D = %d bars", n)
	}
	if p, _ := SmallestPlanFor(1920, 1080, 4); p.Name != "PRO" {
		t.Errorf("1920x1080 with 4 → %s", p.Name)
	}
	if _, ok := SmallestPlanFor(4000, 100, 1); ok {
		t.Error("4000 wide fits a plan")
	}
}

func TestPlansForLimit(t *testing.T) {
	for _, tc := range []struct {
		kind  LimitKind
		value string
		want  []string
	}{
		{LimitResolution, "800x600", []string{"BASIC"}},
		{LimitResolution, "2048x1920", []string{"ULTRA", "ENTERPRISE"}},
		{LimitParameter, "50", []string{"ENTERPRISE"}},
		{LimitParameter, "7", nil},
	} {
		var got []string
		for _, p := range PlansForLimit(tc.kind, tc.value) {
			got = append(got, p.Name)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s %s: %v, want %v", tc.kind, tc.value, got, tc.want)
		}
	}
}
