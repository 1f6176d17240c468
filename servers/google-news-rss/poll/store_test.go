package poll

import (
	"context"
	"fmt"
	"testing"
)

// The memory store stays bounded: past MaxMemoryKeys one key (and its feed)
// is forgotten for each new one.
func TestMemoryStoreBounded(t *testing.T) {
	ctx := context.Background()
	s := NewMemoryStore()
	for i := 0; i <= MaxMemoryKeys; i++ {
		k := fmt.Sprintf("k%d", i)
		if err := s.PutSpec(ctx, k, Spec{Q: k, Edition: "US:en"}); err != nil {
			t.Fatal(err)
		}
		if err := s.PutState(ctx, k, State{PolledWindow: int64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	m := s.(*memStore)
	if len(m.specs) != MaxMemoryKeys || len(m.states) != MaxMemoryKeys {
		t.Fatalf("%d specs, %d states", len(m.specs), len(m.states))
	}
	if _, ok, _ := s.Spec(ctx, fmt.Sprintf("k%d", MaxMemoryKeys)); !ok {
		t.Fatal("the newest key was evicted")
	}
	// a state for a key that is not kept is not stored
	_ = s.PutState(ctx, "unknown", State{})
	if _, ok, _ := s.State(ctx, "unknown"); ok {
		t.Fatal("state without a spec")
	}
}
