package fake

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// page reads limit and offset: limit is silently clamped to 100 and an offset
// past 2,000 answers 422 "offset too large, use /markets/keyset for deeper
// pagination" on /markets and /events (polyoxide spec-deviations "Gamma:
// offset caps", 2026-10-02; a public historical-data cookbook: 2000 → 200,
// 3000 → 422); /comments stops at 200 (maxOffset).
func page(w http.ResponseWriter, q url.Values, def, maxOffset int) (limit, offset int, ok bool) {
	limit, offset = def, 0 // assumed: default page size 20
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeJSON(w, 422, map[string]string{"type": "validation error", "error": "limit must be a non-negative integer"}) // assumed text
			return 0, 0, false
		}
		limit = n
	}
	limit = min(limit, 100)
	if v := q.Get("offset"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeJSON(w, 422, map[string]string{"type": "validation error", "error": "offset must be a non-negative integer"}) // text assumed
			return 0, 0, false
		}
		if n > maxOffset {
			writeJSON(w, 422, map[string]string{"type": "validation error", "error": "offset too large, use /markets/keyset for deeper pagination"})
			return 0, 0, false
		}
		offset = n
	}
	return limit, offset, true
}

// filterMarkets applies the Gamma filters the tools send. An absent closed
// means closed=false on /markets and /markets/keyset alike: a resolved
// market's slug on the list answers [] until closed=true is sent (a public
// historical-data cookbook, 2026-08-11; polyoxide docs on the keyset filter).
func (s *Server) filterMarkets(q url.Values) []*market {
	closed := q.Get("closed")
	if closed == "" {
		closed = "false"
	}
	ids := csvSet(q["id"])
	slugs := csvSet(q["slug"])
	conds := csvSet(q["condition_ids"])
	toks := csvSet(q["clob_token_ids"])
	var minEnd, maxEnd time.Time
	if v := q.Get("end_date_min"); v != "" {
		minEnd, _ = time.Parse(time.RFC3339, v)
	}
	if v := q.Get("end_date_max"); v != "" {
		maxEnd, _ = time.Parse(time.RFC3339, v)
	}
	var out []*market
	for _, m := range s.markets {
		switch {
		case closed != "" && strconv.FormatBool(m.closed) != closed,
			q.Get("active") == "false", // every fake market is active
			ids != nil && !ids[m.id], slugs != nil && !slugs[m.slug], conds != nil && !conds[m.condition],
			toks != nil && !toks[m.tokens[0]] && !toks[m.tokens[1]],
			!minEnd.IsZero() && m.end.Before(minEnd), !maxEnd.IsZero() && m.end.After(maxEnd):
			continue
		}
		out = append(out, m)
	}
	sortMarkets(out, q.Get("order"), q.Get("ascending") == "true")
	return out
}

func csvSet(vs []string) map[string]bool {
	if len(vs) == 0 {
		return nil
	}
	m := map[string]bool{}
	for _, v := range vs {
		for _, p := range strings.Split(v, ",") {
			m[strings.TrimSpace(p)] = true
		}
	}
	return m
}

// sortMarkets orders by the first camelCase field of order (snake_case is
// ignored upstream: forecastingresearch/forecastbench#233); ties and
// no order keep id order.
func sortMarkets(ms []*market, order string, asc bool) {
	key := func(m *market) float64 { return 0 }
	switch strings.Split(order, ",")[0] {
	case "volume24hr":
		key = func(m *market) float64 { return m.volume24h }
	case "volumeNum", "volume":
		key = func(m *market) float64 { return m.volume }
	case "liquidityNum", "liquidity":
		key = func(m *market) float64 { return m.liquidity }
	case "endDate":
		key = func(m *market) float64 { return float64(m.end.Unix()) }
	case "oneDayPriceChange":
		key = func(m *market) float64 { return m.change }
	default:
		return
	}
	sort.SliceStable(ms, func(i, j int) bool {
		if asc {
			return key(ms[i]) < key(ms[j])
		}
		return key(ms[i]) > key(ms[j])
	})
}

