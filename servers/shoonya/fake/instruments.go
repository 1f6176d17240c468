package fake

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"
)

// Instrument is one scrip of the fake master (the fields of the Noren scrip
// master / GetSecurityInfo that the fake serves).
type Instrument struct {
	Exch       string // NSE, NFO, BSE, MCX
	Token      string
	TSym       string  // trading symbol, e.g. RELIANCE-EQ, NIFTY25NOV26C25000
	Symbol     string  // symname, e.g. RELIANCE, NIFTY
	CName      string  // company / contract name
	InstName   string  // EQ, INDEX, FUTIDX, OPTIDX, FUTCOM
	Seg        string  // EQT, DER, COM
	ISIN       string  // cash only
	PP         int     // price precision
	TI         float64 // tick size
	LS         int     // lot size
	Mult       int     // multiplier (prcftr)
	Expiry     time.Time
	Strike     float64
	OptType    string  // CE, PE, or "" (XX)
	Price      float64 // starting last price
	Underlying string  // "NSE|26000" for index derivatives
	FreezeQty  int
}

// Key is Noren's scrip key "EXCH|token".
func (i *Instrument) Key() string { return i.Exch + "|" + i.Token }

func (i *Instrument) isIndex() bool { return i.InstName == "INDEX" }

// IST is India Standard Time, the zone of every Noren timestamp.
var IST = time.FixedZone("IST", 5*3600+1800)

// expiryCode renders the DDMMMYY part of derivative symbols (25NOV26).
func expiryCode(t time.Time) string { return strings.ToUpper(t.Format("02Jan06")) }

func optionTSym(sym string, exp time.Time, optt string, strike float64) string {
	return fmt.Sprintf("%s%s%s%s", sym, expiryCode(exp), optt[:1], trimFloat(strike))
}

func trimFloat(f float64) string {
	if f == math.Trunc(f) {
		return fmt.Sprintf("%.0f", f)
	}
	return strings.TrimRight(fmt.Sprintf("%.2f", f), "0")
}

// nextWeekday returns the first date on or after d (IST, date only) falling on wd.
func nextWeekday(d time.Time, wd time.Weekday) time.Time {
	d = time.Date(d.Year(), d.Month(), d.Day(), 15, 30, 0, 0, IST)
	for d.Weekday() != wd {
		d = d.AddDate(0, 0, 1)
	}
	return d
}

