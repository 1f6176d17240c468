package feed

import (
	"context"
	"time"
)

// UseUpdates makes the hub keep order updates and alert firings in log
// (stamped by now) and tell n's subscribers of OrdersURI. Call it before
// the first socket starts.
func (h *Hub) UseUpdates(log *UpdateLog, now func() time.Time) {
	h.mu.Lock()
	h.updates, h.now = log, now
	h.mu.Unlock()
}

// WatchOrders starts user's socket if needed and subscribes it to order
// updates. Without an update log there is nowhere to keep them: no-op.
func (h *Hub) WatchOrders(ctx context.Context, user string) error {
	h.mu.Lock()
	on := h.updates != nil
	h.mu.Unlock()
	if !on {
		return nil
	}
	return h.Conn(user).WatchOrders(ctx)
}

// Updates reads user's log.
func (h *Hub) Updates(ctx context.Context, user string) (Updates, error) {
	h.mu.Lock()
	log := h.updates
	h.mu.Unlock()
	if log == nil {
		return Updates{Updates: []Update{}}, nil
	}
	return log.Read(ctx, user)
}

// takeUpdate parses one frame of user's socket, keeps it and notifies.
func (h *Hub) takeUpdate(user string, frame []byte) {
	h.mu.Lock()
	log, now := h.updates, h.now
	h.mu.Unlock()
	if log == nil {
		return
	}
	if now == nil {
		now = time.Now
	}
	u, err := ParseUpdate(frame, now())
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(h.ctx, 5*time.Second)
	added, err := log.Append(ctx, user, u)
	cancel()
	if err != nil || !added {
		return
	}
	if h.notify != nil {
		h.notify.Changed(user, OrdersURI)
	}
}
