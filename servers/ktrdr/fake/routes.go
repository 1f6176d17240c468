package fake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// route dispatches a backend request; path has /api/v1 stripped.
func (s *Server) route(w http.ResponseWriter, r *http.Request, path string, f Faults) {
	seg := strings.Split(strings.TrimPrefix(path, "/"), "/")
	m := r.Method
	is := func(method string) bool {
		if m != method {
			detail(w, 405, "Method Not Allowed")
			return false
		}
		return true
	}
	switch {
	case path == "/health":
		// Flat {status, version}; HEAD adds orphan_detector (ktrdr/api/endpoints/__init__.py health_check).
		if is("GET") {
			writeJSON(w, 200, map[string]any{"status": "ok", "version": Version, "orphan_detector": nil})
		}
	case path == "/operations":
		if is("GET") {
			s.listOperations(w, r, f)
		}
	case len(seg) == 2 && seg[0] == "operations" && seg[1] != "":
		switch m {
		case "GET":
			s.getOperation(w, seg[1], f)
		case "DELETE":
			s.cancelOperation(w, r, seg[1], f)
		default:
			detail(w, 405, "Method Not Allowed")
		}
	case len(seg) == 3 && seg[0] == "operations" && seg[2] == "results":
		if is("GET") {
			s.operationResults(w, seg[1])
		}
	case path == "/data/load" && !f.head():
		// 3ba55e75 only; HEAD has no such route (bare 404 below).
		if is("POST") {
			s.loadData(w, r, f, true)
		}
	case path == "/data/acquire/download" && f.head() && m == "POST":
		// HEAD only. On 3ba55e75 the path falls to GET /data/{symbol}/{timeframe}
		// below, whose method check answers POST with 405 (Starlette's partial match).
		s.loadData(w, r, f, false)
	case len(seg) == 3 && seg[0] == "data" && seg[1] != "" && seg[2] != "":
		if is("GET") {
			s.marketData(w, r, seg[1], seg[2], f)
		}
	case path == "/symbols":
		// ApiResponse envelope around the list (ktrdr/api/endpoints/data.py).
		if is("GET") {
			s.mu.Lock()
			data := append([]symbolInfo{}, s.symbols...)
			s.mu.Unlock()
			writeJSON(w, 200, map[string]any{"success": true, "data": data, "error": nil})
		}
	case path == "/indicators", path == "/strategies":
		// FastAPI's redirect_slashes: the router is mounted with a trailing slash.
		http.Redirect(w, r, r.URL.Path+"/", http.StatusTemporaryRedirect)
	case path == "/indicators/":
		// Envelope list; the route has a trailing slash (ktrdr/api/endpoints/indicators.py).
		if is("GET") {
			writeJSON(w, 200, map[string]any{"success": true, "data": seedIndicators(), "error": nil})
		}
	case path == "/strategies/":
		// Flat {success, strategies} (ktrdr/api/endpoints/strategies.py).
		if is("GET") {
			s.mu.Lock()
			b, _ := json.Marshal(s.strategies)
			s.mu.Unlock()
			writeJSON(w, 200, map[string]any{"success": true, "strategies": json.RawMessage(b)})
		}
	case path == "/models":
		// Flat {success, models}, no trailing slash (ktrdr/api/endpoints/models.py).
		if is("GET") {
			s.mu.Lock()
			models := append([]model{}, s.models...)
			s.mu.Unlock()
			writeJSON(w, 200, map[string]any{"success": true, "models": models})
		}
	case path == "/models/predict":
		if is("POST") {
			s.predict(w, r, f)
		}
	case len(seg) == 3 && seg[0] == "models" && seg[2] == "load":
		if is("POST") {
			name, _ := url.PathUnescape(seg[1])
			s.loadModel(w, name, f)
		}
	case path == "/trainings/start":
		if is("POST") {
			s.startTraining(w, r, f)
		}
	case len(seg) == 3 && seg[0] == "trainings" && seg[2] == "performance":
		if is("GET") {
			s.performance(w, seg[1])
		}
	case s.researchRoute(w, r, path, seg, f):
	default:
		// No route matched: FastAPI's bare 404.
		detail(w, 404, "Not Found")
	}
}

