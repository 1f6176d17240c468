package ratelimit

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
)

func openStore(t testing.TB, path string) *store.DB {
	t.Helper()
	db := storetest.Open(t, path)
	return db
}

// TestStoreTwoHandlesAdmitExactlyN: two independent handles on one file (two
// pools, two write mutexes: only SQLite's lock between them), hammered at
// once, admit exactly the limit.
func TestStoreTwoHandlesAdmitExactlyN(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rl.db")
	a, b := openStore(t, path), openStore(t, path)
	cases := []struct {
		name string
		make func(db *store.DB) Limiter
		want int64
	}{
		{"sliding 25 per hour", func(db *store.DB) Limiter { return NewSlidingWindow(25, time.Hour, WithStore(db, "sw:")) }, 25},
		{"token bucket burst 15", func(db *store.DB) Limiter { return NewTokenBucket(1, time.Hour, 15, WithStore(db, "tb:")) }, 15},
		{"all 10 and 30 per hour", func(db *store.DB) Limiter {
			return All(NewSlidingWindow(10, time.Hour, WithStore(db, "a1:")), NewTokenBucket(1, time.Hour, 30, WithStore(db, "a2:")))
		}, 10},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := hammer(t, 8, 8, "user-1", tc.make(a), tc.make(b)); got != tc.want {
				t.Fatalf("admitted %d between two handles, want %d", got, tc.want)
			}
		})
	}
}

func TestStoreClaimsOneWinner(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rl.db")
	cs := []Claims{NewWindowClaims(time.Hour, WithStore(openStore(t, path), "poll:")), NewWindowClaims(time.Hour, WithStore(openStore(t, path), "poll:"))}
	var wins atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		c := cs[i%2]
		wg.Go(func() {
			cl, err := c.Claim(context.Background(), "k")
			if err != nil {
				t.Error(err)
			} else if cl.Granted {
				wins.Add(1)
			}
		})
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d winners, want 1", wins.Load())
	}
}

func TestStoreSweepsExpiredRows(t *testing.T) {
	t.Parallel()
	db := openStore(t, filepath.Join(t.TempDir(), "rl.db"))
	clock := newFakeClock()
	l := NewSlidingWindow(2, time.Second, WithStore(db, "s:"), WithClock(clock))
	for i := range 5 {
		if _, err := l.Allow(context.Background(), fmt.Sprint("k", i)); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(2 * time.Minute) // past the window and the sweep interval
	if _, err := l.Allow(context.Background(), "fresh"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.SQL().QueryRow(`SELECT count(*) FROM ratelimit`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d rows after the sweep (%v), want 1", n, err)
	}
}

// childEnv makes the test binary a process that asks a store-backed
// limiter of 7 per hour, and prints how many of its tries were admitted.
const childEnv = "RATELIMIT_TEST_CHILD"

func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		os.Exit(runChild(path))
	}
	os.Exit(m.Run())
}

func runChild(path string) int {
	db, err := store.Open(context.Background(), path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	l := NewSlidingWindow(7, time.Hour, WithStore(db, "proc:"))
	n := 0
	for range 10 {
		d, err := l.Allow(context.Background(), "user")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if d.Allowed {
			n++
		}
	}
	fmt.Println(n)
	return 0
}

// TestStoreAcrossProcesses runs processes one after another, then several at
// once, on one file: together they are admitted exactly the limit.
func TestStoreAcrossProcesses(t *testing.T) {
	t.Parallel()
	run := func(path string, procs int) int {
		var wg sync.WaitGroup
		var total atomic.Int64
		for range procs {
			wg.Go(func() {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), childEnv+"="+path)
				out, err := cmd.Output()
				if err != nil {
					var stderr []byte
					if ee, ok := err.(*exec.ExitError); ok {
						stderr = ee.Stderr
					}
					t.Errorf("child: %v: stdout %q, stderr %q", err, out, stderr)
					return
				}
				n, err := strconv.Atoi(strings.TrimSpace(string(out)))
				if err != nil {
					t.Error(err)
				}
				total.Add(int64(n))
			})
		}
		wg.Wait()
		return int(total.Load())
	}
	seq := filepath.Join(t.TempDir(), "seq.db")
	if first, second := run(seq, 1), run(seq, 1); first != 7 || second != 0 {
		t.Fatalf("sequential processes admitted %d then %d, want 7 then 0", first, second)
	}
	if got := run(filepath.Join(t.TempDir(), "conc.db"), 3); got != 7 {
		t.Fatalf("3 concurrent processes admitted %d in all, want 7", got)
	}
}
