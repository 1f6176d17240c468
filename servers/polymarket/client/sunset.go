package client

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// sunsetLog warns, once per route per UTC day, when Polymarket marks a route
// as going away: Gamma serves the legacy /markets with `deprecation: true`,
// `sunset: Fri, 01 May 2026 00:00:00 GMT` and `warning: 299 - "use
// /markets/keyset"` (a public historical-data cookbook's live probe,
// 2026-08-11; still served Aug–Oct 2026). RFC 8594 (Sunset) and RFC 9745
// (Deprecation) name the headers; Warning code 299 is "miscellaneous
// persistent warning" (RFC 7234 §5.5.7).
type sunsetLog struct {
	log  zerolog.Logger
	mu   sync.Mutex
	seen map[string]string // route → UTC day last logged
	now  func() time.Time
}

func (l *sunsetLog) check(route string, h http.Header) {
	dep, sun := h.Get("Deprecation"), h.Get("Sunset")
	var warn string
	for _, w := range h.Values("Warning") {
		if strings.HasPrefix(strings.TrimSpace(w), "299") {
			warn = w
			break
		}
	}
	if dep == "" && sun == "" && warn == "" {
		return
	}
	now := time.Now
	if l.now != nil {
		now = l.now
	}
	day := now().UTC().Format("2006-01-02")
	l.mu.Lock()
	if l.seen[route] == day {
		l.mu.Unlock()
		return
	}
	if len(l.seen) > 1000 {
		clear(l.seen)
	}
	l.seen[route] = day
	l.mu.Unlock()
	l.log.Warn().Str("route", route).Str("deprecation", dep).Str("sunset", sun).Str("warning", warn).
		Msg("Polymarket marks this route as deprecated; move off it before the sunset")
}

// routeOf names a request path without its ids, so /markets/123 and
// /markets/456 are one route: a segment with a digit, or anything after slug/
// or user_address/, becomes {id}; a numeric or 0x segment too.
func routeOf(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		if i > 0 && (parts[i-1] == "slug" || parts[i-1] == "user_address") || isDigits(p, 80) || strings.HasPrefix(p, "0x") {
			parts[i] = "{id}"
		}
	}
	return strings.Join(parts, "/")
}
