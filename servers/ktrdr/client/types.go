package client

import "github.com/mcpfleet/mcpfleet/pkg/extract"

// Enumerations the backend validates (ktrdr/api/models/operations.py, data-load Literal).
var (
	// HEAD adds the agent_* types and the resuming status (kpiteira/ktrdr@2c5c7173
	// ktrdr/api/models/operations.py); 3ba55e75 answers 422 to them as filters.
	OperationTypes    = []string{"data_load", "training", "backtesting", "indicator_compute", "fuzzy_analysis", "dummy", "agent_research", "agent_design", "agent_assessment"}
	OperationStatuses = []string{"pending", "resuming", "running", "completed", "failed", "cancelled"}
	Timeframes        = []string{"1m", "5m", "15m", "30m", "1h", "2h", "4h", "1d", "1w", "1M"}
	LoadModes         = []string{"local", "tail", "backfill", "full"}
)

// Finished reports whether an operation status is terminal.
func Finished(status string) bool {
	return status == "completed" || status == "failed" || status == "cancelled"
}

// OperationSummary is one item of GET /operations.
type OperationSummary struct {
	OperationID        string      `json:"operation_id"`
	OperationType      string      `json:"operation_type"`
	Status             string      `json:"status"`
	CreatedAt          string      `json:"created_at"`
	ProgressPercentage extract.Num `json:"progress_percentage"`
	CurrentStep        string      `json:"current_step,omitempty"`
	Symbol             string      `json:"symbol,omitempty"`
	DurationSeconds    *float64    `json:"duration_seconds,omitempty"`
}

// OperationList is GET /operations with the counts the backend sends plus returned_count.
type OperationList struct {
	Operations    []OperationSummary `json:"operations"`
	TotalCount    int                `json:"total_count" jsonschema:"all matching the filters"`
	ActiveCount   int                `json:"active_count"`
	ReturnedCount int                `json:"returned_count"`
}

// Progress is OperationInfo.progress.
type Progress struct {
	Percentage     extract.Num    `json:"percentage"`
	CurrentStep    string         `json:"current_step,omitempty"`
	StepsCompleted extract.Int    `json:"steps_completed"`
	StepsTotal     extract.Int    `json:"steps_total"`
	ItemsProcessed extract.Int    `json:"items_processed,omitempty"`
	ItemsTotal     *extract.Int   `json:"items_total,omitempty"`
	CurrentItem    string         `json:"current_item,omitempty"`
	Context        map[string]any `json:"context,omitempty" mcp:"type=object"`
}

// Metadata is OperationInfo.metadata.
type Metadata struct {
	Symbol     string         `json:"symbol,omitempty"`
	Timeframe  string         `json:"timeframe,omitempty"`
	Mode       string         `json:"mode,omitempty"`
	StartDate  string         `json:"start_date,omitempty"`
	EndDate    string         `json:"end_date,omitempty"`
	Parameters map[string]any `json:"parameters,omitempty"`
}

// Operation is OperationInfo (GET /operations/{id}).
type Operation struct {
	OperationID   string         `json:"operation_id"`
	OperationType string         `json:"operation_type"`
	Status        string         `json:"status"`
	CreatedAt     string         `json:"created_at"`
	StartedAt     string         `json:"started_at,omitempty"`
	CompletedAt   string         `json:"completed_at,omitempty"`
	Progress      Progress       `json:"progress"`
	Metadata      Metadata       `json:"metadata" mcp:"type=object"`
	ErrorMessage  string         `json:"error_message,omitempty"`
	Warnings      []string       `json:"warnings,omitempty"`
	Errors        []string       `json:"errors,omitempty"`
	ResultSummary map[string]any `json:"result_summary,omitempty" mcp:"type=object"`
	// ParentOperationID is the agent research that started it (HEAD's
	// OperationInfo.parent_operation_id, ktrdr/api/models/operations.py).
	ParentOperationID string `json:"parent_operation_id,omitempty"`
	// Epochs is a training's per-epoch metrics from HEAD's data.metrics (epochs.go);
	// absent on 3ba55e75 and before the first epoch.
	Epochs *EpochSeries `json:"epochs,omitempty" mcp:"type=object"`
}

