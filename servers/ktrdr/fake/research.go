package fake

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The research loop's routes: backtests, resume/retry, checkpoints, children,
// the data range, strategy detail/validation/features and the agent. Shapes
// are kpiteira/ktrdr@2c5c7173's (files named at each handler); routes HEAD
// added after 3ba55e75 answer FastAPI's bare 404 on the old backend.

// researchRoute serves the request if it is one of these routes.
func (s *Server) researchRoute(w http.ResponseWriter, r *http.Request, path string, seg []string, f Faults) bool {
	m := r.Method
	head := f.head()
	switch {
	case path == "/backtests/start" && m == "POST":
		s.startBacktest(w, r, f)
	case len(seg) == 3 && seg[0] == "operations" && seg[2] == "resume" && m == "POST" && head:
		s.resumeOperation(w, seg[1], f)
	case len(seg) == 3 && seg[0] == "operations" && seg[2] == "retry" && m == "POST":
		s.retryOperation(w, seg[1], f)
	case len(seg) == 3 && seg[0] == "operations" && seg[2] == "children" && m == "GET" && head:
		s.operationChildren(w, seg[1])
	case path == "/checkpoints" && m == "GET" && head:
		s.listCheckpoints(w)
	case len(seg) == 2 && seg[0] == "checkpoints" && seg[1] != "" && m == "GET" && head:
		s.getCheckpoint(w, seg[1])
	case path == "/data/range" && m == "POST":
		s.dataRange(w, r, f)
	case len(seg) == 3 && seg[0] == "strategies" && seg[1] == "validate" && m == "POST":
		s.validateStrategy(w, seg[2])
	case len(seg) == 3 && seg[0] == "strategies" && seg[2] == "features" && m == "GET" && head:
		s.strategyFeatures(w, seg[1])
	case len(seg) == 2 && seg[0] == "strategies" && seg[1] != "" && m == "GET":
		s.getStrategy(w, r, seg[1])
	case path == "/agent/trigger" && m == "POST" && head:
		s.agentTrigger(w, r, f)
	case path == "/agent/status" && m == "GET" && head:
		s.agentStatus(w)
	case len(seg) == 3 && seg[0] == "agent" && seg[1] == "cancel" && m == "DELETE" && head:
		s.agentCancel(w, seg[2])
	case path == "/agent/budget" && m == "GET" && head:
		s.agentBudget(w)
	default:
		return false
	}
	return true
}

func (s *Server) strategyNamed(name string) *strategy {
	for _, x := range s.strategies {
		if x.Name == name {
			return x
		}
	}
	return nil
}

// backtestSummary is BacktestResults.to_dict (kpiteira/ktrdr@2c5c7173
// ktrdr/backtesting/engine.py) with PerformanceMetrics.to_dict's keys
// (ktrdr/backtesting/performance.py); the worker completes the operation
// with it as result_summary (ktrdr/backtesting/backtest_worker.py). Source:
// the same performance.py computes total_return_pct, max_drawdown_pct and
// win_rate as decimals 0-1 ("Return as decimal 0-1"), total_return and
// max_drawdown in money. The figures are assumed (one fixed, plausible run).
func backtestSummary(name, symbol, tf, start, end string, capital, commission, slippage float64) map[string]any {
	return map[string]any{
		"strategy_name": name, "symbol": symbol, "timeframe": tf,
		"start_time": start + "T00:00:00", "end_time": end + "T00:00:00", "execution_time_seconds": 3.8,
		"config": map[string]any{"initial_capital": capital, "commission": commission, "slippage": slippage, "start_date": start, "end_date": end},
		"metrics": map[string]any{
			"total_return": capital * 0.0842, "total_return_pct": 0.0842, "annualized_return": 0.041, "volatility": 0.183,
			"sharpe_ratio": 0.91, "max_drawdown": capital * 0.061, "max_drawdown_pct": 0.061,
			"total_trades": 37, "winning_trades": 21, "losing_trades": 16, "win_rate": 0.5676, "profit_factor": 1.42,
			"avg_holding_period": 11.3, "avg_win_holding_period": 12.9, "avg_loss_holding_period": 9.2,
			"avg_win": capital * 0.0121, "avg_loss": capital * 0.0099, "largest_win": capital * 0.034, "largest_loss": capital * 0.021,
			"calmar_ratio": 0.67, "sortino_ratio": 1.21, "recovery_factor": 1.38,
		},
		"trade_count": 37, "equity_curve_length": 2841,
	}
}

