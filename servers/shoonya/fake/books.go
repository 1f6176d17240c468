package fake

import (
	"fmt"
	"math"
	"time"
)

// trade is one fill (TradeBook row).
type trade struct {
	o    *order
	qty  int
	px   float64
	at   time.Time
	flid string
}

// position aggregates a user's day fills per exch/token/product.
type position struct {
	uid, prd        string
	inst            *Instrument
	buyQty, sellQty int
	buyAmt, sellAmt float64
}

func (p *position) net() int { return p.buyQty - p.sellQty }

// avgs returns the day averages, the net average and the realised P&L on the
// matched quantity (average-cost method).
func (p *position) avgs() (buyAvg, sellAvg, netAvg, rpnl float64) {
	if p.buyQty > 0 {
		buyAvg = p.buyAmt / float64(p.buyQty)
	}
	if p.sellQty > 0 {
		sellAvg = p.sellAmt / float64(p.sellQty)
	}
	matched := math.Min(float64(p.buyQty), float64(p.sellQty))
	rpnl = matched * (sellAvg - buyAvg) * float64(p.inst.Mult)
	switch n := p.net(); {
	case n > 0:
		netAvg = buyAvg
	case n < 0:
		netAvg = sellAvg
	}
	return
}

func (s *Server) applyFillLocked(o *order, qty int, px float64) {
	key := o.uid + "|" + o.inst.Key() + "|" + o.prd
	p := s.positions[key]
	if p == nil {
		p = &position{uid: o.uid, prd: o.prd, inst: o.inst}
		s.positions[key] = p
	}
	if o.trantype == "B" {
		p.buyQty += qty
		p.buyAmt += px * float64(qty)
	} else {
		p.sellQty += qty
		p.sellAmt += px * float64(qty)
	}
}

// marginUsedLocked is a simple RMS: open long/short value × product factor
// plus the value of working buy orders.
// assumed: a crude RMS (value × marginFactor); Noren publishes no formula.
func (s *Server) marginUsedLocked(uid string) float64 {
	var used float64
	for _, p := range s.positions {
		if p.uid != uid {
			continue
		}
		_, _, netAvg, _ := p.avgs()
		used += math.Abs(float64(p.net())) * netAvg * float64(p.inst.Mult) * marginFactor(p.prd)
	}
	for _, o := range s.orderSeq {
		if o.uid == uid && !o.terminal() && o.trantype == "B" {
			px := o.prc
			if px == 0 {
				px, _ = s.mkt.last(o.inst.Key())
			}
			used += px * float64((o.qty-o.fillshares)*o.inst.Mult) * marginFactor(o.prd)
		}
	}
	return used
}

// source: ShoonyaApi-py README OrderBook (array of rows, newest first); the
// no-data object when empty: NorenApi.py checks type(res) != list.
func (s *Server) orderBook(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for i := len(s.orderSeq) - 1; i >= 0; i-- { // newest first
		o := s.orderSeq[i]
		if o.uid == c.sess.uid && (!c.has("prd") || c.str("prd") == o.prd) {
			out = append(out, o.view())
		}
	}
	return s.list(out)
}

// singleOrdHist answers the order's history, newest first.
// source: ShoonyaApi-py README SingleOrdHist sample (rpt rows, newest first).
func (s *Server) singleOrdHist(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[c.str("norenordno")]
	if o == nil || o.uid != c.sess.uid {
		return s.notOk(EmsgNoData)
	}
	out := make([]map[string]any, 0, len(o.hist))
	for i := len(o.hist) - 1; i >= 0; i-- {
		cp := make(map[string]any, len(o.hist[i]))
		for k, v := range o.hist[i] {
			cp[k] = v
		}
		out = append(out, cp)
	}
	return s.list(out)
}

// source: ShoonyaApi-py README TradeBook fields and sample.
func (s *Server) tradeBook(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for i := len(s.trades) - 1; i >= 0; i-- {
		t := s.trades[i]
		if t.o.uid != c.sess.uid {
			continue
		}
		in := t.o.inst
		px := func(p float64) string { return fmtPx(p, in.PP) }
		m := map[string]any{
			"norenordno": t.o.no, "uid": t.o.uid, "actid": t.o.actid, "exch": in.Exch, "tsym": in.TSym,
			"token": in.Token, "prctyp": t.o.prctyp, "ret": t.o.ret, "prd": t.o.prd, "trantype": t.o.trantype,
			"qty": fmt.Sprint(t.o.qty), "fillshares": fmt.Sprint(t.o.fillshares), "avgprc": px(t.o.avgprc),
			"flid": t.flid, "fltm": t.at.In(IST).Format("02-01-2006 15:04:05"), "flqty": fmt.Sprint(t.qty),
			"flprc": px(t.px), "prc": px(t.o.prc), "pp": fmt.Sprint(in.PP), "ls": fmt.Sprint(in.LS), "ti": px(in.TI),
			"norentm": t.at.In(IST).Format("15:04:05 02-01-2006"), "exch_tm": t.at.In(IST).Format("02-01-2006 15:04:05"),
			"exchordid": t.o.exchordid, "ordersource": t.o.source, "cstFrm": t.o.uid,
		}
		if t.o.remarks != "" {
			m["remarks"] = t.o.remarks
		}
		out = append(out, m)
	}
	return s.list(out)
}

