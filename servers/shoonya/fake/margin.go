package fake

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The margin routes: GetOrderMargin (one order) and GetBasketMargin (the
// first leg at the top level, the others in basketlists).
// source: finserv-docs.pages.dev/orders_and_trades/order_margin and
// /basket_margin, docs.infinn.in (the same Noren pages): request fields uid,
// actid, exch, tsym, qty, prc, trgprc, prd, trantype, prctyp, blprc;
// response stat, request_time, remarks, cash ("Total credits available for
// order"), marginused ("Total margin used"), emsg.
// assumed: ordermargin, marginusedprev and marginusedtrade carry this order's
// margin, the margin used before it and the basket's margin after its hedges
// (public Noren clients read them: marketcalls/openalgo
// broker/flattrade/mapping/margin_data.py "marginusedtrade -> Margin after
// trade"); with remarks "Insufficient Balance" marginused is the amount short
// (public Noren back-office clients read it so); the success remarks text
// "Order Success" and every figure's formula (see legMargin) are assumed.
const (
	RemarksInsufficient = "Insufficient Balance"
	RemarksMarginOK     = "Order Success"
)

// marginLeg is one parsed leg of a margin request.
type marginLeg struct {
	inst          *Instrument
	trantype, prd string
	prctyp        string
	qty           int
	prc, trg      float64
}

// parseMarginLeg validates like placeOrder (syntax → Not_Ok "invalid input").
func (s *Server) parseMarginLeg(get func(string) string) (marginLeg, bool) {
	l := marginLeg{inst: s.cat.bySymbol(get("exch"), unquote(get("tsym"))), trantype: get("trantype"), prd: get("prd"), prctyp: get("prctyp")}
	var qok, pok, tok bool
	l.qty, qok = parsePositiveInt(get("qty"))
	l.prc, pok = parsePrice(get("prc"))
	l.trg, tok = parsePrice(get("trgprc"))
	ok := l.inst != nil && !l.inst.isIndex() && qok && pok && tok &&
		slices.Contains(validTrantype, l.trantype) && slices.Contains(validPrd, l.prd) && slices.Contains(validPrctyp, l.prctyp) &&
		(l.prctyp == "MKT" || l.prctyp == "SL-MKT" || l.prc > 0) && (!(l.prctyp == "SL-LMT" || l.prctyp == "SL-MKT") || l.trg > 0)
	return l, ok
}

// legMargin is what one leg blocks, the same rule PlaceOrder rejects on
// (rejectReason): buys block value × marginFactor; a derivative sold short
// blocks a SPAN-like share of the underlying's value; equity sells block nothing.
// assumed: Noren publishes no formula; a short option's 15% of the
// underlying's value only stands in for SPAN + exposure.
func (s *Server) legMarginLocked(l marginLeg) float64 {
	px := l.prc
	if px == 0 {
		px = l.trg
	}
	if px == 0 {
		px, _ = s.mkt.last(l.inst.Key())
	}
	value := px * float64(l.qty*l.inst.Mult)
	if l.trantype == "B" {
		return value * marginFactor(l.prd)
	}
	if l.inst.Seg != "DER" && l.inst.Seg != "COM" {
		return 0
	}
	ref := px
	if l.inst.OptType != "" {
		if u, ok := s.mkt.last(l.inst.Underlying); ok {
			ref = u
		}
	}
	return ref * float64(l.qty*l.inst.Mult) * 0.15 * marginFactor(l.prd)
}

func f2(v float64) string { return strconv.FormatFloat(math.Round(v*100)/100, 'f', 2, 64) }

// marginAnswer is the answer for margin m on an account with cash and used.
func (s *Server) marginAnswer(cash, used, m float64, extra map[string]any) reply {
	fields := map[string]any{"cash": f2(cash), "marginusedprev": f2(used), "ordermargin": f2(m),
		"marginused": f2(used + m), "remarks": RemarksMarginOK}
	if short := m - (cash - used); short > 0 {
		fields["marginused"], fields["remarks"] = f2(short), RemarksInsufficient
	}
	for k, v := range extra {
		fields[k] = v
	}
	return s.ok(fields)
}

func (s *Server) getOrderMargin(c *call) reply {
	l, ok := s.parseMarginLeg(c.str)
	if !ok || (c.has("actid") && c.str("actid") != c.sess.uid) {
		return s.notOk(EmsgInvalidInput)
	}
	acct := s.accounts[c.sess.uid]
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.marginAnswer(acct.Cash, s.marginUsedLocked(acct.UID), s.legMarginLocked(l), nil)
}

// getBasketMargin: marginused is the legs' margins summed, marginusedtrade
// the basket's after hedges (both without what is already used). A basket takes priced legs only (LMT / SL-LMT).
// source: profitmart.in ApiDocs "Basket Margin" (prctyp LMT / SL-LMT);
// marketcalls/openalgo broker/flattrade/mapping/margin_data.py ("GetBasketMargin
// rejects MKT/SL-MKT price types"). assumed: the hedge rule — per
// underlying, short derivatives' margin falls to 35% when the basket also
// buys on that underlying.
func (s *Server) getBasketMargin(c *call) reply {
	first, ok := s.parseMarginLeg(c.str)
	legs := []marginLeg{first}
	if raw, has := c.data["basketlists"]; has && ok {
		list, isList := raw.([]any)
		ok = isList
		for _, it := range list {
			m, isObj := it.(map[string]any)
			if !isObj {
				ok = false
				break
			}
			l, lok := s.parseMarginLeg(func(k string) string { return jsonStr(m[k]) })
			ok = ok && lok
			legs = append(legs, l)
		}
	}
	for _, l := range legs {
		ok = ok && (l.prctyp == "LMT" || l.prctyp == "SL-LMT")
	}
	if !ok || (c.has("actid") && c.str("actid") != c.sess.uid) {
		return s.notOk(EmsgInvalidInput)
	}
	acct := s.accounts[c.sess.uid]
	s.mu.Lock()
	defer s.mu.Unlock()
	type group struct{ buys, shorts float64 }
	groups := map[string]*group{}
	var total float64
	for _, l := range legs {
		m := s.legMarginLocked(l)
		total += m
		key := l.inst.Underlying
		if key == "" {
			key = l.inst.Key()
		}
		g := groups[key]
		if g == nil {
			g = &group{}
			groups[key] = g
		}
		if l.trantype == "B" {
			g.buys += m
		} else {
			g.shorts += m
		}
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys) // one order of additions: the same cents every time
	var hedged float64
	for _, k := range keys {
		g := groups[k]
		if g.buys > 0 && g.shorts > 0 {
			hedged += g.buys + 0.35*g.shorts
		} else {
			hedged += g.buys + g.shorts
		}
	}
	used := s.marginUsedLocked(acct.UID)
	fields := map[string]any{"cash": f2(acct.Cash), "marginusedprev": f2(used), "marginused": f2(total),
		"marginusedtrade": f2(hedged), "remarks": RemarksMarginOK}
	if hedged > acct.Cash-used {
		fields["remarks"] = RemarksInsufficient
	}
	return s.ok(fields)
}

// unquote undoes the quote_plus clients apply to tsym (M%26M-EQ).
func unquote(v string) string {
	if strings.ContainsAny(v, "%+") {
		if u, err := url.QueryUnescape(v); err == nil {
			return u
		}
	}
	return v
}

func jsonStr(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case json.Number:
		return x.String()
	default:
		return fmt.Sprint(x)
	}
}