// startBacktest is POST /backtests/start: BacktestStartRequest in, the flat
// BacktestStartResponse out; symbol and timeframe default to the strategy's
// (kpiteira/ktrdr@2c5c7173 ktrdr/api/endpoints/backtesting.py,
// ktrdr/api/models/backtesting.py).
func (s *Server) startBacktest(w http.ResponseWriter, r *http.Request, f Faults) {
	body, ok := decodeBody(w, r, f, false)
	if !ok {
		return
	}
	var errs []verr
	name, _ := strField(body, "strategy_name", true, &errs)
	symbol, _ := strField(body, "symbol", false, &errs)
	tf, _ := strField(body, "timeframe", false, &errs)
	start, _ := strField(body, "start_date", true, &errs)
	end, _ := strField(body, "end_date", true, &errs)
	num := func(key string, def float64) float64 {
		v, ok := body[key]
		if !ok || v == nil {
			return def
		}
		n, isNum := v.(float64)
		if !isNum {
			errs = append(errs, verr{[]any{"body", key}, "Input should be a valid number", "float_type", v})
		}
		return n
	}
	capital, commission, slippage := num("initial_capital", 100000), num("commission", 0.001), num("slippage", 0.0005)
	for key, v := range map[string]string{"start_date": start, "end_date": end} {
		if _, ok := parseDay(v); v != "" && !ok {
			errs = append(errs, verr{[]any{"body", key}, "Value error, Invalid date format. Use YYYY-MM-DD: " + v, "value_error", v})
		}
	}
	if capital <= 0 {
		errs = append(errs, verr{[]any{"body", "initial_capital"}, "Value error, Initial capital must be positive", "value_error", capital})
	}
	if len(errs) > 0 {
		validation(w, f, errs...)
		return
	}
	if f.NoWorkers {
		// WorkerUnavailableError → 503 with to_response_dict() as detail
		// (kpiteira/ktrdr@2c5c7173 ktrdr/api/endpoints/backtesting.py,
		// ktrdr/errors/exceptions.py).
		writeJSON(w, 503, map[string]any{"detail": map[string]any{"error": "No backtesting workers available", "worker_type": "backtesting",
			"registered_workers": 0, "backend_uptime_seconds": 5.2, "hint": "Workers auto-register after startup. Retry in a few seconds, or check worker container logs."}})
		return
	}
	s.mu.Lock()
	st := s.strategyNamed(name)
	if st != nil {
		if symbol == "" {
			symbol = st.Symbol
		}
		if tf == "" {
			tf = st.Timeframe
		}
	}
	if symbol == "" || tf == "" {
		s.mu.Unlock()
		// ValidationError → 400 (ktrdr/api/endpoints/backtesting.py; the status is assumed from the training route).
		detail(w, 400, "Symbol and timeframe must be provided or defined in strategy config")
		return
	}
	md := opMetadata{Symbol: strp(symbol), Timeframe: strp(tf), StartDate: strp(start), EndDate: strp(end),
		Parameters: map[string]any{"strategy_name": name, "initial_capital": capital, "commission": commission, "slippage": slippage}}
	o := s.newOp("backtesting", md, s.now())
	o.summary = backtestSummary(name, symbol, tf, start, end, capital, commission, slippage)
	if st == nil {
		// The route does not check the strategy when symbol and timeframe
		// are given (ktrdr/api/endpoints/backtesting.py); the worker fails on
		// loading it (assumed wording).
		o.script.FailAt, o.script.FailMessage = 1, fmt.Sprintf("Strategy file not found: strategies/%s.yaml", name)
	}
	id := o.id
	s.mu.Unlock()
	writeJSON(w, 200, map[string]any{"success": true, "operation_id": id, "status": "started",
		"message": fmt.Sprintf("Backtest started for %s %s using strategy %s", symbol, tf, name),
		"symbol":  symbol, "timeframe": tf, "mode": "remote"})
}

