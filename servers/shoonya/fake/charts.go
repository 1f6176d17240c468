package fake

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// chartsNeedJKey refuses an OAuth-era chart request without &jKey= in the
// body when Config.ChartsRequireJKey is set (openalgo broker/shoonya/api/data.py
// says the chart routes need it; the answer text is // assumed: the session-expired one).
func (s *Server) chartsNeedJKey(c *call) (reply, bool) {
	if s.cfg.ChartsRequireJKey && c.era == EraOAuth && !c.bodyJKey {
		return s.sessionExpired(), true
	}
	return reply{}, false
}

// Candles are a pure function of (seed, token, time) so repeated calls agree.

func (s *Server) pathNoise(key string, n int64) float64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d|%s|%d", s.cfg.Seed, key, n)
	return float64(h.Sum64()%20001)/10000 - 1 // [-1, 1]
}

// pathPrice is the synthetic price of in at t.
func (s *Server) pathPrice(in *Instrument, t time.Time) float64 {
	days := float64(t.Unix()) / 86400
	mins := float64(t.Unix()) / 60
	ph := float64(len(in.Token)+int(in.Price)%97) / 10
	v := in.Price * (1 + 0.06*math.Sin(2*math.Pi*days/53+ph) + 0.004*math.Sin(2*math.Pi*mins/97+ph) +
		0.0008*s.pathNoise(in.Key(), t.Unix()/60))
	return math.Max(in.TI, roundTick(v, in.TI))
}

func sessionHours(in *Instrument) (openMin, closeMin int) {
	if in.Exch == "MCX" {
		return 9 * 60, 23*60 + 30
	}
	return 9*60 + 15, 15*60 + 30
}

func parseEpoch(s string) (time.Time, bool) {
	f, err := strconv.ParseFloat(s, 64) // the Python client sends str(float): "1700000000.0"
	if err != nil || f < 0 {
		return time.Time{}, false
	}
	return time.Unix(int64(f), 0), true
}

var validIntervals = []string{"1", "3", "5", "10", "15", "30", "60", "120", "240"}

// tpSeries (source: ShoonyaApi-py README TPSeries): intraday candles, newest first.
func (s *Server) tpSeries(c *call) reply {
	if rp, refused := s.chartsNeedJKey(c); refused {
		return rp
	}
	in := s.cat.byToken(c.str("exch"), c.str("token"))
	st, ok := parseEpoch(c.str("st"))
	intrv := c.str("intrv")
	if intrv == "" {
		intrv = "1"
	}
	if !ok || !slices.Contains(validIntervals, intrv) {
		return s.notOk(EmsgInvalidInput)
	}
	now := s.now()
	et := now
	if c.has("et") {
		if et, ok = parseEpoch(c.str("et")); !ok {
			return s.notOk(EmsgInvalidInput)
		}
	}
	if et.After(now) {
		et = now
	}
	if in == nil {
		return s.notOk(EmsgNoData)
	}
	// Intraday history goes back about a year: Shoonya-Dev/ShoonyaApi-py
	// issue #58 (two years asked, the last one returned) and #215 (January
	// 2026: nothing before 17 March 2025).
	if oldest := now.AddDate(-1, 0, 0); st.Before(oldest) {
		st = oldest
	}
	if !et.After(st) {
		return s.notOk(EmsgNoData)
	}
	step, _ := strconv.Atoi(intrv)
	openMin, closeMin := sessionHours(in)
	var out []map[string]any
	for day := time.Date(et.In(IST).Year(), et.In(IST).Month(), et.In(IST).Day(), 0, 0, 0, 0, IST); !day.Before(
		time.Date(st.In(IST).Year(), st.In(IST).Month(), st.In(IST).Day(), 0, 0, 0, 0, IST)); day = day.AddDate(0, 0, -1) {
		if !TradingDay(day) {
			continue
		}
		var dayRows []map[string]any
		var cumV int64
		for m := openMin; m < closeMin; m += step {
			t0 := day.Add(time.Duration(m) * time.Minute)
			if t0.Before(st) || !t0.Before(et) {
				continue
			}
			dayRows = append(dayRows, s.candle(in, t0, step, &cumV))
		}
		slices.Reverse(dayRows)
		out = append(out, dayRows...)
		if len(out) > s.cfg.TPSeriesMaxCandles {
			// Too many candles for one request: the live TPSeries times out
			// (see Config.TPSeriesMaxCandles).
			return s.notOkStatus(504, EmsgServerTimeout)
		}
	}
	return s.list(out)
}

