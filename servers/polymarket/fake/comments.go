package fake

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// BigThread is the event whose thread holds BigThreadRoots top-level
// comments and BigThreadReplies replies (one on every fourth root): a
// thread far past the offset route's cap of 200, read to its end on the
// keyset route. Every other known event holds 3 comments.
const (
	BigThread        = 900000
	BigThreadRoots   = 800
	BigThreadReplies = 200
)

// threadSize is the number of comments (replies included) on an event.
func threadSize(event int) int {
	if event == BigThread {
		return BigThreadRoots + BigThreadReplies
	}
	return 3
}

// rootComment is a top-level comment and the replies that ride along with it.
type rootComment struct {
	id      int
	row     map[string]any
	replies []map[string]any
}

// thread is an entity's comments, oldest first. Keys and profile fields as
// Polymarket/ts-sdk packages/bindings/src/gamma/comment.ts (CommentSchema) and
// rs-clob-client src/gamma/types/; empty bio and image as on most real profiles.
func thread(typ string, id int) []rootComment {
	if typ != "Event" || id < 900000 || id >= 900000+NumMarkets/PerEvent {
		return nil
	}
	roots, every := 3, 0
	if id == BigThread {
		roots, every = BigThreadRoots, BigThreadRoots/BigThreadReplies
	}
	base := time.Date(2025, 12, 1, 0, 0, 0, 0, time.UTC) // fixed: no test reads comment times against today
	row := func(cid, k int, parent any, at time.Time, body string) map[string]any {
		return map[string]any{"id": strconv.Itoa(cid), "body": body,
			"parentEntityType": typ, "parentEntityID": id, "parentCommentID": parent,
			"userAddress": KnownUser, "replyAddress": nil, "createdAt": at.Format(time.RFC3339), "updatedAt": at.Format(time.RFC3339),
			"profile": map[string]any{"name": "", "pseudonym": "Fake-Trader", "displayUsernamePublic": true, "bio": "",
				"isMod": false, "isCreator": false, "proxyWallet": KnownUser, "baseAddress": fmt.Sprintf("0x%040x", 0xbA5e+k%7),
				"profileImage": "", "positions": []any{}},
			"reactions": []any{}, "reportCount": 0, "reactionCount": k % 5}
	}
	out := make([]rootComment, roots)
	for k := range roots {
		cid := id*10000 + k
		at := base.Add(time.Duration(k) * time.Minute)
		out[k] = rootComment{id: cid, row: row(cid, k, nil, at, fmt.Sprintf("Fake comment %d on %s %d", k, typ, id))}
		if every > 0 && k%every == 0 {
			rid := id*10000 + 5000 + k
			out[k].replies = []map[string]any{row(rid, k, strconv.Itoa(cid), at.Add(30*time.Second),
				fmt.Sprintf("Fake reply to comment %d", k))}
		}
	}
	return out
}

// commentsKeyset: GET /comments/keyset takes the parent parameters of
// /comments, order=id|createdAt, ascending, limit and after_cursor, and
// answers {"comments":[…],"next_cursor":"…"}; next_cursor is absent on the
// last page (source: Polymarket/ts-sdk packages/client/src/actions/comments.ts
// and packages/bindings/src/gamma/comment.ts; the route exists live with
// the parent parameters and a comments array: dilettante-trading/polyoxide
// docs/specs, open questions, 2026-10-02). limit counts top-level comments
// and their replies ride along in the same page; a thread ending exactly on
// a page boundary answers one last empty page (ts-sdk comments.ts: "may
// return one final empty page"), which the fake does whenever a page is
// full. limit is capped at 100 (ts-sdk MAX_COMMENTS_PAGE_SIZE "matches the
// upstream per-request limit cap"). Without order the route reads oldest
// first (ts-sdk: "the cursor listing defaults to oldest first").
func (s *Server) commentsKeyset(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	typ := q.Get("parent_entity_type")
	if typ == "" || q.Get("parent_entity_id") == "" {
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": "required query parameter is missing"})
		return
	}
	if typ != "Event" && typ != "Series" && typ != "PerpsAsset" {
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": `expected value to be one of "Event, Series, PerpsAsset"`})
		return
	}
	id, err := strconv.Atoi(q.Get("parent_entity_id"))
	if err != nil {
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": "parent_entity_id must be an integer"}) // text assumed
		return
	}
	order := q.Get("order")
	if order != "" && order != "id" && order != "createdAt" {
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": `expected value to be one of "id, createdAt"`}) // text assumed
		return
	}
	if q.Has("offset") { // assumed: as /markets/keyset, the keyset route takes no offset
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": "offset is not supported, use after_cursor"})
		return
	}
	limit := 20 // assumed default, as /comments
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 0 {
			writeJSON(w, 422, map[string]string{"type": "validation error", "error": "limit must be a non-negative integer"}) // assumed text
			return
		}
	}
	limit = min(limit, 100)
	pos, ok := decodeCursor(q.Get("after_cursor"))
	if !ok {
		writeJSON(w, 422, map[string]string{"type": "validation error", "error": "invalid after_cursor"}) // assumed text
		return
	}
	roots := thread(typ, id)
	if q.Get("ascending") == "false" { // ids and times rise together, so id and createdAt order alike
		slices.Reverse(roots)
	}
	page := window(roots, pos, limit)
	out := map[string]any{"comments": []map[string]any{}}
	rows := []map[string]any{}
	for _, root := range page {
		rows = append(rows, root.row)
		rows = append(rows, root.replies...)
	}
	out["comments"] = rows
	if limit > 0 && len(page) == limit {
		out["next_cursor"] = encodeCursor(pos + limit)
	}
	writeJSON(w, 200, out)
}
