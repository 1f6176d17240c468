package serve

import (
	"fmt"
	"strconv"
	"time"
)

// Limits bound what one client can make a server hold: bytes, time,
// connections and sessions. Each has an env override (Limits.vars, the one
// list of them); the defaults keep long SSE streams (progress notifications,
// GET streams) alive, because no limit caps how long a response may stream.
type Limits struct {
	MaxBodyBytes      int64         // request body; 413 beyond
	BodyBudgetBytes   int64         // request bodies held at once by all requests; 503 when full
	MaxHeaderBytes    int           // request line + headers
	ReadHeaderTimeout time.Duration // slowloris headers
	BodyTimeout       time.Duration // whole request body, from the end of the headers
	IdleTimeout       time.Duration // keep-alive connection between requests
	WriteTimeout      time.Duration // each write of a response, reset by the next one
	MaxConns          int           // concurrent TCP connections; more wait in the kernel backlog
	SessionIdleTTL    time.Duration // legacy session expiry after inactivity
	MaxSessions       int           // legacy sessions in total
	MaxUserSessions   int           // legacy sessions per bearer user
	MaxInitParams     int           // bytes of initialize params (clientInfo, capabilities)
	MaxLineBytes      int           // one stdio JSON-RPC line
	ListenKeepAlive   time.Duration // SSE comment line on a quiet subscriptions/listen stream, so proxies keep it
}

// DefaultLimits are documented in docs/architecture.md ("Limits").
func DefaultLimits() Limits {
	return Limits{
		MaxBodyBytes:      MaxBodyBytes,
		BodyBudgetBytes:   8 << 20,
		MaxHeaderBytes:    64 << 10,
		ReadHeaderTimeout: 10 * time.Second,
		BodyTimeout:       30 * time.Second,
		IdleTimeout:       60 * time.Second,
		WriteTimeout:      30 * time.Second,
		MaxConns:          256,
		SessionIdleTTL:    30 * time.Minute,
		MaxSessions:       1000,
		MaxUserSessions:   100,
		MaxInitParams:     64 << 10,
		MaxLineBytes:      4 << 20,
		// "include a comment line ... every 15 seconds or so" (WHATWG HTML,
		// Server-sent events, Authoring notes): a proxy's idle timeout then
		// never cuts a quiet watch.
		ListenKeepAlive: 15 * time.Second,
	}
}

// limitVar is one limit and its variable; field is an *int, *int64 or *time.Duration.
type limitVar struct {
	env   string
	field any
}

// vars lists every limit with its environment variable, in one place.
func (l *Limits) vars() []limitVar {
	return []limitVar{
		{"MCPFLEET_HTTP_MAX_BODY_BYTES", &l.MaxBodyBytes},
		{"MCPFLEET_HTTP_BODY_BUDGET_BYTES", &l.BodyBudgetBytes},
		{"MCPFLEET_HTTP_MAX_HEADER_BYTES", &l.MaxHeaderBytes},
		{"MCPFLEET_HTTP_READ_HEADER_TIMEOUT", &l.ReadHeaderTimeout},
		{"MCPFLEET_HTTP_BODY_TIMEOUT", &l.BodyTimeout},
		{"MCPFLEET_HTTP_IDLE_TIMEOUT", &l.IdleTimeout},
		{"MCPFLEET_HTTP_WRITE_TIMEOUT", &l.WriteTimeout},
		{"MCPFLEET_HTTP_MAX_CONNS", &l.MaxConns},
		{"MCPFLEET_HTTP_SESSION_IDLE_TTL", &l.SessionIdleTTL},
		{"MCPFLEET_HTTP_MAX_SESSIONS", &l.MaxSessions},
		{"MCPFLEET_HTTP_MAX_SESSIONS_PER_USER", &l.MaxUserSessions},
		{"MCPFLEET_HTTP_MAX_INIT_PARAMS_BYTES", &l.MaxInitParams},
		{"MCPFLEET_STDIO_MAX_LINE_BYTES", &l.MaxLineBytes},
		{"MCPFLEET_HTTP_LISTEN_KEEPALIVE", &l.ListenKeepAlive},
	}
}

// limitsFromEnv is DefaultLimits with the MCPFLEET_HTTP_* / MCPFLEET_STDIO_*
// overrides getenv returns.
func limitsFromEnv(getenv func(string) string) (Limits, error) {
	l := DefaultLimits()
	for _, v := range l.vars() {
		s := getenv(v.env)
		if s == "" {
			continue
		}
		if d, ok := v.field.(*time.Duration); ok {
			n, err := time.ParseDuration(s)
			if err != nil || n <= 0 {
				return l, fmt.Errorf("%s must be a positive duration like 30s, not %q", v.env, s)
			}
			*d = n
			continue
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 1 || n > 1<<40 {
			return l, fmt.Errorf("%s must be a positive integer, not %q", v.env, s)
		}
		setInt(v.field, n)
	}
	return l.orDefaults(), nil
}

// orDefaults fills unset (zero or negative) fields with the defaults, for
// Options built in code, and lets one maximal body always fit the budget.
func (l Limits) orDefaults() Limits {
	d := DefaultLimits()
	dv := d.vars()
	for i, v := range l.vars() {
		switch f := v.field.(type) {
		case *int:
			if *f <= 0 {
				*f = *dv[i].field.(*int)
			}
		case *int64:
			if *f <= 0 {
				*f = *dv[i].field.(*int64)
			}
		case *time.Duration:
			if *f <= 0 {
				*f = *dv[i].field.(*time.Duration)
			}
		}
	}
	l.BodyBudgetBytes = max(l.BodyBudgetBytes, l.MaxBodyBytes)
	return l
}

func setInt(field any, n int64) {
	switch f := field.(type) {
	case *int:
		*f = int(n)
	case *int64:
		*f = n
	}
}
