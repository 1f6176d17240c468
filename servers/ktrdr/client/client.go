// Package client is the KTRDR API client of the ktrdr MCP server: one method per
// backend route it uses, domain types, and parsers over pkg/extract (strict for
// the answers an operation cannot do without, lenient for lists). Every error is
// an *envelope.Error the tools can return as is.
package client

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// Data-load routes: 3ba55e75 answers POST /data/load with the ApiResponse
// envelope; HEAD moved it to POST /data/acquire/download with a flat body.
const (
	RouteLoad    = "/data/load"
	RouteAcquire = "/data/acquire/download"
)

// Route choices for Config.DataLoadRoute.
const (
	RouteAuto     = "auto"    // probe: try acquire first, fall back to load on a missing route, remember
	RouteLoadOnly = "load"    // always POST /data/load
	RouteAcqOnly  = "acquire" // always POST /data/acquire/download
)

// request is one backend call.
type request struct {
	op         string // what the call does, for messages ("list operations")
	method     string
	path       string
	query      url.Values
	json       any
	idempotent bool
}

// transport performs a call and returns the body of a 2xx answer; every other
// outcome is an *envelope.Error (status and body mapped by the detectors).
// routeMissing reports FastAPI's bare 404 {"detail":"Not Found"} for an
// unknown route, so the data-load probe can tell it from a real not-found.
type transport interface {
	do(ctx context.Context, r request) (body []byte, routeMissing bool, err error)
}

// Client talks to one KTRDR backend.
type Client struct {
	t     transport
	route string // RouteAuto, RouteLoadOnly or RouteAcqOnly

	mu       sync.Mutex
	resolved string // the data-load route the probe settled on
}

func (c *Client) call(ctx context.Context, r request) ([]byte, error) {
	body, _, err := c.t.do(ctx, r)
	return body, err
}

// withHint appends a fix to the message of an error of one of the codes.
func withHint(err error, hint string, codes ...envelope.Code) error {
	var e *envelope.Error
	if !errors.As(err, &e) {
		return err
	}
	for _, c := range codes {
		if e.Code == c {
			e.Message = strings.TrimRight(e.Message, ". ") + "; " + hint
			break
		}
	}
	return err
}

// opPath is /operations/{operation_id}[suffix], built by upstream.Path: an id
// of "." or ".." is refused, never sent as DELETE /operations/..
func opPath(id, suffix string) (string, error) {
	return upstream.Path(upstream.Lit("/operations"), upstream.Arg("operation_id", id), upstream.Lit(suffix))
}

// ListOptions filter GET /operations.
type ListOptions struct {
	OperationType, Status string
	ActiveOnly            bool
	Limit, Offset         int
}

// ListOperations lists operations newest first.
func (c *Client) ListOperations(ctx context.Context, o ListOptions) (OperationList, error) {
	q := url.Values{"limit": {strconv.Itoa(o.Limit)}, "offset": {strconv.Itoa(o.Offset)}}
	if o.OperationType != "" {
		q.Set("operation_type", o.OperationType)
	}
	if o.Status != "" {
		q.Set("status", o.Status)
	}
	if o.ActiveOnly {
		q.Set("active_only", "true")
	}
	body, err := c.call(ctx, request{op: "list operations", method: "GET", path: "/operations", query: q})
	if err != nil {
		return OperationList{}, err
	}
	return ParseOperationList(body)
}

// GetOperation returns one operation's full status.
func (c *Client) GetOperation(ctx context.Context, id string) (Operation, error) {
	path, err := opPath(id, "")
	if err != nil {
		return Operation{}, err
	}
	body, err := c.call(ctx, request{op: "get status of " + id, method: "GET", path: path})
	if err != nil {
		return Operation{}, withHint(err, "check the id with list_operations", envelope.NotFound)
	}
	return ParseOperation(body, id)
}

// CancelOperation cancels a pending or running operation. A finished one is a
// conflict carrying details.status.
func (c *Client) CancelOperation(ctx context.Context, id, reason string) (Cancellation, error) {
	var payload any
	if reason != "" {
		payload = map[string]any{"reason": reason}
	}
	// DELETE is idempotent on the backend: a repeat only meets "cannot be cancelled".
	path, err := opPath(id, "")
	if err != nil {
		return Cancellation{}, err
	}
	body, err := c.call(ctx, request{op: "cancel " + id, method: "DELETE", path: path, json: payload, idempotent: true})
	if err != nil {
		var e *envelope.Error
		if errors.As(err, &e) && e.Code == envelope.Conflict {
			if st := cancelStatus(e.Message); st != "" {
				e.WithDetail("status", st)
				e.Message = fmt.Sprintf("operation %s is already %s and cannot be cancelled; get_operation_results shows its outcome", id, st)
			}
		}
		return Cancellation{}, withHint(err, "check the id with list_operations", envelope.NotFound)
	}
	return ParseCancel(body, id)
}

// OperationResults returns a finished operation's result summary.
func (c *Client) OperationResults(ctx context.Context, id string) (Results, error) {
	path, err := opPath(id, "/results")
	if err != nil {
		return Results{}, err
	}
	body, err := c.call(ctx, request{op: "get results of " + id, method: "GET", path: path})
	if err != nil {
		err = withHint(err, "results exist only once it has completed or failed (wait_for_operation, get_operation_status)", envelope.Conflict)
		return Results{}, withHint(err, "check the id with list_operations", envelope.NotFound)
	}
	return ParseResults(body, id)
}

