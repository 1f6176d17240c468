package fake

import (
	"encoding/base64"
	"encoding/json"
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
	writeJSON(w, 200, window(s.positionRows(u), offset, limit))
}

// WhaleUser holds WhalePositions positions: more than one page, so the
// wallet's total needs /value.
const (
	WhaleUser      = "0x9d84ce0306f8551e02efef1680475fc0f1dc1344"
	WhalePositions = 300
)

func (s *Server) positionRows(u string) []map[string]any {
	n := 0
	switch u {
	case KnownUser:
		n = 3
	case WhaleUser:
		n = WhalePositions
	}
	rows := []map[string]any{}
	for i := 0; i < n; i++ {
		m := s.markets[i%NumOpen]
		size := float64(100 * (i%7 + 1))
		if u == KnownUser {
			size = float64(100 * (i + 1))
		}
		o := i / NumOpen // a second pass over the markets holds the No side
		price := m.price
		if o == 1 {
			price = 1 - m.price
		}
		rows = append(rows, map[string]any{"proxyWallet": u, "asset": m.tokens[o], "conditionId": m.condition,
			"size": size, "avgPrice": 0.4, "initialValue": size * 0.4, "currentValue": size * price,
			"cashPnl": size * (price - 0.4), "percentPnl": (price - 0.4) / 0.4 * 100, "totalBought": size,
			"realizedPnl": 0, "percentRealizedPnl": 0, "curPrice": price, "redeemable": false, "mergeable": false,
			"title": m.question, "slug": m.slug, "icon": marketIcon(m.slug), "eventSlug": fmt.Sprintf("fake-event-%d", m.event),
			"eventId": strconv.Itoa(900000 + m.event), "outcome": []string{"Yes", "No"}[o], "outcomeIndex": o,
			"oppositeOutcome": []string{"No", "Yes"}[o], "oppositeAsset": m.tokens[1-o], "endDate": m.raw["endDateIso"], "negativeRisk": false})
	}
	return rows
}

// value: GET /value?user=[&market=csv] → [{"user","value"}], the summed
// currentValue of the wallet's positions (docs.polymarket.com
// api-reference/core/get-total-value-of-a-users-positions: user required,
// market an optional csv of conditionIds, an array of Value). A wallet with
// no positions answers value 0 (assumed).
func (s *Server) value(w http.ResponseWriter, r *http.Request) {
	u, ok := user(w, r)
	if !ok {
		return
	}
	conds := csvSet(r.URL.Query()["market"])
	total := 0.0
	for _, p := range s.positionRows(u) {
		if conds == nil || conds[p["conditionId"].(string)] {
			total += p["currentValue"].(float64)
		}
	}
	writeJSON(w, 200, []map[string]any{{"user": u, "value": total}})
}

// marketIcon is a market's icon as Polymarket serves it: an upload-bucket URL
// named after the market (every live market row carries one; the exact bucket
// path is assumed).
func marketIcon(slug string) string {
	return "https://polymarket-upload.s3.us-east-2.amazonaws.com/" + slug + ".png"
}

// activityTypes are the types /activity answers (Polymarket/ts-sdk
// packages/bindings/src/data/activity.ts, its Activity union); another type
// in the filter is 400 (assumed).
var activityTypes = map[string]bool{"TRADE": true, "SPLIT": true, "MERGE": true, "REDEEM": true, "CONVERSION": true,
	"MIGRATION": true, "REWARD": true, "MAKER_REBATE": true, "TAKER_REBATE": true, "REFERRAL_REWARD": true,
	"YIELD": true, "DEPOSIT": true, "WITHDRAWAL": true, "TIP": true}

// knownActivity is KnownUser's activity, newest first: trades, a redemption,
// and the account-level rows (rewards, rebates, a deposit, a withdrawal),
// which carry only usdcSize with "" for the market fields (ts-sdk
// activity.ts: account-level activities have an amount only; the empty
// strings as on v2's wire, assumed for v1).
var knownActivity = []struct {
	kind, side string
	usdc       float64
}{{"TRADE", "BUY", 0}, {"TRADE", "SELL", 0}, {"REDEEM", "", 0}, {"TRADE", "BUY", 0}, {"REWARD", "", 1.25},
	{"MAKER_REBATE", "", 3.4}, {"TAKER_REBATE", "", 0.6}, {"DEPOSIT", "", 500}, {"WITHDRAWAL", "", 120}, {"YIELD", "", 0.15}}