// raws renders markets; their tags only with include_tag=true. Gamma leaves
// null keys out, and current market rows carry no category (public live-probe
// records of Gamma, e.g. dilettante-trading/polyoxide; the exact rule is
// marked assumed in the README): a market's categories are its tags, which
// come with include_tag=true, while events always carry theirs.
func raws(ms []*market, q url.Values) []map[string]any {
	out := make([]map[string]any, len(ms))
	for i, m := range ms {
		out[i] = m.withTags(q.Get("include_tag") == "true")
	}
	return out
}

func (m *market) withTags(on bool) map[string]any {
	if !on {
		return m.raw
	}
	r := make(map[string]any, len(m.raw)+1)
	for k, v := range m.raw {
		r[k] = v
	}
	r["tags"] = []map[string]any{{"id": strconv.Itoa(100 + categoryIndex(m.category)), "label": m.category, "slug": strings.ToLower(m.category)}}
	return r
}

func categoryIndex(c string) int {
	for i, x := range categories {
		if x == c {
			return i
		}
	}
	return 0
}

// sunsetHeaders are what Gamma sends on the legacy /markets route, still
// served Aug–Oct 2026 (a public historical-data cookbook's `curl -sD -`,
// 2026-08-11); that /events sends them too is assumed.
func sunsetHeaders(w http.ResponseWriter) {
	w.Header().Set("Deprecation", "true")
	w.Header().Set("Sunset", "Fri, 01 May 2026 00:00:00 GMT")
	w.Header().Set("Warning", `299 - "use /markets/keyset"`)
}

// listMarkets: GET /markets answers a bare JSON array (source: rs-clob-client tests/gamma.rs).
func (s *Server) listMarkets(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sunsetHeaders(w)
	limit, offset, ok := page(w, q, 20, 2000)
	if !ok {
		return
	}
	ms := s.filterMarkets(q)
	if s.fixtureMatches(q) {
		writeJSON(w, 200, []map[string]any{s.fixture})
		return
	}
	writeJSON(w, 200, raws(window(ms, offset, limit), q))
}

func window[T any](l []T, offset, limit int) []T {
	if offset >= len(l) {
		return []T{}
	}
	return l[offset:min(len(l), offset+limit)]
}

// keyset cursors are opaque upstream; the fake's are base64 of a position.
func encodeCursor(n int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("pos:" + strconv.Itoa(n)))
}

func decodeCursor(c string) (int, bool) {
	if c == "" {
		return 0, true
	}
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || !strings.HasPrefix(string(b), "pos:") {
		return 0, false
	}
	n, err := strconv.Atoi(string(b[4:]))
	return n, err == nil && n >= 0
}

// fixtureMatches: the live fixture row (open) named by condition_ids or clob_token_ids.
func (s *Server) fixtureMatches(q url.Values) bool {
	if q.Get("closed") == "true" {
		return false
	}
	toks, _ := s.fixture["clobTokenIds"].(string)
	c := csvSet(q["condition_ids"])
	t := csvSet(q["clob_token_ids"])
	return c != nil && c[s.fixture["conditionId"].(string)] || t != nil && len(t) == 1 && func() bool {
		for k := range t {
			return len(k) > 20 && strings.Contains(toks, k)
		}
		return false
	}()
}

// keysetMarkets: GET /markets/keyset takes after_cursor and answers
// {"markets":[…],"next_cursor":"…"}, next_cursor absent on the last page
// (a public historical-data cookbook, 2026-08-11: `after_cursor` in — a
// `cursor` or `next_cursor` parameter is silently ignored —, the live body
// also carries "$schema"); offset is rejected (source: rs-clob-client
// src/gamma/types/request.rs).
func (s *Server) keysetMarkets(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Has("offset") {
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": "offset is not supported on keyset routes; use after_cursor"}) // text assumed
		return
	}
	limit, _, ok := page(w, q, 20, 0)
	if !ok {
		return
	}
	pos, ok := decodeCursor(q.Get("after_cursor"))
	if !ok {
		writeJSON(w, 400, map[string]string{"error": "invalid cursor"}) // assumed
		return
	}
	if s.fixtureMatches(q) {
		writeJSON(w, 200, map[string]any{"markets": []map[string]any{s.fixture}})
		return
	}
	ms := s.filterMarkets(q)
	out := map[string]any{"markets": raws(window(ms, pos, limit), q)}
	if pos+limit < len(ms) {
		out["next_cursor"] = encodeCursor(pos + limit)
	}
	writeJSON(w, 200, out)
}

