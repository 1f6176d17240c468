package fake

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

var (
	reAddress   = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	reCondition = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
)

// dataPage reads the Data API's limit (0..max) and offset (0..maxOffset);
// out of range answers 400 (ranges: rs-clob-client src/data/types/request.rs; body assumed).
func dataPage(w http.ResponseWriter, r *http.Request, def, maxLimit, maxOffset int) (int, int, bool) {
	q := r.URL.Query()
	limit, offset := def, 0
	var err error
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 0 || limit > maxLimit {
			writeJSON(w, 400, map[string]string{"error": fmt.Sprintf("limit must be between 0 and %d", maxLimit)})
			return 0, 0, false
		}
	}
	if v := q.Get("offset"); v != "" {
		if offset, err = strconv.Atoi(v); err != nil || offset < 0 || offset > maxOffset {
			writeJSON(w, 400, map[string]string{"error": fmt.Sprintf("offset must be between 0 and %d", maxOffset)})
			return 0, 0, false
		}
	}
	return limit, offset, true
}

// user checks ?user=: 400 {"error":"Invalid user address"} (source: rs-clob-client tests/data.rs).
func user(w http.ResponseWriter, r *http.Request) (string, bool) {
	u := r.URL.Query().Get("user")
	if !reAddress.MatchString(u) {
		writeJSON(w, 400, map[string]string{"error": "Invalid user address"})
		return "", false
	}
	return strings.ToLower(u), true
}

// positions: GET /positions, a bare array of camelCase rows with numbers.
func (s *Server) positions(w http.ResponseWriter, r *http.Request) {
	u, ok := user(w, r)
	if !ok {
		return
	}
	limit, offset, ok := dataPage(w, r, 100, 500, 10000)
	if !ok {
		return
	}
	rows := []map[string]any{}
	if u == KnownUser {
		for i := 0; i < 3; i++ {
			m := s.markets[i]
			size := float64(100 * (i + 1))
			rows = append(rows, map[string]any{"proxyWallet": KnownUser, "asset": m.tokens[0], "conditionId": m.condition,
				"size": size, "avgPrice": 0.4, "initialValue": size * 0.4, "currentValue": size * m.price,
				"cashPnl": size * (m.price - 0.4), "percentPnl": (m.price - 0.4) / 0.4 * 100, "totalBought": size,
				"realizedPnl": 0, "percentRealizedPnl": 0, "curPrice": m.price, "redeemable": false, "mergeable": false,
				"title": m.question, "slug": m.slug, "icon": marketIcon(m.slug), "eventSlug": fmt.Sprintf("fake-event-%d", m.event),
				"eventId": strconv.Itoa(900000 + m.event), "outcome": "Yes", "outcomeIndex": 0, "oppositeOutcome": "No",
				"oppositeAsset": m.tokens[1], "endDate": m.raw["endDateIso"], "negativeRisk": false})
		}
	}
	writeJSON(w, 200, window(rows, offset, limit))
}

// marketIcon is a market's icon as Polymarket serves it: an upload-bucket URL
// named after the market (every live market row carries one; the exact bucket
// path is assumed).
func marketIcon(slug string) string {
	return "https://polymarket-upload.s3.us-east-2.amazonaws.com/" + slug + ".png"
}

// activity: GET /activity; type is a csv of TRADE, SPLIT, MERGE, REDEEM,
// REWARD, CONVERSION (source: rs-clob-client src/data/types/request.rs); another type is 400 (assumed).
func (s *Server) activity(w http.ResponseWriter, r *http.Request) {
	u, ok := user(w, r)
	if !ok {
		return
	}
	limit, offset, ok := dataPage(w, r, 100, 500, 10000)
	if !ok {
		return
	}
	types := csvSet(r.URL.Query()["type"])
	for t := range types {
		switch t {
		case "TRADE", "SPLIT", "MERGE", "REDEEM", "REWARD", "CONVERSION":
		default:
			writeJSON(w, 400, map[string]string{"error": "invalid type " + t})
			return
		}
	}
	rows := []map[string]any{}
	if u == KnownUser {
		kinds := []string{"TRADE", "TRADE", "REDEEM", "TRADE", "REWARD"}
		for i, k := range kinds {
			if types != nil && !types[k] {
				continue
			}
			m := s.markets[i]
			row := map[string]any{"proxyWallet": KnownUser, "timestamp": 1767100000 - i*3600, "conditionId": m.condition,
				"type": k, "size": 50.0, "usdcSize": 50 * m.price, "transactionHash": fmt.Sprintf("0x%064x", i+1),
				"price": m.price, "asset": m.tokens[0], "side": "BUY", "outcomeIndex": 0, "title": m.question,
				"slug": m.slug, "icon": marketIcon(m.slug), "eventSlug": fmt.Sprintf("fake-event-%d", m.event), "outcome": "Yes",
				"name": "", "pseudonym": "Fake-Trader", "bio": "", "profileImage": "", "profileImageOptimized": ""}
			if k != "TRADE" {
				row["side"] = "" // "" possible on non-trades (source: rs-clob-client src/data/types/)
			}
			rows = append(rows, row)
		}
	}
	writeJSON(w, 200, window(rows, offset, limit))
}

