package tools

import (
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/poll"
)

// PreviewTTL: a preview of the same query_key within a minute is served from
// memory (Outsharp/shipp-skills skills/google-news/SKILL.md suggests ≥ 60 s
// between polls of one feed).
const PreviewTTL = time.Minute

// PreviewCopies bounds the parsed previews kept in memory.
const PreviewCopies = 256

// Service holds what the tools share.
type Service struct {
	client  *feed.Client
	poller  *poll.Poller
	store   poll.Store
	clock   clock.Clock
	preview *cache.Cache[feed.Feed]
	// articles decodes item links and reads articles (read_article).
	articles *Articles
}

// Toolsets.
const (
	setReference = "reference"
	setFeeds     = "feeds"
)

// All returns the six tools.
func All(s *Service) []toolkit.Tool {
	return []toolkit.Tool{listEditions(), explainOperators(), s.buildTool(), s.previewTool(), s.fetchTool(), s.articles.readTool()}
}
