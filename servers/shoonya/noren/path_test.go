package noren

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestArgumentsNeverReachThePath: Noren takes every argument in the jData body;
// the URL path is only the fixed route name, so a token or exchange of ".."
// cannot change which route is called (the other servers build such paths
// with upstream.Path).
func TestArgumentsNeverReachThePath(t *testing.T) {
	var mu sync.Mutex
	var paths, bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		paths, bodies = append(paths, r.URL.EscapedPath()), append(bodies, string(b))
		mu.Unlock()
		_, _ = io.WriteString(w, `{"stat":"Ok","lp":"1.5"}`)
	}))
	defer srv.Close()
	c := New(Config{Era: OAuth, RESTURL: srv.URL + "/NorenWClientAPI/", Timeout: 3 * time.Second})
	a := &Auth{Era: OAuth, UID: "U", ActID: "U", Token: "tok"}
	if _, err := c.GetQuotes(context.Background(), a, "../x", ".."); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) != 1 || paths[0] != "/NorenWClientAPI/GetQuotes" || !strings.Contains(bodies[0], `"token":".."`) {
		t.Errorf("paths %v bodies %v", paths, bodies)
	}
}
