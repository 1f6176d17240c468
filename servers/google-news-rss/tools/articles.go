package tools

import (
	"context"
	"errors"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/cache"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/pagereader"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/feed"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

// DecodedTTL is how long a decoded publisher link is kept: an article id
// names one article for good, so it is decoded once and kept (in the state
// file or Redis) for as long as items that carry it are served.
const DecodedTTL = 30 * 24 * time.Hour

// decodedLink is what decoding one article id gave: the publisher URL, or
// why Google would not resolve it.
type decodedLink struct {
	URL string `json:"url,omitempty"`
	Why string `json:"why,omitempty"`
}

// Articles decodes item links and reads the articles.
type Articles struct {
	client  *feed.Client
	decoded *cache.Cache[decodedLink]
	reader  *pagereader.Reader
}

// errNotDecoded: the link was never decoded (a lookup, not a failure).
var errNotDecoded = errors.New("not decoded yet")

// known is the kept decoding of id, if any; it asks Google nothing.
func (a *Articles) known(ctx context.Context, id string) (decodedLink, bool) {
	if a == nil || a.decoded == nil {
		return decodedLink{}, false
	}
	d, _, err := a.decoded.Get(ctx, id, func(context.Context) (decodedLink, error) { return decodedLink{}, errNotDecoded })
	return d, err == nil
}

// decode is id's publisher URL: kept, or asked of Google (two requests from
// the request budget), then kept. Budget refusals, throttles and network
// failures are returned as they are and not kept.
func (a *Articles) decode(ctx context.Context, id string, e query.Edition) (decodedLink, error) {
	return getDecoded(ctx, a.decoded, id, func(ctx context.Context) (decodedLink, error) {
		u, err := a.client.DecodeArticle(ctx, id, e)
		var und *feed.Undecodable
		if errors.As(err, &und) {
			return decodedLink{Why: und.Why}, nil // Google answered: keep the answer
		}
		return decodedLink{URL: u}, err
	})
}

func getDecoded(ctx context.Context, c *cache.Cache[decodedLink], id string, fetch func(context.Context) (decodedLink, error)) (decodedLink, error) {
	d, _, err := c.Get(ctx, id, fetch)
	return d, err
}

// withPublishers is f with the publisher URL of every item decoded before.
// It asks Google nothing.
func (a *Articles) withPublishers(ctx context.Context, f feed.Feed) feed.Feed {
	if a == nil {
		return f
	}
	items := make([]feed.Item, len(f.Items))
	for i, it := range f.Items {
		if it.ArticleID == "" {
			items[i] = it
			continue
		}
		if d, ok := a.known(ctx, it.ArticleID); ok {
			it.PublisherURL = d.URL
		}
		items[i] = it
	}
	f.Items = items
	return f
}

// decodingFetcher fills publisher URLs into every feed polled or previewed.
type decodingFetcher struct {
	c *feed.Client
	a *Articles
}

func (d decodingFetcher) Fetch(ctx context.Context, q string, e query.Edition) (feed.Feed, error) {
	f, err := d.c.Fetch(ctx, q, e)
	if err != nil {
		return f, err
	}
	return d.a.withPublishers(ctx, f), nil
}

type readIn struct {
	URL      string `json:"url"`
	Edition  string `json:"edition,omitempty" mcp:"maxLength=5"`
	Start    int    `json:"start,omitempty" mcp:"min=0"`
	MaxChars int    `json:"maxChars,omitempty" mcp:"min=1000;max=50000"`
}

// readOut is the shared page result; its url is the publisher's (after
// redirects).
type readOut = pagereader.Result

func (a *Articles) readTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "read_article", Title: "Read article", Toolset: setFeeds, Hints: toolkit.RemoteRead,
		Description: `Item url (decoded once: 2 requests of the budget; edition = its feed's) or publisher_url → article Markdown + page{title, byline, published}. complete=false: again with start=N.`},
		a.read)
}

func (a *Articles) read(ctx context.Context, in readIn) (readOut, error) {
	if in.Start < 0 {
		return readOut{}, envelope.Invalid("start", "start must be 0 or the start=N a cut result named")
	}
	if in.MaxChars != 0 && (in.MaxChars < pagereader.MinWindow || in.MaxChars > pagereader.MaxWindow) {
		return readOut{}, envelope.Invalid("maxChars", "maxChars must be %d..%d (default %d)", pagereader.MinWindow, pagereader.MaxWindow, pagereader.DefaultWindow)
	}
	target := in.URL
	if id, ok := feed.ArticleID(in.URL, a.client.Base()); ok {
		ed := in.Edition
		if ed == "" {
			ed = "US:en"
		}
		e, err := query.ResolveEdition(ed)
		if err != nil {
			return readOut{}, err
		}
		d, err := a.decode(ctx, id, e)
		if err != nil {
			return readOut{}, err
		}
		if d.URL == "" {
			return readOut{}, envelope.New(envelope.UpstreamError, "this Google News link could not be decoded to the publisher's URL: %s; search for the headline with web-search or open the link in a browser", extract.Clip(d.Why, 200)).
				WithDetail("undecodable", d.Why)
		}
		target = d.URL
	}
	p, err := a.reader.Read(ctx, target)
	if err != nil {
		return readOut{}, err
	}
	return p.Result("read_article", in.Start, in.MaxChars), nil
}