// activity: GET /activity; type is a csv of activityTypes. DEPOSIT and
// WITHDRAWAL rows are left out, and stripped from the type filter, unless
// excludeDepositsWithdrawals=false (Polymarket/ts-sdk
// .changeset/activity-deposit-withdrawal-exclusion.md).
func (s *Server) activity(w http.ResponseWriter, r *http.Request) {
	u, ok := user(w, r)
	if !ok {
		return
	}
	// offset 0..5000, past it a 400 (docs.polymarket.com/api-reference/core/get-user-activity,
	// the Data API OpenAPI: "Requests past the cap are rejected with a 400")
	limit, offset, ok := dataPage(w, r, 100, 500, 5000)
	if !ok {
		return
	}
	q := r.URL.Query()
	if u == BusyUser { // BusyRows trades, newest first: only the asked window is built
		rows := []map[string]any{}
		for i := offset; i < min(offset+limit, BusyRows); i++ {
			m := s.markets[i%NumOpen]
			rows = append(rows, map[string]any{"proxyWallet": BusyUser, "timestamp": 1767100000 - i*60, "conditionId": m.condition,
				"type": "TRADE", "size": 10.0, "usdcSize": 10 * m.price, "transactionHash": fmt.Sprintf("0x%064x", i+1),
				"price": m.price, "asset": m.tokens[0], "side": "BUY", "outcomeIndex": 0, "title": m.question, "slug": m.slug,
				"outcome": "Yes"})
		}
		writeJSON(w, 200, rows)
		return
	}
	types := csvSet(q["type"])
	for t := range types {
		if !activityTypes[t] {
			writeJSON(w, 400, map[string]string{"error": "invalid type " + t})
			return
		}
	}
	withMoves := q.Get("excludeDepositsWithdrawals") == "false"
	if !withMoves && types != nil {
		delete(types, "DEPOSIT")
		delete(types, "WITHDRAWAL")
		if len(types) == 0 {
			types = nil // assumed: a filter stripped empty filters nothing
		}
	}
	rows := []map[string]any{}
	if u == KnownUser {
		for i, a := range knownActivity {
			if types != nil && !types[a.kind] || !withMoves && (a.kind == "DEPOSIT" || a.kind == "WITHDRAWAL") {
				continue
			}
			m := s.markets[i]
			row := map[string]any{"proxyWallet": KnownUser, "timestamp": 1767100000 - i*3600, "conditionId": m.condition,
				"type": a.kind, "size": 50.0, "usdcSize": 50 * m.price, "transactionHash": fmt.Sprintf("0x%064x", i+1),
				"price": m.price, "asset": m.tokens[0], "side": a.side, "outcomeIndex": 0, "title": m.question,
				"slug": m.slug, "icon": marketIcon(m.slug), "eventSlug": fmt.Sprintf("fake-event-%d", m.event), "outcome": "Yes",
				"name": "", "pseudonym": "Fake-Trader", "bio": "", "profileImage": "", "profileImageOptimized": ""}
			if a.usdc > 0 { // account-level: an amount, no market
				for _, k := range []string{"conditionId", "asset", "title", "slug", "icon", "eventSlug", "outcome"} {
					row[k] = ""
				}
				row["size"], row["price"], row["usdcSize"] = 0.0, 0.0, a.usdc
			}
			rows = append(rows, row)
		}
	}
	writeJSON(w, 200, window(rows, offset, limit))
}

// BusyUser has BusyRows trades: more than /activity's offset cap reaches.
const (
	BusyUser = "0x5ee00000000000000000000000000000000000b5"
	BusyRows = 6000
)

// NobodyHoldsNo is the market whose No token group lists no holders.
const NobodyHoldsNo = 5

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
			held := min(limit, 3)
			if i == NobodyHoldsNo && o == 1 {
				// a token group with no holders (assumed: the shape a group
				// takes when one outcome's holders are all gone)
				held = 0
			}
			for k := 0; k < held; k++ {
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
	for i := offset; i < min(offset+limit, NumBuilders); i++ {
		row := map[string]any{"rank": strconv.Itoa(i + 1), "builder": fmt.Sprintf("Builder%02d", i+1),
			"volume": float64(6000000 - i*5000), "activeUsers": 1500 - i, "verified": i%2 == 0}
		if i%3 == 0 {
			row["builderLogo"] = "https://example.invalid/logo.png"
		}
		rows = append(rows, row)
	}
	writeJSON(w, 200, rows)
}

// NumBuilders is how many builders the fake's board ranks: more than the
// deepest offset the API serves (1000), so the cap can be reached.
const NumBuilders = 1100

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

