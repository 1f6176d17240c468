// Package fake is a faithful stand-in for Polymarket's Gamma, CLOB and Data
// APIs (plus the two BTC spot sources) for tests and demos, built from the
// public shapes cited per behaviour ("source: …": Polymarket's docs, the
// official SDKs' code and fixtures, issue threads) or marked assumed: JSON-string list fields, camelCase, CLOB book
// order (bids ascending, asks descending), the 400/404/422 bodies, keyset and
// offset paging with their caps. Faults (latency, 429 with both Retry-After
// forms, Cloudflare's 403 HTML, 425, 500 JSON, a null body, malformed JSON, a
// connection reset, a ghost book) are switched from Go or POST /_fake/faults.
// Every host is served on one loopback port: the routes do not collide.
package fake

import (
	"encoding/json"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
)

// Route names, counted by Count and matched by Fault.Route.
const (
	RouteMarkets        = "gamma_markets"         // GET /markets
	RouteMarketsKeyset  = "gamma_markets_keyset"  // GET /markets/keyset
	RouteMarket         = "gamma_market"          // GET /markets/{id}, /markets/slug/{slug}
	RouteEvents         = "gamma_events"          // GET /events
	RouteEventsKeyset   = "gamma_events_keyset"   // GET /events/keyset
	RouteEvent          = "gamma_event"           // GET /events/{id}, /events/slug/{slug}
	RouteSearch         = "gamma_search"          // GET /public-search
	RouteComments       = "gamma_comments"        // GET /comments
	RouteCommentsKeyset = "gamma_comments_keyset" // GET /comments/keyset
	RouteBook           = "clob_book"             // GET /book
	RouteBooks          = "clob_books"            // POST /books
	RoutePrice          = "clob_price"            // GET /price
	RoutePrices         = "clob_prices"           // POST /prices
	RouteHistory        = "clob_history"          // GET /prices-history
	RoutePositions      = "data_positions"        // GET /v2/positions
	RoutePositionsV1    = "data_positions_v1"     // GET /positions (v1, kept: the original routes keep working)
	RouteActivity       = "data_activity"         // GET /activity
	RouteHolders        = "data_holders"          // GET /holders
	RouteBuilders       = "data_builders"         // GET /v1/builders/leaderboard
	RouteValue          = "data_value"            // GET /value
	RouteCoinbase       = "btc_coinbase"          // GET /v2/prices/BTC-USD/spot
	RouteKraken         = "btc_kraken"            // GET /0/public/Ticker
	RouteMarketSocket   = "clob_market_ws"        // GET /ws/market (websocket)
)

// Routes lists every route name.
var Routes = []string{RouteMarkets, RouteMarketsKeyset, RouteMarket, RouteEvents, RouteEventsKeyset, RouteEvent,
	RouteSearch, RouteComments, RouteCommentsKeyset, RouteBook, RouteBooks, RoutePrice, RoutePrices, RouteHistory, RoutePositions,
	RouteActivity, RouteHolders, RouteBuilders, RouteValue, RouteCoinbase, RouteKraken, RouteMarketSocket, RoutePositionsV1}

// Options configure a fake.
type Options struct {
	// Now is the clock the data set's end dates are built around; default clock.MustFromEnv (MCPFLEET_FAKE_NOW, else the wall clock).
	Now func() time.Time
}

// Server is one fake Polymarket.
type Server struct {
	o       Options
	markets []*market // generated, plus the live fixture market (FixtureMarket) last
	fixture map[string]any
	byID    map[string]*market
	byToken map[string]*market
	faults  fakeupstream.Queue[Fault]
	counts  map[string]*atomic.Int64
	drift   fakeupstream.Drifter
	ws      wsState
}

// Drift is the switch that makes this fake drift from the real APIs
// (deprecation headers, a renamed field, a new enum value, a new error
// body) and counts requests by method and path; Start serves through it.
func (s *Server) Drift() *fakeupstream.Drifter { return &s.drift }

