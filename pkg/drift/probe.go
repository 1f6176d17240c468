package drift

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Call is one probe request as a Sender sends it.
type Call struct {
	Route  string // the upstream.Request Op
	Method string
	Path   string
	Query  url.Values
	JSON   any // a read-only POST's body
	Form   url.Values
}

// Reply is what the upstream answered (Status 0 when nothing came back).
type Reply struct {
	Status int
	Header http.Header
	Body   []byte
}

// Sender sends one call; err is the client's own message for a failed call
// (already free of secrets), and the reply holds what did come back.
type Sender func(ctx context.Context, c Call) (Reply, error)

// Probe is one read-only request to one upstream route.
type Probe struct {
	Upstream string // "OpenAI", "Gamma"
	Route    string // the route's Shape.Route (the client's Op)
	Method   string // GET (default) or HEAD; POST only with ReadOnly
	Path     string
	Query    url.Values
	JSON     any
	Form     url.Values
	// ReadOnly says why a POST reads only (Noren's SearchScrip): a POST
	// without it is refused. Nothing else but GET and HEAD is ever sent.
	ReadOnly string
	// Paid marks a probe that costs the operator money (an OpenAI search):
	// skipped unless IncludePaid.
	Paid bool
	// Needs names earlier probes whose answers Prepare reads (an id to
	// look up); Prepare fills the call from them.
	Needs   []string
	Prepare func(earlier map[string][]byte, c *Call) error `json:"-"`
	// Skip, when set, is why this probe is not sent (Noren's routes when no
	// session may be used): the route is reported skipped with it.
	Skip string
	// Extra checks what a shape cannot say (a model's shutdown_date).
	Extra func(r Reply) []Finding `json:"-"`
	Send  Sender                  `json:"-"`
}

// Statuses of a probed route, in order of severity.
const (
	OK           = "ok"
	StatusSkip   = "skipped"
	StatusDepr   = "deprecated"
	StatusDrift  = "drifted"
	StatusFailed = "failing"
)

// Result is one probed route.
type Result struct {
	Upstream  string    `json:"upstream"`
	Route     string    `json:"route"`
	Method    string    `json:"method"`
	Path      string    `json:"path"`
	Status    string    `json:"status"`
	HTTP      int       `json:"http_status"`
	LatencyMS int64     `json:"latency_ms"`
	Findings  []Finding `json:"findings"`
	Error     string    `json:"error,omitempty"`
}

// Options of a probe run.
type Options struct {
	IncludePaid bool
	// Timeout bounds each probe (default 20s).
	Timeout time.Duration
}

// CheckReadOnly refuses a probe that could change anything: only GET and
// HEAD go out, or a POST that says why it only reads.
func CheckReadOnly(p Probe) error {
	switch m := strings.ToUpper(p.Method); m {
	case "", http.MethodGet, http.MethodHead:
		return nil
	case http.MethodPost:
		if strings.TrimSpace(p.ReadOnly) != "" {
			return nil
		}
		return fmt.Errorf("refused: %s %s is a POST that does not declare itself read-only", p.Route, p.Path)
	default:
		return fmt.Errorf("refused: %s %s would send %s; a probe never writes", p.Route, p.Path, m)
	}
}

