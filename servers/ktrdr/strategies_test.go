package main

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
)

func TestGetAndValidateStrategy(t *testing.T) {
	e := start(t, setup{})
	t.Run("get_strategy reads the whole strategy", func(t *testing.T) {
		s := servetest.Decode[client.StrategyDetail](t, e.call(t, "get_strategy", map[string]any{"strategy_name": "neuro_mean_reversion"}))
		if s.Name != "neuro_mean_reversion" || s.Symbol != "AAPL" || s.Timeframe != "1h" || len(s.Indicators) == 0 || len(s.FuzzyConfig) == 0 {
			t.Fatalf("%+v", s)
		}
	})
	t.Run("validate_strategy: valid", func(t *testing.T) {
		v := servetest.Decode[client.Validation](t, e.call(t, "validate_strategy", map[string]any{"strategy_name": "neuro_mean_reversion"}))
		if !v.Valid || len(v.Issues) != 0 || v.Issues == nil || !strings.Contains(v.Message, "is valid") || len(v.AvailableIndicators) == 0 {
			t.Fatalf("%+v", v)
		}
	})
	t.Run("validate_strategy: issues are a result, not an error", func(t *testing.T) {
		v := servetest.Decode[client.Validation](t, e.call(t, "validate_strategy", map[string]any{"strategy_name": "trend_momentum"}))
		if v.Valid || len(v.Issues) == 0 || v.Issues[0].Severity != "error" || v.Issues[0].Category != "fuzzy_sets" {
			t.Fatalf("%+v", v)
		}
	})
	bad := []struct {
		name, tool string
		faults     fake.Faults
		strategy   string
		want       wantErr
	}{
		{"get unknown", "get_strategy", fake.Faults{}, "nope", wantErr{code: envelope.NotFound, contains: []string{"Strategy 'nope' not found", "get_strategies"}}},
		{"validate unknown", "validate_strategy", fake.Faults{}, "nope", wantErr{code: envelope.NotFound, contains: []string{"Strategy file not found: nope.yaml", "get_strategies"}}},
		{"get 500", "get_strategy", fake.Faults{Status: 500}, "neuro_mean_reversion", wantErr{code: envelope.UpstreamError, retryable: true}},
		{"validate 503", "validate_strategy", fake.Faults{Status: 503}, "neuro_mean_reversion", wantErr{code: envelope.UpstreamUnavailable, retryable: true}},
		{"get malformed", "get_strategy", fake.Faults{Malformed: true}, "neuro_mean_reversion", wantErr{code: envelope.UpstreamError, contains: []string{"not valid JSON"}}},
		{"validate malformed", "validate_strategy", fake.Faults{Malformed: true}, "neuro_mean_reversion", wantErr{code: envelope.UpstreamError, contains: []string{"not valid JSON"}}},
		{"dot-dot name never sent", "get_strategy", fake.Faults{}, "..", wantErr{code: envelope.InvalidArgument}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			e.fake.SetFaults(c.faults)
			defer e.fake.ClearFaults()
			checkErr(t, e.call(t, c.tool, map[string]any{"strategy_name": c.strategy}), c.want)
		})
	}
	if res := e.call(t, "get_strategy", map[string]any{"strategy_name": ""}); !res.IsError {
		t.Fatal("schema must refuse an empty name")
	}
}

func TestGetStrategyFeatures(t *testing.T) {
	e := start(t, setup{})
	type out struct {
		StrategyName string           `json:"strategy_name"`
		Features     []client.Feature `json:"features"`
		Count        int              `json:"count"`
	}
	f := servetest.Decode[out](t, e.call(t, "get_strategy_features", map[string]any{"strategy_name": "neuro_mean_reversion"}))
	if f.Count == 0 || f.Count != len(f.Features) || f.Features[0].FeatureID == "" || f.Features[0].Timeframe != "1h" || f.Features[0].Membership == "" {
		t.Fatalf("%+v", f)
	}
	bad := []struct {
		name     string
		faults   fake.Faults
		strategy string
		want     wantErr
	}{
		{"not v3: 400", fake.Faults{}, "trend_momentum", wantErr{code: envelope.InvalidArgument, contains: []string{"not v3 format", "get_strategy shows"}}},
		{"unknown: 404", fake.Faults{}, "nope", wantErr{code: envelope.NotFound, contains: []string{"Strategy file not found", "get_strategies"}}},
		{"old backend has no route", fake.Faults{Backend: fake.Backend3ba55e75}, "neuro_mean_reversion",
			wantErr{code: envelope.UpstreamError, contains: []string{"predates it", "get_strategy"}}},
		{"500", fake.Faults{Status: 500}, "neuro_mean_reversion", wantErr{code: envelope.UpstreamError, retryable: true}},
		{"malformed", fake.Faults{Malformed: true}, "neuro_mean_reversion", wantErr{code: envelope.UpstreamError, contains: []string{"not valid JSON"}}},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			e.fake.SetFaults(c.faults)
			defer e.fake.ClearFaults()
			checkErr(t, e.call(t, "get_strategy_features", map[string]any{"strategy_name": c.strategy}), c.want)
		})
	}
}
