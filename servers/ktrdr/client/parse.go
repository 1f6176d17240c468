package client

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// The parsers below turn backend bodies into domain values. Lists and
// informational reads are lenient (missing → empty); the answers an operation
// cannot do without (ids after a start, the operation itself) are strict.
// Errors inside 200s ({"success": false}) are caught earlier by the detectors.

// ParseOperationList reads GET /operations: {"success","data":[…],"total_count","active_count"}.
func ParseOperationList(body []byte) (OperationList, error) {
	items, err := extract.List[OperationSummary](body, "data")
	if err != nil {
		return OperationList{}, err
	}
	total, err := extract.Object[extract.Int](body, "total_count")
	if err != nil {
		return OperationList{}, err
	}
	active, err := extract.Object[extract.Int](body, "active_count")
	if err != nil {
		return OperationList{}, err
	}
	out := OperationList{Operations: items, TotalCount: int(total), ActiveCount: int(active), ReturnedCount: len(items)}
	if out.TotalCount < out.ReturnedCount {
		out.TotalCount = out.ReturnedCount // an old backend without counts
	}
	return out, nil
}

// ParseOperation reads GET /operations/{id}: {"success","data":OperationInfo}, strictly.
func ParseOperation(body []byte, id string) (Operation, error) {
	op := "get status of " + id
	if _, err := extract.Require[string](body, op, "data", "operation_id"); err != nil {
		return Operation{}, err
	}
	if _, err := extract.Require[string](body, op, "data", "status"); err != nil {
		return Operation{}, err
	}
	o, err := extract.Object[Operation](body, "data")
	if err != nil {
		return Operation{}, err
	}
	raw, _ := extract.At(body, "data", "metrics")
	o.Epochs = ParseEpochs(raw)
	return o, nil
}

// ParseCancel reads DELETE /operations/{id}: {"success","data":{"success","operation_id","status",…}}, strictly.
func ParseCancel(body []byte, id string) (Cancellation, error) {
	op := "cancel " + id
	status, err := extract.Require[string](body, op, "data", "status")
	if err != nil {
		return Cancellation{}, err
	}
	ok, err := extract.Object[*bool](body, "data", "success")
	if err != nil {
		return Cancellation{}, err
	}
	if ok != nil && !*ok {
		msg, _ := extract.Object[string](body, "data", "message")
		if msg == "" {
			msg = "the backend did not cancel it (status " + status + ")"
		}
		return Cancellation{}, envelope.New(envelope.Conflict, "%s: %s", op, extract.Clip(msg, extract.MaxUpstreamText))
	}
	c, err := extract.Object[Cancellation](body, "data")
	if err != nil {
		return Cancellation{}, err
	}
	if c.OperationID == "" {
		c.OperationID = id
	}
	return c, nil
}

// ParseResults reads GET /operations/{id}/results (flat).
func ParseResults(body []byte, id string) (Results, error) {
	r, err := extract.Object[Results](body)
	if err != nil {
		return Results{}, err
	}
	if r.OperationID == "" {
		r.OperationID = id
	}
	if r.Results == nil {
		r.Results = map[string]any{}
	}
	return r, nil
}

// operationID finds a started operation's id in any shape the backend has
// used: HEAD's flat operation_id, 3ba55e75's data.operation_id, or task_id.
func operationID(body []byte, op string, canonical ...string) (string, error) {
	for _, path := range [][]string{{"operation_id"}, {"data", "operation_id"}, {"task_id"}, {"data", "task_id"}} {
		id, err := extract.Object[string](body, path...)
		if err != nil {
			continue // a wrong type on one path; the canonical Require below reports it
		}
		if id = strings.TrimSpace(id); id != "" {
			return id, nil
		}
	}
	_, err := extract.Require[string](body, op, canonical...)
	if err == nil {
		err = envelope.New(envelope.UpstreamError, "%s: the backend's answer has no operation id", op)
	}
	if msg := backendMessage(body); msg != "" {
		var e *envelope.Error
		if errors.As(err, &e) {
			e.Message += " (backend said: " + msg + ")"
		}
	}
	return "", err
}

