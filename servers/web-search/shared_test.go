package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

func redisURL(srv *redistest.Server) string { return "redis://" + srv.Addr() + "/0" }

// TestReplicasShareTheLimit: two server instances on one real redis-server
// admit 20 searches in total for one user, not 20 each; identical repeats
// are answered from the shared cache by either replica; the Redis keys
// hold no secret.
func TestReplicasShareTheLimit(t *testing.T) {
	srv := redistest.StartServer(t)
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	t.Setenv("OPENAI_API_KEY", "sk-test")
	t.Setenv("MCPFLEET_REDIS_URL", redisURL(srv))
	var conns []*servetest.Conn
	for i := 0; i < 2; i++ {
		conns = append(conns, servetest.New(t, app(&tools.Config{}), "--base-url", base+"/v1"))
	}
	admitted := 0
	for i := 0; i < 30; i++ {
		res := conns[i%2].Call(t, "search_web", q(fmt.Sprintf("distinct query %d", i)))
		if !res.IsError {
			admitted++
			continue
		}
		if b := servetest.ErrorBody(t, res); b.Code != envelope.RateLimited || b.RetryAfterS == nil {
			t.Fatalf("call %d: %+v", i, b)
		}
	}
	if admitted != 20 || f.Count() != 20 {
		t.Fatalf("admitted %d, OpenAI asked %d times; want 20 over both replicas", admitted, f.Count())
	}
	for _, c := range conns {
		caps := servetest.Decode[tools.CapsOut](t, c.Call(t, "get_search_capabilities", nil))
		if caps.Remaining != 0 || !caps.Server.Shared || caps.NextFreeAt == "" {
			t.Errorf("caps %+v", caps)
		}
	}
	// Replica B answers replica A's search from the shared cache, free.
	out := servetest.Decode[tools.SearchOut](t, conns[1].Call(t, "search_web", q("distinct query 0")))
	if !out.Trace.Cached || f.Count() != 20 {
		t.Errorf("shared cache: cached %v, %d requests", out.Trace.Cached, f.Count())
	}
	keys, err := srv.NewClient(t).Keys(context.Background(), "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !strings.HasPrefix(k, "websearch:rl:") && !strings.HasPrefix(k, "websearch:cache:") || strings.Contains(k, "sk-test") {
			t.Errorf("Redis key %q", k)
		}
	}
}

// TestRedisGoneFailsClosed: when Redis goes away the limit guards spend, so
// searches are refused with a retryable error and nothing reaches OpenAI;
// get_search_capabilities still answers and says why.
func TestRedisGoneFailsClosed(t *testing.T) {
	srv := redistest.StartServer(t)
	e := start(t, setup{redisURL: redisURL(srv)})
	_ = srv.NewClient(t).ShutdownNoSave(context.Background()).Err()
	b := servetest.ErrorBody(t, e.search(t, q("redis is down")))
	if b.Code != envelope.UpstreamUnavailable || !b.Retryable || !strings.Contains(b.Message, "MCPFLEET_REDIS_URL") || !strings.Contains(b.Message, "nothing was sent") {
		t.Fatalf("%+v", b)
	}
	if e.fake.Count() != 0 {
		t.Errorf("searched without the shared limit: %d requests", e.fake.Count())
	}
	caps := servetest.Decode[tools.CapsOut](t, e.conn.Call(t, "get_search_capabilities", nil))
	if !strings.Contains(caps.Note, "Redis") || caps.Remaining != 0 {
		t.Errorf("caps %+v", caps)
	}
}