// verr is one request-validation failure.
type verr struct {
	loc   []any
	msg   string
	typ   string
	input any
}

// validation answers 422 in the shape the Validation fault selects.
func validation(w http.ResponseWriter, f Faults, errs ...verr) {
	// HEAD: the custom RequestValidationError handler's envelope; 3ba55e75:
	// FastAPI's default {"detail": [...]} (ktrdr/api/main.py at each commit).
	if f.Validation == "envelope" || (f.Validation == "" && f.head()) {
		details := make([]map[string]any, len(errs))
		for i, e := range errs {
			parts := make([]string, len(e.loc))
			for j, p := range e.loc {
				parts[j] = fmt.Sprint(p)
			}
			details[i] = map[string]any{"field": strings.Join(parts, " -> "), "message": e.msg, "type": e.typ}
		}
		writeJSON(w, 422, envelopeError("VALIDATION_ERROR", "Request validation failed", details))
		return
	}
	details := make([]map[string]any, len(errs))
	for i, e := range errs {
		details[i] = map[string]any{"type": e.typ, "loc": e.loc, "msg": e.msg, "input": e.input}
	}
	writeJSON(w, 422, map[string]any{"detail": details})
}

// decodeBody reads a JSON object body; a missing body is an empty object when
// optional. Failures are FastAPI's request-validation 422 with pydantic v2's
// types and messages (FastAPI's default; ktrdr/api/main.py).
func decodeBody(w http.ResponseWriter, r *http.Request, f Faults, optional bool) (map[string]any, bool) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
	if err != nil {
		validation(w, f, verr{[]any{"body"}, "request body too large", "value_error", nil})
		return nil, false
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		if optional {
			return map[string]any{}, true
		}
		validation(w, f, verr{[]any{"body"}, "Field required", "missing", nil})
		return nil, false
	}
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		validation(w, f, verr{[]any{"body", 0}, "JSON decode error", "json_invalid", string(b)})
		return nil, false
	}
	return body, true
}

func strField(body map[string]any, key string, required bool, errs *[]verr) (string, bool) {
	v, ok := body[key]
	if !ok || v == nil {
		if required {
			*errs = append(*errs, verr{[]any{"body", key}, "Field required", "missing", body})
		}
		return "", false
	}
	s, isStr := v.(string)
	if !isStr {
		*errs = append(*errs, verr{[]any{"body", key}, "Input should be a valid string", "string_type", v})
		return "", false
	}
	return s, true
}

func literalMsg(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = "'" + v + "'"
	}
	return "Input should be " + strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

