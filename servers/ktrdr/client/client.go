// Package client is the KTRDR API client of the ktrdr MCP server: one method per
// backend route it uses, domain types, and parsers over pkg/extract (strict for
// the answers an operation cannot do without, lenient for lists). Every error is
// an *envelope.Error the tools can return as is.
package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
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
	route      string // the drift watch's name of the route when op carries an id
	method     string
	path       string
	query      url.Values
	json       any
	idempotent bool
}

// reply is what a call got back. On an error it still holds the last status
// and body, so callers can read structured error bodies the detectors flatten
// (HEAD's 503 {"detail": {error, worker_type, hint, …}}).
type reply struct {
	body   []byte
	status int
	// routeMissing reports FastAPI's answer for a route that does not exist:
	// the bare 404 {"detail":"Not Found"}, or 405 {"detail":"Method Not Allowed"}
	// when the path matches a route of another method. The data-load probe
	// tells these from a real not-found.
	routeMissing bool
}

// transport performs a call and returns the body of a 2xx answer; every other
// outcome is an *envelope.Error (status and body mapped by the detectors).
type transport interface {
	do(ctx context.Context, r request) (reply, error)
}

// Client talks to one KTRDR backend.
type Client struct {
	t     transport
	route string // RouteAuto, RouteLoadOnly or RouteAcqOnly

	mu       sync.Mutex
	resolved string // the data-load route the probe settled on
}

func (c *Client) call(ctx context.Context, r request) ([]byte, error) {
	rep, err := c.t.do(ctx, r)
	if err != nil {
		return nil, withObjectDetail(err, rep.body)
	}
	return rep.body, nil
}

// objectDetail is an object HEAD puts in detail: WorkerUnavailableError's
// {error, worker_type, registered_workers, backend_uptime_seconds, hint} on a
// 503 when no worker can take the operation, and ConfigurationError's
// {message, error_code, context, details, suggestion} on a 400
// (to_response_dict and to_dict in kpiteira/ktrdr@2c5c7173 ktrdr/errors/exceptions.py).
type objectDetail struct {
	WorkerType           string       `json:"worker_type"`
	RegisteredWorkers    *extract.Int `json:"registered_workers"`
	BackendUptimeSeconds *extract.Num `json:"backend_uptime_seconds"`
	Hint                 string       `json:"hint"`
	ErrorCode            string       `json:"error_code"`
	Suggestion           string       `json:"suggestion"`
}

// withObjectDetail renders an object detail: the detectors keep only its
// error/message text, so the hint or suggestion and the diagnostic fields are
// added here.
func withObjectDetail(err error, body []byte) error {
	var e *envelope.Error
	if !errors.As(err, &e) || (!bytes.Contains(body, []byte(`"hint"`)) && !bytes.Contains(body, []byte(`"suggestion"`))) {
		return err
	}
	d, derr := extract.Object[objectDetail](body, "detail")
	if derr != nil {
		return err
	}
	for _, fix := range []string{d.Hint, d.Suggestion} {
		if fix = strings.TrimSpace(fix); fix != "" {
			e.Message = strings.TrimRight(e.Message, ". ") + ". " + extract.Clip(fix, 300)
		}
	}
	if d.WorkerType != "" {
		e.WithDetail("worker_type", d.WorkerType)
	}
	if d.RegisteredWorkers != nil {
		e.WithDetail("registered_workers", int(*d.RegisteredWorkers))
	}
	if d.BackendUptimeSeconds != nil {
		e.WithDetail("backend_uptime_seconds", float64(*d.BackendUptimeSeconds))
	}
	if d.ErrorCode != "" {
		e.WithDetail("upstream_code", extract.Clip(d.ErrorCode, 80))
	}
	return err
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
	body, err := c.call(ctx, request{op: "get status of " + id, route: "get operation", method: "GET", path: path})
	if err != nil {
		return Operation{}, withHint(err, "check the id with list_operations", envelope.NotFound)
	}
	return ParseOperation(body, id)
}

// CancelOperation cancels a pending or running operation. A finished one is a
// conflict carrying details.status.
func (c *Client) CancelOperation(ctx context.Context, id, reason string) (Cancellation, error) {
	return c.CancelOperationWith(ctx, id, reason, false)
}

