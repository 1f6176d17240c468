package subscriptions

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/rs/zerolog"
)

// Share carries "user's resource uri changed" between replicas
// through Redis pub/sub (channel mcpfleet:<name>:resources/updated), so a
// client watching a resource on one replica hears of changes another replica
// saw (its upstream connection lives there). Every other replica's
// changes arrive through local; the returned publish announces this
// replica's. Without Redis (rdb nil) there is nobody to tell: it returns nil.
//
// Publishing is off the caller's path and coalesced: a burst of changes to
// one resource is one message; a message Redis cannot take is dropped (the
// next change says the same).
func Share(ctx context.Context, rdb *redis.Client, log zerolog.Logger, name string, local func(user, uri string)) (publish func(user, uri string)) {
	if rdb == nil {
		return nil
	}
	channel := "mcpfleet:" + name + ":resources/updated"
	self := replicaID()
	type update struct {
		Origin string `json:"o"`
		User   string `json:"u"`
		URI    string `json:"r"`
	}
	sub := rdb.Subscribe(ctx, channel)
	go func() {
		defer sub.Close()
		for msg := range sub.Channel() {
			var u update
			if json.Unmarshal([]byte(msg.Payload), &u) == nil && u.Origin != self && u.URI != "" {
				local(u.User, u.URI)
			}
		}
	}()

	var mu sync.Mutex
	pending := map[[2]string]struct{}{}
	wake := make(chan struct{}, 1)
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case <-wake:
			}
			mu.Lock()
			batch := pending
			pending = map[[2]string]struct{}{}
			mu.Unlock()
			for k := range batch {
				b, _ := json.Marshal(update{self, k[0], k[1]})
				pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
				if err := rdb.Publish(pctx, channel, b).Err(); err != nil && ctx.Err() == nil {
					log.Debug().Err(err).Msg("resource update not shared with the other replicas")
				}
				cancel()
			}
		}
	}()
	return func(user, uri string) {
		mu.Lock()
		pending[[2]string{user, uri}] = struct{}{}
		mu.Unlock()
		select {
		case wake <- struct{}{}:
		default:
		}
	}
}

// replicaID tells this process's messages from the other replicas'.
func replicaID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
