package drift

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// Settings read by Default.
const (
	// EnvSample is how often one route's body is checked against its Shape
	// on ordinary traffic (a Go duration; default 1m; 0 checks every answer).
	EnvSample = "MCPFLEET_DRIFT_SAMPLE"
	// EnvDir is where each server keeps its last seen drift
	// (<dir>/<server>.drift.json) for `mcpfleet doctor` to read offline;
	// default: the state directory (pkg/store.Dir), none when
	// MCPFLEET_STATE=memory.
	EnvDir = "MCPFLEET_DRIFT_DIR"
	// DefaultSample is the body check interval per route.
	DefaultSample = time.Minute
	maxSignals    = 256
)

// Signal is one kind of drift seen on one route, with how often and when.
type Signal struct {
	Upstream  string    `json:"upstream"`
	Route     string    `json:"route"`
	Kind      string    `json:"kind"`
	Path      string    `json:"path,omitempty"`
	Detail    string    `json:"detail"`
	Count     int64     `json:"count"`
	FirstSeen time.Time `json:"first_seen"`
	LastSeen  time.Time `json:"last_seen"`
}

// Watch notices drift on ordinary traffic. Safe for concurrent use.
type Watch struct {
	mu      sync.Mutex
	server  string
	shapes  map[string]Shape
	checked map[[2]string]time.Time // {upstream, route} → last body check (no allocation per answer)
	signals map[string]*Signal
	logged  map[string]string // signal key → UTC day last logged
	every   time.Duration
	dir     string
	now     func() time.Time
}

// NewWatch is an empty watch for server that checks bodies every sample
// (0: every answer) and keeps its signals in dir ("" keeps them in memory only).
func NewWatch(server string, sample time.Duration, dir string) *Watch {
	return &Watch{server: server, shapes: map[string]Shape{}, checked: map[[2]string]time.Time{},
		signals: map[string]*Signal{}, logged: map[string]string{}, every: sample, dir: dir, now: time.Now}
}

var (
	defOnce sync.Once
	def     *Watch
)

// Default is the process's watch: pkg/upstream reports every answer to it.
// EnvSample sets its body check interval. It keeps its signals in memory
// until the server names it (Keep; pkg/serve does, with the server's name
// and state directory), so what it saves is found by that name wherever the
// binary runs and whatever its file is called (the images run /app/server).
func Default() *Watch {
	defOnce.Do(func() {
		sample := DefaultSample
		if d, err := time.ParseDuration(os.Getenv(EnvSample)); err == nil && d >= 0 {
			sample = d
		}
		def = NewWatch("", sample, "")
	})
	return def
}

// DirFromEnv is where a server keeps its signals, as doctor finds it:
// EnvDir, else the state directory of pkg/store unless state is kept in
// memory (MCPFLEET_STATE=memory); "" keeps them in memory.
func DirFromEnv(getenv func(string) string) string {
	return DirFor(getenv, getenv(store.EnvMode), "")
}

// DirFor is DirFromEnv for a server whose flags are parsed: EnvDir, else
// "" with mode "memory", else stateDir (its --state-dir), else the state
// directory.
func DirFor(getenv func(string) string, mode, stateDir string) string {
	if d := getenv(EnvDir); d != "" {
		return d
	}
	if mode == "memory" {
		return ""
	}
	if stateDir != "" {
		return stateDir
	}
	d, err := store.Dir(getenv)
	if err != nil {
		return ""
	}
	return d
}

// Keep names the server the signals belong to and where they are kept
// (dir "": memory only), and reads back what an earlier run of that server
// saved there. pkg/serve calls it once the flags are parsed (--state-dir).
func (w *Watch) Keep(server, dir string) {
	w.mu.Lock()
	same := w.dir == dir && w.server == server
	w.server, w.dir = server, dir
	w.mu.Unlock()
	if !same {
		w.restore()
	}
}

