package fake

import "fmt"

// userDetails (source: finserv-docs.pages.dev/login_and_user_details/user_details, a Noren doc page).
func (s *Server) userDetails(c *call) reply {
	a := s.accounts[c.sess.uid]
	return s.ok(map[string]any{
		"uid": a.UID, "actid": a.UID, "uname": a.Name, "email": a.Email, "m_num": a.Mobile,
		"exarr": a.Exchanges, "orarr": orderTypes, "prarr": productList(a.Exchanges),
		"brkname": s.cfg.BrokerName, "brnchid": "HO", "uprev": "INVESTOR", "access_type": a.AccessTypes,
	})
}

// limits (source: ShoonyaApi-py README Limits): cash from the account, usage from the fake RMS.
func (s *Server) limits(c *call) reply {
	a := s.accounts[c.sess.uid]
	s.mu.Lock()
	used := s.marginUsedLocked(a.UID)
	var rpnl, mtm, turnover, pend float64
	for _, p := range s.positions {
		if p.uid != a.UID {
			continue
		}
		_, _, netAvg, r := p.avgs()
		lp, _ := s.mkt.last(p.inst.Key())
		rpnl += r
		mtm += float64(p.net()) * (lp - netAvg) * float64(p.inst.Mult)
		turnover += p.buyAmt + p.sellAmt
	}
	for _, o := range s.orderSeq {
		if o.uid == a.UID && !o.terminal() {
			pend += o.prc * float64(o.qty-o.fillshares)
		}
	}
	s.mu.Unlock()
	f := func(v float64) string { return fmt.Sprintf("%.2f", v) }
	return s.ok(map[string]any{
		"actid": a.UID, "prfname": "SHOONYA1", "cash": f(a.Cash), "payin": "0.00", "payout": "0.00",
		"brkcollamt": "0.00", "unclearedcash": "0.00", "daycash": "0.00",
		"marginused": f(used), "mtomcurper": "0.00", "rpnl": f(rpnl), s.cfg.LimitsMTMField: f(mtm),
		"turnoverlmt": "50000000000000.00", "pendordvallmt": "2000000000000000.00",
		"turnover": f(turnover), "pendordval": f(pend), "grexpo": f(turnover), "premium": "0.00",
		"span": "0.00", "expo": "0.00", "brokerage": "0.00", "collateral": "0.00", "peak_mar": f(used),
	})
}
