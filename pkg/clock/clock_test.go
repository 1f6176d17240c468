package clock

import (
	"testing"
	"time"
)

func TestFake(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewFake(t0)
	c.Advance(90 * time.Second)
	if got := c.Now(); !got.Equal(t0.Add(90 * time.Second)) {
		t.Fatalf("after Advance: %v", got)
	}
	c.Set(t0)
	if !c.Now().Equal(t0) {
		t.Fatal("Set")
	}
	var _ Clock = System{}
	if time.Since(System{}.Now()) > time.Second {
		t.Fatal("System is not now")
	}
}
