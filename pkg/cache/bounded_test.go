package cache

import (
	"sync"
	"testing"
)

func TestBounded(t *testing.T) {
	b := &Bounded[string, int]{Max: 3}
	if _, ok := b.Get("a"); ok {
		t.Fatal("hit in an empty map")
	}
	for i, k := range []string{"a", "b", "c"} {
		b.Put(k, i)
	}
	if v, ok := b.Get("b"); !ok || v != 1 || b.Len() != 3 {
		t.Fatalf("b = %v %v, len %d", v, ok, b.Len())
	}
	b.Put("c", 9) // a key already held still counts as full: starts over
	if b.Len() != 1 {
		t.Fatalf("len %d after a put into a full map, want 1", b.Len())
	}
	if v, ok := b.Get("c"); !ok || v != 9 {
		t.Fatalf("c = %v %v", v, ok)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 100 {
				b.Put(string(rune('a'+g)), i)
				b.Get("c")
			}
		}()
	}
	wg.Wait()
	if b.Len() > 3 {
		t.Fatalf("len %d over the bound", b.Len())
	}
	var d Bounded[int, int] // the zero value: DefaultBoundedMax
	for i := range DefaultBoundedMax + 1 {
		d.Put(i, i)
	}
	if d.Len() != 1 {
		t.Fatalf("zero value: len %d after %d puts, want 1", d.Len(), DefaultBoundedMax+1)
	}
}
