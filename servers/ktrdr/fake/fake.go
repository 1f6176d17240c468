// Package fake is a faithful in-memory KTRDR backend for tests and demos.
//
// It serves the routes the ktrdr MCP server uses under /api/v1 with the exact
// bodies of the real FastAPI backend (shapes from kpiteira/ktrdr at 3ba55e75 and
// HEAD, see the KTRDR repository's ktrdr/api/endpoints and services): flat bodies where
// the backend is flat, the ApiResponse envelope where it wraps, FastAPI's
// {"detail": …} errors, both 422 shapes and both data-load routes. Operations
// progress with the clock (pending → running with percentage and current step →
// completed or failed) and can be cancelled. Faults (latency, 5xx, 503,
// malformed JSON, old shapes, missing ids, success:false) are switched through
// SetFaults or POST /_fake/faults.
package fake

import (
	"bytes"
	"encoding/json"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
)

// APIPrefix is where the backend mounts its routers.
const APIPrefix = "/api/v1"

// Version is what GET /health reports.
const Version = "1.0.7"

// Options configure a fake. The zero value is fine.
type Options struct {
	// Now is the clock (default clock.MustFromEnv: MCPFLEET_FAKE_NOW, else the wall clock); operations progress against it.
	Now func() time.Time
	// Scripts override how new operations of a type progress (keys: "data_load", "training").
	Scripts map[string]Script
	// NoSeed starts with no operations (symbols, strategies and models are still there).
	NoSeed bool
	// Backend is the version answered: BackendHEAD (default) or Backend3ba55e75.
	Backend string
}

// Server is the fake backend; it is an http.Handler.
type Server struct {
	drift   fakeupstream.Drifter
	now     func() time.Time
	backend string

	mu         sync.Mutex
	ops        map[string]*operation
	scripts    map[string]Script
	seq        uint64
	faults     fakeupstream.Queue[Faults]
	symbols    []symbolInfo
	strategies []*strategy
	models     []model
	loaded     map[string]bool   // model names loaded into "process memory" by POST /models/{name}/load
	cached     map[string]int    // "SYMBOL/tf" → bar count
	counts     map[string]int    // "METHOD /path" → requests
	lastQuery  map[string]string // "METHOD /path" → the last request's raw query
	inflight   map[string]int
	maxFlight  map[string]int
	// the agent's spend today and its count of charges (GET /agent/budget)
	agentSpend  float64
	agentEvents int
}

// New makes a fake backend with seeded symbols, indicators, strategies, models,
// cached bars and (unless NoSeed) a few finished operations.
func New(o Options) *Server {
	s := &Server{
		now: o.Now, backend: o.Backend, ops: map[string]*operation{}, scripts: defaultScripts(),
		symbols: seedSymbols(), strategies: seedStrategies(), models: seedModels(),
		cached: map[string]int{"AAPL/1h": 500, "AAPL/1d": 250, "MSFT/1d": 250, "EURUSD/1h": 300},
		loaded: map[string]bool{}, counts: map[string]int{}, lastQuery: map[string]string{}, inflight: map[string]int{}, maxFlight: map[string]int{},
	}
	if s.now == nil {
		s.now = clock.MustFromEnv().Now
	}
	for k, v := range o.Scripts {
		s.scripts[k] = v
	}
	if !o.NoSeed {
		s.seed()
	}
	return s
}

// seed adds finished operations from the past, newest first: a cancelled and
// a failed data load, then trainings of neuro_mean_reversion, each after the
// data load that fed it: ten, GET /operations' default page, and about a
// research session's recent history (the backend keeps operations in memory
// until it restarts: ktrdr/api/services/operations_service.py). A list of two
// or three would make the list's fixed bytes weigh more than they do on a
// backend in use (the result-to-upstream ratio test). Only data_load and training are
// seeded: the fake scripts no other type's progress or results.
func (s *Server) seed() {
	now := s.now()
	md := func(sym, tf, mode string) opMetadata {
		m := opMetadata{Symbol: strp(sym), Timeframe: strp(tf), Parameters: map[string]any{}}
		if mode != "" {
			m.Mode = strp(mode)
		}
		return m
	}
	// load adds a completed data load of bars bars, hoursAgo hours ago.
	load := func(sym, tf, mode string, hoursAgo, bars int) {
		o := s.newOp("data_load", md(sym, tf, mode), now.Add(-time.Duration(hoursAgo)*time.Hour))
		o.script = Script{Duration: 40 * time.Second, Steps: 5}
		o.summary = loadSummary(sym, tf, bars, false, o.script)
	}
	// train adds a completed training of neuro_mean_reversion, hoursAgo hours ago.
	train := func(sym, tf string, hoursAgo int) {
		m := md(sym, tf, "")
		// as startTraining records them
		m.Parameters = map[string]any{"strategy_name": "neuro_mean_reversion", "symbols": []string{sym}, "timeframes": []string{tf}}
		o := s.newOp("training", m, now.Add(-time.Duration(hoursAgo)*time.Hour))
		o.script = Script{Duration: 20 * time.Minute, Steps: 10}
		o.summary = trainingSummary(o.id, "neuro_mean_reversion")
		o.completeFn = true
	}
	load("AAPL", "1d", "full", 11, 250)
	train("AAPL", "1d", 10)
	load("MSFT", "1d", "full", 8, 250)
	train("MSFT", "1d", 7)
	load("EURUSD", "1h", "full", 6, 300)
	train("EURUSD", "1h", 5)
	load("AAPL", "1h", "tail", 4, 500)
	train("AAPL", "1h", 3)
	dl := s.newOp("data_load", md("MSFT", "1h", "tail"), now.Add(-2*time.Hour))
	dl.script = Script{Duration: 40 * time.Second, Steps: 5, FailAt: 40, FailMessage: "IB Gateway connection lost during segment 3/5"}
	cx := s.newOp("data_load", md("EURUSD", "4h", "backfill"), now.Add(-time.Hour))
	cx.script = Script{Duration: 5 * time.Minute, Steps: 5}
	cx.endStatus, cx.endedAt, cx.frozenPct, cx.cancelReason = StatusCancelled, cx.created.Add(time.Minute), 20, strp("superseded")
}