func (s *Server) candle(in *Instrument, t0 time.Time, step int, cumV *int64) map[string]any {
	o := s.pathPrice(in, t0)
	h, l, cl := o, o, o
	var vol int64
	var pv float64
	for i := 1; i <= step; i++ {
		p := s.pathPrice(in, t0.Add(time.Duration(i)*time.Minute))
		h, l, cl = math.Max(h, p), math.Min(l, p), p
		n := int64(in.LS) * (10 + int64(50*(1+s.pathNoise(in.Key()+"v", t0.Unix()/60+int64(i)))))
		if in.isIndex() {
			n = 0
		}
		vol += n
		pv += p * float64(n)
	}
	vwap := cl
	if vol > 0 {
		vwap = pv / float64(vol)
	}
	*cumV += vol
	px := func(v float64) string { return fmtPx(v, in.PP) }
	return map[string]any{
		"time": t0.In(IST).Format("02-01-2006 15:04:05"), "ssboe": fmt.Sprint(t0.Unix()),
		"into": px(o), "inth": px(h), "intl": px(l), "intc": px(cl), "intvwap": px(vwap),
		"intv": fmtInt(vol), "intoi": "0", "v": fmtInt(*cumV), "oi": "0",
	}
}

const eodMaxRows = 1201

// eodChartData (source: ShoonyaApi-py README EODChartData; openalgo
// broker/shoonya/api/data.py): an array of JSON *strings*, newest first,
// at most 1201 rows. sym is "EXCH:TSYM" (indices by display name, "NSE:Nifty 50").
func (s *Server) eodChartData(c *call) reply {
	if rp, refused := s.chartsNeedJKey(c); refused {
		return rp
	}
	exch, tsym, found := strings.Cut(c.symbol("sym"), ":")
	from, ok1 := parseEpoch(c.str("from"))
	to, ok2 := parseEpoch(c.str("to"))
	if !found || !ok1 || !ok2 {
		return s.notOk(EmsgInvalidInput)
	}
	in := s.cat.bySymbol(exch, tsym)
	if in == nil {
		return s.notOk(EmsgNoData)
	}
	today := time.Date(s.now().In(IST).Year(), s.now().In(IST).Month(), s.now().In(IST).Day(), 0, 0, 0, 0, IST)
	var rows []any
	for day := today.AddDate(0, 0, -1); len(rows) < eodMaxRows; day = day.AddDate(0, 0, -1) {
		utcDay := time.Date(day.Year(), day.Month(), day.Day(), 0, 0, 0, 0, time.UTC)
		if utcDay.Before(time.Date(from.UTC().Year(), from.UTC().Month(), from.UTC().Day(), 0, 0, 0, 0, time.UTC)) {
			break
		}
		if day.Before(s.cfg.EODFirstDay) {
			break // the daily store starts there (Config.EODFirstDay)
		}
		if utcDay.After(to) || !TradingDay(day) {
			continue
		}
		openMin, closeMin := sessionHours(in)
		o := s.pathPrice(in, day.Add(time.Duration(openMin)*time.Minute))
		cl := s.pathPrice(in, day.Add(time.Duration(closeMin)*time.Minute))
		spread := math.Abs(s.pathNoise(in.Key()+"d", utcDay.Unix()))*0.012*o + in.TI
		h := roundTick(math.Max(o, cl)+spread, in.TI)
		l := math.Max(in.TI, roundTick(math.Min(o, cl)-spread*0.8, in.TI))
		vol := 0.0
		if !in.isIndex() {
			vol = float64(in.LS) * (200000 + 150000*s.pathNoise(in.Key()+"dv", utcDay.Unix()))
		}
		row, _ := json.Marshal(map[string]string{
			"time": strings.ToUpper(day.Format("02-Jan-2006")), "into": fmtPx(o, in.PP), "inth": fmtPx(h, in.PP),
			"intl": fmtPx(l, in.PP), "intc": fmtPx(cl, in.PP), "ssboe": fmt.Sprint(utcDay.Unix()),
			"intv": fmt.Sprintf("%.2f", math.Round(vol)),
		})
		rows = append(rows, string(row))
	}
	if len(rows) == 0 {
		if s.cfg.EmptyBooksAsArray {
			return reply{status: 200, body: []any{}}
		}
		return s.notOk(s.cfg.NoDataEmsg)
	}
	return reply{status: 200, body: rows}
}