// getMarket: /markets/{id} and /markets/slug/{slug}; an unknown one is 404
// with a JSON error (assumed: no public capture of the body).
func (s *Server) getMarket(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/markets/")
	if slug, ok := strings.CutPrefix(rest, "slug/"); ok {
		if slug == s.fixture["slug"] {
			writeJSON(w, 200, s.fixture)
			return
		}
		for _, m := range s.markets {
			if m.slug == slug {
				writeJSON(w, 200, m.withTags(r.URL.Query().Get("include_tag") == "true"))
				return
			}
		}
	} else if rest == s.fixture["id"] {
		writeJSON(w, 200, s.fixture)
		return
	} else if m := s.byID[rest]; m != nil {
		writeJSON(w, 200, m.withTags(r.URL.Query().Get("include_tag") == "true"))
		return
	}
	writeJSON(w, 404, map[string]string{"type": "not found", "error": "market not found"}) // assumed
}

// event is a generated event: PerEvent consecutive markets.
func (s *Server) eventJSON(i int, keepClosed bool) map[string]any {
	ms := s.markets[i*PerEvent : (i+1)*PerEvent]
	var vol, liq, v24 float64
	closed := true
	nested := []map[string]any{}
	for _, m := range ms {
		vol += m.volume
		liq += m.liquidity
		v24 += m.volume24h
		closed = closed && m.closed
		if keepClosed || !m.closed {
			nested = append(nested, m.raw)
		}
	}
	cat := ms[0].category
	// on events liquidity and volume are numbers (a live event of 2025-12-31)
	return map[string]any{"id": strconv.Itoa(900000 + i), "ticker": fmt.Sprintf("fake-event-%d", i),
		"slug": fmt.Sprintf("fake-event-%d", i), "title": fmt.Sprintf("Fake event %d (%s)", i, cat),
		"description": "A generated event grouping ten fake markets.", "startDate": ms[0].raw["startDate"],
		"endDate": ms[len(ms)-1].raw["endDate"], "active": true, "closed": closed, "archived": false,
		"liquidity": liq, "volume": vol, "volume24hr": v24, "openInterest": vol / 3, "commentCount": threadSize(900000 + i),
		"markets": nested, "tags": []map[string]any{{"id": strconv.Itoa(100 + i%3), "label": cat, "slug": strings.ToLower(cat)}}}
}

func (s *Server) filterEvents(q url.Values) []map[string]any {
	closed := q.Get("closed")
	if closed == "" {
		closed = "false" // as on /markets
	}
	tag := q.Get("tag_slug")
	var out []map[string]any
	for i := 0; i < NumMarkets/PerEvent; i++ {
		e := s.eventJSON(i, true)
		if strconv.FormatBool(e["closed"].(bool)) != closed {
			continue
		}
		if tag != "" && e["tags"].([]map[string]any)[0]["slug"] != tag {
			continue
		}
		out = append(out, e)
	}
	if f := strings.Split(q.Get("order"), ",")[0]; f == "volume" || f == "volume24hr" || f == "liquidity" {
		asc := q.Get("ascending") == "true"
		sort.SliceStable(out, func(i, j int) bool {
			a, b := out[i][f].(float64), out[j][f].(float64)
			if asc {
				return a < b
			}
			return a > b
		})
	}
	return out
}

// listEvents: GET /events answers a bare array of events with nested markets.
func (s *Server) listEvents(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	sunsetHeaders(w)
	limit, offset, ok := page(w, q, 20, 2000)
	if !ok {
		return
	}
	writeJSON(w, 200, window(s.filterEvents(q), offset, limit))
}

