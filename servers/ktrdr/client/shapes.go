package client

import (
	"encoding/json"
	"errors"
	"net/url"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// Shapes are what this client reads from each KTRDR route (the routes of
// kpiteira/ktrdr's FastAPI app, types.go and parse.go; the contract cases
// in testdata/contract/cases.json pass through them, TestContractShapes).
// Operation statuses and types are the backend's enums (OperationStatuses,
// OperationTypes). Errors are {"success": false, "error": {...}} or
// FastAPI's {"detail": ...}; any other error body is new.
var Shapes = []drift.Shape{
	{Route: "health check", Fields: []drift.Field{drift.Opt("status", drift.String)}, ErrorCheck: checkErrorBody},
	{Route: "list operations", Fields: []drift.Field{drift.Req("data", drift.Array), drift.Req("total_count", drift.Number),
		drift.Req("active_count", drift.Number), drift.Req("data[].operation_id", drift.String),
		drift.Req("data[].status", drift.String).OneOf(OperationStatuses...),
		drift.Opt("data[].operation_type", drift.String).OneOf(OperationTypes...),
		drift.Opt("data[].progress_percentage", drift.Number)}, ErrorCheck: checkErrorBody},
	{Route: "get operation", Fields: []drift.Field{drift.Req("data.operation_id", drift.String),
		drift.Req("data.status", drift.String).OneOf(OperationStatuses...),
		drift.Opt("data.operation_type", drift.String).OneOf(OperationTypes...),
		drift.Opt("data.progress", drift.Object), drift.Opt("data.progress.percentage", drift.Number)}, ErrorCheck: checkErrorBody},
	{Route: "get operation results", Fields: []drift.Field{drift.Req("operation_id", drift.String),
		drift.Req("status", drift.String).OneOf(OperationStatuses...), drift.Opt("results", drift.Object)}, ErrorCheck: checkErrorBody},
	{Route: "cancel operation", Fields: []drift.Field{drift.Req("data.status", drift.String),
		drift.Opt("data.operation_id", drift.String)}, ErrorCheck: checkErrorBody},
	{Route: "list symbols", Fields: []drift.Field{drift.Req("data", drift.Array), drift.Req("data[].symbol", drift.String),
		drift.Opt("data[].available_timeframes", drift.Array)}, ErrorCheck: checkErrorBody},
	{Route: "list indicators", Fields: []drift.Field{drift.Req("data", drift.Array), drift.Req("data[].id", drift.String)}, ErrorCheck: checkErrorBody},
	{Route: "list strategies", Fields: []drift.Field{drift.Req("strategies", drift.Array), drift.Req("strategies[].name", drift.String)}, ErrorCheck: checkErrorBody},
	{Route: "list models", Fields: []drift.Field{drift.Req("models", drift.Array)}, ErrorCheck: checkErrorBody},
	{Route: "market data", Fields: []drift.Field{drift.Req("data.dates", drift.Array), drift.Req("data.ohlcv", drift.Array),
		drift.Req("data.ohlcv[]", drift.Array)}, ErrorCheck: checkErrorBody},
	{Route: "model performance", Fields: []drift.Field{drift.Opt("metrics", drift.Object)}, ErrorCheck: checkErrorBody},
	// Writes: never probed; their answers are watched at run time.
	{Route: "data loading", ErrorCheck: checkErrorBody},
	{Route: "training start", ErrorCheck: checkErrorBody},
	{Route: "prediction", Fields: []drift.Field{drift.Req("prediction.signal", drift.String)}, ErrorCheck: checkErrorBody},
	{Route: "load model", Fields: []drift.Field{drift.Req("model_loaded", drift.Bool)}, ErrorCheck: checkErrorBody},
}

// checkErrorBody accepts the backend's two error shapes.
func checkErrorBody(body []byte) []drift.Finding {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) == nil {
		if _, ok := m["detail"]; ok {
			return nil
		}
		if _, ok := m["error"]; ok && string(m["success"]) == "false" {
			return nil
		}
	}
	return []drift.Finding{{Kind: drift.ErrorBody, Detail: `the error answer is neither {"success":false,"error":…} nor {"detail":…}`}}
}

