package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/poll"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

type builtOut struct {
	QueryKey string `json:"query_key"`
	Q        string `json:"q"`
	Edition  string `json:"edition" jsonschema:"ceid"`
	FeedURL  string `json:"feed_url"`
	// Warnings are what the query will not do as one may expect.
	Warnings []string `json:"warnings,omitempty"`
}

// build validates the input, keeps its key and returns the canonical form.
func (s *Service) build(ctx context.Context, in QueryIn) (builtOut, error) {
	q, e, err := in.resolve()
	if err != nil {
		return builtOut{}, err
	}
	canon := q.Canonical()
	key := query.Key(q, e.CEID)
	if err := s.store.PutSpec(ctx, key, poll.Spec{Q: canon, Edition: e.CEID}); err != nil {
		return builtOut{}, err
	}
	return builtOut{QueryKey: key, Q: canon, Edition: e.CEID, FeedURL: s.client.FeedURL(canon, e), Warnings: whenWarnings(q.When)}, nil
}

// whenWarnings: fetch_search_feed polls a key once per poll.Window, so a
// when: shorter than the window never shows the items published between
// its reach and the previous poll (when:1h polled every 3 h misses the
// items 1 to 3 hours old at each poll).
func whenWarnings(when string) []string {
	n, unit := 0, ""
	if _, err := fmt.Sscanf(when, "%d%s", &n, &unit); err != nil || unit != "h" {
		return nil
	}
	win := int(poll.Window / time.Hour)
	if n >= win {
		return nil
	}
	return []string{fmt.Sprintf("when:%dh is shorter than fetch_search_feed's %d-hour poll window: polled once per window, it never sees the items %d to %d hours old at each poll; use when:%dh or longer for a scheduled feed (preview_search_feed is fine for a one-off look)", n, win, n, win, win)}
}

func (s *Service) buildTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "build_search_feed", Title: "Build search feed", Toolset: setFeeds,
		Hints: toolkit.Hints{ReadOnly: true, Idempotent: true},
		Description: `Structured query or raw q + English edition/preset → canonical q, feed URL, stable query_key (same meaning, same key). No network.
Rejects with the fix: editions outside list_editions (no AE:en), bad operators (explain_operators), when with after/before, empty or long q.`},
		s.build)
}

type previewIn struct {
	QueryKey string `json:"query_key,omitempty" jsonschema:"from build_search_feed" mcp:"pattern=^gnq_[a-z2-7]{24}$"`
	Q        string `json:"q,omitempty" jsonschema:"or a raw query" mcp:"maxLength=600"`
	Edition  string `json:"edition,omitempty" jsonschema:"with q: gl or ceid; default US" mcp:"maxLength=5"`
	Preset   string `json:"preset,omitempty" mcp:"enum=uae_focus|uae_outlets"`
	Limit    int    `json:"limit,omitempty" mcp:"min=1;max=100;default=10"`
}

type previewOut struct {
	builtOut
	// Coverage: capped when the feed hit Google's 100 items, truncated
	// when limit kept fewer than item_count.
	envelope.Coverage
	FetchedAt  string              `json:"fetched_at"`
	ServedFrom string              `json:"served_from"`
	ItemCount  int                 `json:"item_count"`
	Items      []feed.Item         `json:"items"`
	ThirdParty envelope.ThirdParty `json:"third_party"`
}

func (s *Service) previewTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "preview_search_feed", Title: "Preview search feed", Toolset: setFeeds, Hints: toolkit.RemoteRead,
		Description: `A query_key or raw q: top deduplicated items (url = Google News link; snippet = related coverage), item_count after dedupe, served_from google, preview_cache (< 1 min) or feed_cache (fetched < 3 h ago).
Errors: rate_limited (throttled or request budget spent; retry_after), upstream_error, timeout.`},
		func(ctx context.Context, in previewIn) (previewOut, error) {
			b, err := s.resolveBuilt(ctx, in)
			if err != nil {
				return previewOut{}, err
			}
			e, err := query.ResolveEdition(b.Edition)
			if err != nil {
				return previewOut{}, err
			}
			limit := in.Limit
			if limit <= 0 {
				limit = 10
			}
			answer := func(all []feed.Item, capped bool, at time.Time, from string) previewOut {
				shown := all[:min(limit, len(all))]
				return previewOut{builtOut: b, Coverage: feedCoverage(capped, all, len(shown), len(all)), FetchedAt: rfc(at), ServedFrom: from,
					ItemCount: len(all), Items: shown, ThirdParty: itemsThirdParty}
			}
			// the scheduled feed's copy, while fresh: no request to Google
			st, ok, err := s.store.State(ctx, b.QueryKey)
			if err != nil {
				return previewOut{}, err
			}
			if now := s.clock.Now(); ok && !st.FetchedAt.IsZero() && now.Sub(st.FetchedAt) < poll.Window {
				return answer(st.Items, st.Capped, st.FetchedAt, "feed_cache"), nil
			}
			from := "preview_cache"
			f, meta, err := s.preview.Get(ctx, b.QueryKey, func(ctx context.Context) (feed.Feed, error) {
				from = "google"
				return decodingFetcher{s.client, s.articles}.Fetch(ctx, b.Q, e)
			})
			if err != nil {
				return previewOut{}, err
			}
			at := meta.FetchedAt
			if at.IsZero() {
				at = s.clock.Now()
			}
			return answer(f.Items, f.Capped(), at, from), nil
		})
}

