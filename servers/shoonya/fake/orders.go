package fake

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"
)

// Order statuses and report types (source: ShoonyaApi-py README annexure).
const (
	StatusPending        = "PENDING"
	StatusOpen           = "OPEN"
	StatusComplete       = "COMPLETE"
	StatusRejected       = "REJECTED"
	StatusCanceled       = "CANCELED"
	StatusTriggerPending = "TRIGGER_PENDING"
)

// order is the OMS record behind OrderBook / SingleOrdHist.
type order struct {
	no, uid, actid      string
	inst                *Instrument
	trantype, prd, ret  string
	prctyp              string
	qty, dscqty         int
	prc, trgprc         float64
	remarks, source     string
	amo                 bool
	blprc, bpprc, trail string
	status, rejreason   string
	fillshares          int
	avgprc              float64
	cancelqty           int
	exchordid           string
	exited              bool // ExitSNOOrder took it (exit.go)
	created, updated    time.Time
	hist                []map[string]any // newest last; served newest first
}

func (o *order) terminal() bool {
	return o.status == StatusComplete || o.status == StatusRejected || o.status == StatusCanceled
}

func (o *order) isSL() bool { return o.prctyp == "SL-LMT" || o.prctyp == "SL-MKT" }

// view renders the order as an OrderBook element.
func (o *order) view() map[string]any {
	in := o.inst
	px := func(p float64) string { return fmtPx(p, in.PP) }
	m := map[string]any{
		"exch": in.Exch, "tsym": in.TSym, "token": in.Token, "norenordno": o.no,
		"prc": px(o.prc), "qty": fmt.Sprint(o.qty), "dscqty": fmt.Sprint(o.dscqty), "prd": o.prd,
		"status": o.status, "trantype": o.trantype, "prctyp": o.prctyp, "ret": o.ret,
		"fillshares": fmt.Sprint(o.fillshares), "uid": o.uid, "actid": o.actid,
		"pp": fmt.Sprint(in.PP), "ti": px(in.TI), "ls": fmt.Sprint(in.LS), "mult": fmt.Sprint(in.Mult),
		"prcftr": "1.000000", "amo": map[bool]string{true: "Yes", false: "No"}[o.amo],
		"ordersource": o.source,
		"norentm":     o.updated.In(IST).Format("15:04:05 02-01-2006"),
		"ordenttm":    fmt.Sprint(o.created.Unix()),
	}
	if o.exchordid != "" {
		m["exchordid"] = o.exchordid
		m["exch_tm"] = o.updated.In(IST).Format("02-01-2006 15:04:05")
	}
	// source: ShoonyaApi-py README OrderBook: avgprc is an element field whether or not the
	// order filled; the README sample has "avgprc":"0" on an open order with
	// fillshares "0".
	m["avgprc"] = "0"
	if o.fillshares > 0 {
		m["avgprc"] = px(o.avgprc)
	}
	if o.isSL() {
		m["trgprc"] = px(o.trgprc)
	}
	if o.remarks != "" {
		m["remarks"] = o.remarks
	}
	if o.rejreason != "" {
		m["rejreason"] = o.rejreason
	}
	if o.cancelqty > 0 {
		m["cancelqty"] = fmt.Sprint(o.cancelqty)
	}
	for k, v := range map[string]string{"blprc": o.blprc, "bpprc": o.bpprc, "trailprc": o.trail} {
		if v != "" {
			m[k] = v
		}
	}
	return m
}

// record appends a history row (SingleOrdHist) and pushes "om" to websockets.
func (s *Server) record(o *order, rpt string) {
	o.updated = s.now()
	v := o.view()
	v["rpt"] = rpt
	o.hist = append(o.hist, v)
	s.hub.pushOrder(o.uid, v)
}

var (
	validTrantype = []string{"B", "S"}
	validPrd      = []string{"C", "M", "I", "H", "B", "F"}
	validPrctyp   = []string{"MKT", "LMT", "SL-LMT", "SL-MKT"}
	validRet      = []string{"DAY", "EOS", "IOC"}
)

