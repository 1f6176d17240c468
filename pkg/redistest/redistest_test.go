package redistest_test

import (
	"context"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
)

func TestStartAnswersAndIsolates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	a := redistest.Start(t)
	b := redistest.Start(t)
	if redistest.Addr(a) == redistest.Addr(b) {
		t.Fatalf("two Start calls share %s", redistest.Addr(a))
	}
	if err := a.Set(ctx, "k", "a", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if n, err := b.Exists(ctx, "k").Result(); err != nil || n != 0 {
		t.Fatalf("second server sees first server's key: n=%d err=%v", n, err)
	}
}

func TestServerManyClientsShareState(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := redistest.StartServer(t)
	a, b := srv.NewClient(t), srv.NewClient(t)
	if err := a.Set(ctx, "k", "v", 0).Err(); err != nil {
		t.Fatal(err)
	}
	if v, err := b.Get(ctx, "k").Result(); err != nil || v != "v" {
		t.Fatalf("got %q, %v", v, err)
	}
	if redistest.Addr(a) != srv.Addr() {
		t.Fatalf("Addr(client)=%s, server %s", redistest.Addr(a), srv.Addr())
	}
}

func TestNoPersistence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c := redistest.Start(t)
	cfg, err := c.ConfigGet(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if cfg["save"] != "" || cfg["appendonly"] != "no" {
		t.Fatalf("save=%q appendonly=%q", cfg["save"], cfg["appendonly"])
	}
}
