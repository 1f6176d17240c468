package orders

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// Limits are the pre-trade limits. Zero means "no limit" for numbers; empty
// lists allow everything.
type Limits struct {
	MaxQuantity      int      // per order
	MaxOrderValue    float64  // quantity × price (LTP for market orders), rupees
	AllowedExchanges []string // e.g. NSE, NFO
	AllowedProducts  []string // human names: CNC, INTRADAY, NORMAL...
	MaxOrdersPerMin  int      // per user, place + modify
}

// Env names of the limits.
const (
	EnvMaxQty       = "SHOONYA_MAX_ORDER_QTY"
	EnvMaxValue     = "SHOONYA_MAX_ORDER_VALUE"
	EnvExchanges    = "SHOONYA_ALLOWED_EXCHANGES"
	EnvProducts     = "SHOONYA_ALLOWED_PRODUCTS"
	EnvMaxPerMinute = "SHOONYA_MAX_ORDERS_PER_MINUTE"
)

// LimitsFromEnv reads the limits; defaults are deliberately conservative.
func LimitsFromEnv() (Limits, error) {
	l := Limits{MaxQuantity: 1000, MaxOrderValue: 500000, MaxOrdersPerMin: 10}
	var err error
	if v := os.Getenv(EnvMaxQty); v != "" {
		if l.MaxQuantity, err = strconv.Atoi(v); err != nil || l.MaxQuantity < 0 {
			return l, fmt.Errorf("%s must be a whole number ≥ 0 (0 = no limit)", EnvMaxQty)
		}
	}
	if v := os.Getenv(EnvMaxValue); v != "" {
		if l.MaxOrderValue, err = strconv.ParseFloat(v, 64); err != nil || l.MaxOrderValue < 0 {
			return l, fmt.Errorf("%s must be a number ≥ 0 (0 = no limit)", EnvMaxValue)
		}
	}
	if v := os.Getenv(EnvMaxPerMinute); v != "" {
		if l.MaxOrdersPerMin, err = strconv.Atoi(v); err != nil || l.MaxOrdersPerMin < 0 {
			return l, fmt.Errorf("%s must be a whole number ≥ 0 (0 = no limit)", EnvMaxPerMinute)
		}
	}
	l.AllowedExchanges = upperList(os.Getenv(EnvExchanges))
	l.AllowedProducts = upperList(os.Getenv(EnvProducts))
	for _, p := range l.AllowedProducts {
		if _, ok := Products[p]; !ok {
			return l, fmt.Errorf("%s: unknown product %q (valid: %s)", EnvProducts, p, strings.ReplaceAll(ProductEnum, "|", ", "))
		}
	}
	return l, nil
}

func upperList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.ToUpper(strings.TrimSpace(p)); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func refuse(limit, env, format string, args ...any) *envelope.Error {
	return envelope.New(envelope.PermissionDenied, "refused by the pre-trade limit %s (%s): %s", limit, env, fmt.Sprintf(format, args...)).
		WithDetail("limit", limit)
}

// CheckStatic applies the limits that need no state: exchange, product,
// quantity and value (price is the limit price, or the LTP for market orders).
func (l Limits) CheckStatic(exch, product string, qty int, price float64) error {
	if len(l.AllowedExchanges) > 0 && !slices.Contains(l.AllowedExchanges, strings.ToUpper(exch)) {
		return refuse("allowed_exchanges", EnvExchanges, "exchange %s is not in %s", exch, strings.Join(l.AllowedExchanges, ","))
	}
	if product != "" && len(l.AllowedProducts) > 0 && !allowsProduct(l.AllowedProducts, product) {
		return refuse("allowed_products", EnvProducts, "product %s is not in %s", product, strings.Join(l.AllowedProducts, ","))
	}
	if l.MaxQuantity > 0 && qty > l.MaxQuantity {
		return refuse("max_order_quantity", EnvMaxQty, "quantity %d is over %d", qty, l.MaxQuantity)
	}
	if l.MaxOrderValue > 0 && float64(qty)*price > l.MaxOrderValue {
		return refuse("max_order_value", EnvMaxValue, "order value %.2f (quantity %d × price %.2f) is over %.2f", float64(qty)*price, qty, price, l.MaxOrderValue)
	}
	return nil
}

// allowsProduct compares by Noren code, so NORMAL and NRML are the same product.
func allowsProduct(allowed []string, product string) bool {
	code := Products[strings.ToUpper(product)]
	for _, a := range allowed {
		if Products[a] == code {
			return true
		}
	}
	return false
}

// Pacer enforces MaxOrdersPerMin per user with a sliding window: in this
// process, or in Redis when shared (NewSharedPacer), so replicas behind a
// load balancer admit the limit once in total, not once each.
type Pacer struct {
	mu     sync.Mutex
	max    int
	win    time.Duration
	now    func() time.Time
	sent   map[string][]time.Time
	shared ratelimit.Limiter
	inFile bool // shared is in the state file, not Redis
}

// NewPacer allows max orders per minute per user (0 = unlimited).
func NewPacer(max int) *Pacer {
	return &Pacer{max: max, win: time.Minute, now: time.Now, sent: map[string][]time.Time{}}
}

// SharedPacerPrefix starts the Redis keys of the shared order pacer.
const SharedPacerPrefix = "shoonya:orders:pace:"

// NewSharedPacer is NewPacer with the window in Redis (MCPFLEET_REDIS_URL),
// shared by every replica; nil rdb keeps it in this process.
func NewSharedPacer(rdb *redis.Client, max int) *Pacer {
	p := NewPacer(max)
	if rdb != nil && max > 0 {
		p.shared = ratelimit.NewSlidingWindow(max, time.Minute, ratelimit.WithRedis(rdb, SharedPacerPrefix))
	}
	return p
}

// NewStoredPacer is NewPacer with the window in the server's state file, so
// every process on the host (a stdio server per session) admits max in
// total; nil db keeps it in this process.
func NewStoredPacer(db *store.DB, max int) *Pacer {
	p := NewPacer(max)
	if db != nil && max > 0 {
		p.shared, p.inFile = ratelimit.NewSlidingWindow(max, time.Minute, ratelimit.WithStore(db, SharedPacerPrefix)), true
	}
	return p
}

// Take claims one order slot for user or refuses naming the limit. A shared
// pacer whose store does not answer refuses too (fail closed: nothing sent).
func (p *Pacer) Take(ctx context.Context, user string) error {
	if p == nil || p.max <= 0 {
		return nil
	}
	if p.shared != nil {
		d, err := p.shared.Allow(ctx, user)
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if p.inFile {
				return envelope.New(envelope.UpstreamUnavailable,
					"the order-rate state file failed, so nothing was sent to the broker: %s", err.Error()).WithRetryable(true).WithCause(err)
			}
			return envelope.New(envelope.UpstreamUnavailable,
				"the shared order-rate store (Redis, MCPFLEET_REDIS_URL) did not answer, so nothing was sent to the broker; try again shortly").
				WithRetryable(true).WithCause(err)
		}
		if !d.Allowed {
			return refuse("max_orders_per_minute", EnvMaxPerMinute, "%d orders in the last minute", p.max).WithRetryAfter(d.RetryAfter)
		}
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	ts := p.sent[user]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) >= p.win {
		i++
	}
	ts = ts[i:]
	if len(ts) >= p.max {
		wait := p.win - now.Sub(ts[0])
		p.sent[user] = ts
		return refuse("max_orders_per_minute", EnvMaxPerMinute, "%d orders in the last minute", len(ts)).WithRetryAfter(wait)
	}
	p.sent[user] = append(ts, now)
	return nil
}
