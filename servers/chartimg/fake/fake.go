// Package fake is a faithful chart-img.com for tests and demos, built from the
// documented behaviour: v2 advanced-chart (a real PNG or JPEG per request) and
// its /storage variant, v3 exchange list and symbols, the docs page, per-plan
// limits (resolution and combined studies+drawings → 403, per-second and daily
// rates → 429), and every documented error body. Faults (a status for the next
// N requests, latency, truncated or malformed bodies) are switched through the Go
// API or POST /_fake/faults. It listens on loopback only.
package fake

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
}

// Fault is an injected failure. Status 0 with Latency > 0 only slows answers.
type Fault struct {
	Route      string `json:"route,omitempty"`   // one of the Route* names; "" = every API route
	Status     int    `json:"status,omitempty"`  // HTTP status to answer
	Message    string `json:"message,omitempty"` // body {"message": ...}; default per status
	Body       string `json:"body,omitempty"`    // raw body instead of Message
	Count      int    `json:"count,omitempty"`   // requests affected; 0 = until cleared
	LatencyMs  int    `json:"latencyMs,omitempty"`
	RetryAfter int    `json:"retryAfter,omitempty"` // seconds, sent as Retry-After
	Truncate   bool   `json:"truncate,omitempty"`   // announce a longer body than sent
	Malformed  bool   `json:"malformed,omitempty"`  // 200 with an unreadable body
}

// Server is one fake chart-img.
type Server struct {
	o       Options
	mu      sync.Mutex
	faults  []*Fault
	latency time.Duration
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
		o.Now = time.Now
	}
	s := &Server{o: o, docs: o.DocsHTML, stored: map[string]stored{}, rates: map[string]*rate{},
		counts: map[string]*atomic.Int64{}, known: docsparse.Snapshot()}
	for _, r := range []string{RouteChart, RouteStorage, RouteList, RouteSymbols, RouteDocs, RouteImage} {
		s.counts[r] = &atomic.Int64{}
	}
	return s
}

// Start listens on 127.0.0.1 (a free port) and returns the base URL and a stop func.
func (s *Server) Start() (string, func()) { return s.StartAt("127.0.0.1:0") }

// StartAt listens on addr, which must be a loopback address.
func (s *Server) StartAt(addr string) (string, func()) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || (host != "127.0.0.1" && host != "localhost" && host != "::1") {
		panic("fake chart-img listens on loopback only, not " + addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		panic(err)
	}
	hs := &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = hs.Serve(ln) }()
	s.mu.Lock()
	s.base = "http://" + ln.Addr().String()
	s.mu.Unlock()
	return s.base, func() { _ = hs.Close() }
}

// SetFault adds a fault (faults are checked in order; the first matching one applies).
func (s *Server) SetFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &f)
}

// ClearFaults removes every fault and the latency.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults, s.latency = nil, 0
}

// SetLatency delays every answer.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// SetDocs replaces the docs page served at /.
func (s *Server) SetDocs(html []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs = html
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
		s.mu.Lock()
		page := s.docs
		s.mu.Unlock()
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(page)
	case RouteImage:
		s.image(w, r)
	case RouteList, RouteSymbols:
		s.v3(w, r, route)
	default:
		s.chart(w, r, route == RouteStorage)
	}
}

// fault picks the first matching fault and consumes one use of it.
func (s *Server) fault(route string) (*Fault, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	lat := s.latency
	for i, f := range s.faults {
		if f.Route != "" && f.Route != route || f.Route == "" && (route == RouteDocs || route == RouteImage) {
			continue
		}
		if f.Count > 0 {
			f.Count--
			if f.Count == 0 {
				s.faults = append(s.faults[:i:i], s.faults[i+1:]...)
			}
		}
		if f.LatencyMs > 0 {
			lat += time.Duration(f.LatencyMs) * time.Millisecond
		}
		c := *f
		return &c, lat
	}
	return nil, lat
}

var defaultMessages = map[int]string{400: "Bad Request", 401: "Invalid Request", 403: "Forbidden", 404: "Not Found",
	409: "Session Disconnected", 422: "Invalid Request", 429: "Too Many Requests", 500: "Something Went Wrong",
	502: "Bad Gateway", 503: "Service Unavailable", 504: "External Request Timeout"}

