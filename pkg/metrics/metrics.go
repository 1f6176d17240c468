// Package metrics holds the Prometheus series an mcpfleet server exports on
// MCPFLEET_METRICS_ADDR (off by default; pkg/serve starts the listener).
//
// Labels are bounded by construction and carry no secret: server and tool
// names (only tools the server serves reach the call middleware), envelope
// error codes (anything else counts as tool_error), upstream names, route
// names a drift Shape is registered for (constants in the clients' code;
// any other operation counts as OtherOp), HTTP status codes. Never a user
// id, token, URL path or argument.
package metrics

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	dto "github.com/prometheus/client_model/go"
)

// registry is built on first scrape (Handler): a process that exports no
// metrics never pays for the Go and process collectors (polymarket's sandbox
// child is this binary, started under a tight address-space limit).
var (
	registryOnce sync.Once
	registry     *prometheus.Registry
	extra        []prometheus.Collector // gauges registered before the first scrape
	extraMu      sync.Mutex
)

var (
	toolCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mcpfleet_tool_calls_total",
		Help: "Tool calls by server, tool and outcome code (ok, an envelope error code, tool_error or protocol_error).",
	}, []string{"server", "tool", "code"})
	toolDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "mcpfleet_tool_call_duration_seconds",
		Help:    "Tool call latency by server and tool.",
		Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
	}, []string{"server", "tool"})
	rateLimited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mcpfleet_rate_limit_refusals_total",
		Help: "Tool calls refused with rate_limited (a per-user or per-upstream limit, or the sandbox queue) by server and tool.",
	}, []string{"server", "tool"})
	upstreamRequests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mcpfleet_upstream_requests_total",
		Help: "Requests (each attempt) to upstream APIs by upstream, operation and HTTP status (\"error\" when no status came back).",
	}, []string{"upstream", "op", "status"})
	upstreamDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "mcpfleet_upstream_request_duration_seconds",
		Help:    "Upstream request latency (each attempt) by upstream and operation.",
		Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30},
	}, []string{"upstream", "op"})
	sessions = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "mcpfleet_sessions_active",
		Help: "MCP sessions this process holds (legacy 2025-11-25 HTTP sessions and the stdio session).",
	}, []string{"server"})
	sandboxRuns = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "mcpfleet_sandbox_runs_total",
		Help: "Code runs in the sandbox by outcome (ok, error, timeout, unavailable, queue_full).",
	}, []string{"outcome"})
)

func reg() *prometheus.Registry {
	registryOnce.Do(func() {
		r := prometheus.NewRegistry()
		r.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
			toolCalls, toolDuration, rateLimited, upstreamRequests, upstreamDuration, sessions, sandboxRuns)
		extraMu.Lock()
		defer extraMu.Unlock()
		for _, c := range extra {
			r.MustRegister(c)
		}
		registry, extra = r, nil
	})
	extraMu.Lock()
	defer extraMu.Unlock()
	return registry
}

// Handler serves the metrics in the Prometheus exposition format.
func Handler() http.Handler {
	r := reg()
	return promhttp.HandlerFor(r, promhttp.HandlerOpts{Registry: r})
}

// ToolCall records one finished tool call.
func ToolCall(server, tool, code string, d time.Duration) {
	toolCalls.WithLabelValues(server, tool, code).Inc()
	toolDuration.WithLabelValues(server, tool).Observe(d.Seconds())
	if code == "rate_limited" {
		rateLimited.WithLabelValues(server, tool).Inc()
	}
}

// OtherOp is the op label of an upstream request whose route has no
// registered drift Shape (pkg/upstream).
const OtherOp = "other"

// Upstream records one attempt of an upstream request; status 0 is a
// transport error (no answer).
func Upstream(upstream, op string, status int, d time.Duration) {
	s := "error"
	if status > 0 {
		s = strconv.Itoa(status)
	}
	upstreamRequests.WithLabelValues(upstream, op, s).Inc()
	upstreamDuration.WithLabelValues(upstream, op).Observe(d.Seconds())
}

// SessionStarted and SessionEnded move the active sessions gauge.
func SessionStarted(server string) { sessions.WithLabelValues(server).Inc() }
func SessionEnded(server string)   { sessions.WithLabelValues(server).Dec() }

// SandboxRun records one sandbox run's outcome.
func SandboxRun(outcome string) { sandboxRuns.WithLabelValues(outcome).Inc() }

var subsOnce sync.Map // server -> registered

// Subscriptions exports count as the server's active resource subscriptions
// (mcpfleet_subscriptions_active); the first call per server wins.
func Subscriptions(server string, count func() float64) {
	if _, dup := subsOnce.LoadOrStore(server, true); dup {
		return
	}
	g := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name:        "mcpfleet_subscriptions_active",
		Help:        "Active resources/subscribe subscriptions (shoonya's live-tick feed).",
		ConstLabels: prometheus.Labels{"server": server},
	}, count)
	extraMu.Lock()
	r := registry
	if r == nil {
		extra = append(extra, g)
	}
	extraMu.Unlock()
	if r != nil {
		r.MustRegister(g)
	}
}

// Gather is what a scrape of Handler shows, as metric families (tests read
// label values from it).
func Gather() ([]*dto.MetricFamily, error) { return reg().Gather() }