// saveCheckpoint keeps a cancelled training's or backtest's state, as the
// workers do on cancellation (kpiteira/ktrdr@2c5c7173
// ktrdr/training/training_worker.py, ktrdr/backtesting/backtest_worker.py).
func (o *operation) saveCheckpoint(st operationInfo, now time.Time) {
	if o.opType != "training" && o.opType != "backtesting" {
		return
	}
	o.checkpoint = &checkpoint{typ: "cancellation", created: now, epoch: st.Progress.StepsCompleted}
}

// resumeOperation is POST /operations/{id}/resume (kpiteira/ktrdr@2c5c7173
// ktrdr/api/endpoints/operations.py resume_operation): 404 unknown or no
// checkpoint (which marks it failed), 409 running, resuming or completed,
// 503 "No training worker available to resume operation" (the status stays
// cancelled); otherwise ResumeOperationResponse with status "resuming" (the
// route answers RESUMING before the worker starts) and the operation runs on
// from its checkpoint.
func (s *Server) resumeOperation(w http.ResponseWriter, id string, f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, st, ok := s.lookup(id)
	switch {
	case !ok:
		detail(w, 404, "Operation not found: "+id)
		return
	case st.Status == StatusRunning:
		writeJSON(w, 409, map[string]any{"detail": fmt.Sprintf("Operation %s is already running", id)})
		return
	case st.Status == StatusCompleted:
		writeJSON(w, 409, map[string]any{"detail": fmt.Sprintf("Operation %s is already completed", id)})
		return
	case st.Status != StatusCancelled && st.Status != StatusFailed:
		writeJSON(w, 409, map[string]any{"detail": fmt.Sprintf("Cannot resume operation %s from status %s", id, st.Status)})
		return
	case o.checkpoint == nil:
		o.endStatus, o.endMessage = StatusFailed, "No checkpoint available"
		detail(w, 404, "No checkpoint available for operation "+id)
		return
	}
	if f.NoWorkers {
		kind := "training"
		if o.opType == "backtesting" {
			kind = "backtest"
		}
		detail(w, 503, fmt.Sprintf("No %s worker available to resume operation", kind))
		return
	}
	now := s.now()
	cp := o.checkpoint
	o.shift += now.Sub(o.endedAt)
	o.endStatus, o.endMessage, o.endedAt, o.cancelReason = "", "", time.Time{}, nil
	resumed := map[string]any{"checkpoint_type": cp.typ, "created_at": isoTime(cp.created), "epoch": nil}
	if o.opType == "training" {
		resumed["epoch"] = cp.epoch
	}
	o.onResumeComplete()
	writeJSON(w, 200, map[string]any{"success": true, "data": map[string]any{"operation_id": id, "status": "resuming", "resumed_from": resumed}})
}

// onResumeComplete drops the checkpoint once the resumed run completes
// ("Checkpoint deleted after successful completion", same route's docs).
func (o *operation) onResumeComplete() {
	prev := o.onComplete
	o.onComplete = func(t time.Time) {
		o.checkpoint = nil
		if prev != nil {
			prev(t)
		}
	}
}