func (s *Server) applyFault(w http.ResponseWriter, route string, f *Fault) bool {
	switch {
	case f.Truncate:
		body := `{"updatedAt":"2024-07-08T00:00:00.106Z","payload":["BINANCE","NASDAQ","NYSE","FX"]}`
		ct := "application/json"
		if route == RouteChart {
			body, ct = string(pngMagic)+strings.Repeat("x", 200), "image/png"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Content-Length", strconv.Itoa(len(body)+500))
		w.WriteHeader(200)
		_, _ = io.WriteString(w, body)
		return true
	case f.Malformed:
		if route == RouteChart {
			w.Header().Set("Content-Type", "image/png")
			w.WriteHeader(200)
			_, _ = io.WriteString(w, "this is not an image")
			return true
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"updatedAt":"2024-07-08","payload":[{"symbol":`)
		return true
	case f.Status != 0:
		if f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(f.RetryAfter))
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.Status)
		switch {
		case f.Body != "":
			_, _ = io.WriteString(w, f.Body)
		default:
			msg := f.Message
			if msg == "" {
				msg = defaultMessages[f.Status]
			}
			_ = json.NewEncoder(w).Encode(map[string]string{"message": msg})
		}
		return true
	}
	return false
}

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func msg(w http.ResponseWriter, status int, m string) {
	writeJSON(w, status, map[string]string{"message": m})
}

// auth finds the caller's plan: x-api-key on every route, ?key= on v3 GETs.
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

// limit applies the plan's per-second rate (with burst) and daily maximum.
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

func (s *Server) v3(w http.ResponseWriter, r *http.Request, route string) {
	if r.Method != http.MethodGet {
		msg(w, 404, "Not Found")
		return
	}
	p, key, ok := s.auth(w, r, true)
	if !ok || !s.limit(w, key, p) {
		return
	}
	updated := "2024-07-08T00:00:00.106Z"
	if route == RouteList {
		writeJSON(w, 200, map[string]any{"updatedAt": updated, "payload": s.o.Exchanges})
		return
	}
	id := strings.ToUpper(strings.TrimPrefix(r.URL.Path, "/v3/tradingview/exchange/"))
	syms, ok := s.o.Symbols[id]
	if !ok {
		found := false
		for _, e := range s.o.Exchanges {
			found = found || e == id
		}
		if !found {
			msg(w, 422, "Invalid Request") // inferred: the docs give no body for an unknown id
			return
		}
		syms = []Symbol{}
	}
	q := strings.ToUpper(r.URL.Query().Get("symbol"))
	typ := strings.ToLower(r.URL.Query().Get("type"))
	out := make([]Symbol, 0, len(syms))
	for _, sy := range syms {
		if q != "" && !strings.Contains(sy.Symbol, q) || typ != "" && sy.Type != typ {
			continue
		}
		out = append(out, sy)
	}
	writeJSON(w, 200, map[string]any{"updatedAt": "2024-07-08T00:00:32.448Z", "payload": out})
}

type fieldError struct {
	Value    any    `json:"value"`
	Msg      string `json:"msg"`
	Param    string `json:"param"`
	Location string `json:"location"`
}

func (s *Server) chart(w http.ResponseWriter, r *http.Request, storage bool) {
	if r.Method != http.MethodPost {
		msg(w, 404, "Not Found")
		return
	}
	p, key, ok := s.auth(w, r, false)
	if !ok {
		return
	}
	if sid := r.Header.Get("tradingview-session-id"); sid == "expired" {
		msg(w, 409, "Session Disconnected")
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		msg(w, 400, "Bad Request")
		return
	}
	cfg := chart.Config{}
	var raw map[string]json.RawMessage
	if len(strings.TrimSpace(string(body))) > 0 {
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			msg(w, 400, "Bad Request")
			return
		}
		if json.Unmarshal(body, &raw) != nil || json.Unmarshal(body, &cfg) != nil {
			if json.Unmarshal(body, &raw) != nil {
				msg(w, 400, "Bad Request")
				return
			}
			// valid JSON of the wrong types: the API's type validation answers 422
			writeJSON(w, 422, []fieldError{{Value: "INVALID", Msg: "invalid value type", Param: "body", Location: "body"}})
			return
		}
	}
	if errs := s.check(cfg); len(errs) > 0 {
		writeJSON(w, 422, errs)
		return
	}
	if cfg.Symbol != "" {
		ex, _, _ := strings.Cut(cfg.Symbol, ":")
		known := false
		for _, e := range s.o.Exchanges {
			known = known || e == ex
		}
		if !known && !strings.ContainsAny(cfg.Symbol, "()+*/") {
			msg(w, 422, "Invalid Symbol")
			return
		}
	}
	width, height := cfg.Width, cfg.Height
	if width == 0 {
		width = chart.DefaultWidth
	}
	if height == 0 {
		height = chart.DefaultHeight
	}
	if width > p.MaxWidth || height > p.MaxHeight {
		msg(w, 403, fmt.Sprintf("Exceed Max Usage Resolution Limit (%dx%d)", p.MaxWidth, p.MaxHeight))
		return
	}
	if n := len(cfg.Studies) + len(cfg.Drawings); n > p.MaxParameters {
		msg(w, 403, fmt.Sprintf("Exceed Max Usage Parameter Limit (%d)", p.MaxParameters))
		return
	}
	if cfg.Watermark != "" && !p.CustomMark {
		msg(w, 403, "Forbidden")
		return
	}
	if !s.limit(w, key, p) {
		return
	}
	format := cfg.Format
	if format == "" {
		format = "png"
	}
	img, err := render(orDefault(cfg.Symbol, "BINANCE:BTCUSDT"), orDefault(cfg.Interval, "1D"), orDefault(cfg.Style, "candle"),
		orDefault(cfg.Theme, "light"), format, width, height, len(cfg.Studies))
	if err != nil {
		msg(w, 500, "Something Went Wrong")
		return
	}
	mime := "image/" + format
	if !storage {
		w.Header().Set("Content-Type", mime)
		w.Header().Set("Content-Length", strconv.Itoa(len(img)))
		w.WriteHeader(200)
		_, _ = w.Write(img)
		return
	}
	sum := md5.Sum(img)
	etag := hex.EncodeToString(sum[:])
	name := etag[:11] + "." + map[string]string{"png": "png", "jpeg": "jpg"}[format]
	s.mu.Lock()
	s.stored[name] = stored{img, mime}
	base := s.base
	s.mu.Unlock()
	if base == "" {
		base = "http://" + r.Host
	}
	writeJSON(w, 200, map[string]any{"url": base + "/storage/" + name, "etag": etag,
		"expire": s.o.Now().UTC().Add(time.Duration(p.StorageDays) * 24 * time.Hour).Format("2006-01-02T15:04:05.000Z")})
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// check is the API's body validation; failures are the 422 array.
func (s *Server) check(c chart.Config) []fieldError {
	var errs []fieldError
	add := func(v any, m, p string) { errs = append(errs, fieldError{v, m, p, "body"}) }
	if c.Symbol != "" && !chart.ValidSymbol(c.Symbol) {
		add(c.Symbol, "must be a valid tradingview EXCHANGE:SYMBOL", "symbol")
	}
	if c.Interval != "" && !chart.Contains(chart.Intervals, c.Interval) {
		add(c.Interval, "must be a supported interval", "interval")
	}
	if c.Style != "" && !chart.Contains(chart.Styles, c.Style) {
		add(c.Style, "must be a supported style", "style")
	}
	if c.Theme != "" && !chart.Contains(chart.Themes, c.Theme) {
		add(c.Theme, "must be a supported theme", "theme")
	}
	if c.Format != "" && !chart.Contains(chart.Formats, c.Format) {
		add(c.Format, "must be a supported format", "format")
	}
	switch v := c.Range.(type) {
	case nil:
	case string:
		if !chart.Contains(chart.Ranges, v) {
			add(v, "must be a supported range", "range")
		}
	case map[string]any:
		from, _ := v["from"].(string)
		to, _ := v["to"].(string)
		if _, err := time.Parse(time.RFC3339, from); err != nil {
			add(v["from"], "must be a valid ISO8601 datetime", "range.from")
		}
		if _, err := time.Parse(time.RFC3339, to); err != nil {
			add(v["to"], "must be a valid ISO8601 datetime", "range.to")
		}
	default:
		add(v, "must be a supported range", "range")
	}
	if c.Width != 0 && c.Width < chart.MinWidth {
		add(c.Width, "must be a minimum of 400", "width")
	}
	if c.Height != 0 && c.Height < chart.MinHeight {
		add(c.Height, "must be a minimum of 300", "height")
	}
	for i, st := range c.Studies {
		ind, ok := s.known.Indicator(st.Name)
		if !ok {
			add(st.Name, "must be a supported study name", fmt.Sprintf("studies[%d].name", i))
			continue
		}
		keys := make([]string, 0, len(st.Input))
		for k := range st.Input {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			found := false
			for _, in := range ind.Inputs {
				found = found || in.Key == k
			}
			if !found {
				add(k, "must be a supported study input", fmt.Sprintf("studies[%d].input.%s", i, k))
			}
		}
	}
	for i, d := range c.Drawings {
		if !chart.Contains(chart.Drawings, d.Name) {
			add(d.Name, "must be a supported drawing name", fmt.Sprintf("drawings[%d].name", i))
		}
	}
	return errs
}

func (s *Server) image(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/storage/")
	s.mu.Lock()
	st, ok := s.stored[name]
	s.mu.Unlock()
	if !ok {
		msg(w, 404, "Not Found")
		return
	}
	w.Header().Set("Content-Type", st.mime)
	_, _ = w.Write(st.body)
}

// control is the test API: POST /_fake/faults (a Fault or a list), DELETE
// /_fake/faults, GET /_fake/stats (request counts per route).
func (s *Server) control(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_fake/faults" && r.Method == http.MethodPost:
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		var list []Fault
		if json.Unmarshal(body, &list) != nil {
			var f Fault
			if err := json.Unmarshal(body, &f); err != nil {
				msg(w, 400, "want a fault object or a list of them: "+err.Error())
				return
			}
			list = []Fault{f}
		}
		for _, f := range list {
			s.SetFault(f)
		}
		writeJSON(w, 200, map[string]int{"faults": len(list)})
	case r.URL.Path == "/_fake/faults" && r.Method == http.MethodDelete:
		s.ClearFaults()
		writeJSON(w, 200, map[string]int{"faults": 0})
	case r.URL.Path == "/_fake/latency" && r.Method == http.MethodPost:
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		s.SetLatency(time.Duration(ms) * time.Millisecond)
		writeJSON(w, 200, map[string]int{"latencyMs": ms})
	case r.URL.Path == "/_fake/stats":
		out := map[string]int{}
		for k, c := range s.counts {
			out[k] = int(c.Load())
		}
		writeJSON(w, 200, out)
	default:
		msg(w, 404, "Not Found")
	}
}
