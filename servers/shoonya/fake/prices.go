package fake

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"time"
)

// quote is the simulated market state of one instrument.
type quote struct {
	lp, o, h, l, c float64
	v              int64
	turnover       float64 // for the average price "ap"
	ltq            int64
	ltt            time.Time
	oi, poi        int64
	bidQ, askQ     [5]int64
	bidO, askO     [5]int64
	rng            *rand.Rand
}

// market holds every instrument's quote and advances them by a
// deterministic random walk (one PCG stream per token, seeded by Config.Seed).
type market struct {
	mu     sync.Mutex
	cat    *catalog
	quotes map[string]*quote
	now    func() time.Time
}

func newMarket(cat *catalog, seed uint64, now func() time.Time) *market {
	m := &market{cat: cat, quotes: map[string]*quote{}, now: now}
	for _, in := range cat.all {
		h := fnv.New64a()
		h.Write([]byte(in.Key()))
		rng := rand.New(rand.NewPCG(seed, h.Sum64()))
		q := &quote{lp: in.Price, c: roundTick(in.Price*(1-0.004+0.008*rng.Float64()), in.TI), rng: rng, ltt: now()}
		q.o = roundTick(q.c*(1+0.002*(rng.Float64()-0.5)), in.TI)
		q.h, q.l = math.Max(q.o, q.lp), math.Min(q.o, q.lp)
		if !in.isIndex() {
			q.v = int64(1000 + rng.IntN(500000))
			q.turnover = float64(q.v) * (q.o + q.lp) / 2
			q.ltq = int64(in.LS * (1 + rng.IntN(5)))
		}
		if in.Seg == "DER" || in.Seg == "COM" {
			q.oi = int64(in.LS * (1000 + rng.IntN(100000)))
			q.poi = q.oi - int64(in.LS*rng.IntN(1000))
		}
		m.refreshDepth(in, q)
		m.quotes[in.Key()] = q
	}
	return m
}

func (m *market) refreshDepth(in *Instrument, q *quote) {
	if in.isIndex() {
		return
	}
	for i := 0; i < 5; i++ {
		q.bidQ[i] = int64(in.LS * (1 + q.rng.IntN(200)))
		q.askQ[i] = int64(in.LS * (1 + q.rng.IntN(200)))
		q.bidO[i] = int64(1 + q.rng.IntN(20))
		q.askO[i] = int64(1 + q.rng.IntN(20))
	}
}

// step advances one token by one random-walk tick.
func (m *market) step(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	in, q := m.cat.byKey[key], m.quotes[key]
	if in == nil || q == nil {
		return
	}
	move := q.rng.NormFloat64() * 0.0006 * q.lp
	if math.Abs(move) < in.TI && q.rng.IntN(2) == 0 {
		move = math.Copysign(in.TI, move)
	}
	m.trade(in, q, roundTick(math.Max(in.TI, q.lp+move), in.TI), 0)
}

// set forces a trade at px (a pushed tick); qty 0 picks a random size.
func (m *market) set(key string, px float64, qty int64) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	in, q := m.cat.byKey[key], m.quotes[key]
	if in == nil || q == nil {
		return false
	}
	m.trade(in, q, px, qty)
	return true
}

func (m *market) trade(in *Instrument, q *quote, px float64, qty int64) {
	q.lp = px
	q.h, q.l = math.Max(q.h, px), math.Min(q.l, px)
	q.ltt = m.now()
	if in.isIndex() {
		return
	}
	if qty <= 0 {
		qty = int64(in.LS * (1 + q.rng.IntN(10)))
	}
	q.ltq = qty
	q.v += qty
	q.turnover += float64(qty) * px
	if in.Seg != "EQT" && q.rng.IntN(3) == 0 {
		q.oi += int64(in.LS * (q.rng.IntN(21) - 10))
	}
	// Touch one depth level per tick so depth updates stay partial.
	lvl := q.rng.IntN(5)
	q.bidQ[lvl] = int64(in.LS * (1 + q.rng.IntN(200)))
	q.askQ[q.rng.IntN(5)] = int64(in.LS * (1 + q.rng.IntN(200)))
}

