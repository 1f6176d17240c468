package fake

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// getOptionGreek computes Black-Scholes prices and Greeks from what it is
// given, as the route does: it takes the volatility, it does not look it up.
// source: ShoonyaApi-py README get_option_greek (request exd, strprc,
// sptprc, int_rate, volatility, optt; answer cal_/put_ price, delta, gamma,
// theta, rho, vego; stat "OK" in the sample; failure "Invalid Input :
// jData is Missing."). assumed: rate and volatility in percent, theta per
// year and vega per 1.00 of volatility (the sample's units are not stated),
// expiry at 15:30 IST, any missing or unparsable field → EmsgInvalidInput.
func (s *Server) getOptionGreek(c *call) reply {
	exd := strings.ToUpper(c.str("exd"))
	if len(exd) == 11 { // 24-NOV-2022 → 24-Nov-2022, as Go parses month names
		exd = exd[:4] + strings.ToLower(exd[4:6]) + exd[6:]
	}
	exp, err := time.ParseInLocation("02-Jan-2006", exd, IST)
	num := func(k string) float64 {
		f, perr := strconv.ParseFloat(c.str(k), 64)
		if perr != nil || f < 0 || math.IsInf(f, 0) || math.IsNaN(f) {
			err = perr
			if err == nil {
				err = strconv.ErrRange
			}
		}
		return f
	}
	k, spot, r, vol := num("strprc"), num("sptprc"), num("int_rate")/100, num("volatility")/100
	optt := c.str("optt")
	if err != nil || k <= 0 || spot <= 0 || vol <= 0 || (optt != "CE" && optt != "PE") {
		return s.notOk(EmsgInvalidInput)
	}
	t := exp.Add(15*time.Hour+30*time.Minute).Sub(s.now()).Hours() / 24 / 365
	if t <= 0 {
		return s.notOk(EmsgInvalidInput)
	}
	sq := vol * math.Sqrt(t)
	d1 := (math.Log(spot/k) + (r+vol*vol/2)*t) / sq
	d2 := d1 - sq
	nd := func(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
	pdf := math.Exp(-d1*d1/2) / math.Sqrt(2*math.Pi)
	df := math.Exp(-r * t)
	f6 := func(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }
	gamma := pdf / (spot * sq)
	vega := spot * pdf * math.Sqrt(t)
	return reply{status: 200, body: map[string]any{"request_time": requestTime(s.now()), "stat": "OK",
		"cal_price": f6(spot*nd(d1) - k*df*nd(d2)), "put_price": f6(k*df*nd(-d2) - spot*nd(-d1)),
		"cal_delta": f6(nd(d1)), "put_delta": f6(nd(d1) - 1), "cal_gamma": f6(gamma), "put_gamma": f6(gamma),
		"cal_theta": f6(-spot*pdf*vol/(2*math.Sqrt(t)) - r*k*df*nd(d2)), "put_theta": f6(-spot*pdf*vol/(2*math.Sqrt(t)) + r*k*df*nd(-d2)),
		"cal_rho": f6(k * t * df * nd(d2)), "put_rho": f6(-k * t * df * nd(-d2)), "cal_vego": f6(vega), "put_vego": f6(vega)}}
}