// LoadData starts a data-load operation on whichever route the backend has.
// The first call under RouteAuto probes: HEAD's route first, and on FastAPI's
// bare 404 for a missing route (nothing was started) the 3ba55e75 route; the
// answer is remembered for the life of the client.
func (c *Client) LoadData(ctx context.Context, r LoadRequest) (LoadStarted, error) {
	route := c.dataLoadRoute()
	req := request{op: "data loading", method: "POST", path: route, json: r}
	body, missing, err := c.t.do(ctx, req)
	if missing && c.route == RouteAuto && !c.settled() {
		route = RouteLoad
		if route == req.path {
			route = RouteAcquire
		}
		req.path = route
		body, missing, err = c.t.do(ctx, req)
	}
	if err != nil {
		if missing {
			return LoadStarted{}, envelope.New(envelope.UpstreamError,
				"data loading: the backend has no %s route; set KTRDR_DATA_LOAD_ROUTE to load or acquire to match its version", route)
		}
		return LoadStarted{}, err
	}
	c.settle(route)
	return ParseLoadStarted(body, route)
}

func (c *Client) dataLoadRoute() string {
	switch c.route {
	case RouteLoadOnly:
		return RouteLoad
	case RouteAcqOnly:
		return RouteAcquire
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resolved != "" {
		return c.resolved
	}
	return RouteAcquire
}

func (c *Client) settled() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.resolved != ""
}

func (c *Client) settle(route string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.resolved == "" {
		c.resolved = route
	}
}

// DataLoadRoute reports the route in use ("" while RouteAuto has not probed yet).
func (c *Client) DataLoadRoute() string {
	switch c.route {
	case RouteLoadOnly:
		return RouteLoad
	case RouteAcqOnly:
		return RouteAcquire
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.resolved
}

// StartTraining starts a training operation; its id is the backend's task_id.
func (c *Client) StartTraining(ctx context.Context, r TrainingRequest) (TrainingStarted, error) {
	body, err := c.call(ctx, request{op: "training start", method: "POST", path: "/trainings/start", json: r})
	if err != nil {
		return TrainingStarted{}, withHint(err, "get_strategies lists valid strategy names", envelope.NotFound)
	}
	return ParseTrainingStarted(body)
}

// MarketData returns cached bars, oldest first, at most q.Limit of the newest.
func (c *Client) MarketData(ctx context.Context, q MarketQuery) (MarketData, error) {
	v := url.Values{}
	if q.StartDate != "" {
		v.Set("start_date", q.StartDate)
	}
	if q.EndDate != "" {
		v.Set("end_date", q.EndDate)
	}
	if q.TradingHoursOnly {
		v.Set("trading_hours_only", "true")
	}
	if q.Limit > 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	path, err := upstream.Path(upstream.Lit("/data"), upstream.Arg("symbol", q.Symbol), upstream.Arg("timeframe", q.Timeframe))
	if err != nil {
		return MarketData{}, err
	}
	body, err := c.call(ctx, request{op: "market data", method: "GET", path: path, query: v})
	if err != nil {
		return MarketData{}, err
	}
	return ParseMarketData(body, q.Symbol, q.Timeframe, q.Limit)
}

// get calls a read-only route and parses its body.
func get[T any](ctx context.Context, c *Client, op, path string, parse func([]byte) (T, error)) (T, error) {
	body, err := c.call(ctx, request{op: op, method: "GET", path: path})
	if err != nil {
		var zero T
		return zero, err
	}
	return parse(body)
}

// Symbols lists the symbols the backend knows.
func (c *Client) Symbols(ctx context.Context) ([]Symbol, error) {
	return get(ctx, c, "list symbols", "/symbols", ParseSymbols)
}

// Indicators lists the indicators (the route has a trailing slash).
func (c *Client) Indicators(ctx context.Context) ([]Indicator, error) {
	return get(ctx, c, "list indicators", "/indicators/", ParseIndicators)
}

// Strategies lists the strategies (the route has a trailing slash).
func (c *Client) Strategies(ctx context.Context) ([]Strategy, error) {
	return get(ctx, c, "list strategies", "/strategies/", ParseStrategies)
}

// Models lists trained models.
func (c *Client) Models(ctx context.Context) ([]Model, error) {
	return get(ctx, c, "list models", "/models", ParseModels)
}

// Health checks the backend.
func (c *Client) Health(ctx context.Context) (Health, error) {
	return get(ctx, c, "health check", "/health", ParseHealth)
}

// Performance returns a completed training's metrics.
func (c *Client) Performance(ctx context.Context, taskID string) (Performance, error) {
	path, err := upstream.Path(upstream.Lit("/trainings"), upstream.Arg("operation_id", taskID), upstream.Lit("/performance"))
	if err != nil {
		return Performance{}, err
	}
	body, err := c.call(ctx, request{op: "model performance of " + taskID, method: "GET", path: path})
	if err != nil {
		var e *envelope.Error
		if errors.As(err, &e) && e.Code == envelope.InvalidArgument && strings.Contains(e.Message, "not completed (status") {
			// "Training not completed (status: running)" is a state, not a bad argument.
			e.Code, e.Retryable = envelope.Conflict, false
		}
		err = withHint(err, "the training has not completed; wait_for_operation waits for it", envelope.Conflict)
		return Performance{}, withHint(err, "pass the operation_id start_training returned (list_operations operation_type=training)", envelope.NotFound)
	}
	return ParsePerformance(body, taskID)
}

// Predict runs a trained model on cached data. It computes without changing
// backend state, so it is safe to repeat.
func (c *Client) Predict(ctx context.Context, r PredictRequest) (Prediction, error) {
	body, err := c.call(ctx, request{op: "prediction", method: "POST", path: "/models/predict", json: r, idempotent: true})
	if err != nil {
		return Prediction{}, withHint(err, "list_trained_models lists model names; get_data_summary shows cached data", envelope.NotFound, envelope.InvalidArgument)
	}
	return ParsePrediction(body)
}
