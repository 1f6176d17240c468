package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
)

type article struct {
	Complete bool   `json:"complete"`
	URL      string `json:"url"`
	Text     string `json:"text"`
	Page     struct {
		Title     string `json:"title"`
		Byline    string `json:"byline"`
		Published string `json:"published"`
	} `json:"page"`
	ThirdParty []string `json:"third_party"`
}

// publisherSite is a publisher on loopback: one article, robots.txt
// disallowing /paywalled/.
func publisherSite(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nDisallow: /paywalled/\n")
	})
	mux.HandleFunc("/business/ports-record", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<html><head><title>Dubai ports handle record volumes</title><meta name="author" content="Omar Saleh">
<meta property="article:published_time" content="2026-11-24T07:00:00Z"></head><body><article><h1>Dubai ports handle record volumes</h1>
<p>Jebel Ali handled a record 1.4 million containers in October, its operator said, as new shipping services added calls in the Gulf.</p>
<p>The operator expects growth to continue into next year, helped by trade with India and East Africa, and plans two new berths.</p></article></body></html>`)
	})
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	return s
}

// TestReadArticle: an item's Google link is decoded through the fake's
// article page and batchexecute (two requests, once: the decoding is kept)
// and the article read through the page reader; the next feed from Google
// carries publisher_url.
func TestReadArticle(t *testing.T) {
	t.Setenv("MCPFLEET_FETCH_ALLOW_LOOPBACK", "1")
	site := publisherSite(t)
	e := start(t, setup{})
	res := e.call(t, "preview_search_feed", map[string]any{"q": "dubai ports", "limit": 3})
	if res.IsError {
		t.Fatal(servetest.Text(res))
	}
	items := servetest.Decode[struct {
		Items []struct {
			URL          string `json:"url"`
			PublisherURL string `json:"publisher_url"`
		} `json:"items"`
	}](t, res).Items
	first := items[0].URL
	id := strings.TrimSuffix(strings.TrimPrefix(first, "https://news.google.com/rss/articles/"), "?oc=5")
	e.fake.SetArticle(id, site.URL+"/business/ports-record")
	for range 2 {
		res = e.call(t, "read_article", map[string]any{"url": first})
		if res.IsError {
			t.Fatal(servetest.Text(res))
		}
		a := servetest.Decode[article](t, res)
		if !a.Complete || a.URL != site.URL+"/business/ports-record" || a.Page.Title != "Dubai ports handle record volumes" ||
			a.Page.Byline != "Omar Saleh" || !strings.Contains(a.Text, "1.4 million containers") || len(a.ThirdParty) == 0 {
			t.Fatalf("%+v", a)
		}
	}
	if pages, batch := e.fake.DecodeRequests(); pages != 1 || batch != 1 {
		t.Errorf("decoded with %d page GETs and %d batchexecute POSTs, want 1 each (kept after the first)", pages, batch)
	}
	// A new query's feed from Google carries what was decoded.
	e.clock.Advance(2 * time.Minute)
	res = e.call(t, "preview_search_feed", map[string]any{"q": "dubai ports", "limit": 3})
	items = servetest.Decode[struct {
		Items []struct {
			URL          string `json:"url"`
			PublisherURL string `json:"publisher_url"`
		} `json:"items"`
	}](t, res).Items
	if items[0].PublisherURL != site.URL+"/business/ports-record" || items[1].PublisherURL != "" {
		t.Errorf("publisher_url after decoding: %+v", items)
	}

	// A publisher URL is read as it is; robots.txt is honoured.
	wantError(t, e.call(t, "read_article", map[string]any{"url": site.URL + "/paywalled/x"}), envelope.PermissionDenied, "robots.txt disallows")
	// An id Google does not resolve says why; one it does not know is not_found.
	e.fake.SetArticle("CBMiBadSig", "") // Google answers the page but resolves the id to no address
	wantError(t, e.call(t, "read_article", map[string]any{"url": "https://news.google.com/rss/articles/CBMiNoSuchId"}), envelope.NotFound, "")
	wantError(t, e.call(t, "read_article", map[string]any{"url": "https://news.google.com/rss/articles/CBMiBadSig"}), envelope.UpstreamError, "could not be decoded")
	// Throttled while decoding: rate_limited, nothing kept.
	e.fake.SetFaults(fake.Faults{Status: 429, Times: 1})
	wantError(t, e.call(t, "read_article", map[string]any{"url": items[1].URL}), envelope.RateLimited, "")
}

// TestReadArticleRefusesPrivateAddresses: without the loopback switch, a
// decoded link (or a URL given) on loopback is refused before any
// connection.
func TestReadArticleRefusesPrivateAddresses(t *testing.T) {
	t.Setenv("MCPFLEET_FETCH_ALLOW_LOOPBACK", "")
	e := start(t, setup{})
	for _, u := range []string{"http://127.0.0.1:1/x", "http://169.254.169.254/latest/meta-data/", "http://[::ffff:10.0.0.1]/", "http://100.64.1.1/"} {
		wantError(t, e.call(t, "read_article", map[string]any{"url": u}), envelope.PermissionDenied, "only public web addresses")
	}
}
