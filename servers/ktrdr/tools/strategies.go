package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

type strategyIn struct {
	StrategyName string `json:"strategy_name" jsonschema:"from get_strategies" mcp:"minLength=1;maxLength=200"`
}

// strategyOut is one strategy file; its description is the author's text
// (a colleague, a downloaded file, the research agent's model), not ours.
type strategyOut struct {
	client.StrategyDetail
	ThirdParty envelope.ThirdParty `json:"third_party"`
}

func getStrategy(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_strategy", Title: "Get strategy", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `Read one strategy whole: symbol, timeframe, indicators with parameters, fuzzy_config (sets per indicator), training status, versions, latest metrics.
Errors: not_found (get_strategies lists names).
Related: validate_strategy, start_training, start_backtest.`},
		func(ctx context.Context, in strategyIn) (strategyOut, error) {
			s, err := c.Strategy(ctx, in.StrategyName)
			if err != nil {
				return strategyOut{}, err
			}
			s.Description = envelope.CleanThirdParty(s.Description)
			return strategyOut{StrategyDetail: s, ThirdParty: envelope.ThirdParty{"description"}}, nil
		})
}

func validateStrategy(c *client.Client) toolkit.Tool {
	// POST, but it only reads the strategy file and checks it
	// (ktrdr/api/endpoints/strategies.py validate_strategy): read-only.
	return toolkit.New(toolkit.Def{Name: "validate_strategy", Title: "Validate strategy", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `Check a strategy file before training: valid, issues (severity error|warning, category indicators|fuzzy_sets|structure|configuration, message), available_indicators.
Errors: not_found (no such file; get_strategies lists names), invalid_argument (the file does not parse).
Related: get_strategy, get_indicators.`},
		func(ctx context.Context, in strategyIn) (client.Validation, error) {
			return c.ValidateStrategy(ctx, in.StrategyName)
		})
}

type featuresOut struct {
	StrategyName string           `json:"strategy_name"`
	Features     []client.Feature `json:"features"`
	Count        int              `json:"count"`
	envelope.Coverage
}

func getStrategyFeatures(c *client.Client) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_strategy_features", Title: "Get strategy features", Toolset: setTraining, Hints: toolkit.RemoteRead,
		Description: `List a v3 strategy's model inputs in order: feature_id, timeframe, fuzzy_set, membership, indicator.
Errors: not_found, invalid_argument (not a v3 strategy: get_strategy shows its indicators and fuzzy sets).`},
		func(ctx context.Context, in strategyIn) (featuresOut, error) {
			fs, err := c.StrategyFeatures(ctx, in.StrategyName)
			if err != nil {
				return featuresOut{}, err
			}
			out := featuresOut{StrategyName: in.StrategyName, Features: fs, Count: len(fs), Coverage: envelope.Whole()}
			if len(fs) == 0 {
				out.Features = []client.Feature{}
				out.Coverage = envelope.Nothing("the strategy resolves to no features")
			}
			return out, nil
		})
}
