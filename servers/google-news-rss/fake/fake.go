// Package fake is a faithful fake of Google News' RSS search feed, built from
// public sources cited per behaviour (the captures in feed/testdata/SOURCES.md,
// pygooglenews, ranahaani/GNews, Outsharp's SKILL.md, issue threads):
// feeds shaped like the real captures, the /rss/unsupported redirect, the
// ~100-item cap, Google's throttling as it really comes (a 302 to
// www.google.com/sorry/index on another host, which answers 429), a consent
// redirect, GET counts per minute, and switchable faults (429, 503, the
// "Sorry…" page, slow answers, truncated XML, a non-RSS 200). Loopback only.
package fake

import (
	"encoding/json"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
)

// Options configure the fake.
type Options struct {
	// Items per search feed; default 30, capped at MaxItems.
	Items int
	// Now is the fake's clock for pubDates (default clock.MustFromEnv: MCPFLEET_FAKE_NOW, else the wall clock).
	Now func() time.Time
	// CDATA serves descriptions in CDATA (see RenderOptions.CDATA).
	CDATA bool
	// SorryBase is the base URL playing www.google.com, where throttled
	// searches are redirected (its /sorry/index answers 429). Start serves it
	// on a second loopback port when empty.
	SorryBase string
	// ThrottleAbove makes the fake throttle on its own, as Google does after
	// a run of requests: past this many search GETs in one minute (of Now),
	// the rest of that minute is redirected to the Sorry page. 0: never.
	// Public reports put Google's threshold at 20-30 quick requests
	// (Hakim-Github/my-google-news issue #2); the value is the test's.
	ThrottleAbove int
}

// Request is one search request as received.
type Request struct {
	Q, HL, GL, CEID string
}

// Server is the fake Google News.
type Server struct {
	o         Options
	mu        sync.Mutex
	faults    fakeupstream.Queue[Faults]
	requests  []Request
	perMinute map[time.Time]int // search GETs per minute of Now
	sorryHits int
	drift     fakeupstream.Drifter
	// articles maps an article id to its publisher URL (articles.go).
	articles            map[string]string
	pageHits, batchHits int
}

// Drift is the switch that makes this fake drift from Google News
// (deprecation headers, a renamed element, a new link form, a new error
// body) and counts requests by method and path; Start serves through it.
func (s *Server) Drift() *fakeupstream.Drifter { return &s.drift }

// New builds a fake.
func New(o Options) *Server {
	if o.Items == 0 {
		o.Items = 30
	}
	if o.Now == nil {
		o.Now = clock.MustFromEnv().Now
	}
	return &Server{o: o}
}

// Start serves the fake on a loopback port (and, unless Options.SorryBase is
// set, the www.google.com role on a second one); stop shuts both down.
func (s *Server) Start() (baseURL string, stop func()) {
	ts := httptest.NewServer(s.drift.Wrap(s))
	s.mu.Lock()
	own := s.o.SorryBase == ""
	s.mu.Unlock()
	if !own {
		return ts.URL, ts.Close
	}
	sorry := httptest.NewServer(s.SorryHandler())
	s.mu.Lock()
	s.o.SorryBase = sorry.URL
	s.mu.Unlock()
	return ts.URL, func() { ts.Close(); sorry.Close() }
}

// SetSorryBase sets where throttled searches are redirected (the
// www.google.com role), for servers started without Start.
func (s *Server) SetSorryBase(base string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.o.SorryBase = base
}

// GetsPerMinute returns the search GETs received per minute of Now.
func (s *Server) GetsPerMinute() map[time.Time]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[time.Time]int, len(s.perMinute))
	for m, n := range s.perMinute {
		out[m] = n
	}
	return out
}

// MaxGetsPerMinute is the most search GETs received in one minute.
func (s *Server) MaxGetsPerMinute() int {
	n := 0
	for _, v := range s.GetsPerMinute() {
		n = max(n, v)
	}
	return n
}

// SorryHits counts requests that reached the www.google.com role (a client
// that follows the throttle redirect; google-news-rss never does).
func (s *Server) SorryHits() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sorryHits
}

