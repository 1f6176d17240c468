package feed

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
)

// MaxUpdates is how many updates a user's log keeps; older ones are dropped
// (and counted).
const MaxUpdates = 200

// updatesTTL bounds a log's life: Noren sessions and order books are for one
// trading day.
const updatesTTL = 24 * time.Hour

// UpdateLog is each user's recent order updates and alert firings, newest
// first. It lives in the server's shared state (kv: Redis for replicas, the
// state file for one host's processes, else memory), so a client reads the
// same log on whichever replica it reaches, whichever replica's socket heard
// the update.
type UpdateLog struct {
	State kv.State
	Max   int // 0 → MaxUpdates
}

// Updates is a user's log as stored and served.
type Updates struct {
	Since   string   `json:"since,omitempty"` // the first update kept or dropped, IST
	Dropped int      `json:"dropped"`         // older updates dropped beyond the cap
	Updates []Update `json:"updates"`
}

func updatesKey(user string) string { return "shoonya:updates:" + user }

// dedupKey names one event: a second socket (another replica's) hears the
// same frame, and a reconnect may replay it; both are kept once.
func (u Update) dedupKey() string {
	f := func(p *float64) string {
		if p == nil {
			return ""
		}
		return fmt.Sprint(*p)
	}
	fid := ""
	if u.Fill != nil {
		fid = u.Fill.ID + "/" + f(u.Fill.Quantity)
	}
	return u.Kind + "|" + u.OrderID + "|" + u.AlertID + "|" + u.Event + "|" + u.Status + "|" + f(u.FilledQuantity) + "|" +
		f(u.Quantity) + "|" + f(u.Price) + "|" + f(u.TriggerPrice) + "|" + f(u.CancelledQty) + "|" + fid + "|" + u.ExchangeTime
}

// Append adds u to user's log unless the same event is already there; it
// reports whether u was new.
func (l *UpdateLog) Append(ctx context.Context, user string, u Update) (bool, error) {
	max := l.Max
	if max <= 0 {
		max = MaxUpdates
	}
	added := false
	err := l.State.Update(ctx, updatesKey(user), updatesTTL, func(cur []byte) ([]byte, error) {
		var log Updates
		if cur != nil {
			if err := json.Unmarshal(cur, &log); err != nil {
				log = Updates{} // a damaged log starts over rather than blocking updates
			}
		}
		k := u.dedupKey()
		for _, old := range log.Updates {
			if old.dedupKey() == k {
				added = false
				return cur, nil
			}
		}
		added = true
		if log.Since == "" {
			log.Since = u.ReceivedAt
		}
		log.Updates = append([]Update{u}, log.Updates...)
		if n := len(log.Updates); n > max {
			log.Dropped += n - max
			log.Updates = log.Updates[:max]
		}
		return json.Marshal(log)
	})
	return added, err
}

// Read returns user's log (empty when nothing arrived yet).
func (l *UpdateLog) Read(ctx context.Context, user string) (Updates, error) {
	b, err := l.State.Get(ctx, updatesKey(user))
	if err != nil || b == nil {
		return Updates{Updates: []Update{}}, err
	}
	var log Updates
	if err := json.Unmarshal(b, &log); err != nil {
		return Updates{Updates: []Update{}}, err
	}
	if log.Updates == nil {
		log.Updates = []Update{}
	}
	return log, nil
}
