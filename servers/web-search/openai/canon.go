package openai

import (
	"net/url"
	"strings"
	"unicode"
)

// trackingParams are query parameters that only track the click. The API
// appends utm_source=chatgpt.com (2025) or utm_source=openai (late 2025–2026)
// to cited URLs (source: testdata/contract recordings); the rest are the
// common ad and mail trackers.
var trackingParams = map[string]bool{
	"fbclid": true, "gclid": true, "gclsrc": true, "dclid": true, "gbraid": true, "wbraid": true,
	"msclkid": true, "yclid": true, "twclid": true, "ttclid": true, "li_fat_id": true,
	"mc_cid": true, "mc_eid": true, "_hsenc": true, "_hsmi": true, "igshid": true, "oly_enc_id": true,
	"oly_anon_id": true, "vero_id": true, "_openstat": true, "ref_src": true,
}

func isTracking(key string) bool {
	k := strings.ToLower(key)
	return strings.HasPrefix(k, "utm_") || trackingParams[k]
}

// CleanURL returns raw without tracking parameters (the other parameters keep
// their order and encoding), its domain (host without "www." and port) and a
// key that is equal for URLs that differ only in tracking, scheme, host case,
// a trailing slash or a text fragment. ok is false for anything but an
// absolute http(s) URL.
func CleanURL(raw string) (clean, domain, key string, ok bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", "", "", false
	}
	u.Host = strings.ToLower(u.Host)
	if strings.HasPrefix(u.Fragment, ":~:") { // a text fragment: a highlight, not a place
		u.Fragment, u.RawFragment = "", ""
	}
	if u.RawQuery != "" {
		u.RawQuery = dropTracking(u.RawQuery, u.Fragment == "")
	}
	u.ForceQuery = false
	clean = strings.TrimSpace(u.String()) // as the input was trimmed: cleaning twice changes nothing
	domain = strings.TrimPrefix(u.Hostname(), "www.")
	path := strings.TrimSuffix(u.EscapedPath(), "/")
	key = domain + path
	if u.RawQuery != "" {
		key += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		key += "#" + u.Fragment
	}
	return clean, domain, key, true
}

// hostOf is the lower-case host of a URL without "www.", or "".
func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
}

// dropTracking removes tracking parameters from a raw query. When the query
// ends the URL, its end is trimmed like the input was, and trimming can make
// the new last parameter a tracking one ("fbclid " → "fbclid"): so it filters
// again until the query is stable.
func dropTracking(q string, atEnd bool) string {
	for {
		kept := make([]string, 0, 4)
		for _, kv := range strings.Split(q, "&") {
			if kv == "" {
				continue
			}
			k, _, _ := strings.Cut(kv, "=")
			if uk, err := url.QueryUnescape(k); err == nil {
				k = uk
			}
			if !isTracking(k) {
				kept = append(kept, kv)
			}
		}
		out := strings.Join(kept, "&")
		if !atEnd {
			return out
		}
		trimmed := strings.TrimRightFunc(out, unicode.IsSpace)
		if trimmed == out {
			return out
		}
		q = trimmed
	}
}
