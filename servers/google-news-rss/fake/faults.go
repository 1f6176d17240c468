package fake

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
)

// Faults switch the fake away from the happy path; the zero value is healthy.
type Faults struct {
	// Status answers search requests with this status. 429 and 503 carry the
	// "Sorry…" HTML page (source: iv-org/invidious#2519; 503:
	// Hakim-Github/my-google-news#2);
	// other statuses a short HTML error page (// assumed).
	Status int `json:"status,omitempty"`
	// RetryAfter is sent as Retry-After (seconds) with Status (// assumed:
	// Google is not known to send it).
	RetryAfter int `json:"retry_after,omitempty"`
	// Sorry answers 200 with the "Sorry…" HTML page (iv-org/invidious#2519;
	// assumed: that it can come with a 200).
	Sorry bool `json:"sorry,omitempty"`
	// NonRSS answers 200 with an HTML page that is not a feed (assumed: a
	// consent-style page).
	NonRSS bool `json:"non_rss,omitempty"`
	// Truncated cuts the feed's XML (assumed: a dropped connection).
	Truncated bool `json:"truncated,omitempty"`
	// SlowMS delays every search answer (> 10 s tests the client's timeout).
	SlowMS int `json:"slow_ms,omitempty"`
	// Unsupported redirects every search to /rss/unsupported, as if Google had
	// dropped the edition (pygooglenews pygooglenews/__init__.py).
	Unsupported bool `json:"unsupported,omitempty"`
	// SorryRedirect throttles the real way: a 302 (or RedirectStatus) to
	// {SorryBase}/sorry/index?continue={the search URL}, another host, which
	// answers 429 with the Sorry page. Source: public scrapers of Google News
	// that check for a final URL starting
	// "https://www.google.com/sorry/index?continue=https://news.google.com/"
	// and find a 429 there (issue reports of HTTP 429 from news.google.com,
	// SSujitX/google-news-url-decoder issue #3).
	SorryRedirect bool `json:"sorry_redirect,omitempty"`
	// Consent redirects to https://consent.google.com/ml?continue=…, Google's
	// cookie-consent interstitial for EU/EEA/UK visitors (// assumed for the
	// RSS path; the fake does not serve that host, a client must not follow).
	Consent bool `json:"consent,omitempty"`
	// RedirectStatus is the status of both redirects: 302 (default) or 303.
	RedirectStatus int `json:"redirect_status,omitempty"`
	// Times limits the faults to the next N search requests; 0 = until cleared.
	Times int `json:"times,omitempty"`
}

// SetFaults replaces the active faults (for Times search requests).
func (s *Server) SetFaults(f Faults) { s.faults.Replace(nil, f, f.Times) }

// ClearFaults restores the healthy feed.
func (s *Server) ClearFaults() { s.faults.Clear() }

// take returns the faults for one search request (zero: healthy) and counts
// down their Times.
func (s *Server) take() Faults {
	f, _ := s.faults.Take(nil)
	return f
}

// applyRedirect sends the throttle or consent redirect. RetryAfter rides on
// the redirect too (// assumed: not known whether Google sends it there).
func (f Faults) applyRedirect(w http.ResponseWriter, r *http.Request, sorryBase string) bool {
	if !f.SorryRedirect && !f.Consent {
		return false
	}
	status := f.RedirectStatus
	if status != http.StatusSeeOther {
		status = http.StatusFound
	}
	self := "http://" + r.Host + r.URL.RequestURI()
	target := sorryBase + "/sorry/index?continue=" + url.QueryEscape(self) + "&q=EgR_AAABGNbYvLkGIjB"
	if f.Consent {
		target = "https://consent.google.com/ml?continue=" + url.QueryEscape(self) + "&gl=DE&hl=en-US&pc=n&src=1"
	}
	if f.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
	}
	w.Header().Set("Location", target)
	w.WriteHeader(status)
	return true
}

// SorryHandler is the www.google.com role: /sorry/index answers 429 with
// the "Sorry…" page (iv-org/invidious PR #2519 for the page; 429 as public
// Google News scrapers record it).
func (s *Server) SorryHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.sorryHits++
		s.mu.Unlock()
		if !strings.HasPrefix(r.URL.Path, "/sorry/") {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(sorryPage))
	})
}

func (f Faults) applyStatus(w http.ResponseWriter) bool {
	switch {
	case f.Status != 0:
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		if f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
		}
		w.WriteHeader(f.Status)
		if f.Status == http.StatusTooManyRequests || f.Status == http.StatusServiceUnavailable {
			_, _ = w.Write([]byte(sorryPage))
		} else {
			_, _ = w.Write([]byte("<html><body><h1>" + http.StatusText(f.Status) + "</h1></body></html>"))
		}
	case f.Sorry:
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		_, _ = w.Write([]byte(sorryPage))
	case f.NonRSS:
		w.Header().Set("Content-Type", "text/html; charset=UTF-8")
		_, _ = w.Write([]byte(otherPage))
	default:
		return false
	}
	return true
}

// serveFaults is /_fake/faults (fakeupstream.ServeFaults): a POSTed Faults
// replaces the active one, as SetFaults does.
func (s *Server) serveFaults(w http.ResponseWriter, r *http.Request) {
	fakeupstream.ServeFaults(w, r, &s.faults, nil, s.SetFaults)
}
