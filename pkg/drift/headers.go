package drift

import (
	"net/http"
	"strings"
)

// DeprecationOf reads the headers an HTTP service uses to say a route is
// going away: Deprecation (RFC 9745: "@<unix time>", or "true" in older
// drafts and in Polymarket Gamma's answers), Sunset (RFC 8594, an HTTP
// date) and a Warning with code 299, "miscellaneous persistent warning"
// (RFC 9111 §5.5, obsoleted but still sent, e.g. Gamma's legacy /markets:
// `warning: 299 - "use /markets/keyset"`). ok is false when none is there.
func DeprecationOf(h http.Header) (f Finding, ok bool) {
	var parts []string
	if v := h.Get("Deprecation"); v != "" {
		parts = append(parts, "Deprecation: "+clip(v, 60))
	}
	if v := h.Get("Sunset"); v != "" {
		parts = append(parts, "Sunset: "+clip(v, 60))
	}
	for _, w := range h.Values("Warning") {
		if strings.HasPrefix(strings.TrimSpace(w), "299") {
			parts = append(parts, "Warning: "+clip(strings.TrimSpace(w), 120))
			break
		}
	}
	if len(parts) == 0 {
		return Finding{}, false
	}
	return Finding{Kind: Deprecated, Detail: strings.Join(parts, "; ")}, true
}
