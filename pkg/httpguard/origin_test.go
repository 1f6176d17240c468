package httpguard

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestOrigin: no Origin, loopback Origins and allowed ones pass (case aside);
// every other Origin is refused before the handler runs.
func TestOrigin(t *testing.T) {
	h := Origin([]string{"https://App.example/"}, func(w http.ResponseWriter, status int, _ string) { w.WriteHeader(status) },
		http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(299) }))
	for origin, want := range map[string]int{
		"":                          299,
		"http://localhost:6274":     299,
		"HTTP://127.0.0.1":          299,
		"http://[::1]:8080":         299,
		"https://app.example":       299,
		"https://evil.example":      403,
		"http://localhost.evil.com": 403,
		"http://127.0.0.1/path":     403,
		"null":                      403,
	} {
		r := httptest.NewRequest("POST", "/mcp", nil)
		if origin != "" {
			r.Header.Set("Origin", origin)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != want {
			t.Errorf("Origin %q: %d, want %d", origin, rec.Code, want)
		}
	}
}
