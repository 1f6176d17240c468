package client

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Public live-probe records (testdata/contract/README.md names each source)
// replayed against the client.
func TestContractObserved(t *testing.T) {
	ctx := context.Background()
	t.Run("comments with market: 422 naming the valid types", func(t *testing.T) {
		c := replay(t, exchange{method: "GET", path: "/comments", status: 422, file: "observed_comments_market_422.json"})
		_, _, err := c.Comments(ctx, url.Values{"parent_entity_type": {"market"}, "parent_entity_id": {"559651"}})
		if e := envelope.From(err); err == nil || !strings.Contains(e.Message, "Event, Series, PerpsAsset") {
			t.Fatalf("%v", err)
		}
	})
	t.Run("holders null is an empty list", func(t *testing.T) {
		c := replay(t, exchange{method: "GET", path: "/holders", status: 200, file: "observed_holders_null.json"})
		gs, _, err := c.Holders(ctx, url.Values{"market": {"0x" + strings.Repeat("0", 64)}})
		if err != nil || gs == nil || len(gs) != 0 {
			t.Fatalf("%v %v", gs, err)
		}
	})
	for _, f := range []string{"observed_history_fidelity_400.json", "observed_history_span_400.json"} {
		t.Run(f, func(t *testing.T) {
			c := replay(t, exchange{method: "GET", path: "/prices-history", status: 400, file: f})
			_, _, err := c.History(ctx, HistoryQuery{Token: "1", Interval: "1m", Fidelity: 5})
			if e := envelope.From(err); err == nil || e.Code != envelope.InvalidArgument || !strings.Contains(e.Message, "invalid filters") {
				t.Fatalf("%v", err)
			}
		})
	}
	t.Run("a 200 Too Many Requests body is rate_limited", func(t *testing.T) {
		c := replay(t, exchange{method: "GET", path: "/activity", status: 200, file: "busy_200.json"})
		_, _, err := c.Activity(ctx, url.Values{})
		e := envelope.From(err)
		if err == nil || e.Code != envelope.RateLimited || !e.Retryable || e.RetryAfter <= 0 {
			t.Fatalf("%+v", e)
		}
	})
}

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
	c := New(Config{GammaURL: srv.URL, Timeout: 2 * time.Second, Retries: -1, Logger: zerolog.New(&logs)})
	day := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	drift.Default().Reset()
	drift.Default().SetClock(func() time.Time { return day })
	t.Cleanup(func() { drift.Default().SetClock(time.Now); drift.Default().Reset() })
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

// A resolved market found by token on the keyset route: its closedTime (not
// RFC 3339, and weeks before endDate) is what history windows end at.
func TestContractKeysetClosedMarket(t *testing.T) {
	tok := "25714007960293389110960044475283546872601238755063051359394740854408462452120"
	c := replay(t, exchange{method: "GET", path: "/markets/keyset", query: map[string]string{"clob_token_ids": tok, "closed": "false", "include_tag": "true", "limit": "1"}, status: 200, file: "observed_keyset_closed.json"})
	m, _, err := c.Market(context.Background(), tok)
	if err != nil || m.ID != "2169995" || !m.Closed {
		t.Fatalf("%+v %v", m, err)
	}
	at, ok := ParseGammaTime(m.ClosedTime)
	if !ok || !at.Equal(time.Date(2026, 6, 4, 0, 34, 19, 0, time.UTC)) {
		t.Fatalf("closedTime %q → %v", m.ClosedTime, at)
	}
}
