package serve

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

// Limits bound what one client can make a server hold: bytes, time,
// connections and sessions. Each has an env override (see limitVars); the
// defaults keep long SSE streams (progress notifications, GET streams) alive,
// because no limit caps how long a response may stream.
type Limits struct {
	MaxBodyBytes      int64         // request body; 413 beyond (MCPFLEET_HTTP_MAX_BODY_BYTES)
	BodyBudgetBytes   int64         // request bodies held at once by all requests; 503 when full (MCPFLEET_HTTP_BODY_BUDGET_BYTES)
	MaxHeaderBytes    int           // request line + headers (MCPFLEET_HTTP_MAX_HEADER_BYTES)
	ReadHeaderTimeout time.Duration // slowloris headers (MCPFLEET_HTTP_READ_HEADER_TIMEOUT)
	BodyTimeout       time.Duration // whole request body, from the end of the headers (MCPFLEET_HTTP_BODY_TIMEOUT)
	IdleTimeout       time.Duration // keep-alive connection between requests (MCPFLEET_HTTP_IDLE_TIMEOUT)
	WriteTimeout      time.Duration // each write of a response, reset by the next one (MCPFLEET_HTTP_WRITE_TIMEOUT)
	MaxConns          int           // concurrent TCP connections; more wait in the kernel backlog (MCPFLEET_HTTP_MAX_CONNS)
	SessionIdleTTL    time.Duration // legacy session expiry after inactivity (MCPFLEET_HTTP_SESSION_IDLE_TTL)
	MaxSessions       int           // legacy sessions in total (MCPFLEET_HTTP_MAX_SESSIONS)
	MaxUserSessions   int           // legacy sessions per bearer user (MCPFLEET_HTTP_MAX_SESSIONS_PER_USER)
	MaxInitParams     int           // bytes of initialize params (clientInfo, capabilities) (MCPFLEET_HTTP_MAX_INIT_PARAMS_BYTES)
	MaxLineBytes      int           // one stdio JSON-RPC line (MCPFLEET_STDIO_MAX_LINE_BYTES)
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
	}
}

// limitsFromEnv reads the MCPFLEET_HTTP_* / MCPFLEET_STDIO_* overrides.
func limitsFromEnv() (Limits, error) {
	l := DefaultLimits()
	ints := []struct {
		env string
		dst *int
	}{
		{"MCPFLEET_HTTP_MAX_HEADER_BYTES", &l.MaxHeaderBytes},
		{"MCPFLEET_HTTP_MAX_CONNS", &l.MaxConns},
		{"MCPFLEET_HTTP_MAX_SESSIONS", &l.MaxSessions},
		{"MCPFLEET_HTTP_MAX_SESSIONS_PER_USER", &l.MaxUserSessions},
		{"MCPFLEET_HTTP_MAX_INIT_PARAMS_BYTES", &l.MaxInitParams},
		{"MCPFLEET_STDIO_MAX_LINE_BYTES", &l.MaxLineBytes},
	}
	for _, v := range ints {
		if s := os.Getenv(v.env); s != "" {
			n, err := strconv.Atoi(s)
			if err != nil || n < 1 {
				return l, fmt.Errorf("%s must be a positive integer, not %q", v.env, s)
			}
			*v.dst = n
		}
	}
	for _, v := range []struct {
		env string
		dst *int64
	}{{"MCPFLEET_HTTP_MAX_BODY_BYTES", &l.MaxBodyBytes}, {"MCPFLEET_HTTP_BODY_BUDGET_BYTES", &l.BodyBudgetBytes}} {
		if s := os.Getenv(v.env); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n < 1 {
				return l, fmt.Errorf("%s must be a positive integer, not %q", v.env, s)
			}
			*v.dst = n
		}
	}
	durs := []struct {
		env string
		dst *time.Duration
	}{
		{"MCPFLEET_HTTP_READ_HEADER_TIMEOUT", &l.ReadHeaderTimeout},
		{"MCPFLEET_HTTP_BODY_TIMEOUT", &l.BodyTimeout},
		{"MCPFLEET_HTTP_IDLE_TIMEOUT", &l.IdleTimeout},
		{"MCPFLEET_HTTP_WRITE_TIMEOUT", &l.WriteTimeout},
		{"MCPFLEET_HTTP_SESSION_IDLE_TTL", &l.SessionIdleTTL},
	}
	for _, v := range durs {
		if s := os.Getenv(v.env); s != "" {
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				return l, fmt.Errorf("%s must be a positive duration like 30s, not %q", v.env, s)
			}
			*v.dst = d
		}
	}
	if l.BodyBudgetBytes < l.MaxBodyBytes {
		l.BodyBudgetBytes = l.MaxBodyBytes // one maximal body must always fit
	}
	return l, nil
}

// orDefaults fills unset (zero) fields, for Options built in code.
func (l Limits) orDefaults() Limits {
	d := DefaultLimits()
	set := func(v *int64, def int64) {
		if *v <= 0 {
			*v = def
		}
	}
	seti := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	setd := func(v *time.Duration, def time.Duration) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.MaxBodyBytes, d.MaxBodyBytes)
	set(&l.BodyBudgetBytes, d.BodyBudgetBytes)
	seti(&l.MaxHeaderBytes, d.MaxHeaderBytes)
	setd(&l.ReadHeaderTimeout, d.ReadHeaderTimeout)
	setd(&l.BodyTimeout, d.BodyTimeout)
	setd(&l.IdleTimeout, d.IdleTimeout)
	setd(&l.WriteTimeout, d.WriteTimeout)
	seti(&l.MaxConns, d.MaxConns)
	setd(&l.SessionIdleTTL, d.SessionIdleTTL)
	seti(&l.MaxSessions, d.MaxSessions)
	seti(&l.MaxUserSessions, d.MaxUserSessions)
	seti(&l.MaxInitParams, d.MaxInitParams)
	seti(&l.MaxLineBytes, d.MaxLineBytes)
	if l.BodyBudgetBytes < l.MaxBodyBytes {
		l.BodyBudgetBytes = l.MaxBodyBytes
	}
	return l
}