func (s *Server) listOperations(w http.ResponseWriter, r *http.Request, f Faults) {
	q := r.URL.Query()
	var errs []verr
	// Query(10, ge=1, le=1000) and Query(0, ge=0) (ktrdr/api/endpoints/operations.py).
	limit, offset := 10, 0
	intParam := func(name string, lo, hi int, dst *int) {
		v := q.Get(name)
		if v == "" {
			return
		}
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			errs = append(errs, verr{[]any{"query", name}, "Input should be a valid integer, unable to parse string as an integer", "int_parsing", v})
		case n < lo:
			errs = append(errs, verr{[]any{"query", name}, fmt.Sprintf("Input should be greater than or equal to %d", lo), "greater_than_equal", v})
		case hi > 0 && n > hi:
			errs = append(errs, verr{[]any{"query", name}, fmt.Sprintf("Input should be less than or equal to %d", hi), "less_than_equal", v})
		default:
			*dst = n
		}
	}
	intParam("limit", 1, 1000, &limit)
	intParam("offset", 0, 0, &offset)
	status, opType := q.Get("status"), q.Get("operation_type")
	statuses, types := operationStatuses, operationTypes
	if f.head() {
		statuses, types = headOperationStatuses, headOperationTypes
	}
	if status != "" && !contains(statuses, status) {
		errs = append(errs, verr{[]any{"query", "status"}, literalMsg(statuses), "enum", status})
	}
	if opType != "" && !contains(types, opType) {
		errs = append(errs, verr{[]any{"query", "operation_type"}, literalMsg(types), "enum", opType})
	}
	activeOnly := false
	if v := q.Get("active_only"); v != "" {
		switch strings.ToLower(v) {
		case "true", "1", "yes", "on":
			activeOnly = true
		case "false", "0", "no", "off":
		default:
			errs = append(errs, verr{[]any{"query", "active_only"}, "Input should be a valid boolean, unable to interpret input", "bool_parsing", v})
		}
	}
	if len(errs) > 0 {
		validation(w, f, errs...)
		return
	}
	s.mu.Lock()
	now := s.now()
	items := []operationSummary{}
	total, active := 0, 0
	// Newest first; total_count counts the matches, active_count all active ops
	// (ktrdr/api/endpoints/operations.py; the count semantics are assumed).
	for _, o := range s.sortedOps() {
		st := o.state(now)
		if isActive(st.Status) {
			active++
		}
		if (status != "" && st.Status != status) || (opType != "" && st.OperationType != opType) || (activeOnly && !isActive(st.Status)) {
			continue
		}
		total++
		if total > offset && len(items) < limit {
			items = append(items, st.summary())
		}
	}
	s.mu.Unlock()
	writeJSON(w, 200, map[string]any{"success": true, "data": items, "total_count": total, "active_count": active})
}

func (s *Server) lookup(id string) (*operation, operationInfo, bool) {
	o, ok := s.ops[id]
	if !ok {
		return nil, operationInfo{}, false
	}
	return o, o.state(s.now()), true
}

func (s *Server) getOperation(w http.ResponseWriter, id string, f Faults) {
	s.mu.Lock()
	o, st, ok := s.lookup(id)
	var metrics map[string]any
	if ok && f.head() {
		metrics = o.trainingMetrics(st)
	}
	s.mu.Unlock()
	if !ok {
		// HTTPException(404, f"Operation not found: {operation_id}") (ktrdr/api/endpoints/operations.py).
		detail(w, 404, "Operation not found: "+id)
		return
	}
	if !f.head() {
		writeJSON(w, 200, map[string]any{"success": true, "data": st})
		return
	}
	// HEAD's OperationInfo has metrics (null until there are some) and
	// parent_operation_id (source: ktrdr/api/models/operations.py).
	writeJSON(w, 200, map[string]any{"success": true, "data": headInfo{st, metrics, parentOf(o)}})
}

// pyEnum renders a status the way the backend's f-string does for a (str, Enum)
// member on Python ≥ 3.11: "OperationStatus.COMPLETED" (inferred from the code).
func pyEnum(status string) string { return "OperationStatus." + strings.ToUpper(status) }

