package fake

import (
	"fmt"
	"slices"
)

// EmsgGTTNotFound answers a CancelGTTOrder for an alert id that is not
// pending. assumed: no public sample shows the text.
const EmsgGTTNotFound = "Invalid Input : Alert Id not found"

// gtt is one pending single-trigger GTT.
type gtt struct {
	id, uid string
	fields  map[string]any // as placed, served back by GetPendingGTTOrder
}

// placeGTTOrder serves /PlaceGTTOrder. source: the fields a public Go
// Noren client sends (package norenapigo: ai_t LTP_A_O|LTP_B_O, validity
// GTT, d the trigger, trantype, prctyp, prd, ret, qty, prc, dscqty) and
// its answer's Al_id. assumed: the alert id's form, and that a GTT never
// fires here (the fake keeps no alert engine).
func (s *Server) placeGTTOrder(c *call) reply {
	in := s.cat.bySymbol(c.str("exch"), c.symbol("tsym"))
	_, qok := parsePositiveInt(c.str("qty"))
	prc, pok := parsePrice(c.str("prc"))
	d, dok := parsePrice(c.str("d"))
	if in == nil || !qok || !pok || !dok || prc <= 0 || d <= 0 || c.str("validity") != "GTT" ||
		!slices.Contains([]string{"LTP_A_O", "LTP_B_O"}, c.str("ai_t")) || c.str("prctyp") != "LMT" ||
		!slices.Contains(validTrantype, c.str("trantype")) || !slices.Contains(validPrd, c.str("prd")) {
		return s.notOk(EmsgInvalidInput)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	g := &gtt{id: s.now().In(IST).Format("060102") + fmt.Sprintf("%08d", s.seq), uid: c.sess.uid, fields: map[string]any{}}
	for _, k := range []string{"exch", "ai_t", "d", "trantype", "prctyp", "prd", "qty", "prc", "remarks"} {
		g.fields[k] = c.str(k)
	}
	g.fields["tsym"], g.fields["al_id"] = in.TSym, g.id
	s.gtts = append(s.gtts, g)
	return s.ok(map[string]any{"Al_id": g.id})
}

// cancelGTTOrder serves /CancelGTTOrder (uid, al_id).
func (s *Server) cancelGTTOrder(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, g := range s.gtts {
		if g.id == c.str("al_id") && g.uid == c.sess.uid {
			s.gtts = slices.Delete(s.gtts, i, i+1)
			return s.ok(map[string]any{"Al_id": g.id})
		}
	}
	return s.notOk(EmsgGTTNotFound)
}

// getPendingGTTOrder serves /GetPendingGTTOrder: the user's pending GTTs,
// or the "no data" answer as every Noren list does when empty.
func (s *Server) getPendingGTTOrder(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for _, g := range s.gtts {
		if g.uid == c.sess.uid {
			m := map[string]any{}
			for k, v := range g.fields {
				m[k] = v
			}
			out = append(out, m)
		}
	}
	return s.list(out)
}
