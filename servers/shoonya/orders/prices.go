package orders

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// MaxPrice is the sanity bound on any price or trigger a tool accepts (no
// Indian listed instrument trades near ₹1 crore a unit); the circuit limits
// from the quote bound it further.
const MaxPrice = 10_000_000

// Instrument is what the price checks need, from GetQuotes (ShoonyaApi-py README:
// ti tick size, pp price precision, uc/lc circuit limits, lp last price).
type Instrument struct {
	TSym     string
	Tick     float64 // ti; 0 = unknown
	Decimals int     // pp, else the tick's decimals
	Upper    float64 // uc; 0 = unknown
	Lower    float64 // lc; 0 = unknown
	LTP      float64 // lp; 0 = no trade yet
	Option   bool    // instname OPT*: wider protection slabs
	LotSize  int     // ls; 0 or 1 = any quantity
	Exch     string
	Token    string // the scrip's token (GetQuotes, the feed)
}

// CheckLot refuses a quantity that is not a whole number of lots, naming the
// lot size and the nearest valid quantities: the broker accepts such an order
// and the exchange check then rejects it (OrderBook status REJECTED, rejreason
// "Quantity should be multiple of lot size", the text Noren's own web clients
// show for ls). MCX is left to the broker: Noren's clients skip the check
// there, where quantities may be counted in lots.
func CheckLot(field string, qty int, in Instrument) error {
	ls := in.LotSize
	if ls <= 1 || qty%ls == 0 || strings.EqualFold(in.Exch, "MCX") {
		return nil
	}
	below, above := qty/ls*ls, (qty/ls+1)*ls
	valid := []int{above}
	hint := fmt.Sprintf("%d (%d lots)", above, above/ls)
	if below > 0 {
		valid = []int{below, above}
		hint = fmt.Sprintf("%d (%d lots) or %d (%d lots)", below, below/ls, above, above/ls)
	}
	return envelope.Invalid(field, "%s %d is not a multiple of %s's lot size %d, so the exchange would reject it; use %s", field, qty, in.TSym, ls, hint).
		WithDetail("lot_size", ls).WithDetail("valid_quantities", valid)
}

// Wire rounds p as it goes on the wire (pp decimals), so a reported price is
// the one the broker received (no 814.9000000000001).
func Wire(p float64, decimals int) float64 {
	if decimals <= 0 {
		decimals = 2
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(p, 'f', decimals, 64), 64)
	if err != nil {
		return p
	}
	return v
}

// TickDecimals is how many decimals a tick size has (0.05 → 2, 0.0025 → 4).
func TickDecimals(tick float64) int {
	if tick <= 0 {
		return 0
	}
	s := strconv.FormatFloat(tick, 'f', -1, 64)
	if i := strings.IndexByte(s, '.'); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// onTick reports whether p is a whole number of ticks (within float noise).
func onTick(p, tick float64) bool {
	n := math.Round(p / tick)
	return n >= 1 && math.Abs(n*tick-p) <= tick*1e-6
}

// StaticPrice checks what needs no quote: finite, positive, under MaxPrice.
func StaticPrice(field string, p float64) error {
	if math.IsNaN(p) || math.IsInf(p, 0) || p <= 0 || p > MaxPrice {
		return envelope.Invalid(field, "%s must be a positive price up to %d, not %v", field, MaxPrice, p)
	}
	return nil
}

// CheckPrice validates p for in: at least one tick, a whole number of ticks,
// and inside the circuit limits when the quote gives them.
func CheckPrice(field string, p float64, in Instrument) error {
	if err := StaticPrice(field, p); err != nil {
		return err
	}
	if in.Tick > 0 && !onTick(p, in.Tick) {
		below := math.Floor(p/in.Tick+1e-9) * in.Tick
		return envelope.Invalid(field, "%s %v is not a multiple of %s's tick size %s; use e.g. %s or %s", field, p, in.TSym,
			fmtPx(in.Tick, in), fmtPx(math.Max(below, in.Tick), in), fmtPx(math.Max(below, 0)+in.Tick, in))
	}
	if in.Upper > 0 && in.Lower > 0 && (p > in.Upper+in.Tick*1e-6 || p < in.Lower-in.Tick*1e-6) {
		return envelope.Invalid(field, "%s %s is outside %s's circuit limits %s–%s; the exchange would reject it", field,
			fmtPx(p, in), in.TSym, fmtPx(in.Lower, in), fmtPx(in.Upper, in))
	}
	return nil
}

func fmtPx(p float64, in Instrument) string { return strconv.FormatFloat(p, 'f', in.Decimals, 64) }

// ProtectionPct is the market-price-protection band for a reference price:
// equity and futures 2% under ₹100, 1% under ₹500, else 0.5%; options 5%
// under ₹10, 3% under ₹100, 2% under ₹500, else 1% (the slabs openalgo's
// utils/mpp_slab.py uses for Shoonya, after Zerodha's published market price
// protection).
func ProtectionPct(ref float64, option bool) float64 {
	if option {
		switch {
		case ref < 10:
			return 5
		case ref < 100:
			return 3
		case ref < 500:
			return 2
		}
		return 1
	}
	switch {
	case ref < 100:
		return 2
	case ref < 500:
		return 1
	}
	return 0.5
}

// ProtectiveRule states the conversion rule for tool descriptions and results.
const ProtectiveRule = "MARKET/SL-M go as LIMIT/SL at the last price (SL-M: trigger) ±2/1/0.5% against you (price <100/<500/more; options 5/3/2/1% for <10/<100/<500/more), tick-rounded, circuit-capped"

// Protective is the limit price for a market-style order of side ("B"/"S")
// referenced at ref (the last price, or an SL-M's trigger): ref moved against
// the order by ProtectionPct, rounded outward to the tick, capped at the
// circuit limit. It returns the price and a one-line account of the rule.
func Protective(side string, ref float64, in Instrument) (float64, string) {
	pct := ProtectionPct(ref, in.Option)
	tick := in.Tick
	if tick <= 0 {
		tick = 0.05 // NSE/BSE equity tick; only when the quote gives none
	}
	var px float64
	if side == "B" {
		px = math.Ceil(ref*(1+pct/100)/tick-1e-9) * tick
		if in.Upper > 0 && px > in.Upper {
			px = in.Upper
		}
	} else {
		px = math.Floor(ref*(1-pct/100)/tick+1e-9) * tick
		if in.Lower > 0 && px < in.Lower {
			px = in.Lower
		}
		px = math.Max(px, tick)
	}
	dir := "+"
	if side != "B" {
		dir = "−"
	}
	circuit := ""
	if in.Upper > 0 && in.Lower > 0 {
		circuit = fmt.Sprintf(", circuit %s–%s", fmtPx(in.Lower, in), fmtPx(in.Upper, in))
	}
	return px, fmt.Sprintf("%s %s %g%% → %s (tick %s%s)", fmtPx(ref, in), dir, pct, fmtPx(px, in), fmtPx(tick, in), circuit)
}
