package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type trainingIn struct {
	Symbols      []string `json:"symbols" mcp:"minItems=1;maxItems=20;minLength=1;maxLength=32;pattern=^[A-Za-z0-9._:^-]+$"`
	Timeframes   []string `json:"timeframes" mcp:"minItems=1;maxItems=10;enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M"`
	StrategyName string   `json:"strategy_name" jsonschema:"from get_strategies" mcp:"minLength=1;maxLength=200"`
	StartDate    string   `json:"start_date,omitempty" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	EndDate      string   `json:"end_date,omitempty" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
}

func startTraining(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "start_training", Title: "Start training", Toolset: setTraining, Hints: toolkit.RemoteWrite,
		Description: `Start training a strategy's neuro-fuzzy model on cached data (check with get_data_summary); takes minutes to hours. Each call starts a new training.
Returns operation_id for wait_for_operation.
Errors: not_found (unknown strategy), invalid_argument (details.fields), upstream_unavailable (no workers), upstream_error (no task id).
Related: get_model_performance.`},
		func(ctx context.Context, in trainingIn) (client.TrainingStarted, error) {
			if err := dateOrder(in.StartDate, in.EndDate); err != nil {
				return client.TrainingStarted{}, err
			}
			return c.StartTraining(ctx, client.TrainingRequest{Symbols: in.Symbols, Timeframes: in.Timeframes,
				StrategyName: in.StrategyName, StartDate: in.StartDate, EndDate: in.EndDate})
		})
}

type strategiesOut struct {
	Strategies []strategyBrief `json:"strategies"`
}

func getStrategies(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_strategies", Title: "Get strategies", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `List the strategy configurations with symbol, timeframe and training status (untrained, trained…); detail adds description, indicators, versions and latest metrics.
Use to pick strategy_name for start_training.
Related: start_training, list_trained_models.`},
		func(ctx context.Context, in detailIn) (strategiesOut, error) {
			s, err := c.Strategies(ctx)
			return strategiesOut{Strategies: briefStrategies(s, in.Detail)}, err
		})
}

func listTrainedModels(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_trained_models", Title: "List trained models", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `List trained models with symbol, timeframe and test accuracy; detail adds id, creation time, training accuracy, description.
Use to pick model_name for predict. No models is an empty list.
Errors: upstream_error.
Related: predict, get_model_performance.`},
		func(ctx context.Context, in detailIn) (modelsOut, error) {
			m, err := c.Models(ctx)
			return briefModels(m, in.Detail), err
		})
}

func getModelPerformance(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_model_performance", Title: "Get model performance", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `Get a completed training's metrics: training (losses, accuracies, epochs, minutes), test (accuracy, precision, recall, f1_score), model info.
Errors: conflict (not completed; details.status), not_found (unknown training id).
Related: wait_for_operation, list_trained_models.`},
		func(ctx context.Context, in operationIn) (client.Performance, error) {
			return c.Performance(ctx, in.OperationID)
		})
}

type predictIn struct {
	ModelName string `json:"model_name" jsonschema:"from list_trained_models" mcp:"minLength=1;maxLength=200"`
	Symbol    string `json:"symbol" mcp:"minLength=1;maxLength=32;pattern=^[A-Za-z0-9._:^-]+$"`
	Timeframe string `json:"timeframe,omitempty" mcp:"enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M;default=1h"`
	TestDate  string `json:"test_date,omitempty" jsonschema:"default today" mcp:"maxLength=19;pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}"`
}

func predict(c *client.Client) toolkit.Tool {
	// Read-only: loading a model into the backend's memory and predicting change
	// nothing the user owns, so read-only mode keeps it.
	return toolkit.New(toolkit.Def{Name: "predict", Title: "Predict with a model", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `Get a trained model's buy/sell/hold signal and confidence for one bar (loads the model first if needed).
KTRDR's prediction is a stub (hold, confidence 0, placeholder true): do not act on it; judge models with get_model_performance.
Errors: not_found (unknown model_name), conflict (model file missing).
Related: list_trained_models.`},
		func(ctx context.Context, in predictIn) (client.Prediction, error) {
			if in.Timeframe == "" {
				in.Timeframe = "1h"
			}
			return c.Predict(ctx, client.PredictRequest{ModelName: in.ModelName, Symbol: in.Symbol, Timeframe: in.Timeframe, TestDate: in.TestDate})
		})
}

// dateOrder rejects an end before the start (YYYY-MM-DD sorts as text).
func dateOrder(start, end string) error {
	if start != "" && end != "" && end < start {
		return envelope.Invalid("end_date", "end_date %s is before start_date %s; swap them", end, start)
	}
	return nil
}