// lastWeekdayOfMonth returns the last wd of d's month at 15:30 IST.
func lastWeekdayOfMonth(y int, m time.Month, wd time.Weekday) time.Time {
	d := time.Date(y, m+1, 0, 15, 30, 0, 0, IST)
	for d.Weekday() != wd {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

// monthlyExpiries gives the next n monthly expiries (last Tuesday) not before now.
func monthlyExpiries(now time.Time, n int) []time.Time {
	now = now.In(IST)
	var out []time.Time
	y, m := now.Year(), now.Month()
	for len(out) < n {
		e := lastWeekdayOfMonth(y, m, time.Tuesday)
		if !e.Before(now) {
			out = append(out, e)
		}
		m++
		if m > 12 {
			m, y = 1, y+1
		}
	}
	return out
}

// DefaultInstruments is the fake's small but realistic universe: NSE cash and
// indices, NIFTY/BANKNIFTY futures and options (two expiries, 21 strikes:
// ATM ±10 steps, CE and PE), two MCX futures and three BSE equities. Expiries are computed from now so the master never goes stale.
func DefaultInstruments(now time.Time) []Instrument {
	now = now.In(IST)
	eq := func(exch, token, tsym, sym, cname, isin string, px float64) Instrument {
		return Instrument{Exch: exch, Token: token, TSym: tsym, Symbol: sym, CName: cname, InstName: "EQ",
			Seg: "EQT", ISIN: isin, PP: 2, TI: 0.05, LS: 1, Mult: 1, Price: px}
	}
	out := []Instrument{
		eq("NSE", "2885", "RELIANCE-EQ", "RELIANCE", "RELIANCE INDUSTRIES LTD", "INE002A01018", 1402.35),
		eq("NSE", "1594", "INFY-EQ", "INFY", "INFOSYS LIMITED", "INE009A01021", 1512.60),
		eq("NSE", "11536", "TCS-EQ", "TCS", "TATA CONSULTANCY SERV LT", "INE467B01029", 3104.20),
		eq("NSE", "3045", "SBIN-EQ", "SBIN", "STATE BANK OF INDIA", "INE062A01020", 812.45),
		eq("NSE", "1333", "HDFCBANK-EQ", "HDFCBANK", "HDFC BANK LTD", "INE040A01034", 1698.10),
		eq("NSE", "2031", "M&M-EQ", "M&M", "MAHINDRA & MAHINDRA LTD", "INE101A01026", 3015.75),
		eq("NSE", "22", "ACC-EQ", "ACC", "ACC LIMITED", "INE012A01025", 1902.30),
		eq("NSE", "11630", "NTPC-EQ", "NTPC", "NTPC LTD", "INE733E01010", 338.55),
		{Exch: "NSE", Token: "26000", TSym: "Nifty 50", Symbol: "NIFTY", CName: "NIFTY INDEX", InstName: "INDEX",
			Seg: "EQT", PP: 2, TI: 0.05, LS: 1, Mult: 1, Price: 25012.40},
		{Exch: "NSE", Token: "26009", TSym: "Nifty Bank", Symbol: "BANKNIFTY", CName: "NIFTY BANK", InstName: "INDEX",
			Seg: "EQT", PP: 2, TI: 0.05, LS: 1, Mult: 1, Price: 56021.85},
		eq("BSE", "500325", "RELIANCE", "RELIANCE", "RELIANCE INDUSTRIES LTD.", "INE002A01018", 1402.40),
		eq("BSE", "500112", "SBIN", "SBIN", "STATE BANK OF INDIA", "INE062A01020", 812.40),
		eq("BSE", "532540", "TCS", "TCS", "TATA CONSULTANCY SERVICES LTD.", "INE467B01029", 3104.10),
	}
	for i := range out {
		out[i].FreezeQty = 100000
	}

	token := 35000
	nextToken := func() string { token++; return fmt.Sprint(token) }
	type underlying struct {
		sym, key string
		spot     float64
		step     float64
		lot      int
		expiries []time.Time
	}
	weekly := []time.Time{nextWeekday(now, time.Tuesday)}
	if weekly[0].Before(now) {
		weekly[0] = weekly[0].AddDate(0, 0, 7)
	}
	weekly = append(weekly, weekly[0].AddDate(0, 0, 7))
	// Lots as NSE has them for every contract since the 2025-12-30 expiry:
	// NIFTY 75 → 65, BANKNIFTY 35 → 30 (NSE circular of 2025-10-28 on the
	// periodic lot-size review, as reported by NDTV Profit and Ventura
	// Securities' notice of the revised market lots).
	unds := []underlying{
		{"NIFTY", "NSE|26000", 25012.40, 50, 65, weekly},
		{"BANKNIFTY", "NSE|26009", 56021.85, 100, 30, monthlyExpiries(now, 2)},
	}
	for _, u := range unds {
		fut := monthlyExpiries(now, 1)[0]
		out = append(out, Instrument{Exch: "NFO", Token: nextToken(), TSym: u.sym + expiryCode(fut) + "F", Symbol: u.sym,
			CName: u.sym + " " + expiryCode(fut) + " FUT", InstName: "FUTIDX", Seg: "DER", PP: 2, TI: 0.05,
			LS: u.lot, Mult: 1, Expiry: fut, Price: u.spot + 45, Underlying: u.key, FreezeQty: u.lot * 24})
		atm := math.Round(u.spot/u.step) * u.step
		for ei, exp := range u.expiries {
			for k := -10; k <= 10; k++ {
				strike := atm + float64(k)*u.step
				for _, optt := range []string{"CE", "PE"} {
					out = append(out, Instrument{Exch: "NFO", Token: nextToken(), TSym: optionTSym(u.sym, exp, optt, strike),
						Symbol: u.sym, CName: fmt.Sprintf("%s %s %s %s", u.sym, expiryCode(exp), trimFloat(strike), optt),
						InstName: "OPTIDX", Seg: "DER", PP: 2, TI: 0.05, LS: u.lot, Mult: 1, Expiry: exp, Strike: strike,
						OptType: optt, Price: optionPrice(u.spot, strike, optt, ei), Underlying: u.key, FreezeQty: u.lot * 24})
				}
			}
		}
	}

	mcx := monthlyExpiries(now, 1)[0]
	crudeExp := time.Date(mcx.Year(), mcx.Month(), 19, 23, 30, 0, 0, IST)
	if crudeExp.Before(now) {
		crudeExp = crudeExp.AddDate(0, 1, 0)
	}
	goldExp := time.Date(crudeExp.Year(), crudeExp.Month()+1, 5, 23, 30, 0, 0, IST)
	out = append(out,
		Instrument{Exch: "MCX", Token: "472789", TSym: "CRUDEOIL" + expiryCode(crudeExp), Symbol: "CRUDEOIL",
			CName: "CRUDEOIL " + expiryCode(crudeExp), InstName: "FUTCOM", Seg: "COM", PP: 2, TI: 1, LS: 100, Mult: 1,
			Expiry: crudeExp, Price: 5512, FreezeQty: 10000},
		Instrument{Exch: "MCX", Token: "477176", TSym: "GOLDM" + expiryCode(goldExp), Symbol: "GOLDM",
			CName: "GOLDM " + expiryCode(goldExp), InstName: "FUTCOM", Seg: "COM", PP: 2, TI: 1, LS: 10, Mult: 1,
			Expiry: goldExp, Price: 121450, FreezeQty: 1000},
	)
	return out
}

// optionPrice is a smooth, plausible premium: intrinsic value plus a time
// value that decays away from the money and grows with the expiry index.
func optionPrice(spot, strike float64, optt string, expiryIdx int) float64 {
	intrinsic := math.Max(0, spot-strike)
	if optt == "PE" {
		intrinsic = math.Max(0, strike-spot)
	}
	tv := spot * 0.004 * float64(expiryIdx+1) * math.Exp(-math.Abs(strike-spot)/(spot*0.02))
	return roundTick(intrinsic+tv+0.05, 0.05)
}

func roundTick(p, tick float64) float64 {
	if tick <= 0 {
		return p
	}
	return math.Round(p/tick) * tick
}

// catalog indexes the instrument master.
type catalog struct {
	all    []*Instrument
	byKey  map[string]*Instrument // EXCH|token
	byTSym map[string]*Instrument // EXCH|TSYM (upper case)
}

func newCatalog(list []Instrument, prices map[string]float64) *catalog {
	c := &catalog{byKey: map[string]*Instrument{}, byTSym: map[string]*Instrument{}}
	for i := range list {
		in := list[i]
		if p, ok := prices[in.Key()]; ok {
			in.Price = p
		}
		if in.PP == 0 {
			in.PP = 2
		}
		if in.TI == 0 {
			in.TI = 0.05
		}
		if in.LS == 0 {
			in.LS = 1
		}
		if in.Mult == 0 {
			in.Mult = 1
		}
		c.all = append(c.all, &in)
		c.byKey[in.Key()] = &in
		c.byTSym[in.Exch+"|"+strings.ToUpper(in.TSym)] = &in
	}
	return c
}

func (c *catalog) byToken(exch, token string) *Instrument { return c.byKey[exch+"|"+token] }

func (c *catalog) bySymbol(exch, tsym string) *Instrument {
	return c.byTSym[exch+"|"+strings.ToUpper(tsym)]
}

// search matches every word of stext against the trading symbol or the
// contract name (case-insensitive), so the several-word searches the
// ShoonyaApi-py README shows ('BANKNIFTY 30DEC CE': a date and an option
// side that only the name spells out) find the contracts they name.
func (c *catalog) search(exch, stext string) []*Instrument {
	words := strings.Fields(strings.ToUpper(stext))
	var out []*Instrument
	for _, in := range c.all {
		if in.Exch != exch || len(words) == 0 {
			continue
		}
		ts, ok := strings.ToUpper(in.TSym+" "+in.CName), true
		for _, w := range words {
			if !strings.Contains(ts, w) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, in)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i].TSym) < len(out[j].TSym) })
	return out
}

// options returns the option legs of the underlying key and expiry.
func (c *catalog) options(underlying string, expiry time.Time) []*Instrument {
	var out []*Instrument
	for _, in := range c.all {
		if in.Underlying == underlying && in.OptType != "" && in.Expiry.Equal(expiry) {
			out = append(out, in)
		}
	}
	return out
}
