package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/identity"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/rules"
)

// bigRule is a valid rule whose compact JSON, as the tool encodes its
// argument, is exactly n bytes (nested any-lists of English star names,
// trimmed, then tuned a byte at a time by "min":1 → "min":10).
func bigRule(t *testing.T, n int) map[string]any {
	t.Helper()
	var names []string
	for id := 0; id < astro.NumStars && len(names) < 16; id++ {
		names = append(names, astro.StarID(id).Name(astro.EnUS))
	}
	type sub struct {
		stars []string
		min   int
	}
	var subs []*sub
	for i := 0; i < 48; i++ {
		subs = append(subs, &sub{stars: append([]string(nil), names...), min: 1})
	}
	build := func() (map[string]any, int) {
		var all []any
		for g := 0; g < 3; g++ {
			var anyOf []any
			for _, s := range subs[g*16 : g*16+16] {
				if len(s.stars) > 0 {
					anyOf = append(anyOf, map[string]any{"stars": s.stars, "in": "命宫", "scope": "sanfang", "min": s.min})
				}
			}
			if len(anyOf) > 0 {
				all = append(all, map[string]any{"any": anyOf})
			}
		}
		m := map[string]any{"all": all}
		b, _ := json.Marshal(m)
		return m, len(b)
	}
	for i := len(subs) - 1; i >= 0; i-- {
		for len(subs[i].stars) > 0 {
			if _, size := build(); size <= n {
				break
			}
			subs[i].stars = subs[i].stars[:len(subs[i].stars)-1]
		}
	}
	for _, s := range subs {
		if _, size := build(); size < n && len(s.stars) >= 10 {
			s.min = 10
		}
	}
	m, size := build()
	if size != n {
		t.Fatalf("built a rule of %d bytes, want %d", size, n)
	}
	return m
}

// TestRulesAtTheSizeLimitOverMCP: a rule the store accepts is there on the next
// read, for this server and for a second one on the same state file; one byte over
// the limit is refused at write time.
func TestRulesAtTheSizeLimitOverMCP(t *testing.T) {
	dir := t.TempDir()
	c := conn(t, "--state-dir", dir)
	sizes := []int{rules.MaxBytes - 1, rules.MaxBytes, 4700, 6300}
	for _, n := range sizes {
		st := structured(t, c, "store_star_combination_meaning", map[string]any{"name": fmt.Sprintf("size %d", n), "meaning": strings.Repeat("意", rules.MaxMeaningRunes), "rule": bigRule(t, n)})
		if st["replaced"] != false {
			t.Fatalf("%d bytes: %v", n, st)
		}
	}
	body := servetest.ErrorBody(t, c.Call(t, "store_star_combination_meaning", map[string]any{"name": "over", "meaning": "m", "rule": bigRule(t, rules.MaxBytes+1)}))
	if body.Code != "invalid_argument" || body.Details["field"] != "rule" || !strings.Contains(body.Message, "8192") {
		t.Errorf("one byte over: %+v", body)
	}
	structured(t, c, "store_star_combination_meaning", map[string]any{"name": "small", "meaning": "m", "rule": map[string]any{"stars": []any{"紫微"}}})
	for i, cc := range []*servetest.Conn{c, conn(t, "--state-dir", dir)} {
		q := structured(t, cc, "query_star_combination_meaning", map[string]any{})
		got := map[string]bool{}
		for _, r := range q["results"].([]any) {
			got[r.(map[string]any)["name"].(string)] = true
		}
		for _, n := range sizes {
			if !got[fmt.Sprintf("size %d", n)] {
				t.Errorf("server %d: the %d-byte rule was accepted, then gone (%v, note %v)", i, n, got, q["note"])
			}
		}
		if len(got) != len(sizes)+1 || q["corrupt"] != nil {
			t.Errorf("server %d: %d rules, corrupt %v", i, len(got), q["corrupt"])
		}
	}
}