// backendMessage is the human message of a start answer, if any.
func backendMessage(body []byte) string {
	for _, path := range [][]string{{"message"}, {"data", "message"}, {"data", "error_message"}} {
		if s, err := extract.Object[string](body, path...); err == nil && strings.TrimSpace(s) != "" {
			return extract.Clip(s, 200)
		}
	}
	return ""
}

// ParseLoadStarted reads a data-load start from either route, strictly: the
// operation id must be there.
func ParseLoadStarted(body []byte, route string) (LoadStarted, error) {
	canonical := []string{"operation_id"}
	if route == RouteLoad {
		canonical = []string{"data", "operation_id"}
	}
	id, err := operationID(body, "data loading", canonical...)
	if err != nil {
		return LoadStarted{}, err
	}
	out := LoadStarted{OperationID: id, Route: route, Message: backendMessage(body)}
	for _, path := range [][]string{{"status"}, {"data", "status"}} {
		if s, err := extract.Object[string](body, path...); err == nil && s != "" {
			out.Status = s
			break
		}
	}
	if out.Status == "" {
		out.Status = "started"
	}
	return out, nil
}

// ParseTrainingStarted reads POST /trainings/start, strictly: the operation id is task_id.
func ParseTrainingStarted(body []byte) (TrainingStarted, error) {
	id, err := operationID(body, "training start", "task_id")
	if err != nil {
		return TrainingStarted{}, err
	}
	var flat struct {
		Status                   string       `json:"status"`
		Message                  string       `json:"message"`
		Symbols                  []string     `json:"symbols"`
		Timeframes               []string     `json:"timeframes"`
		StrategyName             string       `json:"strategy_name"`
		EstimatedDurationMinutes *extract.Num `json:"estimated_duration_minutes"`
	}
	if err := json.Unmarshal(body, &flat); err != nil {
		// The id was found, so the body is JSON; a field of the wrong type is not fatal here.
		flat.Status = "training_started"
	}
	out := TrainingStarted{OperationID: id, Status: flat.Status, Message: extract.Clip(flat.Message, 300),
		Symbols: flat.Symbols, Timeframes: flat.Timeframes, StrategyName: flat.StrategyName}
	if flat.EstimatedDurationMinutes != nil {
		m := int(*flat.EstimatedDurationMinutes)
		out.EstimatedDurationMinutes = &m
	}
	return out, nil
}

// ParseMarketData reads GET /data/{symbol}/{timeframe} leniently (no cached data
// is an empty result) and keeps the newest limit bars, oldest first: an old
// backend ignores the limit query parameter.
func ParseMarketData(body []byte, symbol, timeframe string, limit int) (MarketData, error) {
	// One decode of data; numbers sent as strings fall back to extract.Num.
	type payload[N any] struct {
		Dates    []string       `json:"dates"`
		OHLCV    [][]N          `json:"ohlcv"`
		Metadata map[string]any `json:"metadata"`
	}
	var dates []string
	var rows [][]float64
	var md map[string]any
	if fast, err := extract.Object[payload[float64]](body, "data"); err == nil {
		dates, rows, md = fast.Dates, fast.OHLCV, fast.Metadata
	} else {
		slow, err := extract.Object[payload[extract.Num]](body, "data")
		if err != nil {
			return MarketData{}, err
		}
		dates, md = slow.Dates, slow.Metadata
		rows = make([][]float64, len(slow.OHLCV))
		for i, r := range slow.OHLCV {
			rows[i] = make([]float64, len(r))
			for j, v := range r {
				rows[i][j] = v.Float()
			}
		}
	}
	n := min(len(dates), len(rows))
	out := MarketData{Symbol: symbol, Timeframe: timeframe, Dates: []string{}, OHLCV: [][5]float64{}}
	out.AvailableCount = n
	if v, ok := md["original_points"].(float64); ok && int(v) > n {
		out.AvailableCount = int(v)
	}
	from := 0
	if limit > 0 && n > limit {
		from = n - limit
	}
	for i := from; i < n; i++ {
		if len(rows[i]) != 5 {
			return MarketData{}, envelope.New(envelope.UpstreamError, "unexpected answer from the backend: bar %d has %d values, want [open, high, low, close, volume]", i, len(rows[i])).
				WithDetail("field", "data.ohlcv")
		}
		var bar [5]float64
		copy(bar[:], rows[i])
		out.Dates = append(out.Dates, dates[i])
		out.OHLCV = append(out.OHLCV, bar)
	}
	out.Count = len(out.Dates)
	out.Limited = out.Count < out.AvailableCount
	if out.Count > 0 {
		out.Start, out.End = out.Dates[0], out.Dates[out.Count-1]
	}
	return out, nil
}

