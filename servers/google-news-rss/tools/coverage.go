package tools

import (
	"fmt"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
)

// itemsThirdParty are the fields of a feed result written by publishers.
var itemsThirdParty = envelope.ThirdParty{"items[].title", "items[].publisher", "items[].snippet"}

// feedCoverage says what a feed result holds. A feed that hit Google's
// 100-item cap is capped: Google has no paging, so the stories it left out
// are reached only by a narrower query, and the dates the kept items span
// say where to split. shown < total is a preview cut to its limit.
func feedCoverage(capped bool, items []feed.Item, shown, total int) envelope.Coverage {
	switch {
	case capped:
		span := ""
		if oldest, newest, ok := dateSpan(items); ok {
			span = fmt.Sprintf(" (the kept items run from %s to %s)", oldest, newest)
		}
		return envelope.Cut(envelope.Capped,
			fmt.Sprintf("Google sends at most %d items per search feed and this one hit it%s: other matching stories, mostly older ones, are not in it", feed.CapItems, span),
			"split the query into narrower date windows with after:/before: (e.g. after:2026-12-01 before:2026-12-04, then after:2026-11-28 before:2026-12-01; one build_search_feed query per window, when cannot be combined with them), or add terms, intitle or site")
	case shown < total:
		return envelope.Cut(envelope.Truncated, fmt.Sprintf("items %d to %d of this feed", shown+1, total), "raise limit (at most 100), or fetch_search_feed for the whole feed")
	case total == 0:
		return envelope.Nothing("Google News has no items for this query on this edition")
	}
	return envelope.Whole()
}

// dateSpan is the first and last day the items were published on.
func dateSpan(items []feed.Item) (oldest, newest string, ok bool) {
	var lo, hi time.Time
	for _, it := range items {
		t, err := time.Parse(time.RFC3339, it.Published)
		if err != nil {
			continue
		}
		if lo.IsZero() || t.Before(lo) {
			lo = t
		}
		if t.After(hi) {
			hi = t
		}
	}
	if lo.IsZero() {
		return "", "", false
	}
	return lo.UTC().Format(time.DateOnly), hi.UTC().Format(time.DateOnly), true
}