// New makes a fake with the deterministic data set.
func New(o Options) *Server {
	if o.Now == nil {
		o.Now = clock.MustFromEnv().Now
	}
	s := &Server{o: o, byID: map[string]*market{}, byToken: map[string]*market{}, counts: map[string]*atomic.Int64{}}
	s.markets = genMarkets(o.Now())
	var fx map[string]any
	if err := json.Unmarshal([]byte(FixtureMarket), &fx); err != nil {
		panic(err)
	}
	s.fixture = fx
	for _, m := range s.markets {
		s.byID[m.id] = m
		s.byToken[m.tokens[0]], s.byToken[m.tokens[1]] = m, m
	}
	for _, r := range Routes {
		s.counts[r] = &atomic.Int64{}
	}
	return s
}

// Market returns a generated market's Gamma id, slug, conditionId and token ids (i < NumMarkets).
func (s *Server) Market(i int) (id, slug, condition string, tokens [2]string) {
	m := s.markets[i]
	return m.id, m.slug, m.condition, m.tokens
}

// Count is how many requests a route has received.
func (s *Server) Count(route string) int { return int(s.counts[route].Load()) }

// Start listens on 127.0.0.1 (a free port) and returns the base URL and a stop func.
func (s *Server) Start() (string, func()) { return s.StartAt("127.0.0.1:0") }

// StartAt listens on addr, which must be a loopback address.
func (s *Server) StartAt(addr string) (string, func()) {
	base, stop, err := fakeupstream.Listen(addr, s.drift.Wrap(s))
	if err != nil {
		panic("fake polymarket: " + err.Error())
	}
	return base, func() { stop(); s.DropSockets() } // hijacked sockets outlive the listener
}

// ServeHTTP routes a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/_fake/") {
		s.control(w, r)
		return
	}
	route, h := s.route(r)
	if h == nil {
		writeJSON(w, 404, map[string]string{"error": "not found"}) // assumed: unknown route body
		return
	}
	s.counts[route].Add(1)
	if s.applyFault(w, r, route) {
		return
	}
	h(w, r)
}

func (s *Server) route(r *http.Request) (string, http.HandlerFunc) {
	p := r.URL.Path
	get := r.Method == http.MethodGet
	switch {
	case get && p == "/markets":
		return RouteMarkets, s.listMarkets
	case get && p == "/markets/keyset":
		return RouteMarketsKeyset, s.keysetMarkets
	case get && strings.HasPrefix(p, "/markets/"):
		return RouteMarket, s.getMarket
	case get && p == "/events":
		return RouteEvents, s.listEvents
	case get && p == "/events/keyset":
		return RouteEventsKeyset, s.keysetEvents
	case get && strings.HasPrefix(p, "/events/"):
		return RouteEvent, s.getEvent
	case get && p == "/public-search":
		return RouteSearch, s.search
	case get && p == "/comments":
		return RouteComments, s.comments
	case get && p == "/comments/keyset":
		return RouteCommentsKeyset, s.commentsKeyset
	case get && p == "/book":
		return RouteBook, s.book
	case r.Method == http.MethodPost && p == "/books":
		return RouteBooks, s.books
	case get && p == "/price":
		return RoutePrice, s.price
	case r.Method == http.MethodPost && p == "/prices":
		return RoutePrices, s.prices
	case get && p == "/prices-history":
		return RouteHistory, s.history
	case get && p == "/v2/positions":
		return RoutePositions, s.positionsV2
	case get && p == "/positions":
		return RoutePositionsV1, s.positions
	case get && p == "/activity":
		return RouteActivity, s.activity
	case get && p == "/holders":
		return RouteHolders, s.holders
	case get && p == "/v1/builders/leaderboard":
		return RouteBuilders, s.builders
	case get && p == "/value":
		return RouteValue, s.value
	case get && p == "/v2/prices/BTC-USD/spot":
		return RouteCoinbase, s.coinbase
	case get && p == "/0/public/Ticker":
		return RouteKraken, s.kraken
	case get && p == "/ws/market":
		return RouteMarketSocket, s.marketSocket
	}
	return "", nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
