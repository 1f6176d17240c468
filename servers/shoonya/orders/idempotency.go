package orders

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// KeyPattern is what a caller-supplied idempotency key may look like: it is
// sent to Noren in remarks and echoed in the order book.
const KeyPattern = `^[A-Za-z0-9_.:-]{4,40}$`

var keyRE = regexp.MustCompile(KeyPattern)

// ValidKey reports whether k is usable as an idempotency key.
func ValidKey(k string) bool { return keyRE.MatchString(k) }

// DeriveKey makes the key for a call that brought none: the same order
// (same user, instrument, side, quantity, type, prices, product, validity) on
// the same trading day gets the same key, so an MCP client re-sending the call
// cannot make a second order. A deliberate second identical order needs its
// own idempotency_key.
func DeriveKey(user string, o noren.OrderRequest, day time.Time) string {
	ist := day.In(time.FixedZone("IST", 5*3600+1800)).Format("2006-01-02")
	s := fmt.Sprintf("%s|%s|%s|%s|%d|%s|%g|%g|%s|%s|%t|%d|%s", user, o.Exch, o.TSym, o.TranType, o.Qty,
		o.PriceType, o.Price, o.Trigger, o.Product, o.Retention, o.AMO, o.DiscQty, ist)
	if o.Product == "H" || o.Product == "B" {
		s += fmt.Sprintf("|%g|%g|%g", o.BookLoss, o.BookProfit, o.Trail) // the legs make it a different order
	}
	sum := sha256.Sum256([]byte(s))
	return "mcp-" + hex.EncodeToString(sum[:])[:16]
}

// Placed is the outcome of an idempotent placement.
type Placed struct {
	OrderNo      string
	Key          string
	Deduplicated bool // an order with this key already existed; nothing was sent
	Recovered    bool // the answer was lost, the order was found in the order book
}

// Book reads the order book; Send sends PlaceOrder once.
type (
	Book func(ctx context.Context) ([]noren.Order, error)
	Send func(ctx context.Context) (string, error)
)

// Placer guarantees one order per (user, key): a per-key lock serialises
// concurrent re-sends, a record remembers keys placed by this process, and
// the order book (remarks == key) covers everything else, including answers
// lost after the broker accepted the order.
type Placer struct {
	// LookupDelays are the waits before each order-book lookup after an
	// unknown outcome (the broker may book the order a moment later).
	LookupDelays []time.Duration

	mu     sync.Mutex
	locks  map[string]*keyLock
	placed map[string]string // user|key → norenordno
	leases leases            // set: the lock also holds across processes (NewSharedPlacer, NewStoredPlacer)
}

type keyLock struct {
	mu   sync.Mutex
	refs int
}

// NewPlacer makes a placer.
func NewPlacer() *Placer {
	return &Placer{LookupDelays: []time.Duration{0, 300 * time.Millisecond, time.Second},
		locks: map[string]*keyLock{}, placed: map[string]string{}}
}

func (p *Placer) lock(ctx context.Context, k string) (func(), error) {
	p.mu.Lock()
	l := p.locks[k]
	if l == nil {
		l = &keyLock{}
		p.locks[k] = l
	}
	l.refs++
	p.mu.Unlock()
	release := func() {
		p.mu.Lock()
		l.refs--
		if l.refs == 0 {
			delete(p.locks, k)
		}
		p.mu.Unlock()
	}
	got := make(chan struct{})
	go func() { l.mu.Lock(); close(got) }()
	select {
	case <-got:
		return func() { l.mu.Unlock(); release() }, nil
	case <-ctx.Done():
		go func() { <-got; l.mu.Unlock(); release() }()
		return nil, envelope.New(envelope.Conflict, "another place_order with this idempotency key is still running; wait for it, then call get_order_book").WithRetryable(true)
	}
}

// Place sends the order unless one with key exists. preflight (limits,
// confirmation) runs only when an order is really about to be sent.
func (p *Placer) Place(ctx context.Context, user, key string, book Book, send Send, preflight func() error) (Placed, error) {
	k := user + "|" + key
	unlock, err := p.lock(ctx, k)
	if err != nil {
		return Placed{}, err
	}
	defer unlock()
	if p.leases != nil {
		unlease, err := p.lease(ctx, k)
		if err != nil {
			return Placed{}, err
		}
		defer unlease()
	}
	p.mu.Lock()
	no, done := p.placed[k]
	p.mu.Unlock()
	if done {
		return Placed{OrderNo: no, Key: key, Deduplicated: true}, nil
	}
	orders, err := book(ctx)
	if err != nil {
		// A refused read is not "no such order yet": nothing is sent, and the
		// broker's words (details.broker_message) go with the answer.
		e := envelope.From(err)
		out := envelope.New(e.Code, "could not check the order book for an earlier order with idempotency key %s, so nothing was sent (%s)", key, e.Message).
			WithRetryable(e.Retryable).WithCause(err)
		if e.RetryAfter > 0 {
			out = out.WithRetryAfter(e.RetryAfter)
		}
		for k, v := range e.Details {
			out = out.WithDetail(k, v)
		}
		return Placed{}, out.WithDetail("idempotency_key", key)
	}
	if no := findKey(orders, key); no != "" {
		p.remember(k, no)
		return Placed{OrderNo: no, Key: key, Deduplicated: true}, nil
	}
	if preflight != nil {
		if err := preflight(); err != nil {
			return Placed{}, err
		}
	}
	no, err = send(ctx)
	if err == nil {
		p.remember(k, no)
		return Placed{OrderNo: no, Key: key}, nil
	}
	if !noren.IsOutcomeUnknown(err) {
		return Placed{}, err
	}
	// The request left but the answer was lost: ask the order book.
	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	bookRead := false
	var lastErr error
	for _, d := range p.LookupDelays {
		select {
		case <-lctx.Done():
		case <-time.After(d):
		}
		if lctx.Err() != nil {
			break
		}
		orders, lerr := book(lctx)
		if lerr != nil {
			lastErr = lerr
			continue
		}
		bookRead = true
		if no := findKey(orders, key); no != "" {
			p.remember(k, no)
			return Placed{OrderNo: no, Key: key, Recovered: true}, nil
		}
	}
	again := "call place_order again with the same idempotency_key (it checks the order book first and never sends a second order for a key it finds), or check get_order_book"
	if !bookRead {
		// Saying "not in the book" here would be a guess: the book was never read.
		why := "no answer"
		if lastErr != nil {
			why = envelope.From(lastErr).Message
		}
		return Placed{}, envelope.New(envelope.OutcomeUnknown,
			"the order was sent but Shoonya's answer was lost, and the order book could not be checked either (%s), so whether an order with idempotency key %s exists is unknown; when Shoonya answers again, %s", why, key, again).
			WithRetryable(true).WithRetryAfter(2*time.Second).WithDetail("idempotency_key", key).WithDetail("order_book", "unreadable").WithCause(err)
	}
	return Placed{}, envelope.New(envelope.OutcomeUnknown,
		"the order was sent but Shoonya's answer was lost, and no order with idempotency key %s is in the order book yet; %s", key, again).
		WithRetryable(true).WithDetail("idempotency_key", key).WithDetail("order_book", "checked").WithCause(err)
}

func (p *Placer) remember(k, no string) {
	p.mu.Lock()
	p.placed[k] = no
	p.mu.Unlock()
}

func findKey(orders []noren.Order, key string) string {
	for _, o := range orders {
		if string(o.Remarks) == key && o.OrderNo != "" {
			return o.OrderNo
		}
	}
	return ""
}
