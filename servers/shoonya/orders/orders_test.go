package orders

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

func TestMapping(t *testing.T) {
	cases := []struct {
		m     map[string]string
		human string
		code  string
	}{
		{OrderTypes, "LIMIT", "LMT"}, {OrderTypes, "market", "MKT"}, {OrderTypes, "SL", "SL-LMT"}, {OrderTypes, "SL-M", "SL-MKT"},
		{Sides, "BUY", "B"}, {Sides, "SELL", "S"},
		{Products, "CNC", "C"}, {Products, "INTRADAY", "I"}, {Products, "MIS", "I"}, {Products, "NORMAL", "M"}, {Products, "NRML", "M"},
		{Products, "COVER", "H"}, {Products, "BRACKET", "B"}, {Products, "MTF", "F"},
		{Validities, "DAY", "DAY"}, {Validities, "IOC", "IOC"}, {Validities, "EOS", "EOS"},
	}
	for _, c := range cases {
		got, err := Code("f", c.m, c.human)
		if err != nil || got != c.code {
			t.Errorf("%s → %q %v, want %s", c.human, got, err, c.code)
		}
	}
	if _, err := Code("order_type", OrderTypes, "STOP"); err == nil || envelope.From(err).Code != envelope.InvalidArgument {
		t.Errorf("unknown value: %v", err)
	}
	if OrderTypeName("SL-MKT") != "SL-M" || SideName("S") != "SELL" || ProductName("M") != "NORMAL" || Status("Open") != "OPEN" || Status("REJECT") != "REJECTED" {
		t.Error("reverse mapping")
	}
}

func TestDeriveKey(t *testing.T) {
	o := noren.OrderRequest{Exch: "NSE", TSym: "SBIN-EQ", TranType: "B", Qty: 1, PriceType: "LMT", Price: 700, Product: "C", Retention: "DAY"}
	day := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)
	k1, k2 := DeriveKey("u", o, day), DeriveKey("u", o, day.Add(time.Hour))
	o2 := o
	o2.Qty = 2
	if k1 != k2 || k1 == DeriveKey("u", o2, day) || k1 == DeriveKey("v", o, day) || k1 == DeriveKey("u", o, day.AddDate(0, 0, 1)) || !ValidKey(k1) {
		t.Fatalf("derived keys: %s %s", k1, k2)
	}
}

func TestPacer(t *testing.T) {
	p := NewPacer(2)
	now := time.Unix(1000, 0)
	p.now = func() time.Time { return now }
	for _, key := range []string{"a", "a", "b"} {
		if p.Take(context.Background(), key) != nil {
			t.Fatal("within limit")
		}
	}
	err := p.Take(context.Background(), "a")
	if e := envelope.From(err); e == nil || e.Code != envelope.PermissionDenied || e.RetryAfter != time.Minute {
		t.Fatalf("over limit: %v", err)
	}
	now = now.Add(time.Minute)
	if p.Take(context.Background(), "a") != nil {
		t.Fatal("window slid")
	}
}

// TestPlacerOnePerKey: concurrent re-sends, and a lost answer whose order
// shows up in the book, never send twice.
func TestPlacerOnePerKey(t *testing.T) {
	var sent atomic.Int32
	var mu sync.Mutex
	var book []noren.Order
	bookFn := func(context.Context) ([]noren.Order, error) {
		mu.Lock()
		defer mu.Unlock()
		return append([]noren.Order(nil), book...), nil
	}
	lost := func(context.Context) (string, error) {
		sent.Add(1)
		mu.Lock()
		book = append(book, noren.Order{OrderNo: "42", Remarks: "key-1"})
		mu.Unlock()
		return "", envelope.New(envelope.OutcomeUnknown, "lost").WithCause(noren.ErrOutcomeUnknown)
	}
	p := NewPlacer()
	var wg sync.WaitGroup
	results := make([]Placed, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := p.Place(context.Background(), "u", "key-1", bookFn, lost, nil)
			if err != nil {
				t.Error(err)
			}
			results[i] = r
		}()
	}
	wg.Wait()
	if sent.Load() != 1 {
		t.Fatalf("sent %d times", sent.Load())
	}
	recovered := 0
	for _, r := range results {
		if r.OrderNo != "42" {
			t.Fatalf("result %+v", r)
		}
		if r.Recovered {
			recovered++
		}
	}
	if recovered != 1 {
		t.Fatalf("%d recovered", recovered)
	}
	// A failure that is not an unknown outcome is returned as is, and the
	// preflight refusal stops the send.
	refuse := errors.New("no")
	if _, err := p.Place(context.Background(), "u", "key-2", bookFn, lost, func() error { return refuse }); !errors.Is(err, refuse) {
		t.Fatalf("preflight: %v", err)
	}
	if sent.Load() != 1 {
		t.Fatal("refused order was sent")
	}
}