// keysetEvents: GET /events/keyset → {"events":[…],"next_cursor":…}.
func (s *Server) keysetEvents(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Has("offset") {
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": "offset is not supported on keyset routes; use after_cursor"}) // text assumed
		return
	}
	limit, _, ok := page(w, q, 20, 0)
	if !ok {
		return
	}
	pos, ok := decodeCursor(q.Get("after_cursor"))
	if !ok {
		writeJSON(w, 400, map[string]string{"error": "invalid cursor"}) // assumed
		return
	}
	es := s.filterEvents(q)
	out := map[string]any{"events": window(es, pos, limit)}
	if pos+limit < len(es) {
		out["next_cursor"] = encodeCursor(pos + limit)
	}
	writeJSON(w, 200, out)
}

// getEvent: /events/{id} and /events/slug/{slug}.
func (s *Server) getEvent(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/events/")
	for i := 0; i < NumMarkets/PerEvent; i++ {
		if rest == strconv.Itoa(900000+i) || rest == fmt.Sprintf("slug/fake-event-%d", i) {
			writeJSON(w, 200, s.eventJSON(i, true))
			return
		}
	}
	writeJSON(w, 404, map[string]string{"type": "not found", "error": "event not found"}) // assumed
}

// search: GET /public-search → {"events","tags","profiles","pagination":{"hasMore","totalResults"}}
// (source: rs-clob-client src/gamma/types/); matching on titles and questions is assumed.
func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	term := strings.ToLower(strings.TrimSpace(q.Get("q")))
	if term == "" {
		writeJSON(w, 400, map[string]string{"error": "q is required"}) // assumed
		return
	}
	per := 5 // assumed default limit_per_type
	if n, err := strconv.Atoi(q.Get("limit_per_type")); err == nil && n > 0 {
		per = n
	}
	keepClosed := q.Get("keep_closed_markets") == "1"
	var hits []map[string]any
	for i := 0; i < NumMarkets/PerEvent; i++ {
		e := s.eventJSON(i, keepClosed)
		if q.Get("events_status") == "active" && e["closed"].(bool) {
			continue
		}
		match := strings.Contains(strings.ToLower(e["title"].(string)), term)
		for _, m := range e["markets"].([]map[string]any) {
			match = match || strings.Contains(strings.ToLower(m["question"].(string)), term)
		}
		if match {
			hits = append(hits, e)
		}
	}
	pg, _ := strconv.Atoi(q.Get("page"))
	pg = max(pg, 1)
	writeJSON(w, 200, map[string]any{"events": window(hits, (pg-1)*per, per), "tags": []any{}, "profiles": []any{},
		"pagination": map[string]any{"hasMore": pg*per < len(hits), "totalResults": len(hits)}})
}

// comments: GET /comments needs parent_entity_type and an integer
// parent_entity_id (both required: 422 "required query parameter is
// missing"); the type is one of Event, Series, PerpsAsset, exact case, and
// "market" in any casing is 422 {"type":"validation error","error":"expected
// value to be one of \"Event, Series, PerpsAsset\""} (polyoxide
// docs/specs/gamma/OBSERVED.md, probed 2026-08-19; spec-deviations,
// 2026-10-02). Offsets past 200 are 422 too (the same spec-deviations).
func (s *Server) comments(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	typ := q.Get("parent_entity_type")
	id, err := strconv.Atoi(q.Get("parent_entity_id"))
	if typ == "" || q.Get("parent_entity_id") == "" {
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": "required query parameter is missing"})
		return
	}
	if typ != "Event" && typ != "Series" && typ != "PerpsAsset" {
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": `expected value to be one of "Event, Series, PerpsAsset"`})
		return
	}
	if err != nil {
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": "parent_entity_id must be an integer"}) // text assumed
		return
	}
	limit, offset, ok := page(w, q, 20, 200)
	if !ok {
		return
	}
	all := []map[string]any{}
	for _, root := range thread(typ, id) {
		all = append(all, root.row)
		for _, r := range root.replies {
			all = append(all, r)
		}
	}
	writeJSON(w, 200, window(all, offset, limit))
}
