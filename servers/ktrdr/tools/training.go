package tools

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type trainingIn struct {
	StrategyName      string   `json:"strategy_name" jsonschema:"from get_strategies" mcp:"minLength=1;maxLength=200"`
	Symbols           []string `json:"symbols,omitempty" jsonschema:"default: the strategy's" mcp:"minItems=1;maxItems=20;minLength=1;maxLength=32;pattern=^[A-Za-z0-9._:^-]+$"`
	Timeframes        []string `json:"timeframes,omitempty" jsonschema:"default: the strategy's" mcp:"minItems=1;maxItems=10;enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M"`
	StartDate         string   `json:"start_date,omitempty" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	EndDate           string   `json:"end_date,omitempty" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	DetailedAnalytics bool     `json:"detailed_analytics,omitempty" jsonschema:"export per-epoch analytics"`
}

func startTraining(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "start_training", Title: "Start training", Toolset: setTraining, Hints: toolkit.RemoteWrite,
		Description: `Start training a strategy's neuro-fuzzy model on cached data (check with get_data_summary); takes minutes to hours. Each call starts a new training.
Returns operation_id for wait_for_operation and the symbols, timeframes used.
Errors: not_found (unknown strategy), invalid_argument (details.fields), upstream_unavailable (no workers).`},
		func(ctx context.Context, in trainingIn) (client.TrainingStarted, error) {
			if err := dateOrder(in.StartDate, in.EndDate); err != nil {
				return client.TrainingStarted{}, err
			}
			if err := strategyDefaults(ctx, c, &in); err != nil {
				return client.TrainingStarted{}, err
			}
			st, err := c.StartTraining(ctx, client.TrainingRequest{Symbols: in.Symbols, Timeframes: in.Timeframes,
				StrategyName: in.StrategyName, StartDate: in.StartDate, EndDate: in.EndDate, DetailedAnalytics: in.DetailedAnalytics})
			if err == nil && len(st.Symbols) == 0 {
				st.Symbols, st.Timeframes = in.Symbols, in.Timeframes
			}
			return st, err
		})
}

// strategyDefaults fills left-out symbols and timeframes from the strategy,
// as HEAD's training service does from the strategy file (kpiteira/ktrdr@2c5c7173
// ktrdr/api/services/training_service.py); 3ba55e75 requires both, so they
// are filled here from GET /strategies/ for either backend.
func strategyDefaults(ctx context.Context, c *client.Client, in *trainingIn) error {
	if len(in.Symbols) > 0 && len(in.Timeframes) > 0 {
		return nil
	}
	all, err := c.Strategies(ctx)
	if err != nil {
		return err
	}
	for _, s := range all {
		if s.Name != in.StrategyName {
			continue
		}
		if len(in.Symbols) == 0 && s.Symbol != "" {
			in.Symbols = []string{s.Symbol}
		}
		if len(in.Timeframes) == 0 && s.Timeframe != "" {
			in.Timeframes = []string{s.Timeframe}
		}
		if len(in.Symbols) == 0 || len(in.Timeframes) == 0 {
			return envelope.Invalid("symbols", "strategy %s names no symbol or timeframe; pass symbols and timeframes", in.StrategyName)
		}
		return nil
	}
	return envelope.New(envelope.NotFound, "no strategy is named %q; get_strategies lists them", in.StrategyName)
}

type strategiesOut struct {
	Strategies []strategyBrief `json:"strategies"`
	envelope.Coverage
	// ThirdParty: a strategy's description is whoever wrote the file's
	// (a colleague, a downloaded strategy, the research agent's model).
	ThirdParty envelope.ThirdParty `json:"third_party,omitempty"`
}