// retryOperation is POST /operations/{id}/retry: only a failed operation;
// the backend registers a new pending operation "op_retry_{type}_…" with the
// same metadata and returns it (OperationStatusResponse), but does not
// dispatch it to a worker (kpiteira/ktrdr@2c5c7173
// ktrdr/api/endpoints/operations.py retry_operation,
// ktrdr/api/services/operations_service.py retry_operation): it stays pending.
func (s *Server) retryOperation(w http.ResponseWriter, id string, f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, st, ok := s.lookup(id)
	if !ok {
		detail(w, 404, "Operation not found: "+id)
		return
	}
	if st.Status != StatusFailed {
		detail(w, 400, fmt.Sprintf("Operation %s cannot be retried (status: %s)", id, pyEnum(st.Status)))
		return
	}
	now := s.now()
	s.seq++
	nid := fmt.Sprintf("op_retry_%s_%s_%08x", o.opType, now.UTC().Format("20060102_150405"), uint32(s.seq*2654435761))
	n := &operation{id: nid, opType: o.opType, created: now, metadata: o.metadata, parent: o.parent,
		script: Script{Pending: 1000 * time.Hour, Steps: o.script.Steps}}
	s.ops[nid] = n
	info := n.state(now)
	if f.head() {
		writeJSON(w, 200, map[string]any{"success": true, "data": headInfo{info, nil, parentOf(n)}})
		return
	}
	writeJSON(w, 200, map[string]any{"success": true, "data": info})
}

// headInfo is HEAD's OperationInfo: metrics and parent_operation_id beside
// 3ba55e75's fields (ktrdr/api/models/operations.py).
type headInfo struct {
	operationInfo
	Metrics           map[string]any `json:"metrics"`
	ParentOperationID *string        `json:"parent_operation_id"`
}

func parentOf(o *operation) *string {
	if o.parent == "" {
		return nil
	}
	return strp(o.parent)
}

// operationChildren is GET /operations/{id}/children: the children in
// creation order as OperationListResponse (kpiteira/ktrdr@2c5c7173
// ktrdr/api/endpoints/operations.py get_operation_children).
func (s *Server) operationChildren(w http.ResponseWriter, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.ops[id]; !ok {
		detail(w, 404, "Operation not found: "+id)
		return
	}
	now := s.now()
	items := []operationSummary{}
	active := 0
	ops := s.sortedOps()
	for i := len(ops) - 1; i >= 0; i-- { // oldest first
		if ops[i].parent != id {
			continue
		}
		st := ops[i].state(now)
		if isActive(st.Status) {
			active++
		}
		items = append(items, st.summary())
	}
	writeJSON(w, 200, map[string]any{"success": true, "data": items, "total_count": len(items), "active_count": active})
}

// listCheckpoints is GET /checkpoints, newest first (CheckpointListResponse,
// kpiteira/ktrdr@2c5c7173 ktrdr/api/endpoints/checkpoints.py).
func (s *Server) listCheckpoints(w http.ResponseWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	items := []map[string]any{}
	for _, o := range s.sortedOps() {
		if o.checkpoint == nil {
			continue
		}
		items = append(items, map[string]any{"operation_id": o.id, "checkpoint_type": o.checkpoint.typ, "created_at": isoTime(o.checkpoint.created),
			"state_summary": o.checkpointState(), "artifacts_size_bytes": 184320})
	}
	writeJSON(w, 200, map[string]any{"success": true, "data": items, "total_count": len(items)})
}

// checkpointState is the state's key fields (assumed: epoch for a training,
// bar progress for a backtest, as the workers save them).
func (o *operation) checkpointState() map[string]any {
	if o.opType == "training" {
		return map[string]any{"epoch": o.checkpoint.epoch, "operation_type": o.opType}
	}
	return map[string]any{"bar_index": o.checkpoint.epoch * 355, "operation_type": o.opType}
}

// getCheckpoint is GET /checkpoints/{id} (CheckpointResponse,
// kpiteira/ktrdr@2c5c7173 ktrdr/api/endpoints/checkpoints.py).
func (s *Server) getCheckpoint(w http.ResponseWriter, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.ops[id]
	if !ok || o.checkpoint == nil {
		detail(w, 404, "Checkpoint not found: "+id)
		return
	}
	writeJSON(w, 200, map[string]any{"success": true, "data": map[string]any{"operation_id": id, "checkpoint_type": o.checkpoint.typ,
		"created_at": isoTime(o.checkpoint.created), "state": o.checkpointState(), "artifacts_path": "/app/data/checkpoints/" + id}})
}

