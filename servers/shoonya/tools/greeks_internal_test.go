package tools

import (
	"math"
	"testing"
)

// TestBlack76: a textbook value, put-call parity, Greeks against finite
// differences, and the implied volatility solver's round trip and refusals.
func TestBlack76(t *testing.T) {
	// F = K = 100, one year, 5%, 20%: 100·e^-0.05·(N(0.1) − N(−0.1)) = 7.5771.
	c, _, _, _, _ := black76(true, 100, 100, 1, 0.05, 0.2)
	if math.Abs(c-7.5771) > 1e-4 {
		t.Fatalf("call %v", c)
	}
	for _, k := range []float64{80, 100, 125} {
		for _, tt := range []float64{2.0 / 365, 0.1, 1} {
			for _, vol := range []float64{0.05, 0.2, 0.8} {
				c, dc, g, th, v := black76(true, 100, k, tt, 0.07, vol)
				p, dp, _, _, _ := black76(false, 100, k, tt, 0.07, vol)
				df := math.Exp(-0.07 * tt)
				if math.Abs((c-p)-df*(100-k)) > 1e-9 || math.Abs((dc-dp)-df) > 1e-9 {
					t.Fatalf("parity k=%v t=%v vol=%v: c %v p %v", k, tt, vol, c, p)
				}
				h := 1e-3
				up, _, _, _, _ := black76(true, 100+h, k, tt, 0.07, vol)
				dn, _, _, _, _ := black76(true, 100-h, k, tt, 0.07, vol)
				vu, _, _, _, _ := black76(true, 100, k, tt, 0.07, vol+h)
				ts, _, _, _, _ := black76(true, 100, k, tt-1e-6, 0.07, vol)
				if math.Abs((up-dn)/(2*h)-dc) > 1e-4 || math.Abs((up-2*c+dn)/(h*h)-g) > 1e-3 ||
					math.Abs((vu-c)/h-v) > 0.05*math.Max(1, v) || math.Abs(-(c-ts)/1e-6-th) > 0.01*math.Max(1, math.Abs(th)) {
					t.Fatalf("Greeks k=%v t=%v vol=%v: delta %v gamma %v vega %v theta %v", k, tt, vol, dc, g, v, th)
				}
				for _, call := range []bool{true, false} {
					px, intrinsic := c, df*math.Max(0, 100-k)
					if !call {
						px, intrinsic = p, df*math.Max(0, k-100)
					}
					if px-intrinsic < 1e-6 {
						continue // no time value: no volatility is told apart by it
					}
					iv, err := impliedVol(call, 100, k, tt, 0.07, px)
					if err != nil || math.Abs(iv-vol) > 1e-5 {
						t.Fatalf("implied k=%v t=%v vol=%v call=%v: %v %v", k, tt, vol, call, iv, err)
					}
				}
			}
		}
	}
	// Below intrinsic value, or above the underlying: no volatility fits.
	for _, px := range []float64{10, 101} {
		if _, err := impliedVol(true, 120, 100, 0.1, 0.07, px); err == nil {
			t.Fatalf("price %v: an implied volatility", px)
		}
	}
}

func TestOptionContract(t *testing.T) {
	cases := []struct {
		tsym   string
		ok     bool
		call   bool
		strike float64
		name   string
	}{
		{"NIFTY30DEC25C26000", true, true, 26000, "NIFTY"},
		{"BANKNIFTY30DEC25P55500", true, false, 55500, "BANKNIFTY"},
		{"USDINR25NOV22C76.25", true, true, 76.25, "USDINR"},
		{"NIFTY30DEC25F", false, false, 0, ""},
		{"RELIANCE-EQ", false, false, 0, ""},
		{"NIFTY30DEC25C", false, false, 0, ""},
	}
	for _, c := range cases {
		name, exp, call, strike, ok := optionContract(c.tsym)
		if ok != c.ok || ok && (call != c.call || strike != c.strike || name != c.name || exp.Format("2006-01-02 15:04") == "") {
			t.Errorf("%s: %v %v %v %v %v", c.tsym, name, exp, call, strike, ok)
		}
	}
}