// Server is the name the signals are kept under ("" until Keep).
func (w *Watch) Server() string { w.mu.Lock(); defer w.mu.Unlock(); return w.server }

// Dir is where the signals are kept ("": memory only).
func (w *Watch) Dir() string { w.mu.Lock(); defer w.mu.Unlock(); return w.dir }

// SetSample sets the body check interval per route (0: every answer).
func (w *Watch) SetSample(d time.Duration) { w.mu.Lock(); w.every = d; w.mu.Unlock() }

// Reset forgets every signal and check (tests share the process's watch).
func (w *Watch) Reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	clear(w.signals)
	clear(w.logged)
	clear(w.checked)
}

// SetClock replaces the clock (tests).
func (w *Watch) SetClock(now func() time.Time) { w.mu.Lock(); w.now = now; w.mu.Unlock() }

// Register adds the shapes a client depends on (a client's constructor
// calls it; registering a route again replaces its shape).
func (w *Watch) Register(shapes ...Shape) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range shapes {
		w.shapes[s.Route] = s
	}
}

// Shape returns the registered shape of route.
func (w *Watch) Shape(route string) (Shape, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	s, ok := w.shapes[route]
	return s, ok
}

// Observe looks at one answer of upstream's route: its deprecation headers
// always, its body against the route's shape at most once per sample
// interval (a 2xx body against Fields, another against Error).
func (w *Watch) Observe(log zerolog.Logger, upstream, route string, status int, h http.Header, body []byte) {
	if route == "" {
		return
	}
	if f, ok := DeprecationOf(h); ok {
		w.Note(log, upstream, route, f)
	}
	w.mu.Lock()
	shape, ok := w.shapes[route]
	now := w.now()
	key := [2]string{upstream, route}
	due := ok && (w.every == 0 || now.Sub(w.checked[key]) >= w.every)
	if due {
		if len(w.checked) > maxSignals {
			clear(w.checked)
		}
		w.checked[key] = now
	}
	w.mu.Unlock()
	if !due || len(body) == 0 {
		return
	}
	var fs []Finding
	if status >= 200 && status < 300 {
		fs = shape.CheckBody(body)
	} else if status >= 400 {
		fs = shape.CheckError(body)
	}
	for _, f := range fs {
		w.Note(log, upstream, route, f)
	}
}

// Note records one finding on upstream's route (a parser that needed a
// field and did not find it calls it directly) and logs it at warn level the
// first time each UTC day.
func (w *Watch) Note(log zerolog.Logger, upstream, route string, f Finding) {
	key := strings.Join([]string{upstream, route, f.Kind, f.Path}, "\x00")
	w.mu.Lock()
	now := w.now()
	s := w.signals[key]
	if s == nil {
		if len(w.signals) >= maxSignals {
			w.dropOldest()
		}
		s = &Signal{Upstream: upstream, Route: route, Kind: f.Kind, Path: f.Path, FirstSeen: now}
		w.signals[key] = s
	}
	s.Count++
	s.Detail, s.LastSeen = f.Detail, now
	day := now.UTC().Format(time.DateOnly)
	first := w.logged[key] != day
	if first {
		w.logged[key] = day
	}
	snap := *s
	var all []Signal
	if first && w.dir != "" && w.server != "" {
		all = w.list()
	}
	w.mu.Unlock()
	if !first {
		return
	}
	log.Warn().Str("upstream", upstream).Str("route", route).Str("drift", f.Kind).Str("path", f.Path).
		Str("detail", f.Detail).Int64("count", snap.Count).
		Msg("the upstream drifted from what this server expects; see docs/drift.md")
	if all != nil {
		w.save(all)
	}
}

func (w *Watch) dropOldest() {
	var oldest string
	for k, s := range w.signals {
		if oldest == "" || s.LastSeen.Before(w.signals[oldest].LastSeen) {
			oldest = k
		}
	}
	delete(w.signals, oldest)
	delete(w.logged, oldest)
}

