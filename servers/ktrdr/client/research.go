package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// The research loop's routes: backtests, resume and retry, checkpoints,
// children, the data range, one strategy, its validation and features, and
// the agent. Facts from kpiteira/ktrdr@2c5c7173 (HEAD) unless said; routes
// HEAD added after 3ba55e75 (resume, checkpoints, children, features, agent)
// answer FastAPI's bare 404 there, reported by headOnly.

// headOnly rewrites the "no such route" error of a route 3ba55e75 lacks into
// one naming the backend version and what to use instead.
func headOnly(err error, rep reply, what, instead string) error {
	if !rep.routeMissing {
		return err
	}
	var e *envelope.Error
	if errors.As(err, &e) {
		e.Message = fmt.Sprintf("%s: this KTRDR backend has no such route (it predates it; kpiteira/ktrdr HEAD has it); %s", what, instead)
	}
	return err
}

// bodyMessage is the message of an error answer that is not {"detail": …}
// (the agent's {"success"|"triggered": false, "reason", "message"}), put into
// the error with the reason in details.
func bodyMessage(err error, body []byte) error {
	var e *envelope.Error
	if !errors.As(err, &e) || len(body) == 0 {
		return err
	}
	var m struct {
		Reason  string `json:"reason"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &m) != nil || m.Message == "" {
		return err
	}
	e.Message = extract.Clip(m.Message, extract.MaxUpstreamText)
	if m.Reason != "" {
		e.WithDetail("reason", m.Reason)
	}
	return err
}

// BacktestRequest is BacktestStartRequest (ktrdr/api/models/backtesting.py):
// symbol and timeframe default to the strategy's; capital 100000, commission
// 0.001, slippage 0.0005 when left out.
type BacktestRequest struct {
	StrategyName   string   `json:"strategy_name"`
	Symbol         string   `json:"symbol,omitempty"`
	Timeframe      string   `json:"timeframe,omitempty"`
	StartDate      string   `json:"start_date"`
	EndDate        string   `json:"end_date"`
	InitialCapital *float64 `json:"initial_capital,omitempty"`
	Commission     *float64 `json:"commission,omitempty"`
	Slippage       *float64 `json:"slippage,omitempty"`
	ModelPath      string   `json:"model_path,omitempty"`
}

// BacktestStarted is BacktestStartResponse (flat).
type BacktestStarted struct {
	OperationID string `json:"operation_id"`
	Status      string `json:"status"`
	Message     string `json:"message,omitempty"`
	Symbol      string `json:"symbol"`
	Timeframe   string `json:"timeframe"`
	Mode        string `json:"mode,omitempty"`
}

// StartBacktest starts a backtest operation (POST /backtests/start,
// ktrdr/api/endpoints/backtesting.py). Each call starts one: not retried.
func (c *Client) StartBacktest(ctx context.Context, r BacktestRequest) (BacktestStarted, error) {
	body, err := c.call(ctx, request{op: "backtest start", method: "POST", path: "/backtests/start", json: r})
	if err != nil {
		// 400 "Symbol and timeframe must be provided or defined in strategy
		// config" is also what an unknown strategy gets when they are left out.
		return BacktestStarted{}, withHint(err, "pass symbol and timeframe, or check strategy_name with get_strategies (it lists valid names and their symbol, timeframe)", envelope.NotFound, envelope.InvalidArgument)
	}
	id, err := operationID(body, "backtest start", "operation_id")
	if err != nil {
		return BacktestStarted{}, err
	}
	b, err := extract.Object[BacktestStarted](body)
	if err != nil {
		return BacktestStarted{}, err
	}
	b.OperationID, b.Message = id, extract.Clip(b.Message, 300)
	return b, nil
}

// ResumedFrom is ResumedFromInfo (ktrdr/api/models/operations.py).
type ResumedFrom struct {
	CheckpointType string `json:"checkpoint_type" jsonschema:"periodic, cancellation, failure or shutdown"`
	CreatedAt      string `json:"created_at"`
	Epoch          *int   `json:"epoch,omitempty" jsonschema:"training: the epoch it continues after"`
}

// Resumed is ResumeOperationData.
type Resumed struct {
	OperationID string      `json:"operation_id"`
	Status      string      `json:"status"`
	ResumedFrom ResumedFrom `json:"resumed_from"`
}

// ResumeOperation continues a cancelled or failed training or backtest from
// its checkpoint, under the same operation id (POST
// /operations/{id}/resume, ktrdr/api/endpoints/operations.py): 409 when it
// is running, resuming or completed; 404 when it has no checkpoint (the
// backend then marks it failed); 503 when no worker can take it.
func (c *Client) ResumeOperation(ctx context.Context, id string) (Resumed, error) {
	path, err := opPath(id, "/resume")
	if err != nil {
		return Resumed{}, err
	}
	rep, err := c.t.do(ctx, request{op: "resume " + id, route: "resume operation", method: "POST", path: path})
	if err != nil {
		err = headOnly(withObjectDetail(err, rep.body), rep, "resume "+id, "start the training or backtest again instead")
		return Resumed{}, withHint(err, "list_checkpoints shows which operations can resume; list_operations checks the id", envelope.NotFound)
	}
	if _, err := extract.Require[string](rep.body, "resume "+id, "data", "status"); err != nil {
		return Resumed{}, err
	}
	r, err := extract.Object[Resumed](rep.body, "data")
	if err != nil {
		return Resumed{}, err
	}
	if r.OperationID == "" {
		r.OperationID = id
	}
	return r, nil
}

// RetryOperation asks the backend to retry a failed operation (POST
// /operations/{id}/retry, at 3ba55e75 and HEAD). The backend answers a new
// operation ("op_retry_…") with the same metadata, status pending, but
// OperationsService.retry_operation only records it: no worker is sent the
// work (ktrdr/api/services/operations_service.py), so it stays pending.
func (c *Client) RetryOperation(ctx context.Context, id string) (Operation, error) {
	path, err := opPath(id, "/retry")
	if err != nil {
		return Operation{}, err
	}
	body, err := c.call(ctx, request{op: "retry " + id, route: "retry operation", method: "POST", path: path})
	if err != nil {
		var e *envelope.Error
		if errors.As(err, &e) && strings.Contains(e.Message, "cannot be retried (status") {
			e.Code, e.Retryable = envelope.Conflict, false
			if st := cancelStatus(e.Message); st != "" {
				e.WithDetail("status", st)
			}
			e.Message = fmt.Sprintf("operation %s is %s: only a failed operation can be retried; a cancelled training or backtest resumes with resume_operation", id, cancelStatus(e.Message))
		}
		return Operation{}, withHint(err, "check the id with list_operations", envelope.NotFound)
	}
	n, err := extract.Require[string](body, "retry "+id, "data", "operation_id")
	if err != nil {
		return Operation{}, err
	}
	return ParseOperation(body, n)
}

// Children lists the operations an agent research started, oldest first
// (GET /operations/{id}/children, OperationListResponse).
func (c *Client) Children(ctx context.Context, id string) (OperationList, error) {
	path, err := opPath(id, "/children")
	if err != nil {
		return OperationList{}, err
	}
	rep, err := c.t.do(ctx, request{op: "children of " + id, route: "operation children", method: "GET", path: path})
	if err != nil {
		err = headOnly(err, rep, "children of "+id, "list_operations shows every operation")
		return OperationList{}, withHint(err, "check the id with list_operations", envelope.NotFound)
	}
	return ParseOperationList(rep.body)
}

// Checkpoint is CheckpointSummaryResponse (ktrdr/api/endpoints/checkpoints.py).
type Checkpoint struct {
	OperationID        string         `json:"operation_id"`
	CheckpointType     string         `json:"checkpoint_type" jsonschema:"periodic, cancellation, failure or shutdown"`
	CreatedAt          string         `json:"created_at"`
	StateSummary       map[string]any `json:"state_summary,omitempty" mcp:"type=object"`
	ArtifactsSizeBytes *int           `json:"artifacts_size_bytes,omitempty"`
}

// Checkpoints lists the saved checkpoints newest first (GET /checkpoints).
func (c *Client) Checkpoints(ctx context.Context) ([]Checkpoint, int, error) {
	rep, err := c.t.do(ctx, request{op: "list checkpoints", method: "GET", path: "/checkpoints"})
	if err != nil {
		return nil, 0, headOnly(err, rep, "list checkpoints", "this backend keeps no checkpoints: a cancelled operation starts again")
	}
	items, err := extract.List[Checkpoint](rep.body, "data")
	if err != nil {
		return nil, 0, err
	}
	total, err := extract.Object[extract.Int](rep.body, "total_count")
	if err != nil {
		return nil, 0, err
	}
	return items, int(total), nil
}

// DataRange is DataRangeInfo (ktrdr/api/models/data.py).
type DataRange struct {
	Symbol     string      `json:"symbol"`
	Timeframe  string      `json:"timeframe"`
	StartDate  string      `json:"start_date"`
	EndDate    string      `json:"end_date"`
	PointCount extract.Int `json:"point_count"`
}

// DataRange is the first and last cached bar and their count (POST
// /data/range, at 3ba55e75 and HEAD; ktrdr/api/endpoints/data.py). Nothing
// cached is 404 "Data not found for SYM (tf)": found false, no error.
func (c *Client) DataRange(ctx context.Context, symbol, timeframe string) (DataRange, bool, error) {
	rep, err := c.t.do(ctx, request{op: "data range", method: "POST", path: "/data/range",
		json: map[string]string{"symbol": symbol, "timeframe": timeframe}, idempotent: true})
	if err != nil {
		var e *envelope.Error
		if errors.As(err, &e) && e.Code == envelope.NotFound && !rep.routeMissing && strings.Contains(e.Message, "Data not found") {
			return DataRange{Symbol: symbol, Timeframe: timeframe}, false, nil
		}
		return DataRange{}, false, err
	}
	if _, err := extract.Require[string](rep.body, "data range", "data", "start_date"); err != nil {
		return DataRange{}, false, err
	}
	d, err := extract.Object[DataRange](rep.body, "data")
	return d, err == nil, err
}

// strategyPath is /strategies[/prefix]/{name}[suffix].
func strategyPath(prefix, name, suffix string) (string, error) {
	return upstream.Path(upstream.Lit("/strategies"+prefix), upstream.Arg("strategy_name", name), upstream.Lit(suffix))
}

// StrategyDetail is StrategyInfo with the fuzzy configuration
// (GET /strategies/{name}, ktrdr/api/endpoints/strategies.py).
type StrategyDetail struct {
	Strategy
	FuzzyConfig map[string]any `json:"fuzzy_config,omitempty" mcp:"type=object"`
}

// Strategy reads one strategy (404 "Strategy 'X' not found").
func (c *Client) Strategy(ctx context.Context, name string) (StrategyDetail, error) {
	path, err := strategyPath("", name, "")
	if err != nil {
		return StrategyDetail{}, err
	}
	body, err := c.call(ctx, request{op: "strategy " + name, route: "get strategy", method: "GET", path: path})
	if err != nil {
		return StrategyDetail{}, withHint(err, "get_strategies lists the strategy names", envelope.NotFound)
	}
	if _, err := extract.Require[string](body, "strategy "+name, "name"); err != nil {
		return StrategyDetail{}, err
	}
	return extract.Object[StrategyDetail](body)
}

// ValidationIssue is one finding of POST /strategies/validate/{name}.
type ValidationIssue struct {
	Severity string         `json:"severity" jsonschema:"error or warning"`
	Category string         `json:"category"`
	Message  string         `json:"message"`
	Details  map[string]any `json:"details,omitempty" mcp:"type=object"`
}

// Validation is StrategyValidationResponse.
type Validation struct {
	StrategyName        string            `json:"strategy_name"`
	Valid               bool              `json:"valid"`
	Message             string            `json:"message"`
	Issues              []ValidationIssue `json:"issues"`
	AvailableIndicators []string          `json:"available_indicators,omitempty"`
}

// ValidateStrategy checks a strategy file (POST /strategies/validate/{name},
// at 3ba55e75 and HEAD). success false is the backend's own failure.
func (c *Client) ValidateStrategy(ctx context.Context, name string) (Validation, error) {
	path, err := strategyPath("/validate", name, "")
	if err != nil {
		return Validation{}, err
	}
	body, err := c.call(ctx, request{op: "validate " + name, route: "validate strategy", method: "POST", path: path, idempotent: true})
	if err != nil {
		return Validation{}, withHint(withObjectDetail(err, body), "get_strategies lists the strategy names", envelope.NotFound)
	}
	if _, err := extract.Require[bool](body, "validate "+name, "valid"); err != nil {
		return Validation{}, err
	}
	v, err := extract.Object[Validation](body)
	if v.Issues == nil {
		v.Issues = []ValidationIssue{}
	}
	return v, err
}

// Feature is FeatureInfo: one NN input of a v3 strategy.
type Feature struct {
	FeatureID       string `json:"feature_id"`
	Timeframe       string `json:"timeframe"`
	FuzzySet        string `json:"fuzzy_set"`
	Membership      string `json:"membership"`
	IndicatorID     string `json:"indicator_id"`
	IndicatorOutput string `json:"indicator_output,omitempty"`
}

// StrategyFeatures lists a v3 strategy's resolved NN inputs (GET
// /strategies/{name}/features, HEAD only); a non-v3 strategy is 400.
func (c *Client) StrategyFeatures(ctx context.Context, name string) ([]Feature, error) {
	path, err := strategyPath("", name, "/features")
	if err != nil {
		return nil, err
	}
	rep, err := c.t.do(ctx, request{op: "features of " + name, route: "strategy features", method: "GET", path: path})
	if err != nil {
		err = headOnly(err, rep, "features of "+name, "get_strategy shows the indicators and fuzzy sets")
		err = withHint(err, "only a v3 strategy (with nn_inputs) lists features; get_strategy shows this one's indicators and fuzzy sets", envelope.InvalidArgument)
		return nil, withHint(err, "get_strategies lists the strategy names", envelope.NotFound)
	}
	return extract.List[Feature](rep.body, "features")
}

// AgentTrigger is AgentTriggerRequest (ktrdr/api/models/agent.py): brief and
// strategy exclude each other.
type AgentTrigger struct {
	Model       string `json:"model,omitempty"`
	Brief       string `json:"brief,omitempty"`
	Strategy    string `json:"strategy,omitempty"`
	BypassGates bool   `json:"bypass_gates,omitempty"`
}

// AgentTriggered is AgentTriggerResponse.
type AgentTriggered struct {
	Triggered   bool   `json:"triggered"`
	OperationID string `json:"operation_id,omitempty"`
	Model       string `json:"model,omitempty"`
	Message     string `json:"message,omitempty"`
}

// TriggerAgent starts a research cycle (POST /agent/trigger, 202;
// ktrdr/api/endpoints/agent.py). 409 {triggered: false, reason:
// at_capacity|budget_exhausted, message} is a conflict carrying the reason.
func (c *Client) TriggerAgent(ctx context.Context, r AgentTrigger) (AgentTriggered, error) {
	rep, err := c.t.do(ctx, request{op: "agent trigger", method: "POST", path: "/agent/trigger", json: r})
	if err != nil {
		err = headOnly(bodyMessage(err, rep.body), rep, "agent trigger", "this backend has no research agent")
		return AgentTriggered{}, withHint(err, "get_agent_status shows the active research and the budget", envelope.Conflict)
	}
	t, err := extract.Object[AgentTriggered](rep.body)
	if err != nil {
		return AgentTriggered{}, err
	}
	if !t.Triggered || t.OperationID == "" {
		return AgentTriggered{}, envelope.New(envelope.UpstreamError, "agent trigger: the backend answered without starting a research (%s)", extract.Clip(t.Message, 200))
	}
	return t, nil
}

// AgentStatus is AgentStatusResponse (ktrdr/api/models/agent.py), passed on
// as the backend sends it.
type AgentStatus struct {
	Status           string           `json:"status" jsonschema:"active or idle"`
	ActiveResearches []map[string]any `json:"active_researches"`
	LastCycle        map[string]any   `json:"last_cycle,omitempty" mcp:"type=object"`
	Workers          map[string]any   `json:"workers,omitempty" mcp:"type=object"`
	Budget           map[string]any   `json:"budget,omitempty" mcp:"type=object"`
	Capacity         map[string]any   `json:"capacity,omitempty" mcp:"type=object"`
}

// AgentStatus reads GET /agent/status.
func (c *Client) AgentStatus(ctx context.Context) (AgentStatus, error) {
	rep, err := c.t.do(ctx, request{op: "agent status", method: "GET", path: "/agent/status"})
	if err != nil {
		return AgentStatus{}, headOnly(err, rep, "agent status", "this backend has no research agent")
	}
	if _, err := extract.Require[string](rep.body, "agent status", "status"); err != nil {
		return AgentStatus{}, err
	}
	s, err := extract.Object[AgentStatus](rep.body)
	if s.ActiveResearches == nil {
		s.ActiveResearches = []map[string]any{}
	}
	return s, err
}

// AgentCancelled is AgentService.cancel's answer.
type AgentCancelled struct {
	OperationID    string `json:"operation_id"`
	ChildCancelled string `json:"child_cancelled,omitempty" jsonschema:"the training or backtest it was running"`
	Message        string `json:"message,omitempty"`
}

// CancelAgent cancels a research and its running child (DELETE
// /agent/cancel/{id}): 404 {reason: not_found|not_research}, 409
// {reason: not_cancellable}.
func (c *Client) CancelAgent(ctx context.Context, id string) (AgentCancelled, error) {
	path, err := upstream.Path(upstream.Lit("/agent/cancel"), upstream.Arg("operation_id", id))
	if err != nil {
		return AgentCancelled{}, err
	}
	rep, err := c.t.do(ctx, request{op: "agent cancel " + id, route: "agent cancel", method: "DELETE", path: path, idempotent: true})
	if err != nil {
		err = headOnly(bodyMessage(err, rep.body), rep, "agent cancel", "this backend has no research agent")
		return AgentCancelled{}, withHint(err, "get_agent_status lists active researches", envelope.NotFound)
	}
	a, err := extract.Object[AgentCancelled](rep.body)
	if a.OperationID == "" {
		a.OperationID = id
	}
	return a, err
}

// AgentBudget is BudgetTracker.get_status (ktrdr/agents/budget.py).
type AgentBudget struct {
	Date             string       `json:"date,omitempty"`
	DailyLimit       extract.Num  `json:"daily_limit"`
	TodaySpend       extract.Num  `json:"today_spend"`
	Remaining        *extract.Num `json:"remaining,omitempty" jsonschema:"absent when the budget is disabled"`
	BudgetDisabled   bool         `json:"budget_disabled"`
	CyclesAffordable extract.Int  `json:"cycles_affordable" jsonschema:"-1 when disabled"`
	SpendEvents      extract.Int  `json:"spend_events"`
}

// AgentBudget reads GET /agent/budget.
func (c *Client) AgentBudget(ctx context.Context) (AgentBudget, error) {
	rep, err := c.t.do(ctx, request{op: "agent budget", method: "GET", path: "/agent/budget"})
	if err != nil {
		return AgentBudget{}, headOnly(err, rep, "agent budget", "this backend has no research agent")
	}
	b, err := extract.Object[AgentBudget](rep.body)
	if b.BudgetDisabled {
		b.Remaining = nil // Python's float("inf") has no JSON form
	}
	return b, err
}