// holders: GET /holders?market=<conditionIds csv> → one group per outcome
// token (source: rs-clob-client src/data/types/); limit 0..20.
func (s *Server) holders(w http.ResponseWriter, r *http.Request) {
	// market is checked for shape (0x + 64 hex) and any failure reads as
	// absent; limit is clamped to 500, not refused; limit 0 and a market
	// nobody holds (or one unknown to the index) answer 200 with a bare
	// null (polyoxide docs/specs/data/holders.md, verified live 2026-08-03
	// and 2026-08-27).
	conds := csvSet(r.URL.Query()["market"])
	for c := range conds {
		if !reCondition.MatchString(c) {
			conds = nil
			break
		}
	}
	if conds == nil {
		writeJSON(w, 400, map[string]string{"error": "required query param 'market' not provided"})
		return
	}
	limit := 20
	if n, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && n >= 0 {
		limit = min(n, 500)
	}
	out := []map[string]any{}
	for i, m := range s.markets {
		if !conds[m.condition] {
			continue
		}
		for o, tok := range m.tokens {
			hs := []map[string]any{}
			for k := 0; k < min(limit, 3); k++ {
				wallet := fmt.Sprintf("0x%040x", o*10+k+1)
				if i < 3 && o == 0 && k == 0 {
					wallet = KnownUser // the top Yes holder of the markets KnownUser holds (positions)
				}
				hs = append(hs, map[string]any{"proxyWallet": wallet, "bio": "", "asset": tok,
					"pseudonym": fmt.Sprintf("Holder-%d-%d", o, k), "amount": float64(5000 - k*1000 - o*100),
					"displayUsernamePublic": true, "outcomeIndex": o, "name": "", "profileImage": "", "profileImageOptimized": "",
					"verified": k == 0})
			}
			out = append(out, map[string]any{"token": tok, "holders": hs})
		}
	}
	if len(out) == 0 || limit == 0 {
		writeJSON(w, 200, nil) // a bare null, not []
		return
	}
	writeJSON(w, 200, out)
}

// builders: GET /v1/builders/leaderboard?timePeriod=DAY|WEEK|MONTH|ALL; limit
// 0..50 (default 25), offset 0..1000; rank is a string (source: rs-clob-client src/data/types/).
func (s *Server) builders(w http.ResponseWriter, r *http.Request) {
	tp := r.URL.Query().Get("timePeriod")
	switch tp {
	case "", "DAY", "WEEK", "MONTH", "ALL":
	default:
		writeJSON(w, 400, map[string]string{"error": "invalid timePeriod"}) // assumed
		return
	}
	limit, offset, ok := dataPage(w, r, 25, 50, 1000)
	if !ok {
		return
	}
	rows := []map[string]any{}
	for i := 0; i < 60; i++ {
		row := map[string]any{"rank": strconv.Itoa(i + 1), "builder": fmt.Sprintf("Builder%02d", i+1),
			"volume": float64(5000000 - i*50000), "activeUsers": 1500 - i*10, "verified": i%2 == 0}
		if i%3 == 0 {
			row["builderLogo"] = "https://example.invalid/logo.png"
		}
		rows = append(rows, row)
	}
	writeJSON(w, 200, window(rows, offset, limit))
}

// BTCPrice is the fake spot price; Kraken's is a few dollars off, as in life.
const BTCPrice = 97123.45

// coinbase: {"data":{"amount":"…","base":"BTC","currency":"USD"}} (Coinbase Data API "Get Spot Price").
func (s *Server) coinbase(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, map[string]any{"data": map[string]string{"amount": f2(BTCPrice), "base": "BTC", "currency": "USD"}})
}

// kraken: {"error":[],"result":{"XXBTZUSD":{"c":["last","volume"],…}}} (Kraken REST "Get Ticker Information").
func (s *Server) kraken(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, map[string]any{"error": []string{}, "result": map[string]any{"XXBTZUSD": map[string]any{
		"a": []string{"97121.00000", "1", "1.000"}, "b": []string{"97120.90000", "1", "1.000"},
		"c": []string{"97120.10000", "0.00100000"}}}})
}