// ParseSymbols reads GET /symbols: the data list.
func ParseSymbols(body []byte) ([]Symbol, error) { return extract.List[Symbol](body, "data") }

// ParseIndicators reads GET /indicators/: the data list.
func ParseIndicators(body []byte) ([]Indicator, error) { return extract.List[Indicator](body, "data") }

// ParseStrategies reads GET /strategies/ (flat): the strategies list.
func ParseStrategies(body []byte) ([]Strategy, error) {
	return extract.List[Strategy](body, "strategies")
}

// ParseModels reads GET /models (flat): the models list.
func ParseModels(body []byte) ([]Model, error) { return extract.List[Model](body, "models") }

// ParseHealth reads GET /health (flat).
func ParseHealth(body []byte) (Health, error) {
	h, err := extract.Object[Health](body)
	if err != nil {
		return Health{}, err
	}
	if h.Status == "" {
		return Health{}, envelope.New(envelope.UpstreamError, "the backend's health answer has no status")
	}
	return h, nil
}

// ParsePerformance reads GET /trainings/{task_id}/performance (flat).
func ParsePerformance(body []byte, taskID string) (Performance, error) {
	p, err := extract.Object[Performance](body)
	if err != nil {
		return Performance{}, err
	}
	if p.TaskID == "" {
		p.TaskID = taskID
	}
	return p, nil
}

// ParsePrediction reads POST /models/predict (flat); the signal is required.
func ParsePrediction(body []byte) (Prediction, error) {
	sig, err := extract.Require[string](body, "prediction", "prediction", "signal")
	if err != nil {
		return Prediction{}, err
	}
	var raw struct {
		ModelName  string `json:"model_name"`
		Symbol     string `json:"symbol"`
		TestDate   string `json:"test_date"`
		Prediction struct {
			Confidence     extract.Num            `json:"confidence"`
			SignalStrength extract.Num            `json:"signal_strength"`
			FuzzyOutputs   map[string]extract.Num `json:"fuzzy_outputs"`
		} `json:"prediction"`
		InputFeatures map[string]extract.Num `json:"input_features"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return Prediction{}, envelope.New(envelope.UpstreamError, "prediction: unexpected answer from the backend: %s", extract.Clip(err.Error(), 200))
	}
	out := Prediction{ModelName: raw.ModelName, Symbol: raw.Symbol, TestDate: raw.TestDate, Signal: sig,
		Confidence: raw.Prediction.Confidence.Float(), SignalStrength: raw.Prediction.SignalStrength.Float(),
		FuzzyOutputs: numMap(raw.Prediction.FuzzyOutputs), InputFeatures: numMap(raw.InputFeatures)}
	return out, nil
}

// ParseModelLoaded reads POST /models/{name}/load (flat), strictly: model_loaded
// must be there.
func ParseModelLoaded(body []byte) (ModelLoaded, error) {
	if _, err := extract.Require[bool](body, "load model", "model_loaded"); err != nil {
		return ModelLoaded{}, err
	}
	return extract.Object[ModelLoaded](body)
}

func numMap(m map[string]extract.Num) map[string]float64 {
	if m == nil {
		return nil
	}
	out := make(map[string]float64, len(m))
	for k, v := range m {
		out[k] = v.Float()
	}
	return out
}

// cancelStatus pulls the status out of "Operation <id> cannot be cancelled
// (status: OperationStatus.COMPLETED)" (Python ≥ 3.11 formats the enum member
// that way) or "(status: completed)".
func cancelStatus(msg string) string {
	_, rest, ok := strings.Cut(msg, "(status: ")
	if !ok {
		return ""
	}
	s, _, _ := strings.Cut(rest, ")")
	s = strings.TrimPrefix(strings.TrimSpace(s), "OperationStatus.")
	return strings.ToLower(s)
}
