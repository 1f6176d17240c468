package fake

import (
	"fmt"
	"strings"
)

// Market watches. source: NorenApi.py get_watch_list_names / get_watch_list
// / add_watch_list_scrip / delete_watch_list_scrip (fields ordersource, uid,
// wlname, scrips '#'-joined EXCHANGE|token) and ShoonyaApi-py
// tests/test_watchlist.py (MWList answers {"values": [names]}; MarketWatch
// {"values": [{exch, token, tsym}]}).
// assumed: each user has the watches "1" to "5" (named as Noren's apps number
// them), "1" holding RELIANCE and INFY; an empty watch answers the no-data
// text of the other lists; an unknown wlname, or a scrip not in the master,
// answers EmsgInvalidMW / EmsgInvalidInput; the value fields beyond exch,
// token and tsym are SearchScrip's; at most MaxWatchScrips per watch.
const (
	EmsgInvalidMW  = "Invalid Input : Invalid MW Name"
	MaxWatchScrips = 50
)

func defaultWatches() map[string][]string {
	return map[string][]string{"1": {"NSE|2885", "NSE|1594"}, "2": nil, "3": nil, "4": nil, "5": nil}
}

// watchesLocked is uid's market watches, made on first use.
func (s *Server) watchesLocked(uid string) map[string][]string {
	if s.watch == nil {
		s.watch = map[string]map[string][]string{}
	}
	w := s.watch[uid]
	if w == nil {
		w = defaultWatches()
		s.watch[uid] = w
	}
	return w
}

func (s *Server) mwList(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	names := []string{}
	for _, n := range []string{"1", "2", "3", "4", "5"} {
		if _, ok := s.watchesLocked(c.sess.uid)[n]; ok {
			names = append(names, n)
		}
	}
	return s.ok(map[string]any{"values": names})
}

func (s *Server) marketWatch(c *call) reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys, ok := s.watchesLocked(c.sess.uid)[c.str("wlname")]
	if !ok {
		return s.notOk(EmsgInvalidMW)
	}
	if len(keys) == 0 {
		return s.notOk(EmsgNoData)
	}
	vals := make([]map[string]any, 0, len(keys))
	for _, k := range keys {
		in := s.cat.byKey[k]
		vals = append(vals, map[string]any{"exch": in.Exch, "token": in.Token, "tsym": in.TSym, "cname": in.CName,
			"instname": in.InstName, "pp": fmt.Sprint(in.PP), "ti": fmtPx(in.TI, in.PP), "ls": fmt.Sprint(in.LS)})
	}
	return s.ok(map[string]any{"values": vals})
}

func (s *Server) addMultiScripsToMW(c *call) reply  { return s.editWatch(c, false) }
func (s *Server) deleteMultiMWScrips(c *call) reply { return s.editWatch(c, true) }

func (s *Server) editWatch(c *call, remove bool) reply {
	var keys []string
	for _, k := range strings.Split(c.str("scrips"), "#") {
		if k = strings.TrimSpace(k); k == "" || s.cat.byKey[k] == nil {
			return s.notOk(EmsgInvalidInput)
		}
		keys = append(keys, k)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.watchesLocked(c.sess.uid)
	name := c.str("wlname")
	cur, ok := w[name]
	if !ok {
		return s.notOk(EmsgInvalidMW)
	}
	for _, k := range keys {
		at := -1
		for i, have := range cur {
			if have == k {
				at = i
			}
		}
		switch {
		case remove && at >= 0:
			cur = append(cur[:at:at], cur[at+1:]...)
		case !remove && at < 0:
			if len(cur) >= MaxWatchScrips {
				return s.notOk(EmsgInvalidInput)
			}
			cur = append(cur, k)
		}
	}
	w[name] = cur
	return s.ok(nil)
}
