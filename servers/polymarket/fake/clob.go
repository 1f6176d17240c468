package fake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// tokenPrice is the outcome's price: outcome 0 is m.price, outcome 1 the rest.
func tokenPrice(m *market, token string) float64 {
	if token == m.tokens[0] {
		return m.price
	}
	return round(1 - m.price)
}

func lv(p, size float64) map[string]string {
	return map[string]string{"price": f2(round(p)), "size": f2(size)}
}

// tick is the fake books' tick size. The CLOB quotes only within [tick,
// 1−tick]: a price is a probability strictly between 0 and 1 on the market's
// tick (source: Polymarket/polymarket-cli#75, a live book of a 0.001-tick
// market running from 0.001 to 0.999).
const tick = 0.01

// levels are the book side's levels at p + k·tick for each k, the sizes
// beside them, leaving out any outside [tick, 1−tick].
func levels(p float64, ks []int, sizes []float64) []map[string]string {
	out := []map[string]string{}
	for i, k := range ks {
		v := round(p + float64(k)*tick)
		if v < tick || v > 1-tick+1e-9 {
			continue
		}
		out = append(out, lv(v, sizes[i]))
	}
	return out
}

// bookJSON: prices and sizes are decimal strings, bids ascending and asks
// descending, so the best prices are the LAST elements (source:
// docs.polymarket.com market-data/prices-order-books; Polymarket/polymarket-cli#75,
// rs-clob-client#330, py-clob-client#106); best bid = p-0.01, best ask = p,
// every level within [tick, 1−tick].
func (s *Server) bookJSON(m *market, token string, ghost bool) map[string]any {
	p := tokenPrice(m, token)
	bids := levels(p, []int{-4, -3, -2, -1}, []float64{300, 200, 150, 100})
	asks := levels(p, []int{3, 2, 1, 0}, []float64{250, 180, 120, 80})
	if ghost {
		// the stale "ghost" book of Polymarket/py-clob-client#180
		bids, asks = []map[string]string{lv(0.01, 1000)}, []map[string]string{lv(0.99, 1000)}
	}
	return map[string]any{"market": m.condition, "asset_id": token,
		"timestamp": strconv.FormatInt(s.o.Now().UnixMilli(), 10), "hash": "0000000000000000000000000000000000000000",
		"bids": bids, "asks": asks, "min_order_size": "5", "tick_size": f2(tick), "neg_risk": false,
		"last_trade_price": f2(p)}
}

// book: GET /book?token_id; 400 {"error":"Invalid token id"} without one, 404
// {"error":"No orderbook exists for the requested token id"} for an unknown or
// resolved token (assumed: the texts public client notes quote; no official capture).
func (s *Server) book(w http.ResponseWriter, r *http.Request) {
	tok := r.URL.Query().Get("token_id")
	if tok == "" {
		writeJSON(w, 400, map[string]string{"error": "Invalid token id"})
		return
	}
	m := s.byToken[tok]
	if m == nil || m.closed {
		writeJSON(w, 404, map[string]string{"error": "No orderbook exists for the requested token id"})
		return
	}
	writeJSON(w, 200, s.bookJSON(m, tok, s.ghost()))
}

// books: POST /books with [{"token_id":…}] → array of books (source: rs-clob-client tests/clob.rs);
// unknown tokens are left out (assumed).
func (s *Server) books(w http.ResponseWriter, r *http.Request) {
	var req []struct {
		TokenID string `json:"token_id"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil {
		writeJSON(w, 400, map[string]string{"error": "Invalid payload"}) // assumed
		return
	}
	out := []map[string]any{}
	ghost := s.ghost()
	for _, t := range req {
		if m := s.byToken[t.TokenID]; m != nil && !m.closed {
			out = append(out, s.bookJSON(m, t.TokenID, ghost))
		}
	}
	writeJSON(w, 200, out)
}

// sidePrice: BUY → best bid, SELL → best ask (source: Vex-Foundation/Vex#72, py-clob-client#78).
func sidePrice(m *market, token, side string) (float64, bool) {
	p := tokenPrice(m, token)
	switch strings.ToUpper(side) {
	case "BUY":
		return round(p - 0.01), true
	case "SELL":
		return p, true
	}
	return 0, false
}

// price: GET /price?token_id&side → {"price":"0.5"}.
func (s *Server) price(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	m := s.byToken[q.Get("token_id")]
	if m == nil {
		writeJSON(w, 404, map[string]string{"error": "No orderbook exists for the requested token id"})
		return
	}
	p, ok := sidePrice(m, q.Get("token_id"), q.Get("side"))
	if !ok {
		writeJSON(w, 400, map[string]string{"error": "Invalid side"}) // assumed
		return
	}
	writeJSON(w, 200, map[string]string{"price": f2(p)})
}

// prices: POST /prices [{token_id, side}] → {"<token>":{"BUY":"0.5"}} with
// decimal strings (assumed as live; rs-clob-client tests/clob.rs uses numbers).
func (s *Server) prices(w http.ResponseWriter, r *http.Request) {
	var req []struct {
		TokenID string `json:"token_id"`
		Side    string `json:"side"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&req); err != nil {
		writeJSON(w, 400, map[string]string{"error": "Invalid payload"}) // assumed
		return
	}
	out := map[string]map[string]string{}
	for _, t := range req {
		m := s.byToken[t.TokenID]
		if m == nil || m.closed {
			continue // assumed: unknown tokens are left out
		}
		p, ok := sidePrice(m, t.TokenID, t.Side)
		if !ok {
			writeJSON(w, 400, map[string]string{"error": "Invalid side"}) // assumed
			return
		}
		if out[t.TokenID] == nil {
			out[t.TokenID] = map[string]string{}
		}
		out[t.TokenID][strings.ToUpper(t.Side)] = f2(p)
	}
	writeJSON(w, 200, out)
}