func (m *market) last(key string) (float64, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.quotes[key]
	if q == nil {
		return 0, false
	}
	return q.lp, true
}

func fmtPx(p float64, pp int) string { return strconv.FormatFloat(p, 'f', pp, 64) }

func fmtInt(n int64) string { return strconv.FormatInt(n, 10) }

// fields renders the quote as Noren string fields. depth selects the depth
// set (dk/df, GetQuotes); otherwise the touchline set (tk/tf).
func (m *market) fields(key string, depth bool) map[string]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	in, q := m.cat.byKey[key], m.quotes[key]
	if in == nil || q == nil {
		return nil
	}
	px := func(p float64) string { return fmtPx(p, in.PP) }
	f := map[string]string{
		"e": in.Exch, "tk": in.Token, "ts": in.TSym, "pp": fmt.Sprint(in.PP), "ti": px(in.TI), "ls": fmt.Sprint(in.LS),
		"lp": px(q.lp), "pc": fmt.Sprintf("%.2f", (q.lp-q.c)/q.c*100),
		"o": px(q.o), "h": px(q.h), "l": px(q.l), "c": px(q.c),
	}
	if in.isIndex() {
		return f
	}
	ap := q.lp
	if q.v > 0 {
		ap = q.turnover / float64(q.v)
	}
	f["v"], f["ap"] = fmtInt(q.v), px(ap)
	if q.oi > 0 {
		f["oi"], f["poi"], f["toi"] = fmtInt(q.oi), fmtInt(q.poi), fmtInt(q.oi)
	}
	bid := func(i int) float64 { return math.Max(in.TI, roundTick(q.lp-float64(i+1)*in.TI, in.TI)) }
	ask := func(i int) float64 { return roundTick(q.lp+float64(i+1)*in.TI, in.TI) }
	levels := 1
	if depth {
		levels = 5
	}
	for i := 0; i < levels; i++ {
		n := fmt.Sprint(i + 1)
		f["bp"+n], f["sp"+n] = px(bid(i)), px(ask(i))
		f["bq"+n], f["sq"+n] = fmtInt(q.bidQ[i]), fmtInt(q.askQ[i])
		if depth {
			f["bo"+n], f["so"+n] = fmtInt(q.bidO[i]), fmtInt(q.askO[i])
		}
	}
	if depth {
		var tbq, tsq int64
		for i := 0; i < 5; i++ {
			tbq += q.bidQ[i] * 7
			tsq += q.askQ[i] * 7
		}
		uc, lc := circuit(in, q.c)
		f["ltt"] = q.ltt.In(IST).Format("15:04:05")
		f["ltq"] = fmtInt(q.ltq)
		f["tbq"], f["tsq"] = fmtInt(tbq), fmtInt(tsq)
		f["uc"], f["lc"] = px(uc), px(lc)
		f["52h"], f["52l"] = px(roundTick(q.c*1.32, in.TI)), px(roundTick(q.c*0.71, in.TI))
		f["ft"] = fmt.Sprint(q.ltt.Unix())
	}
	return f
}

// circuit gives the upper/lower price bands around the previous close.
// assumed: ±20% (equity) / ±90% (derivatives) bands around the previous close;
// real limits vary per scrip (uc/lc in GetQuotes).
func circuit(in *Instrument, c float64) (uc, lc float64) {
	band := 0.2
	if in.Seg != "EQT" {
		band = 0.9
	}
	return roundTick(c*(1+band), in.TI), math.Max(in.TI, roundTick(c*(1-band), in.TI))
}

// snapshot copies the raw numbers the REST endpoints need.
func (m *market) snapshot(key string) (quote, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	q := m.quotes[key]
	if q == nil {
		return quote{}, false
	}
	c := *q
	c.rng = nil
	return c, true
}