func (s *Server) cancelOperation(w http.ResponseWriter, r *http.Request, id string, f Faults) {
	body, ok := decodeBody(w, r, f, true)
	if !ok {
		return
	}
	var errs []verr
	reason, hasReason := strField(body, "reason", false, &errs)
	force := false
	if v, ok := body["force"]; ok && v != nil {
		b, isBool := v.(bool)
		if !isBool {
			errs = append(errs, verr{[]any{"body", "force"}, "Input should be a valid boolean", "bool_type", v})
		}
		force = b
	}
	if len(errs) > 0 {
		validation(w, f, errs...)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o, st, ok := s.lookup(id)
	if !ok {
		detail(w, 404, "Operation not found: "+id)
		return
	}
	if !isActive(st.Status) {
		// HTTPException(400) with the status f-string (ktrdr/api/endpoints/operations.py).
		detail(w, 400, fmt.Sprintf("Operation %s cannot be cancelled (status: %s)", id, pyEnum(st.Status)))
		return
	}
	now := s.now()
	o.endStatus, o.endedAt, o.frozenPct = StatusCancelled, now, st.Progress.Percentage
	var reasonPtr *string
	if hasReason {
		reasonPtr = strp(reason)
	}
	o.cancelReason, o.forced = reasonPtr, force
	o.saveCheckpoint(st, now)
	// OperationsService.cancel_operation's dict, wrapped in OperationCancelResponse
	// (ktrdr/api/services/operations_service.py at each commit).
	data := map[string]any{"success": true, "operation_id": id, "status": StatusCancelled, "cancelled_at": isoTime(now),
		"cancellation_reason": reasonPtr, "task_cancelled": true}
	if f.head() {
		data["remote_cancelled"], data["children_cancelled"] = false, []string{}
	} else {
		data["training_session_cancelled"] = o.opType == "training"
	}
	writeJSON(w, 200, map[string]any{"success": true, "data": data})
}

func (s *Server) operationResults(w http.ResponseWriter, id string) {
	s.mu.Lock()
	_, st, ok := s.lookup(id)
	s.mu.Unlock()
	if !ok {
		detail(w, 404, "Operation not found: "+id)
		return
	}
	if st.Status != StatusCompleted && st.Status != StatusFailed {
		// HTTPException(400, f"Operation not finished (status: {operation.status.value})")
		// (ktrdr/api/endpoints/operations.py); the body on success is flat (same file).
		detail(w, 400, "Operation not finished (status: "+st.Status+")")
		return
	}
	res := st.ResultSummary
	if res == nil {
		res = map[string]any{}
	}
	writeJSON(w, 200, map[string]any{"success": true, "operation_id": id, "operation_type": st.OperationType, "status": st.Status, "results": res})
}

// successFalse is a 200 carrying success:false, which the MCP's strict extractor
// must catch (assumed: the backend's routes raise instead; the envelope is
// ktrdr/api/models/base.py ApiResponse, the extractor mcp/src/clients/base.py).
func successFalse(w http.ResponseWriter, msg string) {
	writeJSON(w, 200, envelopeError("PROCESSING_ERROR", msg, map[string]any{}))
}

// loadSummary is a completed data load's result_summary.
func loadSummary(symbol, tf string, bars int, cachedBefore bool, sc Script) map[string]any {
	return map[string]any{"status": "success", "fetched_bars": bars, "cached_before": cachedBefore, "merged_file": symbol + "_" + tf + ".csv",
		"gaps_analyzed": 3, "segments_fetched": sc.Steps, "ib_requests_made": sc.Steps, "execution_time_seconds": sc.Duration.Seconds()}
}

func (s *Server) loadData(w http.ResponseWriter, r *http.Request, f Faults, legacy bool) {
	body, ok := decodeBody(w, r, f, false)
	if !ok {
		return
	}
	var errs []verr
	symbol, _ := strField(body, "symbol", true, &errs)
	tf, hasTF := strField(body, "timeframe", true, &errs)
	if hasTF && !contains(timeframes, tf) {
		errs = append(errs, verr{[]any{"body", "timeframe"}, literalMsg(timeframes), "literal_error", tf})
	}
	mode, hasMode := strField(body, "mode", false, &errs)
	if !hasMode {
		mode = "local"
	} else if !contains(loadModes, mode) {
		errs = append(errs, verr{[]any{"body", "mode"}, literalMsg(loadModes), "literal_error", mode})
	}
	start, hasStart := strField(body, "start_date", false, &errs)
	end, hasEnd := strField(body, "end_date", false, &errs)
	if len(errs) > 0 {
		validation(w, f, errs...)
		return
	}
	if !legacy && mode != "tail" && mode != "backfill" && mode != "full" {
		// HEAD's request model still allows (and defaults to) local, but the
		// acquisition service rejects it and the route answers 500
		// (kpiteira/ktrdr@2c5c7173 ktrdr/data/acquisition/acquisition_service.py,
		// ktrdr/api/endpoints/data.py). Nothing is started.
		detail(w, 500, "Data acquisition failed: Invalid mode: "+mode+". Must be 'tail', 'backfill', or 'full'")
		return
	}
	if f.SuccessFalse {
		successFalse(w, "Data loading failed: IB Gateway is not connected")
		return
	}
	symbol = strings.ToUpper(strings.TrimSpace(symbol))
	md := opMetadata{Symbol: strp(symbol), Timeframe: strp(tf), Mode: strp(mode), Parameters: map[string]any{}}
	if hasStart {
		md.StartDate = strp(start)
	}
	if hasEnd {
		md.EndDate = strp(end)
	}
	s.mu.Lock()
	o := s.newOp("data_load", md, s.now())
	known := false
	for _, si := range s.symbols {
		known = known || si.Symbol == symbol
	}
	if !known {
		// assumed: an unknown symbol fails during the load with an IB message.
		o.script.FailAt, o.script.FailMessage = 20, "No data found for symbol "+symbol+": IB returned no security definition"
	}
	key := symbol + "/" + tf
	bars := 300
	o.summary = loadSummary(symbol, tf, bars, s.cached[key] > 0, o.script)
	o.onComplete = func(time.Time) {
		if s.cached[key] < bars {
			s.cached[key] = bars
		}
	}
	id := o.id
	s.mu.Unlock()

	if f.MissingID {
		id = ""
	}
	if legacy || f.OldShape {
		// DataLoadApiResponse around DataLoadOperationResponse (ktrdr/api/endpoints/data.py @3ba55e75).
		data := map[string]any{"status": "started", "fetched_bars": 0, "cached_before": false, "merged_file": "", "gaps_analyzed": 0,
			"segments_fetched": 0, "ib_requests_made": 0, "execution_time_seconds": 0.0, "error_message": nil}
		if id != "" {
			data["operation_id"] = id
		}
		writeJSON(w, 200, map[string]any{"success": true, "data": data, "error": nil})
		return
	}
	// DataAcquisitionResponse, flat (ktrdr/api/endpoints/data.py @2c5c7173 docstring example).
	out := map[string]any{"success": true, "status": "started", "message": fmt.Sprintf("Started %s download for %s %s", mode, symbol, tf)}
	if id != "" {
		out["operation_id"] = id
	}
	writeJSON(w, 200, out)
}

// parseDay accepts YYYY-MM-DD or an ISO datetime.
func parseDay(v string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02", "2006-01-02T15:04:05", time.RFC3339} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func (s *Server) marketData(w http.ResponseWriter, r *http.Request, symbol, tf string, f Faults) {
	symbol, _ = url.PathUnescape(symbol)
	symbol = strings.ToUpper(symbol)
	if !contains(timeframes, tf) {
		// assumed: the code and message of a bad timeframe (a DataError → 400 envelope).
		writeJSON(w, 400, envelopeError("DATA-InvalidTimeframe", "Invalid timeframe: "+tf, map[string]any{"valid_timeframes": timeframes}))
		return
	}
	q := r.URL.Query()
	var from, to time.Time
	for name, dst := range map[string]*time.Time{"start_date": &from, "end_date": &to} {
		if v := q.Get(name); v != "" {
			t, ok := parseDay(v)
			if !ok {
				// DataError("Invalid start_date format. Use YYYY-MM-DD", "DATA-InvalidDate") → 400 envelope (ktrdr/api/endpoints/data.py).
				writeJSON(w, 400, envelopeError("DATA-InvalidDate", "Invalid "+name+" format. Use YYYY-MM-DD", map[string]any{name: v}))
				return
			}
			*dst = t
		}
	}
	limit := 0
	// HEAD added limit (1–100000); 3ba55e75 ignores it (ktrdr/api/endpoints/data.py at each commit).
	if v := q.Get("limit"); v != "" && !f.OldShape && f.head() {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 100000 {
			validation(w, f, verr{[]any{"query", "limit"}, "Input should be greater than or equal to 1 and less than or equal to 100000", "value_error", v})
			return
		}
		limit = n
	}
	s.mu.Lock()
	n := s.cached[symbol+"/"+tf]
	s.mu.Unlock()
	bars := genBars(symbol, tf, n)
	kept := bars[:0:0]
	for _, b := range bars {
		if (!from.IsZero() && b.t.Before(from)) || (!to.IsZero() && b.t.After(to.Add(24*time.Hour-time.Nanosecond))) {
			continue
		}
		kept = append(kept, b)
	}
	if len(kept) == 0 {
		// Nothing cached is an empty 200, not an error (ktrdr/api/endpoints/data.py).
		writeJSON(w, 200, map[string]any{"success": true, "data": map[string]any{"dates": []string{}, "ohlcv": [][]float64{}, "points": nil,
			"metadata": map[string]any{"symbol": symbol, "timeframe": tf, "start": "", "end": "", "points": 0}}, "error": nil})
		return
	}
	original := len(kept)
	if limit > 0 && len(kept) > limit {
		kept = kept[len(kept)-limit:]
	}
	dates := make([]string, len(kept))
	ohlcv := make([][]float64, len(kept))
	for i, b := range kept {
		dates[i] = b.t.Format("2006-01-02T15:04:05")
		ohlcv[i] = b.ohlc[:]
	}
	md := map[string]any{"symbol": symbol, "timeframe": tf, "start_date": dates[0], "end_date": dates[len(dates)-1], "point_count": len(kept)}
	if limit > 0 {
		// HEAD's metadata.limited/original_points (kpiteira/ktrdr@2c5c7173 ktrdr/api/endpoints/data.py).
		md["limited"] = original > len(kept)
		md["original_points"] = original
	}
	writeJSON(w, 200, map[string]any{"success": true, "data": map[string]any{"dates": dates, "ohlcv": ohlcv, "points": nil, "metadata": md}, "error": nil})
}

func stringList(body map[string]any, key string, errs *[]verr) []string {
	v, ok := body[key]
	if !ok || v == nil {
		*errs = append(*errs, verr{[]any{"body", key}, "Field required", "missing", body})
		return nil
	}
	arr, isArr := v.([]any)
	if !isArr {
		*errs = append(*errs, verr{[]any{"body", key}, "Input should be a valid list", "list_type", v})
		return nil
	}
	if len(arr) == 0 {
		*errs = append(*errs, verr{[]any{"body", key}, "List should have at least 1 item after validation, not 0", "too_short", v})
		return nil
	}
	out := make([]string, 0, len(arr))
	for i, x := range arr {
		s, isStr := x.(string)
		if !isStr {
			*errs = append(*errs, verr{[]any{"body", key, i}, "Input should be a valid string", "string_type", x})
			continue
		}
		out = append(out, s)
	}
	return out
}

func trainingSummary(id, strategyName string) map[string]any {
	return map[string]any{
		"training_metrics": map[string]any{"final_train_loss": 0.412, "final_val_loss": 0.455, "final_train_accuracy": 0.64, "final_val_accuracy": 0.61,
			"epochs_completed": 10, "early_stopped": false, "training_time_minutes": 12.5},
		"test_metrics": map[string]any{"test_loss": 0.47, "test_accuracy": 0.6, "precision": 0.58, "recall": 0.55, "f1_score": 0.56},
		"model_info":   map[string]any{"model_size_mb": 0.42, "parameters_count": 5123, "architecture": "mlp_64_32_16"},
		"model_path":   "models/" + strategyName + "/" + id + ".pt",
	}
}

func (s *Server) startTraining(w http.ResponseWriter, r *http.Request, f Faults) {
	body, ok := decodeBody(w, r, f, false)
	if !ok {
		return
	}
	var errs []verr
	// HEAD's TrainingRequest makes symbols and timeframes optional (filled
	// from the strategy) and adds detailed_analytics (kpiteira/ktrdr@2c5c7173
	// ktrdr/api/endpoints/training.py, ktrdr/api/services/training_service.py).
	var symbols, tfs []string
	if _, given := body["symbols"]; given || !f.head() {
		symbols = stringList(body, "symbols", &errs)
	}
	if _, given := body["timeframes"]; given || !f.head() {
		tfs = stringList(body, "timeframes", &errs)
	}
	analytics := false
	if v, ok := body["detailed_analytics"]; ok && v != nil && f.head() {
		b, isBool := v.(bool)
		if !isBool {
			errs = append(errs, verr{[]any{"body", "detailed_analytics"}, "Input should be a valid boolean", "bool_type", v})
		}
		analytics = b
	}
	name, _ := strField(body, "strategy_name", true, &errs)
	start, _ := strField(body, "start_date", false, &errs)
	end, _ := strField(body, "end_date", false, &errs)
	if len(errs) > 0 {
		validation(w, f, errs...)
		return
	}
	if f.NoWorkers && f.head() {
		// WorkerUnavailableError.to_response_dict() as the HTTPException detail
		// (kpiteira/ktrdr@2c5c7173 ktrdr/errors/exceptions.py, ktrdr/api/endpoints/training.py).
		writeJSON(w, 503, map[string]any{"detail": map[string]any{"error": "No training workers available", "worker_type": "training",
			"registered_workers": 0, "backend_uptime_seconds": 5.2, "hint": "Workers auto-register after startup. Retry in a few seconds, or check worker container logs."}})
		return
	}
	if f.SuccessFalse {
		successFalse(w, "Training start failed: strategy configuration could not be loaded")
		return
	}
	s.mu.Lock()
	var st *strategy
	for _, x := range s.strategies {
		if x.Name == name {
			st = x
		}
	}
	if st == nil {
		s.mu.Unlock()
		// The text follows ktrdr/api/services/training/context.py; the 400 status is assumed.
		detail(w, 400, "Strategy file not found: strategies/"+name+".yaml")
		return
	}
	if len(symbols) == 0 {
		symbols = []string{st.Symbol}
	}
	if len(tfs) == 0 {
		tfs = []string{st.Timeframe}
	}
	md := opMetadata{Symbol: strp(symbols[0]), Timeframe: strp(tfs[0]), Parameters: map[string]any{"strategy_name": name, "symbols": symbols, "timeframes": tfs}}
	if f.head() {
		md.Parameters["detailed_analytics"] = analytics
	}
	if start != "" {
		md.StartDate = strp(start)
	}
	if end != "" {
		md.EndDate = strp(end)
	}
	o := s.newOp("training", md, s.now())
	o.summary = trainingSummary(o.id, name)
	created := isoTime(o.created)
	o.onComplete = func(time.Time) {
		st.TrainingStatus = "trained"
		v := len(st.AvailableVersions) + 1
		st.AvailableVersions = append(st.AvailableVersions, v)
		st.LatestVersion = &v
		st.LatestTrainingDate = strp(created)
		s.models = append(s.models, model{ModelID: fmt.Sprintf("%s_v%d", name, v), ModelName: name, Symbol: symbols[0], Timeframe: tfs[0],
			CreatedAt: created, TrainingAccuracy: f64(0.64), TestAccuracy: f64(0.6), Description: fmt.Sprintf("%s v%d (%s %s)", name, v, symbols[0], tfs[0])})
	}
	id := o.id
	minutes := int(o.script.Duration.Minutes()) + 1
	s.mu.Unlock()

	// TrainingStartResponse, flat; task_id is the operation id (ktrdr/api/endpoints/training.py).
	out := map[string]any{"success": true, "status": "training_started",
		"message": fmt.Sprintf("Neural network training started for %s using strategy %s", strings.Join(symbols, ", "), name),
		"symbols": symbols, "timeframes": tfs, "strategy_name": name, "estimated_duration_minutes": minutes}
	if !f.MissingID {
		out["task_id"] = id
	}
	writeJSON(w, 200, out)
}

// performance is TrainingService.get_model_performance behind GET
// /trainings/{id}/performance: its ValidationErrors become 404s, "not found"
// and "not completed (status: …)" alike (kpiteira/ktrdr ktrdr/api/endpoints/training.py,
// ktrdr/api/services/training_service.py). It reads any operation, not only trainings.
func (s *Server) performance(w http.ResponseWriter, id string) {
	s.mu.Lock()
	_, st, ok := s.lookup(id)
	s.mu.Unlock()
	if !ok {
		detail(w, 404, "Training task "+id+" not found")
		return
	}
	if st.Status != StatusCompleted {
		detail(w, 404, "Training task "+id+" is not completed (status: "+st.Status+")")
		return
	}
	sum := st.ResultSummary
	part := func(k string) any {
		if v, ok := sum[k]; ok {
			return v
		}
		return map[string]any{}
	}
	writeJSON(w, 200, map[string]any{"success": true, "task_id": id, "status": "completed",
		"training_metrics": part("training_metrics"), "test_metrics": part("test_metrics"), "model_info": part("model_info")})
}

// loadModel is POST /models/{name}/load: TrainingService.load_trained_model
// matches the name against the stored models' names; unknown → 404 "Model 'X'
// not found"; a model whose file is missing answers model_loaded false and is
// not loaded (kpiteira/ktrdr ktrdr/api/endpoints/models.py, training_service.py).
func (s *Server) loadModel(w http.ResponseWriter, name string, f Faults) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var found *model
	for i := range s.models {
		if s.models[i].ModelName == name {
			found = &s.models[i]
		}
	}
	if found == nil {
		detail(w, 404, "Model '"+name+"' not found")
		return
	}
	loaded := !f.ModelFileMissing
	if loaded {
		s.loaded[name] = true
	}
	writeJSON(w, 200, map[string]any{"success": true, "model_name": name, "model_loaded": loaded, "model_info": map[string]any{
		"created_at": found.CreatedAt, "symbol": found.Symbol, "timeframe": found.Timeframe, "architecture": "mlp_64_32_16",
		"training_accuracy": deref(found.TrainingAccuracy), "test_accuracy": deref(found.TestAccuracy)}})
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// UnloadModels forgets loaded models, as a backend restart does (they live in
// the backend process's memory).
func (s *Server) UnloadModels() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loaded = map[string]bool{}
}

