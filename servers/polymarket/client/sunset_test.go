package client

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// Deprecation, Sunset and Warning 299 (as Gamma sends them on /markets) are
// logged once per route per day, at warn level, with the header values, by
// the drift watch every pkg/upstream client feeds.
func TestSunsetHeadersLoggedOncePerRoutePerDay(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Deprecation", "true")
		w.Header().Set("Sunset", "Fri, 01 May 2026 00:00:00 GMT")
		w.Header().Set("Warning", `299 - "use /markets/keyset"`)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"1","slug":"a"}`))
	}))
	t.Cleanup(srv.Close)
	var logs bytes.Buffer
	day := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	w := drift.NewWatch("polymarket", drift.DefaultSample, "")
	w.SetClock(func() time.Time { return day })
	c := New(Config{GammaURL: srv.URL, Timeout: 2 * time.Second, Retries: -1, Logger: zerolog.New(&logs), Drift: w})
	for _, id := range []string{"1", "2", "3"} {
		if _, _, err := c.Market(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(logs.String(), `"drift":"deprecated"`); n != 1 || !strings.Contains(logs.String(), `"route":"get market","drift":"deprecated"`) ||
		!strings.Contains(logs.String(), "use /markets/keyset") || !strings.Contains(logs.String(), "01 May 2026") {
		t.Fatalf("%d warnings: %s", n, logs.String())
	}
	day = day.Add(24 * time.Hour)
	if _, _, err := c.Market(context.Background(), "4"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(logs.String(), `"drift":"deprecated"`); n != 2 {
		t.Fatalf("next day: %d warnings", n)
	}
}
