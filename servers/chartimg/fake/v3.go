package fake

// v3: GET /v3/tradingview/exchange/list and /exchange/{id}.

import (
	"net/http"
	"strings"
)

func (s *Server) v3(w http.ResponseWriter, r *http.Request, route string) {
	if r.Method != http.MethodGet {
		msg(w, 404, "Not Found") // assumed
		return
	}
	p, key, ok := s.auth(w, r, true)
	if !ok || !s.limit(w, key, p) {
		return
	}
	// docs › TradingView Snapshot v3: {updatedAt, payload}; the list is plain ids,
	// the symbols keep their hyphenated keys, symbol= and type= filter upstream
	// How symbol= matches (substring) is assumed.
	updated := "2024-07-08T00:00:00.106Z"
	if route == RouteList {
		writeJSON(w, 200, map[string]any{"updatedAt": updated, "payload": s.o.Exchanges})
		return
	}
	id := strings.ToUpper(strings.TrimPrefix(r.URL.Path, "/v3/tradingview/exchange/"))
	syms, ok := s.o.Symbols[id]
	if !ok {
		found := false
		for _, e := range s.o.Exchanges {
			found = found || e == id
		}
		if !found {
			msg(w, 422, "Invalid Request") // inferred: the docs give no body for an unknown id
			return
		}
		syms = []Symbol{}
	}
	q := strings.ToUpper(r.URL.Query().Get("symbol"))
	typ := strings.ToLower(r.URL.Query().Get("type"))
	out := make([]Symbol, 0, len(syms))
	for _, sy := range syms {
		if q != "" && !strings.Contains(sy.Symbol, q) || typ != "" && sy.Type != typ {
			continue
		}
		out = append(out, sy)
	}
	writeJSON(w, 200, map[string]any{"updatedAt": "2024-07-08T00:00:32.448Z", "payload": out})
}