// CancelOperationWith is CancelOperation with HEAD's force flag
// (CancelOperationRequest {reason, force}: "attempt immediate cancellation"
// of an operation stuck in a critical section, kpiteira/ktrdr@2c5c7173
// ktrdr/api/models/operations.py). 3ba55e75 reads reason only.
func (c *Client) CancelOperationWith(ctx context.Context, id, reason string, force bool) (Cancellation, error) {
	var payload any
	if reason != "" || force {
		body := map[string]any{}
		if reason != "" {
			body["reason"] = reason
		}
		if force {
			body["force"] = true
		}
		payload = body
	}
	// DELETE is idempotent on the backend: a repeat only meets "cannot be cancelled".
	path, err := opPath(id, "")
	if err != nil {
		return Cancellation{}, err
	}
	body, err := c.call(ctx, request{op: "cancel " + id, route: "cancel operation", method: "DELETE", path: path, json: payload, idempotent: true})
	if err != nil {
		var e *envelope.Error
		if errors.As(err, &e) && e.Code == envelope.Conflict {
			if st := cancelStatus(e.Message); st != "" {
				e.WithDetail("status", st)
				e.Message = fmt.Sprintf("operation %s is already %s and cannot be cancelled; %s", id, st, finishedHint(st))
			}
		}
		return Cancellation{}, withHint(err, "check the id with list_operations", envelope.NotFound)
	}
	return ParseCancel(body, id)
}

// finishedHint names what shows a finished operation: the backend has
// results only for completed and failed ones (GET /operations/{id}/results
// answers 400 for a cancelled one), while the status keeps a cancelled one's
// progress and cancellation reason.
func finishedHint(status string) string {
	if status == "cancelled" {
		return "get_operation_status shows where it stopped (it has no results); a training or backtest keeps a checkpoint: resume_operation continues it (list_checkpoints)"
	}
	return "get_operation_results shows its outcome"
}

// OperationResults returns a finished operation's result summary.
func (c *Client) OperationResults(ctx context.Context, id string) (Results, error) {
	path, err := opPath(id, "/results")
	if err != nil {
		return Results{}, err
	}
	body, err := c.call(ctx, request{op: "get results of " + id, route: "get operation results", method: "GET", path: path})
	if err != nil {
		var e *envelope.Error
		if errors.As(err, &e) && e.Code == envelope.Conflict && strings.Contains(e.Message, "status: cancelled") {
			// A cancelled training or backtest has no results but a checkpoint.
			return Results{}, withHint(err, "a cancelled operation has no results; a training or backtest continues from its checkpoint with resume_operation, then wait_for_operation", envelope.Conflict)
		}
		err = withHint(err, "results exist only once it has completed or failed (wait_for_operation, get_operation_status)", envelope.Conflict)
		return Results{}, withHint(err, "check the id with list_operations", envelope.NotFound)
	}
	return ParseResults(body, id)
}

// DefaultLoadMode is the data-load mode both routes run: HEAD's acquire route
// accepts only tail, backfill and full (and falls back to tail itself when the
// mode is empty, kpiteira/ktrdr@2c5c7173 ktrdr/api/endpoints/data.py); 3ba55e75's
// /data/load accepts all four.
const DefaultLoadMode = "tail"

// LoadData starts a data-load operation on whichever route the backend has.
// The first call under RouteAuto probes: HEAD's route first, and on FastAPI's
// answer for a missing route (bare 404, or 405 where the path matches another
// method's route; nothing was started) the 3ba55e75 route; the answer is
// remembered for the life of the client.
//
// Mode local ("read the cache only") exists only on /data/load: HEAD's request
// model still lists it, but its acquisition service raises "Invalid mode: local"
// and the route answers 500 (ktrdr/data/acquisition/acquisition_service.py). It
// is refused before sending once the route is known to be acquire, and the
// backend's 500 is turned into the same invalid_argument while probing.
func (c *Client) LoadData(ctx context.Context, r LoadRequest) (LoadStarted, error) {
	if r.Mode == "" {
		r.Mode = DefaultLoadMode
	}
	route := c.dataLoadRoute()
	if r.Mode == "local" && route == RouteAcquire && (c.route == RouteAcqOnly || c.settled()) {
		return LoadStarted{}, localOnAcquire()
	}
	req := request{op: "data loading", method: "POST", path: route, json: r}
	rep, err := c.t.do(ctx, req)
	if rep.routeMissing && c.route == RouteAuto && !c.settled() {
		route = RouteLoad
		if route == req.path {
			route = RouteAcquire
		}
		req.path = route
		rep, err = c.t.do(ctx, req)
	}
	if err != nil {
		if rep.routeMissing {
			return LoadStarted{}, envelope.New(envelope.UpstreamError,
				"data loading: the backend has no %s route; set KTRDR_DATA_LOAD_ROUTE to load or acquire to match its version", route)
		}
		var e *envelope.Error
		if route == RouteAcquire && errors.As(err, &e) && strings.Contains(e.Message, "Invalid mode") {
			c.settle(route) // the route exists; only the mode was wrong
			return LoadStarted{}, localOnAcquire().WithCause(err)
		}
		return LoadStarted{}, err
	}
	c.settle(route)
	return ParseLoadStarted(rep.body, route)
}

