package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/tools"
)

// TestCommentsWholeThread reads the fake's 1,000-comment thread (800
// top-level comments, 200 replies) to its end on the keyset route, in both
// orders and at page sizes that do and do not divide it: every comment once,
// counted as Gamma counts them, every cursor leading to comments (the page
// after a thread ending on a page boundary is empty upstream), the last page
// complete.
func TestCommentsWholeThread(t *testing.T) {
	s := start(t, opts{})
	for _, tc := range []struct {
		order string
		limit int
	}{{"newest", 100}, {"oldest", 100}, {"newest", 30}} {
		t.Run(fmt.Sprintf("%s/%d", tc.order, tc.limit), func(t *testing.T) {
			before := s.fake.Count(fake.RouteCommentsKeyset)
			seen := map[string]bool{}
			top, replies, pages, cur, last := 0, 0, 0, "", ""
			for {
				args := map[string]any{"entity_type": "event", "entity_id": fake.BigThread, "order": tc.order, "limit": tc.limit}
				if cur != "" {
					args["cursor"] = cur
				}
				out := call[tools.CommentsOut](t, s, "list_comments", args)
				pages++
				if len(out.Comments) == 0 {
					t.Fatalf("page %d is empty: the cursor before it led nowhere", pages)
				}
				if out.TopLevel > tc.limit {
					t.Fatalf("page %d: %d top-level comments, limit %d", pages, out.TopLevel, tc.limit)
				}
				for _, c := range out.Comments {
					if c.ReplyTo == "" {
						last = c.Body
					}
					if seen[c.ID] {
						t.Fatalf("comment %s twice", c.ID)
					}
					seen[c.ID] = true
					if (c.ReplyTo == "") != !strings.HasPrefix(c.Body, "Fake reply") {
						t.Fatalf("reply_to %q on %q", c.ReplyTo, c.Body)
					}
				}
				top, replies = top+out.TopLevel, replies+out.Replies
				if len(out.ThirdParty) == 0 {
					t.Fatal("third_party missing")
				}
				if out.NextCursor == "" {
					if !out.Complete || out.Incomplete != nil {
						t.Fatalf("last page not complete: %+v", out.Coverage)
					}
					break
				}
				if out.Complete || out.Incomplete == nil || out.Incomplete.Reason != envelope.Paged || out.Incomplete.Cursor != out.NextCursor {
					t.Fatalf("page %d coverage %+v", pages, out.Coverage)
				}
				if pages > 40 {
					t.Fatal("paging does not end")
				}
				cur = out.NextCursor
			}
			if len(seen) != fake.BigThreadRoots+fake.BigThreadReplies || top != fake.BigThreadRoots || replies != fake.BigThreadReplies {
				t.Fatalf("%d comments (%d top-level, %d replies), want 1000 (800, 200)", len(seen), top, replies)
			}
			if wantLast := map[string]string{"newest": "Fake comment 0 on", "oldest": "Fake comment 799 on"}[tc.order]; !strings.HasPrefix(last, wantLast) {
				t.Fatalf("last top-level comment %q, want %q…", last, wantLast)
			}
			// one request a page plus one look past the end; the look
			// ahead is served from the cache on the following call
			if n := s.fake.Count(fake.RouteCommentsKeyset) - before; n > pages+1 {
				t.Fatalf("%d keyset requests for %d pages", n, pages)
			}
			if s.fake.Count(fake.RouteComments) != 0 {
				t.Fatal("the offset route /comments was called")
			}
		})
	}
	t.Run("a cursor of another thread or order is refused", func(t *testing.T) {
		out := call[tools.CommentsOut](t, s, "list_comments", map[string]any{"entity_type": "event", "entity_id": fake.BigThread, "limit": 5})
		res := s.conn.Call(t, "list_comments", map[string]any{"entity_type": "event", "entity_id": fake.BigThread, "order": "oldest", "cursor": out.NextCursor})
		if b := servetest.ErrorBody(t, res); b.Code != envelope.InvalidArgument || !strings.Contains(b.Message, "order") {
			t.Fatalf("%+v", b)
		}
	})
	t.Run("a short thread is whole in one page", func(t *testing.T) {
		out := call[tools.CommentsOut](t, s, "list_comments", map[string]any{"entity_type": "event", "entity_id": 900001})
		if len(out.Comments) != 3 || !out.Complete || out.NextCursor != "" || out.TopLevel != 3 {
			t.Fatalf("%+v", out)
		}
	})
	t.Run("no comments is complete and says so", func(t *testing.T) {
		out := call[tools.CommentsOut](t, s, "list_comments", map[string]any{"entity_type": "series", "entity_id": 7})
		if len(out.Comments) != 0 || !out.Complete || out.Empty == "" {
			t.Fatalf("%+v", out)
		}
	})
}