func getStrategies(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_strategies", Title: "Get strategies", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `List the strategy configurations with symbol, timeframe and training status; detail adds description, indicators, versions and latest metrics.
Use to pick strategy_name for start_training.
Related: start_training, list_trained_models.`},
		func(ctx context.Context, in detailIn) (strategiesOut, error) {
			s, err := c.Strategies(ctx)
			if err != nil {
				return strategiesOut{}, err
			}
			out := strategiesOut{Strategies: briefStrategies(s, in.Detail), Coverage: wholeOr(len(s), "the backend has no strategy files")}
			if in.Detail {
				out.ThirdParty = envelope.ThirdParty{"strategies[].description"}
			}
			return out, nil
		})
}

func listTrainedModels(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "list_trained_models", Title: "List trained models", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `List trained models with symbol, timeframe and test accuracy; detail adds id, creation time, training accuracy, description.
Use to pick model_name or model_id for predict.
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
Errors: conflict (not completed), not_found, invalid_argument (not a training).
Related: wait_for_operation, list_trained_models.`},
		func(ctx context.Context, in operationIn) (client.Performance, error) {
			p, err := c.Performance(ctx, in.OperationID)
			if err != nil || len(p.TrainingMetrics) > 0 || len(p.TestMetrics) > 0 {
				return p, err
			}
			// The backend reads any completed operation here and answers a
			// data load with empty metrics (TrainingService.get_model_performance
			// does not check the type): say what the id is instead.
			op, oerr := c.GetOperation(ctx, in.OperationID)
			if oerr == nil && op.OperationType != "" && op.OperationType != "training" {
				return client.Performance{}, envelope.Invalid("operation_id",
					"operation %s is a %s operation, not a training: it has no model metrics. get_operation_results shows its outcome; list_operations operation_type=training lists trainings", in.OperationID, op.OperationType).
					WithDetail("operation_type", op.OperationType)
			}
			return p, nil
		})
}

type predictIn struct {
	ModelName string `json:"model_name,omitempty" jsonschema:"from list_trained_models" mcp:"maxLength=200"`
	ModelID   string `json:"model_id,omitempty" jsonschema:"e.g. name_v3" mcp:"maxLength=200"`
	Symbol    string `json:"symbol,omitempty" mcp:"maxLength=32;pattern=^[A-Za-z0-9._:^-]*$"`
	Timeframe string `json:"timeframe,omitempty" mcp:"enum=1m|5m|15m|30m|1h|2h|4h|1d|1w|1M"`
	TestDate  string `json:"test_date,omitempty" jsonschema:"YYYY-MM-DD; default today" mcp:"maxLength=19;pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}"`
}

// testDateLayouts are the forms test_date may take.
var testDateLayouts = []string{"2006-01-02", "2006-01-02T15:04:05", "2006-01-02 15:04:05"}

func checkTestDate(s string) error {
	if s == "" {
		return nil
	}
	for _, l := range testDateLayouts {
		if len(s) == len(l) {
			if _, err := time.Parse(l, s); err == nil {
				return nil
			}
		}
	}
	return envelope.Invalid("test_date", "test_date %q is not a real date; use YYYY-MM-DD (e.g. 2024-06-28), or leave it out for today", s)
}

// pickModel resolves the model a predict call means. GET /models lists every
// saved version; several share a model_name (one per symbol and timeframe
// trained), while POST /models/{name}/load and /models/predict take only the
// name. A model_id, or a symbol and timeframe that match one version, picks
// it; otherwise the call is refused with the candidates.
func pickModel(models []client.Model, in predictIn) (client.Model, error) {
	if in.ModelID != "" {
		for _, m := range models {
			if m.ModelID == in.ModelID {
				if in.ModelName != "" && in.ModelName != m.ModelName {
					return client.Model{}, envelope.Invalid("model_id", "model_id %s is a version of %s, not of %s; pass one of them", m.ModelID, m.ModelName, in.ModelName)
				}
				return m, nil
			}
		}
		return client.Model{}, envelope.New(envelope.NotFound, "no model has model_id %q; list_trained_models lists them", in.ModelID)
	}
	var named []client.Model
	for _, m := range models {
		if m.ModelName == in.ModelName {
			named = append(named, m)
		}
	}
	if len(named) <= 1 {
		if len(named) == 1 {
			return named[0], nil
		}
		return client.Model{ModelName: in.ModelName}, nil // the backend's answer names the problem
	}
	var fit []client.Model
	for _, m := range named {
		if (in.Symbol == "" || strings.EqualFold(m.Symbol, in.Symbol)) && (in.Timeframe == "" || m.Timeframe == in.Timeframe) {
			fit = append(fit, m)
		}
	}
	if len(fit) == 1 {
		return fit[0], nil
	}
	if len(fit) == 0 { // the symbol or timeframe fits none: offer them all
		fit = named
	}
	cands := make([]string, 0, len(fit))
	for _, m := range fit {
		cands = append(cands, fmt.Sprintf("%s (%s %s, %s)", m.ModelID, m.Symbol, m.Timeframe, m.CreatedAt))
	}
	return client.Model{}, envelope.Invalid("model_id", "%d models are named %s and %d fit the symbol and timeframe given; pass model_id, one of: %s", len(named), in.ModelName, len(fit), strings.Join(cands, "; ")).
		WithDetail("candidates", cands)
}

func predict(c *client.Client) toolkit.Tool {
	// Read-only: loading a model into the backend's memory and predicting change
	// nothing the user owns, so read-only mode keeps it.
	return toolkit.New(toolkit.Def{Name: "predict", Title: "Predict with a model", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `Get a model's buy/sell/hold signal for one bar. A stub upstream (hold, confidence 0, placeholder true): do not act on it; judge models with get_model_performance.
symbol, timeframe default to the model's; a name shared by several versions needs model_id (or symbol+timeframe).
Errors: not_found, invalid_argument (ambiguous: lists candidates), conflict (model file missing).
Related: list_trained_models.`},
		func(ctx context.Context, in predictIn) (client.Prediction, error) {
			if in.ModelName == "" && in.ModelID == "" {
				return client.Prediction{}, envelope.Invalid("model_name", "pass model_name or model_id; list_trained_models lists them")
			}
			if err := checkTestDate(in.TestDate); err != nil {
				return client.Prediction{}, err
			}
			models, err := c.Models(ctx)
			if err != nil {
				return client.Prediction{}, err
			}
			m, err := pickModel(models, in)
			if err != nil {
				return client.Prediction{}, err
			}
			if in.Symbol == "" {
				in.Symbol = m.Symbol
			}
			if in.Timeframe == "" {
				in.Timeframe = cmp.Or(m.Timeframe, "1h")
			}
			if in.Symbol == "" {
				return client.Prediction{}, envelope.Invalid("symbol", "pass symbol (e.g. AAPL); get_symbols lists them")
			}
			p, err := c.Predict(ctx, client.PredictRequest{ModelName: m.ModelName, Symbol: in.Symbol, Timeframe: in.Timeframe, TestDate: in.TestDate})
			p.ModelID, p.Timeframe = m.ModelID, in.Timeframe
			return p, err
		})
}

// dateOrder rejects an end before the start (YYYY-MM-DD sorts as text).
func dateOrder(start, end string) error {
	if start != "" && end != "" && end < start {
		return envelope.Invalid("end_date", "end_date %s is before start_date %s; swap them", end, start)
	}
	return nil
}