// Requests returns the search requests received, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count returns how many search requests were received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// supported are the editions the fake serves: the 24 English editions of
// Google's picker plus some non-English ones (source: ranahaani/GNews
// gnews/utils/constants.py AVAILABLE_COUNTRIES). Anything else is redirected
// to /rss/unsupported, as Google does for feeds it does not serve
// (kotartemiy/pygooglenews pygooglenews/__init__.py checks for it; that AE:en
// is one is assumed: a public build log saw "a redirect with no usable body").
var supported = map[string]string{
	"US:en": "en-US", "GB:en": "en-GB", "IN:en": "en-IN", "AU:en": "en-AU", "CA:en": "en-CA", "IL:en": "en-IL",
	"SG:en": "en-SG", "NZ:en": "en-NZ", "IE:en": "en-IE", "ZA:en": "en-ZA", "PK:en": "en-PK", "NG:en": "en-NG",
	"KE:en": "en-KE", "PH:en": "en-PH", "MY:en": "en-MY", "GH:en": "en-GH", "UG:en": "en-UG", "TZ:en": "en-TZ",
	"ZW:en": "en-ZW", "BW:en": "en-BW", "NA:en": "en-NA", "ET:en": "en-ET", "ID:en": "en-ID", "LV:en": "en-LV",
	"AE:ar": "ar", "SA:ar": "ar", "ID:id": "id", "LV:lv": "lv",
}

// ServeHTTP routes /rss/search, /rss/unsupported and POST /_fake/faults.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_fake/faults":
		s.serveFaults(w, r)
	case strings.HasPrefix(r.URL.Path, "/rss/unsupported"):
		writeXML(w, unsupportedFeed(s.o.Now()))
	case r.URL.Path == "/rss/search" && (r.Method == http.MethodGet || r.Method == http.MethodHead):
		s.search(w, r)
	case strings.HasPrefix(r.URL.Path, "/rss/articles/") && r.Method == http.MethodGet:
		s.articlePage(w, r)
	case r.URL.Path == "/_/DotsSplashUi/data/batchexecute" && r.Method == http.MethodPost:
		s.batchExecute(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) search(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	req := Request{Q: v.Get("q"), HL: v.Get("hl"), GL: v.Get("gl"), CEID: v.Get("ceid")}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	f := s.take()
	if s.perMinute == nil {
		s.perMinute = map[time.Time]int{}
	}
	minute := s.o.Now().UTC().Truncate(time.Minute)
	s.perMinute[minute]++
	if s.o.ThrottleAbove > 0 && s.perMinute[minute] > s.o.ThrottleAbove {
		f.SorryRedirect = true
	}
	sorryBase := s.o.SorryBase
	s.mu.Unlock()

	if f.SlowMS > 0 {
		select {
		case <-time.After(time.Duration(f.SlowMS) * time.Millisecond):
		case <-r.Context().Done():
			return
		}
	}
	if f.applyRedirect(w, r, sorryBase) || f.applyStatus(w) {
		return
	}
	hl, ok := supported[req.CEID]
	if f.Unsupported || !ok || hl != req.HL || !strings.HasPrefix(req.CEID, req.GL+":") {
		// Google redirects feeds it does not serve (pygooglenews
		// pygooglenews/__init__.py); the mismatch rule
		// for hl/gl/ceid is // assumed (Outsharp: mismatches "may return
		// unexpected or empty results").
		http.Redirect(w, r, "/rss/unsupported?"+r.URL.RawQuery, http.StatusFound)
		return
	}
	now := s.o.Now()
	stories := Stories(req.Q, s.o.Items, now)
	s.remember(stories)
	body := RenderSearch(req.Q, stories, RenderOptions{HL: req.HL, GL: req.GL, CEID: req.CEID, CDATA: s.o.CDATA, BuildTime: now})
	if f.Truncated {
		body = body[:len(body)*2/3] // cut mid-document; Content-Length matches what is sent
	}
	writeXML(w, body)
}

// writeXML answers 200 application/xml (// assumed: no public capture
// records the content type).
func writeXML(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	_, _ = w.Write(body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