// dataRange is POST /data/range: DataRangeRequest {symbol, timeframe} in,
// ApiResponse[DataRangeInfo] {symbol, timeframe, start_date, end_date,
// point_count} out; nothing cached is 404 "Data not found for SYM (tf)"
// (kpiteira/ktrdr ktrdr/api/endpoints/data.py get_data_range,
// ktrdr/api/models/data.py, at 3ba55e75 and HEAD).
func (s *Server) dataRange(w http.ResponseWriter, r *http.Request, f Faults) {
	body, ok := decodeBody(w, r, f, false)
	if !ok {
		return
	}
	var errs []verr
	symbol, _ := strField(body, "symbol", true, &errs)
	tf, _ := strField(body, "timeframe", true, &errs)
	if len(errs) > 0 {
		validation(w, f, errs...)
		return
	}
	symbol = strings.ToUpper(symbol)
	s.mu.Lock()
	n := s.cached[symbol+"/"+tf]
	s.mu.Unlock()
	bars := genBars(symbol, tf, n)
	if len(bars) == 0 {
		detail(w, 404, fmt.Sprintf("Data not found for %s (%s)", symbol, tf))
		return
	}
	writeJSON(w, 200, map[string]any{"success": true, "data": map[string]any{"symbol": symbol, "timeframe": tf,
		"start_date": bars[0].t.Format("2006-01-02T15:04:05"), "end_date": bars[len(bars)-1].t.Format("2006-01-02T15:04:05"), "point_count": len(bars)}, "error": nil})
}

