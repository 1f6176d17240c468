// Package tools defines the polymarket server's read-only tools over the
// client. Descriptions follow one pattern, kept dense because every client
// pays for tools/list: summary; when to use; what comes back; errors; related
// tools. Every tool is read-only and open-world; calls are limited per bearer
// user (public reads 30/min, user-data tools 10/min).
package tools

import (
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/ratelimit"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
)

// Service is what the tools share: the client and the per-user limiters.
type Service struct {
	c            *client.Client
	public, user ratelimit.Limiter
	publicN      int // calls per minute of each, for messages
	userN        int
	// store names where the limiters live when not in memory (Redis or
	// the state file): their errors are that store's failures.
	store string
	// clock is the registry's (serve.Registry.Clock): "now" for dates.
	clock clock.Clock
}

// now is the registry clock's time, the system's when none is set.
func (s *Service) now() time.Time {
	if s.clock == nil {
		return time.Now()
	}
	return s.clock.Now()
}

// NewService builds the tools' state: publicPerMin and userPerMin per bearer
// user, in Redis when rdb is set (replicas share them), else in memory.
func NewService(c *client.Client, rdb *redis.Client, publicPerMin, userPerMin int, opts ...ratelimit.Option) *Service {
	public, user := Limiters(rdb, publicPerMin, userPerMin, opts...)
	s := &Service{c: c, public: public, user: user, publicN: publicPerMin, userN: userPerMin}
	if rdb != nil {
		s.store = storeRedis
	}
	return s
}

// Where shared limits live, for the message of a call refused because the
// store failed.
const (
	storeRedis = "the shared rate-limit store (Redis, MCPFLEET_REDIS_URL)"
	storeFile  = "the rate-limit state file (MCPFLEET_STATE_DIR)"
)

// Toolsets.
const (
	setMarkets = "markets"
	setTrading = "orderbook"
	setUsers   = "users"
	setExtras  = "extras"
)

// All returns every read tool. Another tool joins with one more line here (or
// an append in Register).
func All(s *Service) []toolkit.Tool {
	return []toolkit.Tool{
		s.searchMarkets(), s.listMarkets(), s.getMarket(), s.listEvents(), s.getEvent(),
		s.getOrderBooks(), s.getPrices(), s.getPriceHistory(),
		s.getUserPositions(), s.getUserActivity(), s.getTopHolders(), s.listComments(), s.getBuilderLeaderboard(),
		s.getBTCPrice(), s.findTrending(), s.findClosingSoon(), s.findLongshots(), s.findVolatile(),
	}
}
