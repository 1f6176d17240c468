package guard_test

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
)

// day is a fixed, documented trading day (Monday 2026-11-30, 10:00 IST).
var day = time.Date(2026, 11, 30, 10, 0, 0, 0, time.FixedZone("IST", 5*3600+1800))

type clock struct{ t atomic.Int64 }

func (c *clock) now() time.Time      { return time.Unix(0, c.t.Load()) }
func (c *clock) add(d time.Duration) { c.t.Add(int64(d)) }

func newGuard(c guard.Config) (*guard.Guard, *clock) {
	ck := &clock{}
	ck.t.Store(day.UnixNano())
	return guard.New(c, kv.NewMemory(), ck.now), ck
}

func sbin(key string, qty int, value float64) guard.Order {
	return guard.Order{Key: key, Exch: "NSE", TSym: "SBIN-EQ", Side: "B", Qty: qty, Value: value}
}

// refusedBy checks err is the named guard's refusal: it names the guard,
// its value and how a person lifts it.
func refusedBy(t *testing.T, err error, name string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want refusal by %s, got nil", name)
	}
	e := envelope.From(err)
	if e.Code != envelope.PermissionDenied || e.Details["guard"] != name || e.Details["lift"] == "" || e.Details["value"] == nil {
		t.Fatalf("want refusal by %s naming value and lift, got %s %v", name, e.Message, e.Details)
	}
	if !strings.Contains(e.Message, "nothing was sent") || !strings.Contains(e.Message, "a person must") {
		t.Fatalf("refusal does not say nothing was sent and who lifts it: %s", e.Message)
	}
}