// TestRuleQuotasOverMCP: per-user quotas from the environment, a clear error
// naming the quota and the way out, and delete_star_combination_meaning
// freeing room; users are told apart by the bearer user, never the session.
func TestRuleQuotasOverMCP(t *testing.T) {
	t.Setenv(rules.EnvUserRules, "2")
	t.Setenv(rules.EnvUserBytes, "4096")
	dir := t.TempDir()
	c := conn(t, "--state-dir", dir)
	call := func(user, tool string, args map[string]any) *mcp.CallToolResult {
		t.Helper()
		ctx, cancel := context.WithTimeout(identity.WithUser(context.Background(), user), 30*time.Second)
		defer cancel()
		res, err := c.CallCtx(ctx, tool, args)
		if err != nil {
			t.Fatalf("%s: protocol error %v", tool, err)
		}
		return res
	}
	ok := func(user, tool string, args map[string]any) map[string]any {
		t.Helper()
		return servetest.Decode[map[string]any](t, call(user, tool, args))
	}
	rule := map[string]any{"stars": []any{"紫微"}, "in": "命宫"}
	for _, name := range []string{"a", "b"} {
		st := ok("alice", "store_star_combination_meaning", map[string]any{"name": name, "meaning": "m", "rule": rule})
		if st["bytesQuota"].(float64) != 4096 || st["bytesUsed"].(float64) <= 0 {
			t.Errorf("store %s: %v", name, st)
		}
	}
	body := servetest.ErrorBody(t, call("alice", "store_star_combination_meaning", map[string]any{"name": "c", "meaning": "m", "rule": rule}))
	if body.Code != "permission_denied" || body.Details["limit"] != rules.EnvUserRules || !strings.Contains(body.Message, "delete_star_combination_meaning") {
		t.Errorf("over the rule quota: %+v", body)
	}
	// Bob has his own quota.
	ok("bob", "store_star_combination_meaning", map[string]any{"name": "a", "meaning": "m", "rule": rule})
	// Bob cannot delete Alice's rule; Alice deletes by name, then again (idempotent).
	if d := ok("bob", "delete_star_combination_meaning", map[string]any{"name": "b"}); len(d["deleted"].([]any)) != 0 {
		t.Errorf("bob deleted alice's rule: %v", d)
	}
	d := ok("alice", "delete_star_combination_meaning", map[string]any{"name": "b"})
	if len(d["deleted"].([]any)) != 1 || d["count"].(float64) != 1 {
		t.Errorf("delete: %v", d)
	}
	if d := ok("alice", "delete_star_combination_meaning", map[string]any{"name": "b"}); len(d["deleted"].([]any)) != 0 {
		t.Errorf("delete again: %v", d)
	}
	ok("alice", "store_star_combination_meaning", map[string]any{"name": "c", "meaning": "m", "rule": rule})
	// The byte quota: a long meaning does not fit in what is left.
	body = servetest.ErrorBody(t, call("bob", "store_star_combination_meaning", map[string]any{"name": "long", "meaning": strings.Repeat("长", 1999), "rule": rule}))
	if body.Code != "permission_denied" || body.Details["limit"] != rules.EnvUserBytes || !strings.Contains(body.Message, "4096 bytes") {
		t.Errorf("over the byte quota: %+v", body)
	}
	for _, args := range []map[string]any{{}, {"name": "a", "id": "r-1"}} {
		if b := servetest.ErrorBody(t, call("alice", "delete_star_combination_meaning", args)); b.Code != "invalid_argument" {
			t.Errorf("delete %v: %+v", args, b)
		}
	}
	// A corrupt entry (an older release's, or a hand edit) is reported to
	// its owner and removable by id.
	db := storetest.Open(t, filepath.Join(dir, "ziwei.db"))
	var data []byte
	if err := db.SQL().QueryRow(`SELECT data FROM ziwei_rules_doc`).Scan(&data); err != nil {
		t.Fatal(err)
	}
	bad := `{"id":"r-bad","owner":"alice","name":"old","meaning":"m","rule":{"stars":["北极星"]},"updated":"2026-01-01T00:00:00Z"},` + "\n"
	data = []byte(strings.Replace(string(data), `"rules":[`+"\n", `"rules":[`+"\n"+bad, 1))
	if _, err := db.SQL().Exec(`UPDATE ziwei_rules_doc SET data = ?, gen = gen + 1`, data); err != nil {
		t.Fatal(err)
	}
	q := ok("alice", "query_star_combination_meaning", map[string]any{})
	if cr, _ := q["corrupt"].([]any); len(cr) != 1 || !strings.Contains(fmt.Sprint(q["note"]), "delete_star_combination_meaning") {
		t.Fatalf("corrupt entry not reported: %v", q)
	}
	if init := ok("alice", "initialize_chart", birth1990); !strings.Contains(fmt.Sprint(init["note"]), "cannot be read") {
		t.Errorf("initialize_chart note: %v", init["note"])
	}
	if d := ok("alice", "delete_star_combination_meaning", map[string]any{"id": "r-bad"}); len(d["deleted"].([]any)) != 1 {
		t.Errorf("delete corrupt: %v", d)
	}
	if q := ok("alice", "query_star_combination_meaning", map[string]any{}); q["corrupt"] != nil || len(q["results"].([]any)) != 2 {
		t.Errorf("after deleting the corrupt entry: %v", q)
	}
}
