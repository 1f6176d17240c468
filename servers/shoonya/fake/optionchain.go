package fake

import (
	"sort"
	"strconv"
	"time"
)

// optionChain (source: ShoonyaApi-py README GetOptionChain; Noren docs): tsym names any option or future of the
// underlying; the answer has cnt strikes below and cnt at/above strprc, CE
// and PE each (cnt 4 → 16 legs), from the expiry of the given contract (the
// nearest option expiry for a future or the cash scrip).
func (s *Server) optionChain(c *call) reply {
	in := s.cat.bySymbol(c.str("exch"), c.symbol("tsym"))
	mid, err := strconv.ParseFloat(c.str("strprc"), 64)
	cnt, cerr := strconv.Atoi(c.str("cnt"))
	if err != nil || cerr != nil || cnt <= 0 {
		return s.notOk(EmsgInvalidInput)
	}
	if in == nil {
		return s.notOk(EmsgNoData)
	}
	und := in.Underlying
	if und == "" { // a cash or index scrip: its derivatives point at it
		und = in.Key()
	}
	expiry := in.Expiry
	if in.OptType == "" {
		expiry = s.nearestOptionExpiry(und)
	}
	legs := s.cat.options(und, expiry)
	if len(legs) == 0 {
		return s.notOk(EmsgNoData)
	}
	strikes := map[float64]bool{}
	for _, l := range legs {
		strikes[l.Strike] = true
	}
	var below, above []float64
	for k := range strikes {
		if k < mid {
			below = append(below, k)
		} else {
			above = append(above, k)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(below)))
	sort.Float64s(above)
	chosen := map[float64]bool{}
	for i := 0; i < cnt && i < len(below); i++ {
		chosen[below[i]] = true
	}
	for i := 0; i < cnt && i < len(above); i++ {
		chosen[above[i]] = true
	}
	sort.Slice(legs, func(i, j int) bool {
		if legs[i].Strike != legs[j].Strike {
			return legs[i].Strike < legs[j].Strike
		}
		return legs[i].OptType < legs[j].OptType
	})
	vals := []map[string]any{}
	for _, l := range legs {
		if chosen[l.Strike] {
			vals = append(vals, map[string]any{"exch": l.Exch, "tsym": l.TSym, "token": l.Token, "optt": l.OptType,
				"strprc": fmtPx(l.Strike, l.PP), "pp": strconv.Itoa(l.PP), "ti": fmtPx(l.TI, l.PP), "ls": strconv.Itoa(l.LS)})
		}
	}
	return s.ok(map[string]any{"values": vals})
}

func (s *Server) nearestOptionExpiry(und string) time.Time {
	var best time.Time
	for _, in := range s.cat.all {
		if in.Underlying == und && in.OptType != "" && (best.IsZero() || in.Expiry.Before(best)) {
			best = in.Expiry
		}
	}
	return best
}