func TestGuards(t *testing.T) {
	ctx := context.Background()
	base := guard.Config{Mode: guard.Live, DuplicateWindow: time.Minute, MaxRejections: 3}
	for _, tt := range []struct {
		name  string
		cfg   func(*guard.Config)
		setup func(g *guard.Guard, ck *clock)
		order guard.Order
		allow bool
		want  string // the refusing guard, "" = allowed
	}{
		{name: "nothing set passes", order: sbin("k1", 1, 700)},
		{name: "orders per day at the cap", cfg: func(c *guard.Config) { c.MaxOrdersPerDay = 2 },
			setup: func(g *guard.Guard, _ *clock) { reserve(t, g, "a", 1); reserve(t, g, "b", 2) }, order: sbin("k", 3, 700), want: "max_orders_per_day"},
		{name: "orders per day below the cap", cfg: func(c *guard.Config) { c.MaxOrdersPerDay = 2 },
			setup: func(g *guard.Guard, _ *clock) { reserve(t, g, "a", 1) }, order: sbin("k", 3, 700)},
		{name: "orders per day: a new IST day starts afresh", cfg: func(c *guard.Config) { c.MaxOrdersPerDay = 1 },
			setup: func(g *guard.Guard, ck *clock) { reserve(t, g, "a", 1); ck.add(24 * time.Hour) }, order: sbin("k", 3, 700)},
		{name: "day value over", cfg: func(c *guard.Config) { c.MaxDayValue = 10000 },
			setup: func(g *guard.Guard, _ *clock) { reserveV(t, g, "a", 1, 9000) }, order: sbin("k", 3, 1500), want: "max_day_value"},
		{name: "day value exactly at the cap", cfg: func(c *guard.Config) { c.MaxDayValue = 10000 },
			setup: func(g *guard.Guard, _ *clock) { reserveV(t, g, "a", 1, 9000) }, order: sbin("k", 3, 1000)},
		{name: "day value: a rejected order gives its value back", cfg: func(c *guard.Config) { c.MaxDayValue = 10000 },
			setup: func(g *guard.Guard, _ *clock) {
				reserveV(t, g, "a", 1, 9000)
				g.Rejected(ctx, "u", "a", 9000, "RMS:Margin Exceeds")
			}, order: sbin("k", 3, 9000)},
		{name: "duplicate with a fresh key inside the window", setup: func(g *guard.Guard, ck *clock) { reserve(t, g, "a", 5); ck.add(30 * time.Second) },
			order: sbin("fresh", 5, 700), want: "duplicate_window"},
		{name: "duplicate confirmed by a person", setup: func(g *guard.Guard, _ *clock) { reserve(t, g, "a", 5) },
			order: sbin("fresh", 5, 700), allow: true},
		{name: "same key is not a duplicate (already_placed answers it)", setup: func(g *guard.Guard, _ *clock) { reserve(t, g, "a", 5) },
			order: sbin("a", 5, 700)},
		{name: "duplicate window passed", setup: func(g *guard.Guard, ck *clock) { reserve(t, g, "a", 5); ck.add(61 * time.Second) },
			order: sbin("fresh", 5, 700)},
		{name: "other quantity is no duplicate", setup: func(g *guard.Guard, _ *clock) { reserve(t, g, "a", 5) }, order: sbin("fresh", 6, 700)},
		{name: "other side is no duplicate", setup: func(g *guard.Guard, _ *clock) { reserve(t, g, "a", 5) },
			order: guard.Order{Key: "fresh", Exch: "NSE", TSym: "SBIN-EQ", Side: "S", Qty: 5, Value: 3500}},
		{name: "duplicate window off", cfg: func(c *guard.Config) { c.DuplicateWindow = 0 }, setup: func(g *guard.Guard, _ *clock) { reserve(t, g, "a", 5) },
			order: sbin("fresh", 5, 700)},
		{name: "frozen after 3 rejections in a row", setup: func(g *guard.Guard, _ *clock) { reject(t, g, 3) }, order: sbin("k", 9, 700), want: "auto_freeze"},
		{name: "2 rejections do not freeze", setup: func(g *guard.Guard, _ *clock) { reject(t, g, 2) }, order: sbin("k", 9, 700)},
		{name: "an accepted order ends the run", setup: func(g *guard.Guard, _ *clock) {
			reject(t, g, 2)
			reserve(t, g, "ok", 7)
			g.Accepted(ctx, "u", "ok", "1001")
			reject(t, g, 2)
		}, order: sbin("k", 9, 700)},
		{name: "resume lifts the freeze", setup: func(g *guard.Guard, _ *clock) { reject(t, g, 3); _ = g.Resume(ctx, "u") }, order: sbin("k", 9, 700)},
		{name: "kill switch by configuration", cfg: func(c *guard.Config) { c.Mode = guard.Halted }, order: sbin("k", 1, 700), want: "kill_switch"},
		{name: "kill switch by a person", setup: func(g *guard.Guard, _ *clock) { _ = g.Halt(ctx, "ops", "news") }, order: sbin("k", 1, 700), want: "kill_switch"},
		{name: "resume lifts a person's halt", setup: func(g *guard.Guard, _ *clock) { _ = g.Halt(ctx, "ops", ""); _ = g.Resume(ctx, "") }, order: sbin("k", 1, 700)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			if tt.cfg != nil {
				tt.cfg(&c)
			}
			g, ck := newGuard(c)
			if tt.setup != nil {
				tt.setup(g, ck)
			}
			_, checkErr := g.Check(ctx, "u", tt.order, tt.allow)
			reserveErr := g.Reserve(ctx, "u", tt.order, tt.allow)
			if tt.want == "" {
				if checkErr != nil || reserveErr != nil {
					t.Fatalf("want allowed: check %v, reserve %v", checkErr, reserveErr)
				}
				return
			}
			refusedBy(t, checkErr, tt.want)
			refusedBy(t, reserveErr, tt.want)
		})
	}
}

func reserve(t *testing.T, g *guard.Guard, key string, qty int) {
	reserveV(t, g, key, qty, 700*float64(qty))
}

func reserveV(t *testing.T, g *guard.Guard, key string, qty int, value float64) {
	t.Helper()
	if err := g.Reserve(context.Background(), "u", guard.Order{Key: key, Exch: "NSE", TSym: "SBIN-EQ", Side: "B", Qty: qty, Value: value}, true); err != nil {
		t.Fatal(err)
	}
}

func reject(t *testing.T, g *guard.Guard, n int) {
	t.Helper()
	for i := range n {
		key := "rej" + string(rune('a'+i)) + time.Unix(0, int64(i)).String()
		reserve(t, g, key, 100+i)
		g.Rejected(context.Background(), "u", key, 0, "RMS:Blocked")
	}
}

