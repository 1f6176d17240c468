package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type trainingIn struct {
	Symbols      []string `json:"symbols" jsonschema:"e.g. [\"AAPL\"]" mcp:"minItems=1;maxItems=20;minLength=1;maxLength=32;pattern=^[A-Za-z0-9._:^-]+$"`
	Timeframes   []string `json:"timeframes" mcp:"minItems=1;maxItems=10;enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M"`
	StrategyName string   `json:"strategy_name" jsonschema:"a name from get_strategies" mcp:"minLength=1;maxLength=200"`
	StartDate    string   `json:"start_date,omitempty" jsonschema:"YYYY-MM-DD" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	EndDate      string   `json:"end_date,omitempty" jsonschema:"YYYY-MM-DD" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
}

func startTraining(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "start_training", Title: "Start training", Toolset: setTraining, Hints: toolkit.RemoteWrite,
		Description: `Start training a strategy's neuro-fuzzy model on cached data for the given symbols and timeframes (a background operation of minutes to hours).
Load the data first (get_data_summary, trigger_data_loading). Not idempotent: each call starts a new training.
Returns operation_id (the backend's task_id), status "training_started", message, estimated_duration_minutes.
Errors: not_found (unknown strategy), invalid_argument (details.fields), upstream_unavailable (no training workers; retryable), upstream_error (no task id in the answer; the backend's message is included).
Example: {"symbols":["AAPL"],"timeframes":["1h"],"strategy_name":"neuro_mean_reversion","start_date":"2024-01-01"}
Related: wait_for_operation, get_model_performance, list_trained_models.`},
		func(ctx context.Context, in trainingIn) (client.TrainingStarted, error) {
			if err := dateOrder(in.StartDate, in.EndDate); err != nil {
				return client.TrainingStarted{}, err
			}
			return c.StartTraining(ctx, client.TrainingRequest{Symbols: in.Symbols, Timeframes: in.Timeframes,
				StrategyName: in.StrategyName, StartDate: in.StartDate, EndDate: in.EndDate})
		})
}

type strategiesOut struct {
	Strategies []client.Strategy `json:"strategies"`
	Count      int               `json:"count"`
}

func getStrategies(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_strategies", Title: "Get strategies", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `List the strategy configurations: name, description, symbol, timeframe, indicators, training_status (untrained, trained…), available_versions, latest_version, latest_training_date, latest_metrics (accuracy, precision, recall, f1_score).
Use to pick strategy_name for start_training.
Errors: upstream_unavailable.
Related: start_training, list_trained_models.`},
		func(ctx context.Context, _ struct{}) (strategiesOut, error) {
			s, err := c.Strategies(ctx)
			return strategiesOut{Strategies: s, Count: len(s)}, err
		})
}

type modelsOut struct {
	Models []client.Model `json:"models"`
	Count  int            `json:"count"`
}

func listTrainedModels(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_trained_models", Title: "List trained models", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `List trained models: model_id, model_name, symbol, timeframe, created_at, training_accuracy, test_accuracy, description.
Use to pick model_name for predict. No models is an empty list.
Errors: upstream_error, upstream_unavailable.
Related: predict, get_model_performance.`},
		func(ctx context.Context, _ struct{}) (modelsOut, error) {
			m, err := c.Models(ctx)
			return modelsOut{Models: m, Count: len(m)}, err
		})
}

func getModelPerformance(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_model_performance", Title: "Get model performance", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `Get a completed training's metrics: training_metrics (final losses/accuracies, epochs_completed, early_stopped, training_time_minutes), test_metrics (test_accuracy, precision, recall, f1_score), model_info (size, parameters, architecture).
Errors: conflict (not completed yet; details.status), not_found (unknown training id), upstream_unavailable.
Example: {"operation_id":"op_training_20250101_120000_ab12cd34"}
Related: wait_for_operation, list_trained_models.`},
		func(ctx context.Context, in operationIn) (client.Performance, error) {
			return c.Performance(ctx, in.OperationID)
		})
}

type predictIn struct {
	ModelName string `json:"model_name" jsonschema:"from list_trained_models" mcp:"minLength=1;maxLength=200"`
	Symbol    string `json:"symbol" mcp:"minLength=1;maxLength=32;pattern=^[A-Za-z0-9._:^-]+$"`
	Timeframe string `json:"timeframe,omitempty" mcp:"enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M;default=1h"`
	TestDate  string `json:"test_date,omitempty" jsonschema:"YYYY-MM-DD[ HH:MM:SS]; default today" mcp:"maxLength=19;pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}"`
}

func predict(c *client.Client) toolkit.Tool {
	// Read-only: loading a model into the backend's memory and predicting change
	// nothing the user owns, so read-only mode keeps it.
	return toolkit.New(toolkit.Def{Name: "predict", Title: "Predict with a model", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `Get a trained model's signal for one bar (loads the model into the backend first if needed).
Note: KTRDR's prediction is a stub at 3ba55e75 and HEAD: hold, confidence 0, neutral 1, no input_features, for any model (placeholder: true). Do not act on it; judge models with get_model_performance.
Returns signal, confidence, signal_strength, fuzzy_outputs, input_features, test_date (default today), placeholder.
Errors: not_found (unknown model_name), conflict (model file missing), upstream_unavailable.
Example: {"model_name":"neuro_mean_reversion","symbol":"AAPL"}
Related: list_trained_models, get_model_performance.`},
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
