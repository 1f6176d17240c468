package subscriptions

import (
	"context"
	"sync"
	"testing"
	"time"
)

// The notifier delivers a change to the keys of the user who watches the
// URI (not to another user's), coalesces a burst into one notification per
// drain, throttles the URIs Throttle picks, and forgets a key wholly.
func TestNotifier(t *testing.T) {
	n := NewNotifier()
	n.Every = 40 * time.Millisecond
	n.Throttle = func(uri string) bool { return uri == "x://all" }
	var mu sync.Mutex
	got := map[[2]string]int{}
	n.SetSender(func(key, uri string) error {
		mu.Lock()
		got[[2]string{key, uri}]++
		mu.Unlock()
		return nil
	})
	count := func(key, uri string) int { mu.Lock(); defer mu.Unlock(); return got[[2]string{key, uri}] }
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go n.Run(ctx)
	n.Subscribe("s1", "alice", "x://one")
	n.Subscribe("s1", "alice", "x://all")
	n.Subscribe("s2", "bob", "x://one")
	if n.Subscriptions() != 3 {
		t.Fatal(n.Subscriptions())
	}
	for i := 0; i < 50; i++ {
		n.Changed("alice", "x://one")
		n.Changed("alice", "x://all")
	}
	time.Sleep(150 * time.Millisecond)
	if c := count("s1", "x://one"); c < 1 || c > 50 {
		t.Fatalf("one: %d", c)
	}
	if c := count("s1", "x://all"); c < 1 || c > 3 {
		t.Fatalf("throttled all: %d in 150 ms at one per 40 ms", c)
	}
	if c := count("s2", "x://one"); c != 0 {
		t.Fatalf("bob heard alice's change %d times", c)
	}
	n.Forget("s1")
	n.Unsubscribe("s2", "x://one")
	if n.Subscriptions() != 0 {
		t.Fatal(n.Subscriptions())
	}
}