// Probes read every GET route the tools use; the writes (data loading,
// training start, cancel, load model) and prediction are never probed.
func (c *Client) Probes() []drift.Probe {
	u, ok := c.t.(upstreamTransport)
	if !ok {
		return nil
	}
	send := u.up.Sender()
	firstOp := func(e map[string][]byte, want func(id, typ, status string) bool) (string, error) {
		var l struct {
			Data []struct {
				ID     string `json:"operation_id"`
				Type   string `json:"operation_type"`
				Status string `json:"status"`
			} `json:"data"`
		}
		_ = json.Unmarshal(e["list operations"], &l)
		for _, o := range l.Data {
			if want(o.ID, o.Type, o.Status) {
				return o.ID, nil
			}
		}
		return "", errors.New("no such operation listed")
	}
	opProbe := func(route, suffix string, want func(id, typ, status string) bool) drift.Probe {
		return drift.Probe{Upstream: "KTRDR", Route: route, Path: "/operations/{id}" + suffix, Needs: []string{"list operations"}, Send: send,
			Prepare: func(e map[string][]byte, c *drift.Call) error {
				id, err := firstOp(e, want)
				if err != nil {
					return err
				}
				c.Path, err = upstream.Path(upstream.Lit("/operations"), upstream.Arg("operation_id", id), upstream.Lit(suffix))
				return err
			}}
	}
	any := func(string, string, string) bool { return true }
	finished := func(_, _, s string) bool { return s == "completed" || s == "failed" }
	return []drift.Probe{
		{Upstream: "KTRDR", Route: "health check", Path: "/health", Send: send},
		{Upstream: "KTRDR", Route: "list operations", Path: "/operations", Query: url.Values{"limit": {"20"}}, Send: send},
		opProbe("get operation", "", any),
		opProbe("get operation results", "/results", finished),
		{Upstream: "KTRDR", Route: "list symbols", Path: "/symbols", Send: send},
		{Upstream: "KTRDR", Route: "list indicators", Path: "/indicators/", Send: send},
		{Upstream: "KTRDR", Route: "list strategies", Path: "/strategies/", Send: send},
		{Upstream: "KTRDR", Route: "list models", Path: "/models", Send: send},
		{Upstream: "KTRDR", Route: "market data", Path: "/data/{symbol}/{timeframe}", Needs: []string{"list symbols"}, Send: send,
			Prepare: func(e map[string][]byte, c *drift.Call) error {
				var l struct {
					Data []struct {
						Symbol     string   `json:"symbol"`
						Timeframes []string `json:"available_timeframes"`
					} `json:"data"`
				}
				if json.Unmarshal(e["list symbols"], &l) != nil || len(l.Data) == 0 {
					return errors.New("no symbol listed")
				}
				tf := "1d"
				if len(l.Data[0].Timeframes) > 0 {
					tf = l.Data[0].Timeframes[0]
				}
				var err error
				c.Path, err = upstream.Path(upstream.Lit("/data"), upstream.Arg("symbol", l.Data[0].Symbol), upstream.Arg("timeframe", tf))
				c.Query = url.Values{"limit": {"5"}}
				return err
			}},
		{Upstream: "KTRDR", Route: "model performance", Path: "/trainings/{id}/performance", Needs: []string{"list operations"}, Send: send,
			Prepare: func(e map[string][]byte, c *drift.Call) error {
				id, err := firstOp(e, func(_, t, s string) bool { return t == "training" && s == "completed" })
				if err != nil {
					return err
				}
				c.Path, err = upstream.Path(upstream.Lit("/trainings"), upstream.Arg("operation_id", id), upstream.Lit("/performance"))
				return err
			}},
	}
}