func localOnAcquire() *envelope.Error {
	return envelope.Invalid("mode", "mode local (read the cache only) does not exist on this backend's %s, which downloads with tail, backfill or full; "+
		"read the cache with get_data_summary or get_market_data, or load with mode tail", RouteAcquire)
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
		if q.IncludeExtended {
			// Query include_extended (ktrdr/api/endpoints/data.py, at 3ba55e75 and HEAD).
			v.Set("include_extended", "true")
		}
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
	body, err := c.call(ctx, request{op: "model performance of " + taskID, route: "model performance", method: "GET", path: path})
	if err != nil {
		// The backend answers 404 "Training task X is not completed (status:
		// running)" (TrainingService.get_model_performance raises ValidationError,
		// the route maps it to 404: kpiteira/ktrdr ktrdr/api/endpoints/training.py).
		// That is a state, not a wrong id.
		var e *envelope.Error
		if errors.As(err, &e) && strings.Contains(e.Message, "not completed (status") {
			e.Code, e.Retryable = envelope.Conflict, false
			if st := cancelStatus(e.Message); st != "" {
				e.WithDetail("status", st)
			}
		}
		err = withHint(err, "the training has not completed; wait_for_operation waits for it", envelope.Conflict)
		return Performance{}, withHint(err, "pass the operation_id start_training returned (list_operations operation_type=training)", envelope.NotFound)
	}
	return ParsePerformance(body, taskID)
}

// Predict asks the backend for a model's signal on one bar, loading the model
// first when the backend says it is not loaded.
//
// The backend keeps loaded models in process memory: POST /models/predict
// answers 400 "Model 'X' is not loaded. Load it first." until POST
// /models/{name}/load has run (and again after a restart). Its prediction is a
// placeholder at 3ba55e75 and HEAD: signal hold, confidence 0, neutral 1,
// input_features {} (TrainingService.test_model_prediction in
// kpiteira/ktrdr ktrdr/api/services/training_service.py). Predicting and
// loading change nothing the user owns, so both are safe to repeat.
func (c *Client) Predict(ctx context.Context, r PredictRequest) (Prediction, error) {
	body, err := c.predict(ctx, r)
	if isNotLoaded(err) {
		if _, lerr := c.LoadModel(ctx, r.ModelName); lerr != nil {
			return Prediction{}, lerr
		}
		body, err = c.predict(ctx, r)
		if isNotLoaded(err) {
			return Prediction{}, envelope.New(envelope.UpstreamError,
				"prediction: the backend loaded model %q but still reports it not loaded (is more than one backend process behind KTRDR_API_URL?)", r.ModelName).WithCause(err)
		}
	}
	if err != nil {
		return Prediction{}, withHint(err, "list_trained_models lists model names", envelope.NotFound, envelope.InvalidArgument)
	}
	p, err := ParsePrediction(body)
	if err != nil {
		return Prediction{}, err
	}
	p.Placeholder = p.Confidence == 0 && p.SignalStrength == 0 && len(p.InputFeatures) == 0
	return p, nil
}

func (c *Client) predict(ctx context.Context, r PredictRequest) ([]byte, error) {
	return c.call(ctx, request{op: "prediction", method: "POST", path: "/models/predict", json: r, idempotent: true})
}

func isNotLoaded(err error) bool {
	var e *envelope.Error
	return errors.As(err, &e) && strings.Contains(e.Message, "is not loaded")
}

// LoadModel loads a saved model into the backend's memory (POST
// /models/{name}/load, matched on model_name). An unknown name is 404 "Model
// 'X' not found"; a model whose file is missing answers model_loaded false.
func (c *Client) LoadModel(ctx context.Context, name string) (ModelLoaded, error) {
	path, err := upstream.Path(upstream.Lit("/models"), upstream.Arg("model_name", name), upstream.Lit("/load"))
	if err != nil {
		return ModelLoaded{}, err
	}
	body, err := c.call(ctx, request{op: "load model " + name, route: "load model", method: "POST", path: path, idempotent: true})
	if err != nil {
		return ModelLoaded{}, withHint(err, "list_trained_models lists model names (model_name, not model_id)", envelope.NotFound)
	}
	m, err := ParseModelLoaded(body)
	if err != nil {
		return ModelLoaded{}, err
	}
	if !m.ModelLoaded {
		return m, envelope.New(envelope.Conflict, "model %q is listed but the backend could not load it (its model file is missing on the backend); retrain it with start_training", name).
			WithDetail("model_loaded", false)
	}
	return m, nil
}