// predict is POST /models/predict: TrainingService.test_model_prediction
// refuses a model not loaded in this process (400 via ValidationError) and
// otherwise answers a fixed placeholder, whatever the model, symbol or data:
// hold, confidence 0, neutral 1, no input features; test_date defaults to
// today (kpiteira/ktrdr at 3ba55e75 and 2c5c7173, training_service.py).
func (s *Server) predict(w http.ResponseWriter, r *http.Request, f Faults) {
	body, ok := decodeBody(w, r, f, false)
	if !ok {
		return
	}
	var errs []verr
	name, _ := strField(body, "model_name", true, &errs)
	symbol, _ := strField(body, "symbol", true, &errs)
	tf, hasTF := strField(body, "timeframe", false, &errs)
	testDate, hasDate := strField(body, "test_date", false, &errs)
	if !hasTF {
		tf = "1h"
	}
	// PredictionRequest's field_validator: "Field cannot be empty", then strip.
	for k, v := range map[string]string{"model_name": name, "symbol": symbol, "timeframe": tf} {
		if _, present := body[k]; (present || k == "timeframe") && strings.TrimSpace(v) == "" {
			errs = append(errs, verr{[]any{"body", k}, "Value error, Field cannot be empty", "value_error", v})
		}
	}
	if len(errs) > 0 {
		validation(w, f, errs...)
		return
	}
	if f.SuccessFalse {
		successFalse(w, "Prediction failed: model could not be loaded") // assumed: a 200 success:false the client must catch
		return
	}
	name, symbol = strings.TrimSpace(name), strings.TrimSpace(symbol)
	s.mu.Lock()
	loaded := s.loaded[name]
	now := s.now()
	s.mu.Unlock()
	if !loaded {
		detail(w, 400, "Model '"+name+"' is not loaded. Load it first.")
		return
	}
	if !hasDate || testDate == "" {
		testDate = now.UTC().Format("2006-01-02")
	}
	writeJSON(w, 200, map[string]any{"success": true, "model_name": name, "symbol": symbol, "test_date": testDate,
		"prediction": map[string]any{"signal": "hold", "confidence": 0.0, "signal_strength": 0.0,
			"fuzzy_outputs": map[string]any{"bullish": 0.0, "bearish": 0.0, "neutral": 1.0}},
		"input_features": map[string]float64{}})
}
