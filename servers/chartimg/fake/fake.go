// Package fake is a faithful chart-img.com for tests and demos, built from the
// documented behaviour: v2 advanced-chart (a real PNG or JPEG per request) and
// its /storage variant, v3 exchange list and symbols, the docs page, per-plan
// limits (resolution and combined studies+drawings → 403, per-second and daily
// rates → 429), and every documented error body. Faults (a status for the next
// N requests, latency, truncated or malformed bodies) are switched through the Go
// API or POST /_fake/faults. It listens on loopback only.
package fake

import (
	"encoding/json"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// Routes counted by Count and matched by Fault.Route.
const (
	RouteChart   = "chart"   // POST /v2/tradingview/advanced-chart
	RouteStorage = "storage" // POST /v2/tradingview/advanced-chart/storage
	RouteList    = "list"    // GET /v3/tradingview/exchange/list
	RouteSymbols = "symbols" // GET /v3/tradingview/exchange/{id}
	RouteDocs    = "docs"    // GET / (the docs page)
	RouteImage   = "image"   // GET /storage/{file}
	// RouteLayout is POST /v2/tradingview/layout-chart/{id}, RouteLayoutStorage its /storage/{id} variant.
	RouteLayout        = "layout"
	RouteLayoutStorage = "layout-storage"
)

// Options configure a fake.
type Options struct {
	// Keys maps API keys to plans; default {"test-key": "PRO"}.
	Keys map[string]string
	// Symbols per exchange id; default a built-in set (BINANCE, NASDAQ, FX, …).
	Symbols map[string][]Symbol
	// Exchanges is the /exchange/list payload; default a built-in list.
	Exchanges []string
	// DocsHTML is served at /; default the embedded docs snapshot.
	DocsHTML []byte
	// NoRateLimit turns off the per-plan per-second and daily limits.
	NoRateLimit bool
	// Now replaces the clock.
	Now func() time.Time
	// Layouts are the TradingView layouts by id; default three (layout.go).
	Layouts map[string]Layout
	// TVSessions are the TradingView sessions accepted (sessionid →
	// sessionid_sign); default {"tv-session": "tv-sign"}.
	TVSessions TVSession
}

// Server is one fake chart-img.
type Server struct {
	drift   fakeupstream.Drifter
	o       Options
	mu      sync.Mutex
	faults  fakeupstream.Queue[Fault]
	docs    []byte
	stored  map[string]stored
	rates   map[string]*rate
	counts  map[string]*atomic.Int64
	lastKey atomic.Value // last x-api-key seen, for tests
	base    string
	known   *docsparse.Docs
}

type stored struct {
	body []byte
	mime string
}

type rate struct {
	tat   time.Time // GCRA theoretical arrival time
	day   string
	count int
}

// New makes a fake.
func New(o Options) *Server {
	if o.Keys == nil {
		o.Keys = map[string]string{"test-key": "PRO"}
	}
	if o.Symbols == nil {
		o.Symbols = defaultSymbols()
	}
	if o.Exchanges == nil {
		o.Exchanges = exchangeIDs
	}
	if o.DocsHTML == nil {
		o.DocsHTML = docsparse.SnapshotHTML()
	}
	if o.Now == nil {
		o.Now = clock.MustFromEnv().Now
	}
	if o.Layouts == nil {
		o.Layouts = defaultLayouts()
	}
	if o.TVSessions == nil {
		o.TVSessions = TVSession{"tv-session": "tv-sign"}
	}
	s := &Server{o: o, docs: o.DocsHTML, stored: map[string]stored{}, rates: map[string]*rate{},
		counts: map[string]*atomic.Int64{}, known: docsparse.Snapshot()}
	for _, r := range []string{RouteChart, RouteStorage, RouteList, RouteSymbols, RouteDocs, RouteImage, RouteLayout, RouteLayoutStorage} {
		s.counts[r] = &atomic.Int64{}
	}
	return s
}

// Start listens on 127.0.0.1 (a free port) and returns the base URL and a stop func.
func (s *Server) Start() (string, func()) { return s.StartAt("127.0.0.1:0") }

// Drift is the switch that makes this fake drift from chart-img
// (deprecation headers, a renamed field, a new enum value, a new error
// body) and counts requests by method and path; Start serves through it.
func (s *Server) Drift() *fakeupstream.Drifter { return &s.drift }

// StartAt listens on addr, which must be a loopback address.
func (s *Server) StartAt(addr string) (string, func()) {
	base, stop, err := fakeupstream.Listen(addr, s.drift.Wrap(s))
	if err != nil {
		panic("fake chart-img: " + err.Error())
	}
	s.mu.Lock()
	s.base = base
	s.mu.Unlock()
	return base, stop
}

// Count is how many requests reached a route (faulted ones included).
func (s *Server) Count(route string) int {
	if c, ok := s.counts[route]; ok {
		return int(c.Load())
	}
	return 0
}

// LastKey is the last API key the fake received.
func (s *Server) LastKey() string {
	k, _ := s.lastKey.Load().(string)
	return k
}

func routeOf(r *http.Request) string {
	p := r.URL.Path
	switch {
	case p == "/v2/tradingview/advanced-chart":
		return RouteChart
	case p == "/v2/tradingview/advanced-chart/storage":
		return RouteStorage
	case strings.HasPrefix(p, "/v2/tradingview/layout-chart/storage/"):
		return RouteLayoutStorage
	case strings.HasPrefix(p, "/v2/tradingview/layout-chart/"):
		return RouteLayout
	case p == "/v3/tradingview/exchange/list":
		return RouteList
	case strings.HasPrefix(p, "/v3/tradingview/exchange/"):
		return RouteSymbols
	case strings.HasPrefix(p, "/storage/"):
		return RouteImage
	case p == "/" || p == "/docs" || p == "/index.html":
		return RouteDocs
	}
	return ""
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/_fake/") {
		s.control(w, r)
		return
	}
	route := routeOf(r)
	if route == "" {
		writeJSON(w, 404, map[string]string{"message": "Not Found"})
		return
	}
	s.counts[route].Add(1)
	f, lat := s.fault(route)
	if lat > 0 {
		select {
		case <-time.After(lat):
		case <-r.Context().Done():
			return
		}
	}
	if f != nil && s.applyFault(w, route, f) {
		return
	}
	switch route {
	case RouteDocs:
		// The docs page: by default the embedded snapshot, which our generator
		// renders as Slate-like markup from the docs' text (no HTML capture of the
		// real page is public, only text captures such as johnpaul-aquino/charttalk
		// .docs/chart-img-raw-documentation). Its structure is assumed.
		s.mu.Lock()
		page := s.docs
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	case RouteImage:
		s.image(w, r)
	case RouteList, RouteSymbols:
		s.v3(w, r, route)
	case RouteLayout, RouteLayoutStorage:
		s.layout(w, r, route == RouteLayoutStorage)
	default:
		s.chart(w, r, route == RouteStorage)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func msg(w http.ResponseWriter, status int, m string) {
	writeJSON(w, status, map[string]string{"message": m})
}

// auth finds the caller's plan: x-api-key on every route, ?key= on v3 GETs;
// otherwise 403 {"message":"Forbidden"} (docs › Authentication, Errors:
// doc.chart-img.com). A key bound to a plan is the fake's own
// device: chart-img never tells the plan.
func (s *Server) auth(w http.ResponseWriter, r *http.Request, allowQuery bool) (chart.Plan, string, bool) {
	key := r.Header.Get("x-api-key")
	if key == "" && allowQuery {
		key = r.URL.Query().Get("key")
	}
	s.lastKey.Store(key)
	planName, ok := s.o.Keys[key]
	if !ok {
		msg(w, 403, "Forbidden")
		return chart.Plan{}, "", false
	}
	p, _ := chart.PlanByName(planName)
	return p, key, true
}

// limit applies the plan's per-second rate (with burst) and daily maximum: 429
// {"message":"Too Many Requests"} / {"message":"Limit Exceeded"} (source:
// doc.chart-img.com › Request Limit, Errors › API v2 / v3, as copied in
// johnpaul-aquino/charttalk .docs/chart-img-raw-documentation). The docs show
// no Retry-After or rate-limit header on either, so the daily answer has none.
// assumed: which message goes with which limit, the per-second answer's
// Retry-After: 1, and the daily count starting again at 00:00 UTC.
func (s *Server) limit(w http.ResponseWriter, key string, p chart.Plan) bool {
	if s.o.NoRateLimit {
		return true
	}
	now := s.o.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	rt := s.rates[key]
	if rt == nil {
		rt = &rate{}
		s.rates[key] = rt
	}
	day := now.UTC().Format("2006-01-02")
	if rt.day != day {
		rt.day, rt.count = day, 0
	}
	if rt.count >= p.DailyMax {
		msg(w, 429, "Limit Exceeded")
		return false
	}
	interval := time.Second / time.Duration(p.PerSecond)
	tat := rt.tat
	if tat.Before(now) {
		tat = now
	}
	// 50 ms of slack: client and server clocks see request spacing differently
	if tat.Sub(now) > time.Duration(p.Burst-1)*interval+50*time.Millisecond {
		w.Header().Set("Retry-After", "1")
		msg(w, 429, "Too Many Requests")
		return false
	}
	rt.tat = tat.Add(interval)
	rt.count++
	return true
}
