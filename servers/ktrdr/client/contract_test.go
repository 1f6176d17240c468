package client

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// contract is request/response pairs recorded from the real KTRDR backend
// (testdata/contract/cases.json; each names its source): the client must
// send exactly the recorded request and turn the recorded answer into the
// expected result or error.
var contract = servetest.Contract{File: "testdata/contract/cases.json", MinCases: 10, NullIsNoBody: true,
	Call: func(t *testing.T, base string, tc servetest.ContractCase) (any, error) {
		c, err := New(Config{APIURL: base + "/api/v1", Retries: -1, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return invoke(ctx, c, tc.Call, tc.Args)
	}}

// TestContract replays the recorded cases against the client, with no fake
// in between.
func TestContract(t *testing.T) { contract.Run(t) }

// invoke calls the client method a case names.
func invoke(ctx context.Context, c *Client, call string, args json.RawMessage) (any, error) {
	var a struct {
		ID, Reason, Symbol, Timeframe, Mode, OperationType, Status string
		ModelName                                                  string `json:"model_name"`
		TestDate                                                   string `json:"test_date"`
		StrategyName                                               string `json:"strategy_name"`
		OpType                                                     string `json:"operation_type"`
		ActiveOnly                                                 bool   `json:"active_only"`
		Limit, Offset                                              int
		Symbols, Timeframes                                        []string
		StartDate                                                  string   `json:"start_date"`
		EndDate                                                    string   `json:"end_date"`
		InitialCapital                                             *float64 `json:"initial_capital"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	switch call {
	case "list_operations":
		return c.ListOperations(ctx, ListOptions{OperationType: a.OpType, Status: a.Status, ActiveOnly: a.ActiveOnly, Limit: a.Limit, Offset: a.Offset})
	case "get_operation":
		return c.GetOperation(ctx, a.ID)
	case "cancel":
		return c.CancelOperation(ctx, a.ID, a.Reason)
	case "load_data":
		return c.LoadData(ctx, LoadRequest{Symbol: a.Symbol, Timeframe: a.Timeframe, Mode: a.Mode})
	case "start_training":
		return c.StartTraining(ctx, TrainingRequest{Symbols: a.Symbols, Timeframes: a.Timeframes, StrategyName: a.StrategyName})
	case "performance":
		return c.Performance(ctx, a.ID)
	case "start_backtest":
		return c.StartBacktest(ctx, BacktestRequest{StrategyName: a.StrategyName, Symbol: a.Symbol, Timeframe: a.Timeframe,
			StartDate: a.StartDate, EndDate: a.EndDate, InitialCapital: a.InitialCapital})
	case "data_range":
		d, _, err := c.DataRange(ctx, a.Symbol, a.Timeframe)
		return d, err
	case "resume":
		return c.ResumeOperation(ctx, a.ID)
	case "retry":
		return c.RetryOperation(ctx, a.ID)
	case "predict":
		return c.Predict(ctx, PredictRequest{ModelName: a.ModelName, Symbol: a.Symbol, Timeframe: a.Timeframe, TestDate: a.TestDate})
	}
	return nil, fmt.Errorf("unknown call %q", call)
}