// Start serves the fake on a loopback port; baseURL includes /api/v1.
func (s *Server) Start() (baseURL string, stop func()) {
	ts := httptest.NewServer(s.drift.Wrap(s))
	return ts.URL + APIPrefix, ts.Close
}

// Drift is the switch that makes this fake drift from the real backend
// (deprecation headers, a renamed field, a new enum value, a new error
// body) and counts requests by method and path; Start serves through it.
func (s *Server) Drift() *fakeupstream.Drifter { return &s.drift }

// Count is how many requests reached METHOD path (path includes /api/v1).
func (s *Server) Count(method, path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[method+" "+path]
}

// LastQuery is the raw query string of the last request on METHOD path.
func (s *Server) LastQuery(method, path string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastQuery[method+" "+path]
}

// MaxInFlight is the largest number of concurrent requests seen on METHOD path.
func (s *Server) MaxInFlight(method, path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.maxFlight[method+" "+path]
}

// ResetCounts clears request counters.
func (s *Server) ResetCounts() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts, s.maxFlight = map[string]int{}, map[string]int{}
}

// SetScript sets how new operations of opType progress.
func (s *Server) SetScript(opType string, sc Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.scripts[opType] = sc
}

// Finish ends an active operation now: completed, or failed with errMsg if
// errMsg is not empty. It reports whether the operation existed and was active.
func (s *Server) Finish(id, errMsg string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.ops[id]
	if !ok {
		return false
	}
	now := s.now()
	st := o.state(now)
	if !isActive(st.Status) {
		return false
	}
	if errMsg != "" {
		o.endStatus, o.endMessage, o.endedAt, o.frozenPct = StatusFailed, errMsg, now, st.Progress.Percentage
		return true
	}
	// Compress the script so the op completes exactly now and its side effects run.
	o.script.Pending = 0
	o.script.FailAt = 0
	o.shift = 0
	o.script.Duration = now.Sub(o.created)
	if o.script.Duration <= 0 {
		o.script.Duration = time.Nanosecond
		o.created = now.Add(-time.Nanosecond)
	}
	o.state(now)
	return true
}

// Cancelled reports the reason and force flag the operation's cancel request
// carried (tests check what the client sent).
func (s *Server) Cancelled(id string) (reason string, force, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.ops[id]
	if !ok || o.endStatus != StatusCancelled {
		return "", false, false
	}
	if o.cancelReason != nil {
		reason = *o.cancelReason
	}
	return reason, o.forced, true
}

// Status reports an operation's status ("" if unknown), for tests.
func (s *Server) Status(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.ops[id]
	if !ok {
		return ""
	}
	return o.state(s.now()).Status
}

// ServeHTTP counts the request, applies faults and routes it.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/_fake/") {
		s.handleControl(w, r)
		return
	}
	key := r.Method + " " + r.URL.Path
	s.mu.Lock()
	s.counts[key]++
	s.lastQuery[key] = r.URL.RawQuery
	s.inflight[key]++
	if s.inflight[key] > s.maxFlight[key] {
		s.maxFlight[key] = s.inflight[key]
	}
	f := s.Faults()
	if f.Backend == "" {
		f.Backend = s.backend
	}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.inflight[key]--
		s.mu.Unlock()
	}()

	// Routers are mounted under /api/v1; anything else is FastAPI's bare 404.
	path, ok := strings.CutPrefix(r.URL.Path, APIPrefix)
	if !ok {
		writeJSON(w, 404, map[string]any{"detail": "Not Found"})
		return
	}
	if f.applies(path) {
		if f.LatencyMS > 0 {
			select {
			case <-time.After(time.Duration(f.LatencyMS) * time.Millisecond):
			case <-r.Context().Done():
				return
			}
		}
		if f.Status != 0 {
			writeFaultStatus(w, f.Status, f)
			return
		}
		if f.Malformed {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(200)
			_, _ = w.Write([]byte(`{"success":true,"data":[{"operation_id":"op_`))
			return
		}
	}
	s.route(w, r, path, f)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	// Python's json does not escape <, > and &; neither do we.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, err.Error(), 500)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// envelopeError is the body of the backend's exception handlers (ApiResponse with success:false).
func envelopeError(code, msg string, details any) map[string]any {
	return map[string]any{"success": false, "data": nil, "error": map[string]any{"code": code, "message": msg, "details": details}}
}

func detail(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]any{"detail": msg})
}
