package tools

import (
	"fmt"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
)

// List results keep the fields an agent picks an item by; detail=true adds the
// rest. The detail-only fields are typed loosely in the output schema (object)
// because every client pays for tools/list and few read them.

// detailIn is the shared input of the list tools.
type detailIn struct {
	Detail bool `json:"detail,omitempty" jsonschema:"all fields"`
}

// list_operations and list_trained_models answer tables (toolkit.Tabulate):
// the column names once, then rows of values, as their rows are short and
// uniform and the keys were most of their bytes. The cols tag
// names the columns; brief_test.go checks it against the row types. Rows are
// typed as arrays of scalars (the `mcp:"type=array"` tag: a third of the bytes
// of the untyped schema, within the tools/list budget), so no value is null:
// a missing number is 0, as the backend itself defaults accuracies
// (training_service.py list_trained_models: model.get("test_accuracy", 0.0)).

// opRow is one list_operations row: the id (whose prefix is the type,
// op_{type}_{time}_{uuid}: ktrdr/api/services/operations_service.py
// generate_operation_id), status, symbol and
// progress (for a failed or cancelled one, where it stopped).
type opRow struct {
	OperationID string  `json:"operation_id"`
	Status      string  `json:"status"`
	Symbol      string  `json:"symbol"`
	Progress    float64 `json:"progress"`
}

// opDetailRow is opRow with the rest of OperationSummary (detail=true).
type opDetailRow struct {
	opRow
	OperationType   string  `json:"operation_type"`
	CreatedAt       string  `json:"created_at"`
	CurrentStep     string  `json:"current_step"`
	DurationSeconds float64 `json:"duration_seconds"` // 0 until it starts
}

type opList struct {
	Cols          []string `json:"cols" jsonschema:"operation_id,status,symbol,progress (%); detail adds operation_type,created_at,current_step,duration_seconds"`
	Rows          [][]any  `json:"rows" mcp:"type=array"`
	TotalCount    int      `json:"total_count" jsonschema:"all matching the filters"`
	ActiveCount   int      `json:"active_count"`
	ReturnedCount int      `json:"returned_count"`
	envelope.Coverage
}

// opsCoverage says which rows of the matching operations a list holds:
// offset is where the page starts, more the step that gets the rest.
func opsCoverage(l client.OperationList, offset int, more, none string) envelope.Coverage {
	switch {
	case l.TotalCount == 0 && len(l.Operations) == 0:
		return envelope.Nothing(none)
	case offset+len(l.Operations) < l.TotalCount:
		return envelope.Cut(envelope.Truncated, fmt.Sprintf("operations %d-%d of %d", offset+len(l.Operations)+1, l.TotalCount, l.TotalCount), more)
	}
	return envelope.Whole()
}

func briefOps(l client.OperationList, detail bool) opList {
	out := opList{TotalCount: l.TotalCount, ActiveCount: l.ActiveCount, ReturnedCount: l.ReturnedCount}
	brief := func(o client.OperationSummary) opRow {
		return opRow{o.OperationID, o.Status, o.Symbol, float64(o.ProgressPercentage)}
	}
	if detail {
		rows := make([]opDetailRow, 0, len(l.Operations))
		for _, o := range l.Operations {
			rows = append(rows, opDetailRow{brief(o), o.OperationType, o.CreatedAt, o.CurrentStep, orZero(o.DurationSeconds)})
		}
		out.Cols, out.Rows = toolkit.Tabulate(rows)
		return out
	}
	rows := make([]opRow, 0, len(l.Operations))
	for _, o := range l.Operations {
		rows = append(rows, brief(o))
	}
	out.Cols, out.Rows = toolkit.Tabulate(rows)
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
			b.Description, b.Indicators, b.AvailableVersions = envelope.CleanThirdParty(s.Description), s.Indicators, s.AvailableVersions
			b.LatestTrainingDate, b.LatestMetrics = s.LatestTrainingDate, s.LatestMetrics
		}
		out = append(out, b)
	}
	return out
}

// modelRow is one list_trained_models row: model_name is what predict takes.
type modelRow struct {
	ModelName    string  `json:"model_name"`
	Symbol       string  `json:"symbol"`
	Timeframe    string  `json:"timeframe"`
	TestAccuracy float64 `json:"test_accuracy"`
}

// modelDetailRow is modelRow with the rest of the backend's fields (detail=true).
type modelDetailRow struct {
	modelRow
	ModelID          string  `json:"model_id"`
	CreatedAt        string  `json:"created_at"`
	TrainingAccuracy float64 `json:"training_accuracy"`
	Description      string  `json:"description"`
}

type modelsOut struct {
	Cols []string `json:"cols" jsonschema:"model_name,symbol,timeframe,test_accuracy; detail adds model_id,created_at,training_accuracy,description"`
	Rows [][]any  `json:"rows" mcp:"type=array"`
	envelope.Coverage
	// ThirdParty: a model's description is written by whoever trained it
	// (the research agent writes its own).
	ThirdParty envelope.ThirdParty `json:"third_party,omitempty"`
}

func briefModels(all []client.Model, detail bool) (out modelsOut) {
	brief := func(m client.Model) modelRow {
		return modelRow{m.ModelName, m.Symbol, m.Timeframe, orZero(m.TestAccuracy)}
	}
	if detail {
		rows := make([]modelDetailRow, 0, len(all))
		for _, m := range all {
			rows = append(rows, modelDetailRow{brief(m), m.ModelID, m.CreatedAt, orZero(m.TrainingAccuracy), envelope.CleanThirdParty(m.Description)})
		}
		out.Cols, out.Rows = toolkit.Tabulate(rows)
		out.Coverage, out.ThirdParty = wholeOr(len(all), "the backend holds no trained models; start_training makes one"), envelope.ThirdParty{"rows[][7]"}
		return out
	}
	rows := make([]modelRow, 0, len(all))
	for _, m := range all {
		rows = append(rows, brief(m))
	}
	out.Cols, out.Rows = toolkit.Tabulate(rows)
	out.Coverage = wholeOr(len(all), "the backend holds no trained models; start_training makes one")
	return out
}

// orZero is *p, or 0 for nil (a table row has no nulls; see above).
func orZero(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// wholeOr is the coverage of a list the backend sends whole: complete, and
// when it is empty, what that means.
func wholeOr(n int, none string) envelope.Coverage {
	if n == 0 {
		return envelope.Nothing(none)
	}
	return envelope.Whole()
}
