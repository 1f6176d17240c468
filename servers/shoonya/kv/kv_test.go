package kv_test

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
)

// backends are the three homes of the shared state; two handles on one
// backend are two replicas (Redis) or two processes (the state file).
func backends(t *testing.T) map[string][2]kv.State {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	a, err := kv.NewStored(ctx, storetest.Open(t, filepath.Join(dir, "s.db")))
	if err != nil {
		t.Fatal(err)
	}
	b, err := kv.NewStored(ctx, storetest.Open(t, filepath.Join(dir, "s.db")))
	if err != nil {
		t.Fatal(err)
	}
	rs := redistest.StartServer(t)
	m := kv.NewMemory()
	return map[string][2]kv.State{
		"memory": {m, m},
		"file":   {a, b},
		"redis":  {kv.NewRedis(rs.NewClient(t)), kv.NewRedis(rs.NewClient(t))},
	}
}

// TestUpdateIsAtomicAcrossHandles: 2×50 concurrent increments through two
// handles lose none.
func TestUpdateIsAtomicAcrossHandles(t *testing.T) {
	for name, pair := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			var wg sync.WaitGroup
			for _, st := range pair {
				for range 50 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						err := st.Update(ctx, "n", time.Minute, func(cur []byte) ([]byte, error) {
							n, _ := strconv.Atoi(string(cur))
							return []byte(strconv.Itoa(n + 1)), nil
						})
						if err != nil {
							t.Error(err)
						}
					}()
				}
			}
			wg.Wait()
			got, err := pair[1].Get(ctx, "n")
			if err != nil || string(got) != "100" {
				t.Fatalf("got %q, %v; want 100", got, err)
			}
		})
	}
}

func TestUpdateAbortDeleteAndExpiry(t *testing.T) {
	for name, pair := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			st := pair[0]
			boom := errors.New("refused")
			_ = st.Update(ctx, "k", 0, func([]byte) ([]byte, error) { return []byte("v1"), nil })
			if err := st.Update(ctx, "k", 0, func([]byte) ([]byte, error) { return []byte("v2"), boom }); !errors.Is(err, boom) {
				t.Fatalf("abort: %v", err)
			}
			if got, _ := pair[1].Get(ctx, "k"); string(got) != "v1" {
				t.Fatalf("after abort: %q", got)
			}
			_ = st.Update(ctx, "k", 0, func([]byte) ([]byte, error) { return nil, nil })
			if got, _ := pair[1].Get(ctx, "k"); got != nil {
				t.Fatalf("after delete: %q", got)
			}
			_ = st.Update(ctx, "e", 50*time.Millisecond, func([]byte) ([]byte, error) { return []byte("x"), nil })
			time.Sleep(120 * time.Millisecond)
			if got, _ := pair[1].Get(ctx, "e"); got != nil {
				t.Fatalf("expired key still there: %q", got)
			}
		})
	}
}