// Cancellation is the data of DELETE /operations/{id}. 3ba55e75 sends
// training_session_cancelled; HEAD sends remote_cancelled and
// children_cancelled (ids of child operations cancelled with it) instead
// (OperationsService.cancel_operation at each commit).
type Cancellation struct {
	OperationID              string   `json:"operation_id"`
	Status                   string   `json:"status"`
	CancelledAt              string   `json:"cancelled_at,omitempty"`
	CancellationReason       string   `json:"cancellation_reason,omitempty"`
	TaskCancelled            bool     `json:"task_cancelled"`
	TrainingSessionCancelled *bool    `json:"training_session_cancelled,omitempty"`
	RemoteCancelled          *bool    `json:"remote_cancelled,omitempty"`
	ChildrenCancelled        []string `json:"children_cancelled,omitempty" jsonschema:"ids"`
}

// Results is GET /operations/{id}/results (flat).
type Results struct {
	OperationID   string         `json:"operation_id"`
	OperationType string         `json:"operation_type"`
	Status        string         `json:"status"`
	Results       map[string]any `json:"results" mcp:"type=object"`
}

// LoadRequest is the body of both data-load routes.
type LoadRequest struct {
	Symbol    string `json:"symbol"`
	Timeframe string `json:"timeframe"`
	Mode      string `json:"mode"`
	StartDate string `json:"start_date,omitempty"`
	EndDate   string `json:"end_date,omitempty"`
}

// LoadStarted is what a data-load start returns, whichever route answered.
type LoadStarted struct {
	OperationID string `json:"operation_id"`
	Status      string `json:"status"`
	Message     string `json:"message,omitempty"`
	Route       string `json:"route"`
}

// TrainingRequest is the body of POST /trainings/start.
type TrainingRequest struct {
	Symbols      []string `json:"symbols"`
	Timeframes   []string `json:"timeframes"`
	StrategyName string   `json:"strategy_name"`
	StartDate    string   `json:"start_date,omitempty"`
	EndDate      string   `json:"end_date,omitempty"`
	// DetailedAnalytics asks HEAD's training for its analytics export
	// (TrainingRequest.detailed_analytics, kpiteira/ktrdr@2c5c7173
	// ktrdr/api/endpoints/training.py); 3ba55e75 ignores it.
	DetailedAnalytics bool `json:"detailed_analytics,omitempty"`
}

// TrainingStarted is POST /trainings/start; OperationID comes from task_id.
type TrainingStarted struct {
	OperationID string `json:"operation_id"`
	Status      string `json:"status"`
	Message     string `json:"message,omitempty"`
	// The request's echo: what was trained on, the strategy's own when the
	// caller left them out.
	Symbols                  []string `json:"symbols,omitempty"`
	Timeframes               []string `json:"timeframes,omitempty"`
	StrategyName             string   `json:"-"`
	EstimatedDurationMinutes *int     `json:"estimated_duration_minutes,omitempty"`
}

// MarketQuery selects cached bars.
type MarketQuery struct {
	Symbol, Timeframe  string
	StartDate, EndDate string
	TradingHoursOnly   bool
	IncludeExtended    bool // with TradingHoursOnly: pre-market and after-hours bars too
	Limit              int
}

// MarketData is cached OHLCV, oldest first.
type MarketData struct {
	Symbol         string       `json:"symbol"`
	Timeframe      string       `json:"timeframe"`
	Dates          []string     `json:"dates"`
	OHLCV          [][5]float64 `json:"ohlcv" jsonschema:"[o,h,l,c,v] per date"`
	Count          int          `json:"count"`
	AvailableCount int          `json:"available_count" jsonschema:"in range, before the limit"`
	Start          string       `json:"start,omitempty"`
	End            string       `json:"end,omitempty"`
	Limited        bool         `json:"limited"`
}