// getStrategy is GET /strategies/{name}: the StrategyInfo itself, not
// wrapped; 404 "Strategy 'X' not found", or "Version N not found for
// strategy 'X'" for ?version= (kpiteira/ktrdr ktrdr/api/endpoints/strategies.py).
func (s *Server) getStrategy(w http.ResponseWriter, r *http.Request, name string) {
	name, _ = url.PathUnescape(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.strategyNamed(name)
	if st == nil {
		detail(w, 404, fmt.Sprintf("Strategy '%s' not found", name))
		return
	}
	if v := r.URL.Query().Get("version"); v != "" {
		found := false
		for _, x := range st.AvailableVersions {
			found = found || fmt.Sprint(x) == v
		}
		if !found {
			detail(w, 404, fmt.Sprintf("Version %s not found for strategy '%s'", v, name))
			return
		}
	}
	writeJSON(w, 200, st)
}

// validateStrategy is POST /strategies/validate/{name}
// (StrategyValidationResponse, same file). trend_momentum's missing fuzzy
// sets are the fake's one invalid strategy (assumed wording, after
// _validate_strategy_config's categories).
func (s *Server) validateStrategy(w http.ResponseWriter, name string) {
	name, _ = url.PathUnescape(name)
	s.mu.Lock()
	st := s.strategyNamed(name)
	s.mu.Unlock()
	if st == nil {
		detail(w, 404, "Strategy file not found: "+name+".yaml")
		return
	}
	issues := []map[string]any{}
	if len(st.FuzzyConfig) == 0 {
		for _, ind := range st.Indicators {
			issues = append(issues, map[string]any{"severity": "error", "category": "fuzzy_sets",
				"message": fmt.Sprintf("Missing fuzzy sets for indicator: %v", ind["name"]), "details": map[string]any{"indicator": ind["name"]}})
		}
	}
	valid := len(issues) == 0
	msg := fmt.Sprintf("Strategy '%s' is valid", name)
	if !valid {
		msg = fmt.Sprintf("Strategy '%s' has %d error(s)", name, len(issues))
	}
	writeJSON(w, 200, map[string]any{"success": true, "valid": valid, "strategy_name": name, "issues": issues,
		"available_indicators": []string{"atr", "bbands", "ema", "macd", "rsi", "sma", "stochastic"}, "message": msg})
}

// strategyFeatures is GET /strategies/{name}/features (HEAD only;
// StrategyFeaturesResponse {strategy_name, features[], count},
// ktrdr/api/endpoints/strategies.py; the feature ids are assumed): a
// strategy's NN inputs, one per timeframe × fuzzy set; 400 for a non-v3 one.
func (s *Server) strategyFeatures(w http.ResponseWriter, name string) {
	name, _ = url.PathUnescape(name)
	s.mu.Lock()
	st := s.strategyNamed(name)
	s.mu.Unlock()
	if st == nil {
		detail(w, 404, "Strategy file not found: "+name+".yaml")
		return
	}
	if len(st.FuzzyConfig) == 0 {
		detail(w, 400, fmt.Sprintf("Strategy '%s' is not v3 format or invalid: missing 'nn_inputs'", name))
		return
	}
	features := []map[string]any{}
	for _, ind := range []string{"rsi"} {
		sets, _ := st.FuzzyConfig[ind].(map[string]any)
		for _, set := range []string{"oversold", "overbought"} {
			if _, ok := sets[set]; !ok {
				continue
			}
			features = append(features, map[string]any{"feature_id": fmt.Sprintf("%s_%s_14_%s", st.Timeframe, ind, set), "timeframe": st.Timeframe,
				"fuzzy_set": ind + "_14", "membership": set, "indicator_id": ind + "_14", "indicator_output": nil})
		}
	}
	writeJSON(w, 200, map[string]any{"success": true, "strategy_name": name, "features": features, "count": len(features)})
}

// Agent budget (assumed figures; the shape is BudgetTracker.get_status,
// kpiteira/ktrdr@2c5c7173 ktrdr/agents/budget.py): each cycle is charged
// 0.15, the tracker's own estimate per cycle.
const (
	agentDailyLimit = 5.0
	agentCycleCost  = 0.15
)

// agentTrigger is POST /agent/trigger (AgentTriggerRequest; 202 triggered,
// 409 not: ktrdr/api/endpoints/agent.py, ktrdr/api/services/agent_service.py
// trigger). One research at a time (the capacity limit is assumed 1); its
// training child starts with it.
func (s *Server) agentTrigger(w http.ResponseWriter, r *http.Request, f Faults) {
	body, ok := decodeBody(w, r, f, true)
	if !ok {
		return
	}
	var errs []verr
	model, _ := strField(body, "model", false, &errs)
	brief, hasBrief := strField(body, "brief", false, &errs)
	strat, hasStrat := strField(body, "strategy", false, &errs)
	if len(errs) > 0 {
		validation(w, f, errs...)
		return
	}
	if hasBrief && hasStrat {
		validation(w, f, verr{[]any{"body"}, "Value error, Cannot specify both 'brief' and 'strategy'. Use 'brief' to design a new strategy, or 'strategy' to train an existing one.", "value_error", body})
		return
	}
	switch strings.ToLower(model) {
	case "", "opus", "sonnet", "haiku":
	default:
		// ValueError → 422 with the text as detail (same files).
		detail(w, 422, fmt.Sprintf("Invalid model '%s'. Valid options: haiku, opus, sonnet", model))
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	active := 0
	for _, o := range s.ops {
		if o.opType == "agent_research" && isActive(o.state(now).Status) {
			active++
		}
	}
	if active >= 1 {
		writeJSON(w, 409, map[string]any{"triggered": false, "reason": "at_capacity", "active_count": active, "limit": 1,
			"message": fmt.Sprintf("At capacity (%d/1 researches active)", active)})
		return
	}
	if s.agentSpend+agentCycleCost > agentDailyLimit {
		writeJSON(w, 409, map[string]any{"triggered": false, "reason": "budget_exhausted", "message": "Daily budget exhausted: no budget left today"})
		return
	}
	s.agentSpend += agentCycleCost
	s.agentEvents++
	params := map[string]any{"phase": "training", "model": model}
	phase := "designing"
	if hasStrat {
		params["strategy_name"], phase = strat, "training"
	}
	if hasBrief {
		params["brief"] = brief
	}
	params["phase"] = phase
	o := s.newOp("agent_research", opMetadata{Parameters: params}, now)
	o.phase = phase
	child := s.newOp("training", opMetadata{Symbol: strp("AAPL"), Timeframe: strp("1h"), Parameters: map[string]any{"strategy_name": strat}}, now)
	child.parent = o.id
	if model == "" {
		model = "opus"
	}
	writeJSON(w, 202, map[string]any{"triggered": true, "operation_id": o.id, "model": model, "message": "Research cycle started"})
}

// agentStatus is GET /agent/status (AgentStatusResponse, ktrdr/api/models/agent.py;
// AgentService.get_status).
func (s *Server) agentStatus(w http.ResponseWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	var researches []map[string]any
	var last map[string]any
	for _, o := range s.sortedOps() {
		if o.opType != "agent_research" {
			continue
		}
		st := o.state(now)
		if isActive(st.Status) {
			var child any
			for _, c := range s.ops {
				if c.parent == o.id {
					child = c.id
				}
			}
			researches = append(researches, map[string]any{"operation_id": o.id, "phase": o.phase,
				"strategy_name": o.metadata.Parameters["strategy_name"], "duration_seconds": int(now.Sub(o.created).Seconds()), "child_operation_id": child})
		} else if last == nil {
			last = map[string]any{"operation_id": o.id, "outcome": st.Status, "strategy_name": o.metadata.Parameters["strategy_name"], "completed_at": st.CompletedAt}
		}
	}
	common := map[string]any{
		"workers":  map[string]any{"training": map[string]int{"busy": len(researches), "total": 2}, "backtesting": map[string]int{"busy": 0, "total": 1}},
		"budget":   map[string]any{"remaining": agentDailyLimit - s.agentSpend, "daily_limit": agentDailyLimit},
		"capacity": map[string]any{"active": len(researches), "limit": 1},
	}
	if len(researches) == 0 {
		common["status"], common["active_researches"], common["last_cycle"] = "idle", []any{}, last
	} else {
		common["status"], common["active_researches"] = "active", researches
	}
	writeJSON(w, 200, common)
}

// agentCancel is DELETE /agent/cancel/{id}: 404 not found or not a research,
// 409 not cancellable, else the research and its child are cancelled
// (kpiteira/ktrdr@2c5c7173 ktrdr/api/endpoints/agent.py,
// ktrdr/api/services/agent_service.py cancel).
func (s *Server) agentCancel(w http.ResponseWriter, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, st, ok := s.lookup(id)
	switch {
	case !ok:
		writeJSON(w, 404, map[string]any{"success": false, "reason": "not_found", "message": "Operation not found: " + id})
		return
	case o.opType != "agent_research":
		writeJSON(w, 404, map[string]any{"success": false, "reason": "not_research", "message": "Operation is not a research: " + id})
		return
	case !isActive(st.Status):
		writeJSON(w, 409, map[string]any{"success": false, "reason": "not_cancellable", "message": fmt.Sprintf("Cannot cancel %s operation", st.Status)})
		return
	}
	now := s.now()
	o.endStatus, o.endedAt, o.frozenPct = StatusCancelled, now, st.Progress.Percentage
	var child any
	for _, c := range s.ops {
		if cst := c.state(now); c.parent == id && isActive(cst.Status) {
			c.endStatus, c.endedAt, c.frozenPct = StatusCancelled, now, cst.Progress.Percentage
			c.saveCheckpoint(cst, now)
			child = c.id
		}
	}
	writeJSON(w, 200, map[string]any{"success": true, "operation_id": id, "child_cancelled": child, "message": "Research cancelled"})
}

// agentBudget is GET /agent/budget (BudgetTracker.get_status,
// kpiteira/ktrdr@2c5c7173 ktrdr/agents/budget.py).
func (s *Server) agentBudget(w http.ResponseWriter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	remaining := agentDailyLimit - s.agentSpend
	writeJSON(w, 200, map[string]any{"date": s.now().UTC().Format("2006-01-02"), "daily_limit": agentDailyLimit, "today_spend": s.agentSpend,
		"remaining": remaining, "budget_disabled": false, "cycles_affordable": int(remaining / agentCycleCost), "spend_events": s.agentEvents})
}
