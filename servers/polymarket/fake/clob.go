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

// bookJSON: bids ascending and asks descending, so the best prices are the
// LAST elements (ref: polymarket.md §1.3, §4.2); best bid = p-0.01, best ask = p.
func (s *Server) bookJSON(m *market, token string, ghost bool) map[string]any {
	p := tokenPrice(m, token)
	bids := []map[string]string{lv(p-0.04, 300), lv(p-0.03, 200), lv(p-0.02, 150), lv(p-0.01, 100)}
	asks := []map[string]string{lv(p+0.03, 250), lv(p+0.02, 180), lv(p+0.01, 120), lv(p, 80)}
	if ghost {
		// the stale "ghost" book of py-clob-client #180 (ref: polymarket.md §4.1)
		bids, asks = []map[string]string{lv(0.01, 1000)}, []map[string]string{lv(0.99, 1000)}
	}
	return map[string]any{"market": m.condition, "asset_id": token,
		"timestamp": strconv.FormatInt(time.Now().UnixMilli(), 10), "hash": "0000000000000000000000000000000000000000",
		"bids": bids, "asks": asks, "min_order_size": "5", "tick_size": "0.01", "neg_risk": false,
		"last_trade_price": f2(p)}
}

// book: GET /book?token_id; 400 {"error":"Invalid token id"} without one, 404
// {"error":"No orderbook exists for the requested token id"} for an unknown or
// resolved token (ref: polymarket.md §1.3).
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

// books: POST /books with [{"token_id":…}] → array of books (ref: §1.3);
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

// sidePrice: BUY → best bid, SELL → best ask (ref: polymarket.md §1.3, §4.6).
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
// decimal strings as live (ref: polymarket.md §1.3).
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

// intervals: 1m is a month ("a duration ending now", ref: polymarket.md §1.3).
var intervals = map[string]time.Duration{"1h": time.Hour, "6h": 6 * time.Hour, "1d": 24 * time.Hour,
	"1w": 7 * 24 * time.Hour, "1m": 30 * 24 * time.Hour, "max": 90 * 24 * time.Hour, "all": 90 * 24 * time.Hour}

// history: GET /prices-history?market=<token>; interval and startTs/endTs are
// mutually exclusive; resolved markets answer an empty history below a 12 h
// fidelity (ref: polymarket.md §1.3, §4.4). Error bodies assumed.
func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	tok := q.Get("market")
	if tok == "" {
		writeJSON(w, 400, map[string]string{"error": "market is required"})
		return
	}
	if q.Get("interval") != "" && (q.Get("startTs") != "" || q.Get("endTs") != "") {
		writeJSON(w, 400, map[string]string{"error": "interval and startTs/endTs are mutually exclusive"})
		return
	}
	fid := 1 // docs: default 1 minute
	if v := q.Get("fidelity"); v != "" {
		fid, _ = strconv.Atoi(v)
		fid = max(fid, 1)
	}
	m := s.byToken[tok]
	if m == nil || m.closed && fid < 720 {
		writeJSON(w, 200, map[string]any{"history": []any{}})
		return
	}
	now := s.o.Now().Unix()
	start, end := now-86400, now
	if iv := q.Get("interval"); iv != "" {
		d, ok := intervals[iv]
		if !ok {
			writeJSON(w, 400, map[string]string{"error": fmt.Sprintf("invalid interval %q", iv)})
			return
		}
		start = now - int64(d/time.Second)
	} else if v := q.Get("startTs"); v != "" {
		start, _ = strconv.ParseInt(v, 10, 64)
		if v := q.Get("endTs"); v != "" {
			end, _ = strconv.ParseInt(v, 10, 64)
		}
	}
	step := max(int64(fid)*60, (end-start)/500) // assumed: at most ~500 points
	pts := []map[string]any{}
	p := tokenPrice(m, tok)
	for t, k := start, 0; t <= end && step > 0; t, k = t+step, k+1 {
		v := p + float64(k%7-3)/100
		pts = append(pts, map[string]any{"t": t, "p": round(min(max(v, 0.001), 0.999))})
	}
	writeJSON(w, 200, map[string]any{"history": pts})
}