// TestSharedPacer: two replicas' pacers on one redis-server admit the limit
// once in total; a store that stops answering refuses, sending nothing.
func TestSharedPacer(t *testing.T) {
	srv := redistest.StartServer(t)
	if NewSharedPacer(nil, 2).shared != nil {
		t.Fatal("no Redis: the pacer must stay in memory")
	}
	pacersShareLimit(t, NewSharedPacer(srv.NewClient(t), 2), NewSharedPacer(srv.NewClient(t), 2),
		func() { _ = srv.NewClient(t).ShutdownNoSave(context.Background()).Err() })
}

// pacersShareLimit: a and b, two processes' pacers of 2 orders a minute on
// one backend, admit 2 for a user in total and refuse the third with when to
// retry; after breakBackend a refusal says the backend failed, retryable. It
// returns that refusal.
func pacersShareLimit(t *testing.T, a, b *Pacer, breakBackend func()) *envelope.Error {
	t.Helper()
	ctx := context.Background()
	if a.Take(ctx, "u") != nil || b.Take(ctx, "u") != nil || a.Take(ctx, "v") != nil {
		t.Fatal("within the shared limit")
	}
	for _, p := range []*Pacer{a, b} {
		e := envelope.From(p.Take(ctx, "u"))
		if e == nil || e.Code != envelope.PermissionDenied || e.RetryAfter <= 0 || e.RetryAfter > time.Minute {
			t.Fatalf("over the shared limit: %+v", e)
		}
	}
	breakBackend()
	e := envelope.From(a.Take(ctx, "w"))
	if e == nil || e.Code != envelope.UpstreamUnavailable || !e.Retryable {
		t.Fatalf("backend gone: %+v", e)
	}
	return e
}

// TestSharedPlacerAcrossReplicas: two replicas (two placers on one real
// redis-server) share each key; Redis gone sends nothing.
func TestSharedPlacerAcrossReplicas(t *testing.T) {
	srv := redistest.StartServer(t)
	rdb := srv.NewClient(t)
	placersShareKeys(t, NewSharedPlacer(srv.NewClient(t)), NewSharedPlacer(srv.NewClient(t)),
		func(key string) error {
			return rdb.Set(context.Background(), SharedLockPrefix+key, "dead-replica", leaseTTL).Err()
		},
		func() { _ = rdb.ShutdownNoSave(context.Background()).Err() })
}

// placersShareKeys: two placers (replicas or processes) given the same key at
// the same moment send one order; a holder that dies (plantDead writes its
// lease) frees the key within the lease; after breakBackend nothing is sent.
func placersShareKeys(t *testing.T, a, b *Placer, plantDead func(key string) error, breakBackend func()) {
	t.Helper()
	var sent atomic.Int32
	var mu sync.Mutex
	var book []noren.Order
	bookFn := func(context.Context) ([]noren.Order, error) {
		mu.Lock()
		defer mu.Unlock()
		return append([]noren.Order(nil), book...), nil
	}
	send := func(context.Context) (string, error) {
		sent.Add(1)
		time.Sleep(100 * time.Millisecond) // the broker takes a moment; both placers are in the race
		mu.Lock()
		book = append(book, noren.Order{OrderNo: "7", Remarks: "key-x"})
		mu.Unlock()
		return "7", nil
	}
	replicas := []*Placer{a, b}
	var wg sync.WaitGroup
	dedup := atomic.Int32{}
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := replicas[i%2].Place(context.Background(), "u", "key-x", bookFn, send, nil)
			if err != nil || r.OrderNo != "7" {
				t.Errorf("placer %d: %+v, %v", i%2, r, err)
			}
			if r.Deduplicated {
				dedup.Add(1)
			}
		}()
	}
	wg.Wait()
	if sent.Load() != 1 || dedup.Load() != 7 {
		t.Fatalf("sent %d times, %d deduplicated; want 1 and 7", sent.Load(), dedup.Load())
	}

	// A holder killed while holding the key leaves its lease unrenewed: a
	// retry elsewhere waits (Conflict if its deadline is shorter), then gets
	// through once the lease expires.
	sum := sha256.Sum256([]byte("u|key-y"))
	if err := plantDead(hex.EncodeToString(sum[:16])); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	_, err := replicas[0].Place(ctx, "u", "key-y", bookFn, send, nil)
	cancel()
	if e := envelope.From(err); e == nil || e.Code != envelope.Conflict || !e.Retryable {
		t.Fatalf("while a dead holder's lease lasts: %+v", err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 3*leaseTTL)
	r, err := replicas[1].Place(ctx, "u", "key-y", bookFn, send, nil)
	cancel()
	if err != nil || r.OrderNo != "7" || r.Deduplicated {
		t.Fatalf("after the dead lease expired: %+v, %v", r, err)
	}

	breakBackend()
	before := sent.Load()
	_, err = replicas[1].Place(context.Background(), "u", "key-z", bookFn, send, nil)
	if e := envelope.From(err); e == nil || e.Code != envelope.UpstreamUnavailable || !e.Retryable || sent.Load() != before {
		t.Fatalf("lock backend gone: %+v, sent %d more", err, sent.Load()-before)
	}
}