// positionsV2: GET /v2/positions (docs.polymarket.com/api-reference/data-api/overview,
// api-reference/wallet/list-positions-for-a-user-or-market,
// migrate/data-api-v1-to-v2; Polymarket/ts-sdk packages/bindings/src/data/v2.ts
// and portfolio.ts): {data, pagination:{limit, offset, has_more,
// next_cursor}} (has_more exactly when next_cursor is set) with snake_case
// rows; status OPEN (default: every position still held, the superset),
// REDEEMABLE (resolved, unredeemed winners), CLOSED (sold or redeemed out,
// size ~0); an
// opaque cursor that binds the status, sent with the same user, a
// contradicting status a 400, a bare ?cursor= a 400 (the docs' Chinese
// page of the same reference); condition narrows to ≤20 markets; a miss is
// an empty data list. Limit default 100, max 500 (assumed: v1's).
func (s *Server) positionsV2(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("user") == "" && q.Get("condition") == "" {
		writeJSON(w, 400, map[string]string{"error": "at least one of user or condition is required"})
		return
	}
	u, ok := user(w, r)
	if !ok {
		return
	}
	status := q.Get("status")
	limit, _, ok := dataPage(w, r, 100, 500, 0)
	if !ok {
		return
	}
	offset := 0
	if c := q.Get("cursor"); c != "" {
		b, err := base64.RawURLEncoding.DecodeString(c)
		var pos struct {
			Status string `json:"status"`
			Offset int    `json:"offset"`
			Limit  int    `json:"limit"`
		}
		if err != nil || json.Unmarshal(b, &pos) != nil {
			writeJSON(w, 400, map[string]string{"error": "invalid cursor"})
			return
		}
		if status != "" && status != pos.Status {
			writeJSON(w, 400, map[string]string{"error": "status contradicts the cursor"})
			return
		}
		status, offset, limit = pos.Status, pos.Offset, pos.Limit
	}
	if status == "" {
		status = "OPEN"
	}
	conds := csvSet(q["condition"])
	var rows []map[string]any
	for _, p := range s.positionRowsV2(u) {
		st := p["status"].(string)
		keep := status == st || status == "OPEN" && st == "REDEEMABLE"
		if keep && (len(conds) == 0 || conds[p["condition_id"].(string)]) {
			rows = append(rows, p)
		}
	}
	page := window(rows, offset, limit)
	more := offset+len(page) < len(rows)
	var next any
	if more {
		b, _ := json.Marshal(map[string]any{"status": status, "offset": offset + len(page), "limit": limit})
		next = base64.RawURLEncoding.EncodeToString(b)
	}
	if page == nil {
		page = []map[string]any{}
	}
	writeJSON(w, 200, map[string]any{"data": page,
		"pagination": map[string]any{"limit": limit, "offset": offset, "has_more": more, "next_cursor": next}})
}

// positionRowsV2 are positionRows in v2's snake_case, plus, for KnownUser,
// one closed position (sold out: size 0, a realized P&L).
func (s *Server) positionRowsV2(u string) []map[string]any {
	var out []map[string]any
	for _, p := range s.positionRows(u) {
		out = append(out, map[string]any{"proxy_wallet": p["proxyWallet"], "condition_id": p["conditionId"], "token_id": p["asset"],
			"outcome": p["outcome"], "outcome_index": p["outcomeIndex"], "title": p["title"], "slug": p["slug"],
			"event_slug": p["eventSlug"], "status": "OPEN", "current_size": p["size"], "avg_price": p["avgPrice"],
			"entry_cost_usdc": p["initialValue"], "current_value": p["currentValue"], "realized_pnl": p["realizedPnl"],
			"unrealized_pnl": p["cashPnl"], "total_pnl": p["cashPnl"], "percent_pnl": p["percentPnl"],
			"current_price": p["curPrice"], "redeemable": false, "mergeable": false, "end_date": p["endDate"]})
	}
	if u == KnownUser {
		m := s.markets[NumOpen] // a closed market
		out = append(out, map[string]any{"proxy_wallet": u, "condition_id": m.condition, "token_id": m.tokens[0],
			"outcome": "Yes", "outcome_index": 0, "title": m.question, "slug": m.slug, "status": "CLOSED",
			"current_size": 0, "avg_price": 0.3, "entry_cost_usdc": 0, "current_value": 0, "realized_pnl": 42.5,
			"unrealized_pnl": 0, "total_pnl": 42.5, "percent_pnl": 0, "current_price": 1, "redeemable": false,
			"mergeable": false, "end_date": ""})
	}
	return out
}