// source: ShoonyaApi-py README PositionBook (no-data sample for an empty book).
func (s *Server) positionBook(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, o := range s.orderSeq { // stable order: first traded first
		key := o.uid + "|" + o.inst.Key() + "|" + o.prd
		p := s.positions[key]
		if p == nil || p.uid != c.sess.uid || containsPos(out, key) {
			continue
		}
		out = append(out, s.positionView(p, key))
	}
	for _, key := range s.converted { // a product only a conversion reached
		if p := s.positions[key]; p.uid == c.sess.uid && !containsPos(out, key) {
			out = append(out, s.positionView(p, key))
		}
	}
	for _, m := range out {
		delete(m, "_key")
	}
	return s.list(out)
}

func containsPos(list []map[string]any, key string) bool {
	for _, m := range list {
		if m["_key"] == key {
			return true
		}
	}
	return false
}

func (s *Server) positionView(p *position, key string) map[string]any {
	in := p.inst
	px := func(v float64) string { return fmtPx(v, in.PP) }
	lp, _ := s.mkt.last(in.Key())
	buyAvg, sellAvg, netAvg, rpnl := p.avgs()
	net := p.net()
	urmtom := float64(net) * (lp - netAvg) * float64(in.Mult)
	openBuy, openSell := 0, 0
	if net > 0 {
		openBuy = net
	} else {
		openSell = -net
	}
	return map[string]any{
		"_key": key, "exch": in.Exch, "tsym": in.TSym, "token": in.Token, "uid": p.uid, "actid": p.uid, "prd": p.prd,
		"netqty": fmt.Sprint(net), "netavgprc": px(netAvg), "netupldprc": px(netAvg),
		"daybuyqty": fmt.Sprint(p.buyQty), "daysellqty": fmt.Sprint(p.sellQty),
		"daybuyavgprc": px(buyAvg), "daysellavgprc": px(sellAvg),
		"daybuyamt": px(p.buyAmt), "daysellamt": px(p.sellAmt),
		"cfbuyqty": "0", "cfsellqty": "0", "cforgavgprc": "0.00", "cfbuyavgprc": "0.00", "cfsellavgprc": "0.00",
		"cfbuyamt": "0.00", "cfsellamt": "0.00",
		"openbuyqty": fmt.Sprint(openBuy), "opensellqty": fmt.Sprint(openSell),
		"openbuyamt": px(float64(openBuy) * netAvg), "opensellamt": px(float64(openSell) * netAvg),
		"openbuyavgprc": px(buyAvg), "opensellavgprc": px(sellAvg),
		"lp": px(lp), "rpnl": px(rpnl), "urmtom": px(urmtom), "bep": px(netAvg),
		"mult": fmt.Sprint(in.Mult), "prcftr": "1.000000", "pp": fmt.Sprint(in.PP), "ti": px(in.TI), "ls": fmt.Sprint(in.LS),
	}
}

// holdings serves the account's configured demat holdings.
// source: ShoonyaApi-py README Holdings (prd required: "Missing uid or actid or prd." sample).
func (s *Server) holdings(c *call) reply {
	if !c.has("prd") || !c.has("actid") {
		return s.notOk(EmsgHoldingsMissing)
	}
	acct := s.accounts[c.sess.uid]
	var out []map[string]any
	for _, h := range acct.Holdings {
		in := s.cat.bySymbol(h.Exch, h.TSym)
		if in == nil {
			continue
		}
		scrips := []map[string]any{{"exch": in.Exch, "tsym": in.TSym, "token": in.Token,
			"pp": fmt.Sprint(in.PP), "ti": fmtPx(in.TI, in.PP), "ls": fmt.Sprint(in.LS)}}
		// The same ISIN listed on BSE appears alongside, as Noren does.
		for _, other := range s.cat.all {
			if other.ISIN != "" && other.ISIN == in.ISIN && other != in {
				scrips = append(scrips, map[string]any{"exch": other.Exch, "tsym": other.TSym, "token": other.Token,
					"pp": fmt.Sprint(other.PP), "ti": fmtPx(other.TI, other.PP), "ls": fmt.Sprint(other.LS)})
			}
		}
		out = append(out, map[string]any{
			"exch_tsym": scrips, "holdqty": fmt.Sprint(h.Qty), "dpqty": "0", "npoadqty": "0", "colqty": "0",
			"benqty": "0", "unplgdqty": "0", "brkcolqty": "0", "btstqty": "0", "btstcolqty": "0",
			"usedqty": fmt.Sprint(s.soldFromHolding(c.sess.uid, in)), "upldprc": fmtPx(h.AvgPrice, in.PP),
		})
	}
	return s.list(out)
}

// soldFromHolding counts today's CNC sells of a held scrip (usedqty).
func (s *Server) soldFromHolding(uid string, in *Instrument) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.positions[uid+"|"+in.Key()+"|C"]
	if p == nil {
		return 0
	}
	return p.sellQty
}