// intervals: 1m is a month ("a duration ending at the current time":
// docs.polymarket.com prices-history); max and all cover 31 days (a public historical-data cookbook,
// 2026-08-11: "max_span = 31.0d" on 40 markets).
var intervals = map[string]time.Duration{"1h": time.Hour, "6h": 6 * time.Hour, "1d": 24 * time.Hour,
	"1w": 7 * 24 * time.Hour, "1m": 30 * 24 * time.Hour, "max": 31 * 24 * time.Hour, "all": 31 * 24 * time.Hour}

// maxHistoryPoints is how far interval=max reaches on an open market, in
// points of the fidelity (assumed from polyoxide's "roughly 4,300").
const maxHistoryPoints = 4300

// minFidelity per interval: 1m needs 10, 1w 5, the rest 1; an absent fidelity
// counts as 1 (cookbook, 2026-08-11; polyoxide spec-deviations, 2026-10-02).
var minFidelity = map[string]int{"1m": 10, "1w": 5}

// history: GET /prices-history?market=<token>, measured live (cookbook
// 2026-08-11, polyoxide spec-deviations 2026-10-02):
//   - interval windows end now; startTs/endTs set the window when given, even
//     with an interval (they are not exclusive), but the interval's fidelity
//     minimum still applies: 400 "invalid filters: minimum 'fidelity' for
//     '1m' range is 10";
//   - a startTs–endTs span over 15 days (1,296,000 s) is 400 "invalid filters:
//     'startTs' and 'endTs' interval is too long"; endTs alone is 400;
//   - points exist only while the market traded (start to closedTime), so a
//     resolved market's interval history is {"history":[]};
//   - every answer of an open market ends with one extra point stamped now;
//   - interval=max (or all) of a resolved market answers [] at a fidelity
//     under 720 (absent, 1, 60) and its whole life at fidelity=720 (a probe
//     on the resolved 2024 Trump token, 2026-09-26: 614 points, Jan→Nov
//     2024; py-clob-client#216, #189); of an open market it reaches back
//     maxHistoryPoints points of the fidelity, not the market's whole life
//     ("roughly 4,300" points: polyoxide's spec notes; disputed by a
//     cookbook's "31 days", so the cap is assumed).
//
// Point spacing and the ~500-point thinning of long windows are assumed.
func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	tok := q.Get("market")
	if tok == "" {
		writeJSON(w, 400, map[string]string{"error": "market is required"}) // assumed
		return
	}
	iv := q.Get("interval")
	fid := 1 // docs: default 1 minute
	if v := q.Get("fidelity"); v != "" {
		fid, _ = strconv.Atoi(v)
		fid = max(fid, 1)
	}
	if mf := minFidelity[iv]; fid < mf {
		writeJSON(w, 400, map[string]string{"error": fmt.Sprintf("invalid filters: minimum 'fidelity' for '%s' range is %d", iv, mf)})
		return
	}
	now := s.o.Now().Unix()
	start, end := now-86400, now
	if iv != "" {
		d, ok := intervals[iv]
		if !ok {
			writeJSON(w, 400, map[string]string{"error": fmt.Sprintf("invalid filters: invalid interval %q", iv)}) // assumed
			return
		}
		start = now - int64(d/time.Second)
	}
	if v := q.Get("startTs"); v != "" {
		start, _ = strconv.ParseInt(v, 10, 64)
		if v := q.Get("endTs"); v != "" {
			end, _ = strconv.ParseInt(v, 10, 64)
		}
		if end-start > 15*24*3600 {
			writeJSON(w, 400, map[string]string{"error": "invalid filters: 'startTs' and 'endTs' interval is too long"})
			return
		}
	} else if q.Get("endTs") != "" {
		writeJSON(w, 400, map[string]string{"error": "invalid filters: startTs is required with endTs"}) // text assumed
		return
	}
	m := s.byToken[tok]
	if m == nil {
		writeJSON(w, 200, map[string]any{"history": []any{}})
		return
	}
	// the market traded from its start to its close (or now)
	lo, hi := m.start.Unix(), now
	if m.closed {
		hi = m.end.Unix()
	}
	step := int64(0)
	if (iv == "max" || iv == "all") && q.Get("startTs") == "" {
		switch {
		case m.closed && fid < 720:
			writeJSON(w, 200, map[string]any{"history": []any{}})
			return
		case m.closed:
			start, end = lo, hi // the whole life
		default:
			start = max(lo, now-int64(maxHistoryPoints*fid*60))
		}
		step = int64(fid) * 60
	}
	start, end = max(start, lo), min(end, hi)
	if step == 0 {
		step = max(int64(fid)*60, (end-start)/500) // assumed: at most ~500 points
	}
	pts := []map[string]any{}
	p := tokenPrice(m, tok)
	for t, k := start, 0; t <= end && step > 0; t, k = t+step, k+1 {
		v := p + float64(k%7-3)/100
		pts = append(pts, map[string]any{"t": t, "p": round(min(max(v, 0.001), 0.999))})
	}
	if len(pts) > 0 && !m.closed {
		// the appended "now" point; a resolved market's series ends at its
		// close (the 2026-09-26 probe: Jan→Nov 2024)
		pts = append(pts, map[string]any{"t": now, "p": round(p)})
	}
	writeJSON(w, 200, map[string]any{"history": pts})
}
