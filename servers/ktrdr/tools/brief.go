package tools

import "github.com/mcpfleet/mcpfleet/servers/ktrdr/client"

// List results keep the fields an agent picks an item by; detail=true adds the
// rest. The detail-only fields are typed loosely in the output schema (object)
// because every client pays for tools/list and few read them.

// detailIn is the shared input of the list tools.
type detailIn struct {
	Detail bool `json:"detail,omitempty" jsonschema:"all fields"`
}

// opBrief is one list_operations row: the id (whose prefix is the type,
// op_{type}_{time}_{uuid}: ref chartimg-ktrdr.md §B4), status, symbol and,
// while it runs, progress. detail adds the type, time, step and the
// progress of finished operations.
type opBrief struct {
	OperationID        string   `json:"operation_id"`
	OperationType      string   `json:"operation_type,omitempty"`
	Status             string   `json:"status"`
	ProgressPercentage *float64 `json:"progress_percentage,omitempty"`
	Symbol             string   `json:"symbol,omitempty"`
	CreatedAt          string   `json:"created_at,omitempty"`
	CurrentStep        string   `json:"current_step,omitempty"`
	DurationSeconds    *float64 `json:"duration_seconds,omitempty"`
}

type opList struct {
	Operations  []opBrief `json:"operations"`
	TotalCount  int       `json:"total_count" jsonschema:"all matching the filters"`
	ActiveCount int       `json:"active_count"`
}

func briefOps(l client.OperationList, detail bool) opList {
	out := opList{Operations: make([]opBrief, 0, len(l.Operations)), TotalCount: l.TotalCount, ActiveCount: l.ActiveCount}
	for _, o := range l.Operations {
		b := opBrief{OperationID: o.OperationID, Status: o.Status, Symbol: o.Symbol}
		if p := float64(o.ProgressPercentage); detail || o.Status == "pending" || o.Status == "running" || o.Status == "resuming" {
			b.ProgressPercentage = &p
		}
		if detail {
			b.OperationType, b.CreatedAt, b.CurrentStep, b.DurationSeconds = o.OperationType, o.CreatedAt, o.CurrentStep, o.DurationSeconds
		}
		out.Operations = append(out.Operations, b)
	}
	return out
}

// symbolBrief is one get_symbols row.
type symbolBrief struct {
	Symbol       string         `json:"symbol"`
	Name         string         `json:"name,omitempty"`
	Type         string         `json:"type,omitempty"`
	Timeframes   []string       `json:"available_timeframes,omitempty"`
	Exchange     string         `json:"exchange,omitempty"`
	Currency     string         `json:"currency,omitempty"`
	TradingHours map[string]any `json:"trading_hours,omitempty" mcp:"type=object"`
}

func briefSymbols(all []client.Symbol, detail bool) []symbolBrief {
	out := make([]symbolBrief, 0, len(all))
	for _, s := range all {
		b := symbolBrief{Symbol: s.Symbol, Name: s.Name, Type: s.Type, Timeframes: s.AvailableTimeframes}
		if detail {
			b.Exchange, b.Currency, b.TradingHours = s.Exchange, s.Currency, s.TradingHours
		}
		out = append(out, b)
	}
	return out
}

// indicatorBrief is one get_indicators row: params names the parameters;
// detail adds the description and each parameter's type, default and bounds.
type indicatorBrief struct {
	ID          string                  `json:"id"`
	Name        string                  `json:"name,omitempty"`
	Type        string                  `json:"type,omitempty"`
	Params      []string                `json:"params"`
	Description string                  `json:"description,omitempty"`
	Parameters  []client.IndicatorParam `json:"parameters,omitempty" mcp:"type=object"`
}

func briefIndicator(ind client.Indicator, detail bool) indicatorBrief {
	b := indicatorBrief{ID: ind.ID, Name: ind.Name, Type: ind.Type, Params: make([]string, 0, len(ind.Parameters))}
	for _, p := range ind.Parameters {
		b.Params = append(b.Params, p.Name)
	}
	if detail {
		b.Description, b.Parameters = ind.Description, ind.Parameters
	}
	return b
}

// strategyBrief is one get_strategies row.
type strategyBrief struct {
	Name               string             `json:"name"`
	Symbol             string             `json:"symbol,omitempty"`
	Timeframe          string             `json:"timeframe,omitempty"`
	TrainingStatus     string             `json:"training_status,omitempty"`
	LatestVersion      *int               `json:"latest_version,omitempty"`
	Description        string             `json:"description,omitempty"`
	Indicators         []map[string]any   `json:"indicators,omitempty" mcp:"type=object"`
	AvailableVersions  []int              `json:"available_versions,omitempty"`
	LatestTrainingDate string             `json:"latest_training_date,omitempty"`
	LatestMetrics      map[string]float64 `json:"latest_metrics,omitempty" mcp:"type=object"`
}

func briefStrategies(all []client.Strategy, detail bool) []strategyBrief {
	out := make([]strategyBrief, 0, len(all))
	for _, s := range all {
		b := strategyBrief{Name: s.Name, Symbol: s.Symbol, Timeframe: s.Timeframe, TrainingStatus: s.TrainingStatus, LatestVersion: s.LatestVersion}
		if detail {
			b.Description, b.Indicators, b.AvailableVersions = s.Description, s.Indicators, s.AvailableVersions
			b.LatestTrainingDate, b.LatestMetrics = s.LatestTrainingDate, s.LatestMetrics
		}
		out = append(out, b)
	}
	return out
}

// modelBrief is one list_trained_models row.
type modelBrief struct {
	ModelName        string   `json:"model_name"`
	Symbol           string   `json:"symbol,omitempty"`
	Timeframe        string   `json:"timeframe,omitempty"`
	TestAccuracy     *float64 `json:"test_accuracy,omitempty"`
	ModelID          string   `json:"model_id,omitempty"`
	CreatedAt        string   `json:"created_at,omitempty"`
	TrainingAccuracy *float64 `json:"training_accuracy,omitempty"`
	Description      string   `json:"description,omitempty"`
}

func briefModels(all []client.Model, detail bool) []modelBrief {
	out := make([]modelBrief, 0, len(all))
	for _, m := range all {
		b := modelBrief{ModelName: m.ModelName, Symbol: m.Symbol, Timeframe: m.Timeframe, TestAccuracy: m.TestAccuracy}
		if detail {
			b.ModelID, b.CreatedAt, b.TrainingAccuracy, b.Description = m.ModelID, m.CreatedAt, m.TrainingAccuracy, m.Description
		}
		out = append(out, b)
	}
	return out
}
