package serve

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/subscriptions"
)

// Watch is what a server tells the spine about the resources a client can
// watch (subscriptions.Watch).
type Watch = subscriptions.Watch

// WatchResources serves resource subscriptions in both protocol eras for the
// resources w accepts and returns the function that notifies a subscriber
// key (subscriptions.Serve). A server that never calls it advertises no
// resources.subscribe and refuses every subscription.
func (r *Registry) WatchResources(w Watch) (notify func(key, uri string) error) {
	r.watched = true
	return subscriptions.Serve(r.Server, w, UserID)
}

// ShareResourceUpdates carries resource changes between replicas through
// Redis (subscriptions.Share): other replicas' changes arrive through local,
// publish announces this replica's. Without Redis it returns nil.
func (r *Registry) ShareResourceUpdates(ctx context.Context, name string, local func(user, uri string)) (publish func(user, uri string)) {
	return subscriptions.Share(ctx, r.Redis, r.Log, name, local)
}
