package fake

import (
	"fmt"
	"sort"
	"strconv"
)

// Price alerts: SetAlert, ModifyAlert, CancelAlert, GetPendingAlert, and the
// firing frame on the websocket.
//
// source: the route names are in Shoonya's OAuth-era API catalogue
// (shoonya.com API documentation, /NorenWClientAPI/).
// assumed (no public SDK wraps these routes, no sample is public):
//   - requests carry uid, exch, tsym, ai_t, d, validity, remarks (ModifyAlert
//     adds al_id, CancelAlert sends uid and al_id);
//   - success is {"stat":"Ok","al_id":...}, the pending list an array of
//     {stat, al_id, exch, tsym, token, ai_t, d, validity, remarks, norentm},
//     "no data" when nothing is pending (as every Noren list);
//   - ai_t is LTP_A / LTP_B (last price at or above / below d) or CH_PER_A /
//     CH_PER_B (change percent from the previous close at or above / below d);
//   - a fired alert leaves the pending list and goes to the user's
//     order-subscribed sockets as {"t":"am", al_id, ai_t, d, exch, tsym, tk, lp,
//     remarks, tm}.
const (
	EmsgAlertNotFound = "Error Occurred : Alert not found"
	EmsgAlertType     = "Invalid Input : Invalid ai_t"
	EmsgAlertValue    = "Invalid Input : Invalid d"
	EmsgAlertSymbol   = "Invalid Input : Invalid Trading Symbol"
)

var alertTypes = map[string]bool{"LTP_A": true, "LTP_B": true, "CH_PER_A": true, "CH_PER_B": true}

// alert is one pending alert.
type alert struct {
	id, uid, typ, validity, remarks string
	inst                            *Instrument
	value                           float64
	seq                             int64
	set                             string // norentm
}

// alertBook holds the pending alerts (guarded by Server.mu).
type alertBook struct {
	byID map[string]*alert
	seq  int64
}

func (s *Server) alertFromCall(c *call) (*alert, reply, bool) {
	in := s.cat.bySymbol(c.str("exch"), c.symbol("tsym"))
	if in == nil {
		return nil, s.notOk(EmsgAlertSymbol), false
	}
	typ := c.str("ai_t")
	if !alertTypes[typ] {
		return nil, s.notOk(EmsgAlertType), false
	}
	v, err := strconv.ParseFloat(c.str("d"), 64)
	if err != nil || v != v || ((typ == "LTP_A" || typ == "LTP_B") && v <= 0) {
		return nil, s.notOk(EmsgAlertValue), false
	}
	return &alert{uid: c.sess.uid, typ: typ, inst: in, value: v, validity: c.str("validity"), remarks: c.str("remarks"),
		set: requestTime(s.now())}, reply{}, true
}

func (s *Server) setAlert(c *call) reply {
	a, bad, ok := s.alertFromCall(c)
	if !ok {
		return bad
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.alerts.byID == nil {
		s.alerts.byID = map[string]*alert{}
	}
	s.alerts.seq++
	a.seq = s.alerts.seq
	a.id = fmt.Sprintf("%s%08d", s.now().In(IST).Format("060102"), a.seq)
	s.alerts.byID[a.id] = a
	return s.ok(map[string]any{"al_id": a.id})
}

func (s *Server) modifyAlert(c *call) reply {
	a, bad, ok := s.alertFromCall(c)
	if !ok {
		return bad
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.alerts.byID[c.str("al_id")]
	if old == nil || old.uid != c.sess.uid {
		return s.notOk(EmsgAlertNotFound)
	}
	a.id, a.seq = old.id, old.seq
	s.alerts.byID[a.id] = a
	return s.ok(map[string]any{"al_id": a.id})
}

func (s *Server) cancelAlert(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	a := s.alerts.byID[c.str("al_id")]
	if a == nil || a.uid != c.sess.uid {
		return s.notOk(EmsgAlertNotFound)
	}
	delete(s.alerts.byID, a.id)
	return s.ok(map[string]any{"al_id": a.id})
}

func (s *Server) pendingAlerts(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	var mine []*alert
	for _, a := range s.alerts.byID {
		if a.uid == c.sess.uid {
			mine = append(mine, a)
		}
	}
	sort.Slice(mine, func(i, j int) bool { return mine[i].seq > mine[j].seq }) // newest first
	out := make([]map[string]any, 0, len(mine))
	for _, a := range mine {
		out = append(out, map[string]any{"al_id": a.id, "exch": a.inst.Exch, "tsym": a.inst.TSym, "token": a.inst.Token,
			"ai_t": a.typ, "d": fmtPx(a.value, a.inst.PP), "validity": a.validity, "remarks": a.remarks, "norentm": a.set})
	}
	return s.list(out)
}

// alertKeys lists tokens with pending alerts (they keep ticking).
func (s *Server) alertKeys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var keys []string
	for _, a := range s.alerts.byID {
		keys = appendUnique(keys, a.inst.Key())
	}
	return keys
}

// fireAlertsLocked fires the pending alerts on key that the price now meets.
func (s *Server) fireAlertsLocked(key string) {
	if len(s.alerts.byID) == 0 {
		return
	}
	q, ok := s.mkt.snapshot(key)
	if !ok || q.lp <= 0 {
		return
	}
	pc := 0.0
	if q.c > 0 {
		pc = (q.lp - q.c) / q.c * 100
	}
	for id, a := range s.alerts.byID {
		if a.inst.Key() != key {
			continue
		}
		hit := false
		switch a.typ {
		case "LTP_A":
			hit = q.lp >= a.value
		case "LTP_B":
			hit = q.lp <= a.value
		case "CH_PER_A":
			hit = pc >= a.value
		case "CH_PER_B":
			hit = pc <= a.value
		}
		if !hit {
			continue
		}
		delete(s.alerts.byID, id)
		s.hub.pushUpdate(a.uid, map[string]any{"t": "am", "al_id": a.id, "ai_t": a.typ, "d": fmtPx(a.value, a.inst.PP),
			"exch": a.inst.Exch, "tsym": a.inst.TSym, "tk": a.inst.Token, "lp": fmtPx(q.lp, a.inst.PP), "remarks": a.remarks,
			"tm": requestTime(s.now())})
	}
}

// PendingAlertCount counts a user's pending alerts (tests).
func (s *Server) PendingAlertCount(uid string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, a := range s.alerts.byID {
		if a.uid == uid {
			n++
		}
	}
	return n
}
