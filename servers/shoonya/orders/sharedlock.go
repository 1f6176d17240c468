package orders

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// SharedLockPrefix starts the Redis keys of the cross-replica per-key lock.
const SharedLockPrefix = "mcpfleet:shoonya:placing:"

// The lease is short and renewed while its holder works, so a replica that
// dies mid-order frees the key within leaseTTL and a retry on another
// replica goes on to the order-book check instead of waiting out a long lock.
const (
	leaseTTL   = 4 * time.Second
	leaseRenew = leaseTTL / 3
	leasePoll  = 50 * time.Millisecond
)

// Only the holder (same token) may renew or release a lease.
var (
	renewScript   = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("PEXPIRE", KEYS[1], ARGV[2]) end return 0`)
	releaseScript = redis.NewScript(`if redis.call("GET", KEYS[1]) == ARGV[1] then return redis.call("DEL", KEYS[1]) end return 0`)
)

// NewSharedPlacer is NewPlacer whose per-key lock also holds across replicas
// sharing rdb (MCPFLEET_REDIS_URL): two replicas given the same idempotency
// key at the same moment cannot both find the book empty and both send. A
// nil rdb gives the in-process placer. When Redis does not answer, nothing is
// sent (fail closed).
func NewSharedPlacer(rdb *redis.Client) *Placer {
	p := NewPlacer()
	if rdb != nil {
		p.leases = redisLeases{rdb}
	}
	return p
}

// leases is where the cross-process lock lives: Redis for replicas, the state
// file for the processes of one host.
type leases interface {
	// acquire takes key for token unless another holder's lease is live.
	acquire(ctx context.Context, key, token string, ttl time.Duration) (bool, error)
	renew(ctx context.Context, key, token string, ttl time.Duration) error
	release(ctx context.Context, key, token string) error
	where() string // for the refusal when it does not answer
}

type redisLeases struct{ rdb *redis.Client }

func (r redisLeases) acquire(ctx context.Context, key, token string, ttl time.Duration) (bool, error) {
	return r.rdb.SetNX(ctx, SharedLockPrefix+key, token, ttl).Result()
}

func (r redisLeases) renew(ctx context.Context, key, token string, ttl time.Duration) error {
	return renewScript.Run(ctx, r.rdb, []string{SharedLockPrefix + key}, token, ttl.Milliseconds()).Err()
}

func (r redisLeases) release(ctx context.Context, key, token string) error {
	return releaseScript.Run(ctx, r.rdb, []string{SharedLockPrefix + key}, token).Err()
}

func (redisLeases) where() string { return "the shared order lock (Redis, MCPFLEET_REDIS_URL)" }

// lease takes the cross-process lock for k, waiting while another process
// holds it, until ctx ends. The returned func stops renewing and frees it.
func (p *Placer) lease(ctx context.Context, k string) (func(), error) {
	sum := sha256.Sum256([]byte(k)) // user and key stay out of stored key names
	key := hex.EncodeToString(sum[:16])
	var tok [16]byte
	_, _ = rand.Read(tok[:])
	token := hex.EncodeToString(tok[:])
	for {
		ok, err := p.leases.acquire(ctx, key, token, leaseTTL)
		if err != nil && ctx.Err() == nil {
			return nil, envelope.New(envelope.UpstreamUnavailable,
				"%s did not answer, so nothing was sent to the broker; try again shortly", p.leases.where()).
				WithRetryable(true).WithRetryAfter(2 * time.Second).WithCause(err)
		}
		if ok {
			break
		}
		select {
		case <-ctx.Done():
			return nil, envelope.New(envelope.Conflict, "another place_order with this idempotency key is still running (in another process); wait for it, then call get_order_book").WithRetryable(true)
		case <-time.After(leasePoll):
		}
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { // renew while held
		defer close(done)
		t := time.NewTicker(leaseRenew)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				rctx, cancel := context.WithTimeout(context.Background(), leaseRenew)
				_ = p.leases.renew(rctx, key, token, leaseTTL)
				cancel()
			}
		}
	}()
	return func() {
		close(stop)
		<-done
		rctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = p.leases.release(rctx, key, token)
	}, nil
}
