package sessions

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

// TestLookupRefreshesWhenDue: a use refreshes the idle TTL only once a tenth
// of it has passed since the last refresh; in between it only reads.
func TestLookupRefreshesWhenDue(t *testing.T) {
	rdb := redistest.Start(t)
	ctx := context.Background()
	ttl := 2 * time.Second
	s := NewRedis(rdb, ttl, 10, 10)
	id, err := s.Reserve(ctx, "alice", nil)
	if err != nil {
		t.Fatal(err)
	}
	key := hashKey(id)
	exp := func() string { return rdb.HGet(ctx, key, "exp").Val() }
	first := exp()
	if first == "" {
		t.Fatal("reserve recorded no expiry")
	}
	if _, _, ok, err := s.Lookup(ctx, id); !ok || err != nil {
		t.Fatalf("lookup: %v %v", ok, err)
	}
	if got := exp(); got != first {
		t.Fatalf("a use right after the refresh rewrote the expiry: %s → %s", first, got)
	}
	time.Sleep(ttl/10 + 50*time.Millisecond)
	if _, _, ok, err := s.Lookup(ctx, id); !ok || err != nil {
		t.Fatalf("lookup: %v %v", ok, err)
	}
	second := exp()
	if second == first {
		t.Fatal("a use after a tenth of the TTL did not refresh it")
	}
	score := rdb.ZScore(ctx, allKey, key).Val()
	if fmt.Sprint(int64(score)) != second {
		t.Fatalf("the count's score %v is not the session's expiry %s", score, second)
	}
	if pttl := rdb.PTTL(ctx, key).Val(); pttl < ttl-ttl/10 {
		t.Fatalf("PTTL %v after a refresh, want about %v", pttl, ttl)
	}
	// A hash an older replica wrote has no expiry: the first use records one.
	rdb.HDel(ctx, key, "exp")
	if _, _, ok, _ := s.Lookup(ctx, id); !ok || exp() == "" {
		t.Fatal("a session without an expiry field was not refreshed")
	}
}