// coverBracketLegsOK: a COVER (H) order carries blprc and a BRACKET (B)
// order blprc and bpprc, positive; trailprc is optional (the SDK sends exactly
// these: NorenApi.py place_order). What the real OMS answers when they are
// missing is not public: the syntax error below is // assumed.
func coverBracketLegsOK(c *call) bool {
	pos := func(k string) bool {
		f, ok := parsePrice(c.str(k))
		return ok && f > 0
	}
	switch c.str("prd") {
	case "H":
		return pos("blprc") && (!c.has("trailprc") || pos("trailprc"))
	case "B":
		return pos("blprc") && pos("bpprc") && (!c.has("trailprc") || pos("trailprc"))
	}
	return true
}

func parsePositiveInt(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n > 0
}

func parsePrice(s string) (float64, bool) {
	if s == "" || s == "None" {
		return 0, true
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil && f >= 0 && !math.IsInf(f, 0)
}

// The exchange refuses prices that are not whole ticks (ti in GetQuotes); the reject text is // assumed.
func onTick(p, tick float64) bool {
	if tick <= 0 {
		return true
	}
	r := p / tick
	// A positive price under one tick (5e-324) is not a price: round(r) is 0.
	return math.Round(r) >= 1 && math.Abs(r-math.Round(r)) < 1e-6
}

// placeOrder validates like the OMS (syntax → Not_Ok "invalid input"), then
// accepts with a norenordno; business checks reject the order afterwards,
// visible only in the books, as on Noren (source: ShoonyaApi-py README PlaceOrder).
func (s *Server) placeOrder(c *call) reply {
	in := s.cat.bySymbol(c.str("exch"), c.symbol("tsym"))
	qty, qok := parsePositiveInt(c.str("qty"))
	dsc, _ := strconv.Atoi(c.str("dscqty"))
	prc, pok := parsePrice(c.str("prc"))
	trg, tok := parsePrice(c.str("trgprc"))
	ret := c.str("ret")
	if ret == "" {
		ret = "DAY"
	}
	prctyp := c.str("prctyp")
	if in == nil || !qok || !pok || !tok || dsc < 0 || dsc > qty ||
		!slices.Contains(validTrantype, c.str("trantype")) || !slices.Contains(validPrd, c.str("prd")) ||
		!slices.Contains(validPrctyp, prctyp) || !slices.Contains(validRet, ret) ||
		(prctyp != "MKT" && prctyp != "SL-MKT" && prc <= 0) ||
		((prctyp == "SL-LMT" || prctyp == "SL-MKT") && trg <= 0) {
		return s.notOk(EmsgInvalidInput)
	}
	if a := c.str("actid"); a != "" && a != c.sess.uid {
		return s.notOk(EmsgInvalidInput)
	}
	if !coverBracketLegsOK(c) {
		return s.notOk(EmsgInvalidInput)
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	o := &order{
		no: now.In(IST).Format("060102") + fmt.Sprintf("%08d", s.seq), uid: c.sess.uid, actid: c.sess.uid,
		inst: in, trantype: c.str("trantype"), prd: c.str("prd"), ret: ret, prctyp: prctyp,
		qty: qty, dscqty: dsc, prc: prc, trgprc: trg, remarks: c.str("remarks"), source: c.str("ordersource"),
		amo: c.str("amo") == "Yes", blprc: c.str("blprc"), bpprc: c.str("bpprc"), trail: c.str("trailprc"),
		status: StatusPending, created: now,
	}
	if o.remarks == "None" {
		o.remarks = ""
	}
	if o.source == "" {
		o.source = "API"
	}
	if !o.isSL() {
		o.trgprc = 0
	}
	if prctyp == "MKT" || prctyp == "SL-MKT" {
		o.prc = 0
	}
	s.orders[o.no] = o
	s.orderSeq = append(s.orderSeq, o)
	s.record(o, "PendingNew")
	s.record(o, "NewAck")
	if why := s.rejectReason(o); why != "" {
		o.status, o.rejreason = StatusRejected, why
		s.record(o, "Rejected")
	} else {
		o.exchordid = fmt.Sprintf("%d%08d", 1100000000+now.In(IST).YearDay(), s.seq)
		o.status = StatusOpen
		if o.isSL() {
			o.status = StatusTriggerPending
		}
		s.record(o, "New")
		s.matchLocked(o)
	}
	return s.ok(map[string]any{"norenordno": o.no})
}

// rejectReason holds the exchange/RMS checks that turn an accepted order
// into REJECTED.
// source: ShoonyaApi-py README PlaceOrder and OrderBook (accepted by the OMS,
// rejected later in the book); the checks (lot, tick, circuit, funds) are exchange
// rules, their rejreason texts are // assumed except "Insufficient funds" (README OrderBook sample).
func (s *Server) rejectReason(o *order) string {
	in := o.inst
	acct := s.accounts[o.uid]
	q, _ := s.mkt.snapshot(in.Key())
	uc, lc := circuit(in, q.c)
	switch {
	case acct != nil && !slices.Contains(acct.Exchanges, in.Exch):
		return RejExchangeDenied
	case in.isIndex():
		return EmsgInvalidInput
	case o.qty%in.LS != 0:
		return RejLotSize
	case !s.cfg.AllowMarketOrders && (o.prctyp == "MKT" || o.prctyp == "SL-MKT"):
		return RejMarketBlocked
	case o.prc > 0 && !onTick(o.prc, in.TI), o.trgprc > 0 && !onTick(o.trgprc, in.TI):
		return RejTickSize
	case o.prc > 0 && (o.prc > uc || o.prc < lc):
		return RejCircuit
	}
	if acct != nil {
		// What GetOrderMargin quotes is what the RMS checks (margin.go).
		m := s.legMarginLocked(marginLeg{inst: in, trantype: o.trantype, prd: o.prd, prctyp: o.prctyp, qty: o.qty, prc: o.prc, trg: o.trgprc})
		if m > 0 && m > acct.Cash-s.marginUsedLocked(o.uid) {
			return RejInsufficient
		}
	}
	return ""
}

// assumed: margin multipliers per product (no public source).
func marginFactor(prd string) float64 {
	if prd == "I" || prd == "H" || prd == "B" {
		return 0.2
	}
	return 1
}

// matchLocked fills or triggers o against the current last price.
// assumed: fills at the last price when it crosses (one fill per order); statuses
// and rpt names follow the ShoonyaApi-py README annexure.
func (s *Server) matchLocked(o *order) {
	if o.terminal() {
		return
	}
	lp, ok := s.mkt.last(o.inst.Key())
	if !ok {
		return
	}
	if o.status == StatusTriggerPending {
		hit := (o.trantype == "B" && lp >= o.trgprc) || (o.trantype == "S" && lp <= o.trgprc)
		if !hit {
			return
		}
		o.status = StatusOpen
		s.record(o, "New")
	}
	switch o.prctyp {
	case "MKT", "SL-MKT":
		s.fillLocked(o, lp)
	default:
		switch {
		case o.trantype == "B" && lp <= o.prc:
			s.fillLocked(o, lp) // a crossing buy gets the better (lower) price
		case o.trantype == "S" && lp >= o.prc:
			s.fillLocked(o, lp)
		case o.ret == "IOC":
			o.cancelqty = o.qty - o.fillshares
			o.status = StatusCanceled
			s.record(o, "Canceled")
		}
	}
}

// fillLocked completes the remaining quantity at px: trade, position, history.
func (s *Server) fillLocked(o *order, px float64) {
	px = roundTick(px, o.inst.TI)
	fillQty := o.qty - o.fillshares
	if fillQty <= 0 {
		return
	}
	o.avgprc = (o.avgprc*float64(o.fillshares) + px*float64(fillQty)) / float64(o.qty)
	o.fillshares = o.qty
	o.status = StatusComplete
	t := trade{o: o, qty: fillQty, px: px, at: s.now(), flid: fmt.Sprint(len(s.trades) + 1)}
	s.trades = append(s.trades, t)
	s.applyFillLocked(o, fillQty, px)
	o.updated = t.at
	v := o.view()
	v["rpt"] = "Fill"
	v["flqty"], v["flprc"], v["flid"] = fmt.Sprint(fillQty), fmtPx(px, o.inst.PP), t.flid
	v["fltm"] = t.at.In(IST).Format("02-01-2006 15:04:05")
	o.hist = append(o.hist, v)
	s.hub.pushOrder(o.uid, v)
}

// onPriceLocked re-checks resting orders on a token after a price change.
func (s *Server) onPriceLocked(key string) {
	for _, o := range s.orderSeq {
		if !o.terminal() && o.inst.Key() == key {
			s.matchLocked(o)
		}
	}
}

// restingKeys lists tokens with working orders (they keep ticking).
func (s *Server) restingKeys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var keys []string
	for _, o := range s.orderSeq {
		if !o.terminal() && !slices.Contains(keys, o.inst.Key()) {
			keys = append(keys, o.inst.Key())
		}
	}
	return keys
}

// modifyOrder (source: ShoonyaApi-py README ModifyOrder): qty is the total quantity, tsym must match,
// the answer carries the order number in "result".
func (s *Server) modifyOrder(c *call) reply {
	no := c.str("norenordno")
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[no]
	if o == nil || o.uid != c.sess.uid || o.terminal() {
		return s.notOk(EmsgOrderNotFound)
	}
	if ts := c.symbol("tsym"); ts != "" && ts != o.inst.TSym {
		return s.notOk(EmsgInvalidInput)
	}
	prctyp := o.prctyp
	if c.has("prctyp") {
		prctyp = c.str("prctyp")
	}
	if !slices.Contains(validPrctyp, prctyp) {
		return s.notOk(EmsgInvalidInput)
	}
	sl := prctyp == "SL-LMT" || prctyp == "SL-MKT"
	trg, tok := parsePrice(c.str("trgprc"))
	if !tok {
		return s.notOk(EmsgInvalidInput)
	}
	if !sl && c.has("trgprc") {
		return s.notOk(fmt.Sprintf(EmsgTriggerInvalidFm, trg))
	}
	if sl && trg <= 0 {
		return s.notOk(fmt.Sprintf(EmsgTriggerInvalidFm, trg))
	}
	qty := o.qty
	if c.has("qty") {
		n, ok := parsePositiveInt(c.str("qty"))
		if !ok || n < o.fillshares || n%o.inst.LS != 0 {
			return s.notOk(EmsgInvalidInput)
		}
		qty = n
	}
	prc := o.prc
	if c.has("prc") {
		p, ok := parsePrice(c.str("prc"))
		if !ok || !onTick(p, o.inst.TI) {
			return s.notOk(EmsgInvalidInput)
		}
		prc = p
	}
	if prctyp != "MKT" && prctyp != "SL-MKT" && prc <= 0 {
		return s.notOk(EmsgInvalidInput)
	}
	s.record(o, "PendingReplace")
	o.qty, o.prctyp = qty, prctyp
	o.prc, o.trgprc = prc, 0
	if prctyp == "MKT" || prctyp == "SL-MKT" {
		o.prc = 0
	}
	if sl {
		o.trgprc = trg
	}
	if c.has("ret") && slices.Contains(validRet, c.str("ret")) {
		o.ret = c.str("ret")
	}
	if o.status == StatusTriggerPending && !sl {
		o.status = StatusOpen
	}
	s.record(o, "Replaced")
	s.matchLocked(o)
	return s.ok(map[string]any{"result": o.no})
}

// cancelOrder: only working orders can be cancelled; anything else is
// "Rejected : ORA:Order not found to Cancel".
// source: ShoonyaApi-py README CancelOrder (answer in "result"; failure sample).
func (s *Server) cancelOrder(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[c.str("norenordno")]
	if o == nil || o.uid != c.sess.uid || o.terminal() {
		return s.notOk(EmsgCancelNotFound)
	}
	s.record(o, "PendingCancel")
	o.cancelqty = o.qty - o.fillshares
	o.status = StatusCanceled
	s.record(o, "Canceled")
	return s.ok(map[string]any{"result": o.no})
}

// FillOrder fills a working order at px (0 = last price) regardless of the
// market; tests use it to complete LMT orders on demand.
func (s *Server) FillOrder(norenordno string, px float64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[norenordno]
	if o == nil || o.terminal() {
		return fmt.Errorf("fake: order %q is not working", norenordno)
	}
	if px == 0 {
		px, _ = s.mkt.last(o.inst.Key())
	}
	if o.status == StatusTriggerPending {
		o.status = StatusOpen
		s.record(o, "New")
	}
	s.fillLocked(o, px)
	return nil
}

// RejectOrder moves a working order to REJECTED with the given reason, as an
// exchange rejection after acceptance.
func (s *Server) RejectOrder(norenordno, reason string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := s.orders[norenordno]
	if o == nil || o.terminal() {
		return fmt.Errorf("fake: order %q is not working", norenordno)
	}
	o.status, o.rejreason = StatusRejected, reason
	s.record(o, "Rejected")
	return nil
}

// OrderStatus returns an order's current status ("" if unknown).
func (s *Server) OrderStatus(norenordno string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o := s.orders[norenordno]; o != nil {
		return o.status
	}
	return ""
}