// Run sends each probe in order and checks its answer against shapes.
func Run(ctx context.Context, probes []Probe, shapes []Shape, o Options) []Result {
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Second
	}
	byRoute := map[string]Shape{}
	for _, s := range shapes {
		byRoute[s.Route] = s
	}
	bodies := map[string][]byte{}
	out := make([]Result, 0, len(probes))
	for _, p := range probes {
		if p.Method == "" {
			p.Method = http.MethodGet
		}
		r := Result{Upstream: p.Upstream, Route: p.Route, Method: strings.ToUpper(p.Method), Path: p.Path, Findings: []Finding{}}
		call := Call{Route: p.Route, Method: r.Method, Path: p.Path, Query: p.Query, JSON: p.JSON, Form: p.Form}
		switch err := CheckReadOnly(p); {
		case err != nil:
			r.Status, r.Error = StatusFailed, err.Error()
		case p.Skip != "":
			r.Status, r.Error = StatusSkip, p.Skip
		case p.Paid && !o.IncludePaid:
			r.Status, r.Error = StatusSkip, "costs money: run with --include-paid"
		case p.Send == nil:
			r.Status, r.Error = StatusFailed, "no client for "+p.Upstream
		default:
			if p.Prepare != nil {
				if err := p.Prepare(bodies, &call); err != nil {
					r.Status, r.Error = StatusSkip, err.Error()
					if len(p.Needs) > 0 {
						r.Error = "needs " + strings.Join(p.Needs, ", ") + ": " + r.Error
					}
					break
				}
				r.Path = call.Path
			}
			cctx, cancel := context.WithTimeout(ctx, o.Timeout)
			start := time.Now()
			reply, err := p.Send(cctx, call)
			cancel()
			r.LatencyMS = time.Since(start).Milliseconds()
			r.HTTP = reply.Status
			if reply.Status >= 200 && reply.Status < 300 {
				bodies[p.Route] = reply.Body
			}
			r.Findings, r.Status, r.Error = judge(byRoute[p.Route], p, reply, err)
			if un := Unprobed(""); errors.As(err, &un) {
				// Not the upstream's doing (a session it no longer takes):
				// nothing to judge.
				r.Findings, r.Status, r.Error = []Finding{}, StatusSkip, un.Error()
			}
		}
		out = append(out, r)
	}
	return out
}

// judge classifies one answer: a refused or unanswered call is failing, an
// error answer in an unknown shape or a 2xx off its shape is drifted, a
// deprecation signal on a good answer is deprecated.
func judge(s Shape, p Probe, reply Reply, err error) ([]Finding, string, string) {
	fs := []Finding{}
	if d, ok := DeprecationOf(reply.Header); ok {
		fs = append(fs, d)
	}
	// A 2xx that the client's detectors read as an error (Noren's
	// stat:Not_Ok, chart-img's message) is a failing call, not a shape.
	ok2xx := reply.Status >= 200 && reply.Status < 300 && err == nil
	switch {
	case ok2xx:
		fs = append(fs, s.CheckBody(reply.Body)...)
	case reply.Status >= 300:
		fs = append(fs, s.CheckError(reply.Body)...)
	}
	if p.Extra != nil && ok2xx {
		fs = append(fs, p.Extra(reply)...)
	}
	status := OK
	for _, f := range fs {
		if f.Kind == Deprecated {
			status = worse(status, StatusDepr)
		} else {
			status = worse(status, StatusDrift)
		}
	}
	msg := ""
	if !ok2xx {
		if err != nil {
			msg = clip(err.Error(), 300)
		} else {
			msg = fmt.Sprintf("HTTP %d", reply.Status)
		}
		status = worse(status, StatusFailed)
		if status == StatusFailed && hasKind(fs, ErrorBody) {
			status = StatusDrift // the error itself is in a shape the client cannot read
		}
	}
	return fs, status, msg
}

func hasKind(fs []Finding, kind string) bool {
	for _, f := range fs {
		if f.Kind == kind {
			return true
		}
	}
	return false
}

var severity = map[string]int{OK: 0, StatusSkip: 0, StatusDepr: 1, StatusDrift: 2, StatusFailed: 3}

func worse(a, b string) string {
	if severity[b] > severity[a] {
		return b
	}
	return a
}

// Worst is the most severe status among results (ok when none); skipped
// when every route was skipped, so a probe that sent nothing never reads ok.
func Worst(rs []Result) string {
	w, skipped := OK, 0
	for _, r := range rs {
		w = worse(w, r.Status)
		if r.Status == StatusSkip {
			skipped++
		}
	}
	if len(rs) > 0 && skipped == len(rs) {
		return StatusSkip
	}
	return w
}
