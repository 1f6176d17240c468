package main

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/fake"
)

// Two server instances on one real redis-server poll a query_key once per
// window between them: the first caller polls, the other is served the cache.
func TestReplicasPollOncePerWindow(t *testing.T) {
	srv := redistest.StartServer(t)
	url := "redis://" + srv.Addr() + "/0"
	a := start(t, setup{redisURL: url})
	b := start(t, setup{redisURL: url, fake: a.fake, clock: a.clock, base: a.base})

	k := a.build(t, map[string]any{"terms": []string{"shipping"}, "site": []string{"reuters.com"}}).QueryKey
	// the key is kept in Redis: replica B knows it without building it
	if r := b.fetch(t, k); r.Status != "fresh" {
		t.Fatalf("B first: %+v", r)
	}
	if r := a.fetch(t, k); r.Status != "cached" || len(r.Items) != 28 {
		t.Fatalf("A same window: %+v", r)
	}
	if n := a.fake.Count(); n != 1 {
		t.Fatalf("%d polls in one window across replicas, want 1", n)
	}

	// next window: concurrent callers on both replicas, still one poll
	a.clock.Advance(3 * time.Hour)
	var wg sync.WaitGroup
	statuses := make(chan string, 6)
	for i := 0; i < 6; i++ {
		e := a
		if i%2 == 1 {
			e = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := e.conn.CallCtx(context.Background(), "fetch_search_feed", map[string]any{"query_key": k})
			if err != nil || res.IsError {
				t.Errorf("concurrent fetch: %v %v", err, res)
				return
			}
			var out fetched
			decodeInto(t, res, &out)
			statuses <- out.Status
		}()
	}
	wg.Wait()
	close(statuses)
	fresh := 0
	for s := range statuses {
		if s == "fresh" {
			fresh++
		}
	}
	if fresh != 1 || a.fake.Count() != 2 {
		t.Fatalf("%d fresh answers, %d polls; want 1 and 2", fresh, a.fake.Count())
	}

	// a throttled window is deferred for both replicas
	a.clock.Advance(3 * time.Hour)
	a.fake.SetFaults(fake.Faults{Status: 429})
	if r := a.fetch(t, k); r.Status != "deferred" {
		t.Fatalf("A throttled: %+v", r)
	}
	a.fake.ClearFaults()
	if r := b.fetch(t, k); r.Status != "deferred" || len(r.Items) != 28 || a.fake.Count() != 3 {
		t.Fatalf("B after A's deferral: %+v, %d polls", r, a.fake.Count())
	}
}

// Without Redis each replica polls on its own (the contrast the shared claim removes).
func TestReplicasWithoutRedisPollEach(t *testing.T) {
	a := start(t, setup{})
	b := start(t, setup{fake: a.fake, clock: a.clock, base: a.base})
	args := map[string]any{"terms": []string{"shipping"}}
	ka, kb := a.build(t, args).QueryKey, b.build(t, args).QueryKey
	if ka != kb {
		t.Fatal("keys differ between replicas")
	}
	a.fetch(t, ka)
	b.fetch(t, kb)
	if a.fake.Count() != 2 {
		t.Fatalf("%d polls", a.fake.Count())
	}
}

// Redis failing after start-up fails closed: nothing is polled, and the
// caller gets upstream_unavailable naming MCPFLEET_REDIS_URL.
func TestRedisDownFailsClosed(t *testing.T) {
	srv := redistest.StartServer(t)
	e := start(t, setup{redisURL: "redis://" + srv.Addr() + "/0"})
	k := e.build(t, map[string]any{"terms": []string{"cotton"}}).QueryKey
	admin := srv.NewClient(t)
	// every later command of the server's client fails with NOAUTH
	if err := admin.ConfigSet(context.Background(), "requirepass", "now-locked").Err(); err != nil {
		t.Fatal(err)
	}
	if err := admin.Do(context.Background(), "CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes").Err(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = admin.Do(context.Background(), "AUTH", "now-locked").Err()
		_ = admin.ConfigSet(context.Background(), "requirepass", "").Err()
	})
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"fetch_search_feed", map[string]any{"query_key": k}},
		{"build_search_feed", map[string]any{"terms": []string{"cotton"}}},
	} {
		b := wantError(t, e.call(t, tc.tool, tc.args), envelope.UpstreamUnavailable, "MCPFLEET_REDIS_URL")
		if !b.Retryable {
			t.Errorf("%s: Redis down is retryable", tc.tool)
		}
	}
	if n := e.fake.Count(); n != 0 {
		t.Fatalf("%d polls with Redis down", n)
	}
}