// Signals are the drift seen so far, the most recent first.
func (w *Watch) Signals() []Signal {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.list()
}

func (w *Watch) list() []Signal {
	out := make([]Signal, 0, len(w.signals))
	for _, s := range w.signals {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].LastSeen.Equal(out[j].LastSeen) {
			return out[i].LastSeen.After(out[j].LastSeen)
		}
		return out[i].Route+out[i].Kind+out[i].Path < out[j].Route+out[j].Kind+out[j].Path
	})
	return out
}

// Saved is the file a server keeps its signals in (DirFromEnv).
type Saved struct {
	Server  string    `json:"server"`
	Updated time.Time `json:"updated"`
	Signals []Signal  `json:"signals"`
}

// save writes the signals to <dir>/<server>.json through a temporary file,
// so a reader never sees half of it. A failure is not worth failing a call.
func (w *Watch) save(all []Signal) {
	w.mu.Lock()
	server, dir, now := w.server, w.dir, w.now()
	w.mu.Unlock()
	b, err := json.MarshalIndent(Saved{Server: server, Updated: now.UTC(), Signals: all}, "", " ")
	if err != nil || os.MkdirAll(dir, 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, "."+server+"-*.json")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), SavedPath(dir, server)) != nil {
		_ = os.Remove(tmp.Name())
	}
}

// SavedPath is where server keeps its signals under dir.
func SavedPath(dir, server string) string { return filepath.Join(dir, server+".drift.json") }

// Load reads what server saved under dir; ok is false when it saved nothing.
func Load(dir, server string) (s Saved, ok bool, err error) {
	b, err := os.ReadFile(SavedPath(dir, server))
	if os.IsNotExist(err) {
		return s, false, nil
	}
	if err != nil {
		return s, false, err
	}
	return s, true, json.Unmarshal(b, &s)
}

// Brief is a signal as a tool shows it (get_*_capabilities).
type Brief struct {
	Upstream string `json:"upstream"`
	Route    string `json:"route"`
	Kind     string `json:"kind"`
	Detail   string `json:"detail"`
	Count    int64  `json:"count"`
	LastSeen string `json:"last_seen"`
}

// Recent is at most n of the latest signals, for a capabilities tool.
func (w *Watch) Recent(n int) []Brief {
	sig := w.Signals()
	if len(sig) > n {
		sig = sig[:n]
	}
	out := make([]Brief, 0, len(sig))
	for _, s := range sig {
		d := s.Detail
		if s.Path != "" {
			d = s.Path + ": " + d
		}
		out = append(out, Brief{Upstream: s.Upstream, Route: s.Route, Kind: s.Kind, Detail: d, Count: s.Count,
			LastSeen: s.LastSeen.UTC().Format(time.RFC3339)})
	}
	return out
}

// String is one line: "<upstream> <route> <kind>: <detail> (<count>×, last <time>)".
func (b Brief) String() string {
	return fmt.Sprintf("%s %s %s: %s (%d×, last %s)", b.Upstream, b.Route, b.Kind, b.Detail, b.Count, b.LastSeen)
}

// RecentText is Recent as one line each, for a tool's plain list.
func (w *Watch) RecentText(n int) []string {
	var out []string
	for _, b := range w.Recent(n) {
		out = append(out, b.String())
	}
	return out
}

// restore loads what an earlier run of this server saved, so a restart
// does not forget the drift it saw (signals are logged again once a day).
func (w *Watch) restore() {
	w.mu.Lock()
	server, dir := w.server, w.dir
	w.mu.Unlock()
	if dir == "" || server == "" {
		return
	}
	saved, ok, err := Load(dir, server)
	if !ok || err != nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, s := range saved.Signals {
		if len(w.signals) >= maxSignals {
			break
		}
		s := s
		w.signals[strings.Join([]string{s.Upstream, s.Route, s.Kind, s.Path}, "\x00")] = &s
	}
}