// Symbol is one item of GET /symbols.
type Symbol struct {
	Symbol              string         `json:"symbol"`
	Name                string         `json:"name,omitempty"`
	Type                string         `json:"type,omitempty"`
	Exchange            string         `json:"exchange,omitempty"`
	Currency            string         `json:"currency,omitempty"`
	AvailableTimeframes []string       `json:"available_timeframes,omitempty"`
	TradingHours        map[string]any `json:"trading_hours,omitempty"`
}

// IndicatorParam is one parameter of an indicator.
type IndicatorParam struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	Description string `json:"description,omitempty"`
	Default     any    `json:"default,omitempty"`
	MinValue    any    `json:"min_value,omitempty"`
	MaxValue    any    `json:"max_value,omitempty"`
	Options     []any  `json:"options,omitempty"`
}

// Indicator is one item of GET /indicators/.
type Indicator struct {
	ID          string           `json:"id"`
	Name        string           `json:"name,omitempty"`
	Description string           `json:"description,omitempty"`
	Type        string           `json:"type,omitempty"`
	Parameters  []IndicatorParam `json:"parameters,omitempty"`
}

// Strategy is one item of GET /strategies/ (fuzzy_config is left out: it is large
// and rarely needed to pick a strategy).
type Strategy struct {
	Name               string             `json:"name"`
	Description        string             `json:"description,omitempty"`
	Symbol             string             `json:"symbol,omitempty"`
	Timeframe          string             `json:"timeframe,omitempty"`
	Indicators         []map[string]any   `json:"indicators,omitempty"`
	TrainingStatus     string             `json:"training_status,omitempty"`
	AvailableVersions  []int              `json:"available_versions,omitempty"`
	LatestVersion      *int               `json:"latest_version,omitempty"`
	LatestTrainingDate string             `json:"latest_training_date,omitempty"`
	LatestMetrics      map[string]float64 `json:"latest_metrics,omitempty"`
}

// Model is one item of GET /models.
type Model struct {
	ModelID          string   `json:"model_id"`
	ModelName        string   `json:"model_name"`
	Symbol           string   `json:"symbol,omitempty"`
	Timeframe        string   `json:"timeframe,omitempty"`
	CreatedAt        string   `json:"created_at,omitempty"`
	TrainingAccuracy *float64 `json:"training_accuracy,omitempty"`
	TestAccuracy     *float64 `json:"test_accuracy,omitempty"`
	Description      string   `json:"description,omitempty"`
}

// Health is GET /health.
type Health struct {
	Status  string `json:"status"`
	Version string `json:"version,omitempty"`
}

// Performance is GET /trainings/{task_id}/performance.
type Performance struct {
	TaskID          string         `json:"task_id"`
	Status          string         `json:"status"`
	TrainingMetrics map[string]any `json:"training_metrics,omitempty" mcp:"type=object"`
	TestMetrics     map[string]any `json:"test_metrics,omitempty" mcp:"type=object"`
	ModelInfo       map[string]any `json:"model_info,omitempty" mcp:"type=object"`
}

// PredictRequest is the body of POST /models/predict.
type PredictRequest struct {
	ModelName string `json:"model_name"`
	Symbol    string `json:"symbol"`
	Timeframe string `json:"timeframe"`
	TestDate  string `json:"test_date,omitempty"`
}

// Prediction is POST /models/predict.
type Prediction struct {
	ModelName      string             `json:"-"` // the request's echo
	Symbol         string             `json:"-"`
	ModelID        string             `json:"model_id,omitempty"`
	Timeframe      string             `json:"timeframe,omitempty"`
	TestDate       string             `json:"test_date,omitempty"`
	Signal         string             `json:"signal"`
	Confidence     float64            `json:"confidence"`
	SignalStrength float64            `json:"signal_strength"`
	FuzzyOutputs   map[string]float64 `json:"fuzzy_outputs,omitempty"`
	InputFeatures  map[string]float64 `json:"input_features,omitempty"`
	Placeholder    bool               `json:"placeholder" jsonschema:"true: stub answer, not a model output"`
}

// ModelLoaded is POST /models/{name}/load (flat).
type ModelLoaded struct {
	ModelName   string         `json:"model_name"`
	ModelLoaded bool           `json:"model_loaded"`
	ModelInfo   map[string]any `json:"model_info,omitempty"`
}