// resolveBuilt returns the built query of a preview: its key's, or built now.
func (s *Service) resolveBuilt(ctx context.Context, in previewIn) (builtOut, error) {
	if in.QueryKey == "" {
		return s.build(ctx, QueryIn{Q: in.Q, Edition: in.Edition, Preset: in.Preset})
	}
	if in.Q != "" || in.Edition != "" || in.Preset != "" {
		return builtOut{}, envelope.Invalid("query_key", "give either query_key or the query fields, not both")
	}
	spec, ok, err := s.store.Spec(ctx, in.QueryKey)
	if err != nil {
		return builtOut{}, err
	}
	if !ok {
		return builtOut{}, unknownKey(in.QueryKey)
	}
	e, err := query.ResolveEdition(spec.Edition)
	if err != nil {
		return builtOut{}, err
	}
	return builtOut{QueryKey: in.QueryKey, Q: spec.Q, Edition: e.CEID, FeedURL: s.client.FeedURL(spec.Q, e)}, nil
}

func unknownKey(k string) error {
	return envelope.New(envelope.NotFound, "unknown query_key %s (keys are kept, not guessed, and may have expired); call build_search_feed to get one", k).
		WithDetail("field", "query_key")
}

type fetchIn struct {
	QueryKey string `json:"query_key" jsonschema:"from build_search_feed" mcp:"pattern=^gnq_[a-z2-7]{24}$"`
	Since    string `json:"since,omitempty" jsonschema:"RFC 3339; newer items only"`
}

type fetchOut struct {
	// Coverage: capped when the polled feed hit Google's 100 items.
	envelope.Coverage
	Status     string              `json:"status" mcp:"enum=fresh|cached|deferred"`
	FetchedAt  string              `json:"fetched_at,omitempty"`
	NextPollAt string              `json:"next_poll_at"`
	ItemCount  int                 `json:"item_count"`
	Items      []feed.Item         `json:"items"`
	LastError  *poll.ErrInfo       `json:"last_error,omitempty"`
	ThirdParty envelope.ThirdParty `json:"third_party"`
}

func (s *Service) fetchTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "fetch_search_feed", Title: "Fetch search feed", Toolset: setFeeds, Hints: toolkit.RemoteRead,
		Description: `Scheduled path: a query_key's items, status fresh (polled now), cached (this 3-hour window) or deferred (throttled: cache served until next_poll_at; last_error). One poll per window per key.
Other errors cost no window. not_found: build_search_feed first.`},
		func(ctx context.Context, in fetchIn) (fetchOut, error) {
			var since time.Time
			if in.Since != "" {
				t, err := time.Parse(time.RFC3339, in.Since)
				if err != nil {
					return fetchOut{}, envelope.Invalid("since", "since must be RFC 3339, e.g. 2026-11-24T09:00:00Z, got %q", in.Since)
				}
				since = t
			}
			r, err := s.poller.Fetch(ctx, in.QueryKey)
			if err != nil {
				return fetchOut{}, err
			}
			out := fetchOut{Status: r.Status, LastError: r.LastError,
				NextPollAt: rfc(r.NextPollAt), Items: filterSince(r.Items, since), ThirdParty: itemsThirdParty}
			out.ItemCount = len(out.Items)
			out.Coverage = feedCoverage(r.Capped, r.Items, len(r.Items), len(r.Items))
			if r.Status == poll.StatusDeferred {
				missing := "this window's poll: Google throttled it, and nothing was fetched yet"
				if !r.FetchedAt.IsZero() {
					missing = "this window's poll: Google throttled it; the items are the last poll's, of " + rfc(r.FetchedAt)
				}
				out.Coverage = envelope.Cut(envelope.Partial, missing, "call fetch_search_feed again after next_poll_at")
			}
			if r.Status != poll.StatusDeferred {
				out.LastError = nil
			}
			if !r.FetchedAt.IsZero() {
				out.FetchedAt = rfc(r.FetchedAt)
			}
			return out, nil
		})
}

func filterSince(items []feed.Item, since time.Time) []feed.Item {
	if since.IsZero() {
		return items
	}
	out := make([]feed.Item, 0, len(items))
	for _, it := range items {
		if t, err := time.Parse(time.RFC3339, it.Published); err == nil && t.After(since) {
			out = append(out, it)
		}
	}
	return out
}

func rfc(t time.Time) string { return t.UTC().Format(time.RFC3339) }
