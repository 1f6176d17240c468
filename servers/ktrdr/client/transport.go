package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// Defaults of the KTRDR MCP configuration (mcp/src/config.py; the base URL is
// local here because the server runs beside the backend, not in its compose network).
const (
	DefaultAPIURL  = "http://localhost:8000/api/v1"
	DefaultTimeout = 30 * time.Second
)

// Config configures New.
type Config struct {
	// APIURL is the backend base including /api/v1 (KTRDR_API_URL).
	APIURL string
	// Timeout bounds each backend call, retries included (KTRDR_TIMEOUT).
	Timeout time.Duration
	// DataLoadRoute is RouteAuto (default), RouteLoadOnly or RouteAcqOnly (KTRDR_DATA_LOAD_ROUTE).
	DataLoadRoute string
	// Logger gets one debug line per backend attempt.
	Logger zerolog.Logger
	// Retries overrides pkg/upstream's default retry count for safe requests (0 = default, <0 = none).
	Retries int
	// Drift is the server's drift watch (serve.Registry.Drift, with Shapes
	// registered); nil watches nothing.
	Drift *drift.Watch
}

// New makes a client on pkg/upstream with the detectors for the backend's
// error shapes: {"success": false, "error": {...}} (exception handlers and
// HEAD's 422) and FastAPI's {"detail": ...} (HTTPException and 3ba55e75's 422).
func New(cfg Config) (*Client, error) {
	if cfg.APIURL == "" {
		cfg.APIURL = DefaultAPIURL
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	switch cfg.DataLoadRoute {
	case "":
		cfg.DataLoadRoute = RouteAuto
	case RouteAuto, RouteLoadOnly, RouteAcqOnly:
	default:
		return nil, fmt.Errorf("KTRDR_DATA_LOAD_ROUTE must be auto, load or acquire, not %q", cfg.DataLoadRoute)
	}
	if !strings.HasPrefix(cfg.APIURL, "http://") && !strings.HasPrefix(cfg.APIURL, "https://") {
		return nil, fmt.Errorf("KTRDR_API_URL must be an http(s) URL such as %s", DefaultAPIURL)
	}
	up := upstream.New(upstream.Config{
		Name: "ktrdr", BaseURL: strings.TrimRight(cfg.APIURL, "/"), URLEnv: "KTRDR_API_URL",
		Timeout: cfg.Timeout, Retries: cfg.Retries, Logger: cfg.Logger, Drift: cfg.Drift,
		Headers:   map[string]string{"Content-Type": "application/json"},
		Detectors: []extract.Detector{extract.SuccessFalse, extract.FastAPI},
	})
	return &Client{t: upstreamTransport{up}, route: cfg.DataLoadRoute}, nil
}

type upstreamTransport struct{ up *upstream.Client }

// FastAPI's answers when no route serves a request: a bare 404 when no path
// matches, and 405 when the path matches a route of another method. 3ba55e75
// answers POST /data/acquire/download with 405 because the path matches
// GET /data/{symbol}/{timeframe} (kpiteira/ktrdr@3ba55e75 ktrdr/api/endpoints/data.py).
func routeMissing(status int, body []byte) bool {
	var m struct {
		Detail *string `json:"detail"`
	}
	if (status != 404 && status != 405) || json.Unmarshal(body, &m) != nil || m.Detail == nil {
		return false
	}
	return (status == 404 && *m.Detail == "Not Found") || (status == 405 && *m.Detail == "Method Not Allowed")
}

func (u upstreamTransport) do(ctx context.Context, r request) (reply, error) {
	res, err := u.up.Do(ctx, upstream.Request{Op: r.op, Route: r.route, Method: r.method, Path: r.path, Query: r.query, JSON: r.json, Idempotent: r.idempotent})
	if err == nil {
		return reply{body: res.Body, status: res.Status}, nil
	}
	var out reply
	if res != nil {
		out.status, out.body = res.Status, res.Body
	}
	if routeMissing(out.status, out.body) {
		// No such route: the base URL or the backend version is off, not the thing asked for.
		out.routeMissing = true
		e := envelope.New(envelope.UpstreamError, "ktrdr %s: the backend has no route %s %s (HTTP %d); check KTRDR_API_URL (it must end in /api/v1) and the backend version",
			r.op, r.method, r.path, out.status).WithDetail("http_status", out.status).WithCause(err)
		return out, e
	}
	var e *envelope.Error
	if !errors.As(err, &e) {
		return out, envelope.From(err)
	}
	return out, err
}