// TestReplicasShareCounters: two guards on one Redis (two replicas) or one
// state file (two processes) admit the day's cap once in total, even when
// they race for the last slots.
func TestReplicasShareCounters(t *testing.T) {
	ctx := context.Background()
	rs := redistest.StartServer(t)
	path := filepath.Join(t.TempDir(), "shoonya.db")
	mk := func(kind string) kv.State {
		if kind == "redis" {
			return kv.NewRedis(rs.NewClient(t))
		}
		st, err := kv.NewStored(ctx, storetest.Open(t, path))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	for _, kind := range []string{"redis", "file"} {
		t.Run(kind, func(t *testing.T) {
			cfg := guard.Config{Mode: guard.Live, MaxOrdersPerDay: 5}
			now := func() time.Time { return day }
			a, b := guard.New(cfg, mk(kind), now), guard.New(cfg, mk(kind), now)
			var ok atomic.Int32
			var wg sync.WaitGroup
			for i := range 12 {
				g := a
				if i%2 == 1 {
					g = b
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					if g.Reserve(ctx, "u", guard.Order{Key: kind + string(rune('a'+i)), Exch: "NSE", TSym: "SBIN-EQ", Side: "B", Qty: i + 1, Value: 1}, false) == nil {
						ok.Add(1)
					}
				}()
			}
			wg.Wait()
			if n := ok.Load(); n != 5 {
				t.Fatalf("%d orders admitted across two replicas, cap 5", n)
			}
			_ = a.Halt(ctx, "ops", "")
			refusedBy(t, b.CheckTrading(ctx, "u"), "kill_switch")
			_ = b.Resume(ctx, "u")
			if err := a.CheckTrading(ctx, "u"); err != nil {
				t.Fatalf("resume on one replica did not reach the other: %v", err)
			}
		})
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv(guard.EnvTrading, "PAPER")
	t.Setenv(guard.EnvMaxOrdersPerDay, "7")
	t.Setenv(guard.EnvDuplicateWindow, "90s")
	c, err := guard.FromEnv()
	if err != nil || c.Mode != guard.Paper || c.MaxOrdersPerDay != 7 || c.DuplicateWindow != 90*time.Second || c.MaxRejections != 3 {
		t.Fatalf("%+v %v", c, err)
	}
	for env, v := range map[string]string{guard.EnvTrading: "yolo", guard.EnvMaxRejections: "-1", guard.EnvMaxDayValue: "lots", guard.EnvDuplicateWindow: "1 minute"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, v)
			if _, err := guard.FromEnv(); err == nil || !strings.Contains(err.Error(), env) {
				t.Fatalf("%s=%s: %v", env, v, err)
			}
		})
	}
}

// TestAddValue: a modification that grows an order spends the day's value
// cap like a new order, atomically; giving value back never goes below 0.
func TestAddValue(t *testing.T) {
	ctx := context.Background()
	g, _ := newGuard(guard.Config{Mode: guard.Live, MaxDayValue: 10000})
	if err := g.Reserve(ctx, "u", sbin("a", 1, 700), false); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		delta   float64
		refused bool
		after   float64
	}{
		{"past the cap", 69300, true, 700},
		{"to the cap exactly", 9300, false, 10000},
		{"one rupee more", 1, true, 10000},
		{"given back", -9300, false, 700},
		{"given back past zero", -5000, false, 0},
		{"zero", 0, false, 0},
	} {
		err := g.AddValue(ctx, "u", tt.delta)
		if tt.refused {
			refusedBy(t, err, "max_day_value")
		} else if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if s, err := g.StatusOf(ctx, "u"); err != nil || s.Value != tt.after {
			t.Fatalf("%s: value today %v (%v), want %v", tt.name, s.Value, err, tt.after)
		}
	}
	// Concurrent growth on one state never passes the cap together.
	g2, _ := newGuard(guard.Config{Mode: guard.Live, MaxDayValue: 10000})
	var ok atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if g2.AddValue(ctx, "u", 3000) == nil {
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 3 {
		t.Fatalf("%d of 8 concurrent ₹3,000 changes passed a ₹10,000 cap, want 3", ok.Load())
	}
}
