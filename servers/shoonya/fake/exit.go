package fake

import (
	"fmt"
	"slices"
)

// Texts of the exit and conversion routes. source: ShoonyaApi-py README
// prd_convert "Sample Failure Response" for EmsgInvalidPosType; the
// others are assumed (the README shows no ExitSNOOrder failure sample):
// Noren's ORA texts for an order it cannot act on, as ModifyOrder and
// CancelOrder answer them.
const (
	EmsgInvalidPosType = "Invalid Input :  Invalid Position Type"
	EmsgExitNotFound   = "Rejected : ORA:Order not found to Exit" // assumed: by analogy with CancelOrder's sample
	DmsgExited         = "Order exit request placed"              // assumed: README says only that dmsg is present on success
)

// exitSNOOrder serves /ExitSNOOrder: norenordno (the parent) and prd H or B.
// source: ShoonyaApi-py README exit_order (fields norenordno*, prd* "Allowed
// for only H and B products", uid*; dmsg on success). assumed: what exiting
// does to the book — a working parent is cancelled; a filled one is squared
// off at the last price by a child order of the opposite side; a second
// exit finds nothing to exit.
func (s *Server) exitSNOOrder(c *call) reply {
	prd := c.str("prd")
	if c.str("norenordno") == "" || (prd != "H" && prd != "B") {
		return s.notOk(EmsgInvalidInput)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[c.str("norenordno")]
	if o == nil || o.uid != c.sess.uid || o.exited || o.status == StatusRejected || o.status == StatusCanceled {
		return s.notOk(EmsgExitNotFound)
	}
	if o.prd != prd {
		return s.notOk(EmsgInvalidInput)
	}
	o.exited = true
	if !o.terminal() {
		o.cancelqty = o.qty - o.fillshares
		o.status = StatusCanceled
		s.record(o, "Canceled")
		if o.fillshares == 0 {
			return s.ok(map[string]any{"dmsg": DmsgExited})
		}
	}
	s.squareOffLocked(o, o.fillshares)
	return s.ok(map[string]any{"dmsg": DmsgExited})
}

// squareOffLocked books the child order that closes qty of parent's fill at the last price.
func (s *Server) squareOffLocked(parent *order, qty int) {
	if qty <= 0 {
		return
	}
	now := s.now()
	s.seq++
	side := map[string]string{"B": "S", "S": "B"}[parent.trantype]
	o := &order{no: now.In(IST).Format("060102") + fmt.Sprintf("%08d", s.seq), uid: parent.uid, actid: parent.actid,
		inst: parent.inst, trantype: side, prd: parent.prd, ret: "DAY", prctyp: "MKT", qty: qty, source: "API",
		remarks: "exit of " + parent.no, status: StatusOpen, created: now,
		exchordid: fmt.Sprintf("%d%08d", 1100000000+now.In(IST).YearDay(), s.seq)}
	s.orders[o.no] = o
	s.orderSeq = append(s.orderSeq, o)
	s.record(o, "New")
	px, _ := s.mkt.last(o.inst.Key())
	s.fillLocked(o, px)
}

// productConversion serves /ProductConversion: moves qty of a position from
// prevprd to prd. source: ShoonyaApi-py README prd_convert (exch*, tsym*,
// qty*, uid*, actid*, prd*, prevprd*, trantype*, postype* "Day / CF";
// success {"request_time","stat":"Ok"}; failure "Invalid Input :  Invalid
// Position Type"). assumed: which mismatches answer that text — this fake
// keeps day positions only, so postype CF, a side that is not the
// position's, or no such position, are all "Invalid Position Type".
func (s *Server) productConversion(c *call) reply {
	in := s.cat.bySymbol(c.str("exch"), c.symbol("tsym"))
	qty, qok := parsePositiveInt(c.str("qty"))
	prd, prev := c.str("prd"), c.str("prevprd")
	if in == nil || !qok || !slices.Contains(validPrd, prd) || !slices.Contains(validPrd, prev) || prd == prev ||
		!slices.Contains(validTrantype, c.str("trantype")) || (c.has("actid") && c.str("actid") != c.sess.uid) {
		return s.notOk(EmsgInvalidInput)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	from := s.positions[c.sess.uid+"|"+in.Key()+"|"+prev]
	long := c.str("trantype") == "B"
	if pt := c.str("postype"); pt != "DAY" && pt != "Day" || from == nil || (long && from.net() < qty) || (!long && -from.net() < qty) {
		return s.notOk(EmsgInvalidPosType)
	}
	key := c.sess.uid + "|" + in.Key() + "|" + prd
	to := s.positions[key]
	if to == nil {
		to = &position{uid: c.sess.uid, prd: prd, inst: in}
		s.positions[key] = to
		s.converted = append(s.converted, key)
	}
	// The quantity moves at its average price: no P&L is booked by a conversion.
	if long {
		avg := from.buyAmt / float64(from.buyQty)
		from.buyQty, from.buyAmt = from.buyQty-qty, from.buyAmt-avg*float64(qty)
		to.buyQty, to.buyAmt = to.buyQty+qty, to.buyAmt+avg*float64(qty)
	} else {
		avg := from.sellAmt / float64(from.sellQty)
		from.sellQty, from.sellAmt = from.sellQty-qty, from.sellAmt-avg*float64(qty)
		to.sellQty, to.sellAmt = to.sellQty+qty, to.sellAmt+avg*float64(qty)
	}
	return s.ok(nil)
}
