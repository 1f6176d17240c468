package fake

import (
	"encoding/json"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

func start(t *testing.T, o Options) (*Server, string, *clock.Fake) {
	t.Helper()
	c := clock.NewFake(time.Date(2026, 1, 5, 10, 0, 0, 0, time.UTC))
	if o.Now == nil {
		o.Now = c.Now
	}
	s := New(o)
	base, stop := s.Start()
	t.Cleanup(stop)
	return s, strings.TrimSuffix(base, APIPrefix), c
}

func do(t *testing.T, method, url, body string) (int, map[string]any, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, url, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return res.StatusCode, m, string(b)
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return strings.Join(sortStrings(ks), ",")
}

func sortStrings(s []string) []string {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
	return s
}

func TestRouteShapes(t *testing.T) {
	_, base, _ := start(t, Options{})
	api := base + APIPrefix
	cases := []struct {
		name, method, path, body string
		faults                   Faults
		status                   int
		topKeys                  string
		contains                 string
	}{
		{name: "health flat", method: "GET", path: "/health", status: 200, topKeys: "orphan_detector,status,version"},
		{name: "operations list", method: "GET", path: "/operations?limit=2", status: 200, topKeys: "active_count,data,success,total_count"},
		{name: "operations bad status", method: "GET", path: "/operations?status=bogus", faults: Faults{Backend: Backend3ba55e75}, status: 422, topKeys: "detail", contains: `"loc":["query","status"]`},
		{name: "operations bad status HEAD", method: "GET", path: "/operations?status=bogus", status: 422, topKeys: "data,error,success", contains: `"field":"query -> status"`},
		{name: "operations bad limit envelope", method: "GET", path: "/operations?limit=0", faults: Faults{Validation: "envelope"}, status: 422, topKeys: "data,error,success", contains: `"field":"query -> limit"`},
		{name: "unknown op", method: "GET", path: "/operations/op_nope", status: 404, contains: `{"detail":"Operation not found: op_nope"}`},
		{name: "unknown op results", method: "GET", path: "/operations/op_nope/results", status: 404, topKeys: "detail"},
		{name: "cancel unknown", method: "DELETE", path: "/operations/op_nope", status: 404, topKeys: "detail"},
		{name: "symbols envelope", method: "GET", path: "/symbols", status: 200, topKeys: "data,error,success"},
		{name: "indicators slash", method: "GET", path: "/indicators/", status: 200, topKeys: "data,error,success", contains: `"RSIIndicator"`},
		{name: "indicators redirect", method: "GET", path: "/indicators", status: 307},
		{name: "strategies flat", method: "GET", path: "/strategies/", status: 200, topKeys: "strategies,success"},
		{name: "strategies redirect", method: "GET", path: "/strategies", status: 307},
		{name: "models flat", method: "GET", path: "/models", status: 200, topKeys: "models,success"},
		{name: "market data", method: "GET", path: "/data/AAPL/1h?limit=3", status: 200, topKeys: "data,error,success", contains: `"original_points":500`},
		{name: "market data empty", method: "GET", path: "/data/ZZZ/1h", status: 200, contains: `"metadata":{"end":"","points":0,"start":"","symbol":"ZZZ","timeframe":"1h"}`},
		{name: "market data old ignores limit", method: "GET", path: "/data/AAPL/1d?limit=3", faults: Faults{OldShape: true}, status: 200, contains: `"point_count":250`},
		{name: "market data 3ba55e75 has no limit", method: "GET", path: "/data/AAPL/1d?limit=3", faults: Faults{Backend: Backend3ba55e75}, status: 200, contains: `"point_count":250`},
		{name: "market data bad timeframe", method: "GET", path: "/data/AAPL/7h", status: 400, topKeys: "data,error,success"},
		{name: "load legacy envelope", method: "POST", path: "/data/load", body: `{"symbol":"AAPL","timeframe":"1h","mode":"tail"}`, faults: Faults{Backend: Backend3ba55e75}, status: 200, topKeys: "data,error,success", contains: `"operation_id":"op_data_load_`},
		{name: "acquire flat", method: "POST", path: "/data/acquire/download", body: `{"symbol":"AAPL","timeframe":"1h","mode":"tail"}`, status: 200, topKeys: "message,operation_id,status,success", contains: `Started tail download for AAPL 1h`},
		{name: "acquire old shape", method: "POST", path: "/data/acquire/download", body: `{"symbol":"AAPL","timeframe":"1h","mode":"tail"}`, faults: Faults{OldShape: true}, status: 200, topKeys: "data,error,success"},
		{name: "acquire missing id", method: "POST", path: "/data/acquire/download", body: `{"symbol":"AAPL","timeframe":"1h","mode":"tail"}`, faults: Faults{MissingID: true}, status: 200, topKeys: "message,status,success"},
		{name: "acquire bad mode HEAD envelope", method: "POST", path: "/data/acquire/download", body: `{"symbol":"AAPL","timeframe":"1h","mode":"ib"}`, status: 422, contains: `"field":"body -> mode"`},
		{name: "acquire mode local is a 500", method: "POST", path: "/data/acquire/download", body: `{"symbol":"AAPL","timeframe":"1h","mode":"local"}`, status: 500,
			contains: `{"detail":"Data acquisition failed: Invalid mode: local. Must be 'tail', 'backfill', or 'full'"}`},
		{name: "acquire default mode is local, a 500", method: "POST", path: "/data/acquire/download", body: `{"symbol":"AAPL","timeframe":"1h"}`, status: 500, contains: `Invalid mode: local`},
		{name: "load bad mode fastapi", method: "POST", path: "/data/load", body: `{"symbol":"AAPL","timeframe":"1h","mode":"ib"}`, faults: Faults{Backend: Backend3ba55e75}, status: 422, contains: `"loc":["body","mode"]`},
		{name: "load local on 3ba55e75", method: "POST", path: "/data/load", body: `{"symbol":"AAPL","timeframe":"1h"}`, faults: Faults{Backend: Backend3ba55e75}, status: 200, contains: `"operation_id":"op_data_load_`},
		{name: "HEAD has no /data/load", method: "POST", path: "/data/load", body: `{"symbol":"AAPL","timeframe":"1h"}`, status: 404, contains: `{"detail":"Not Found"}`},
		{name: "3ba55e75 answers acquire with 405", method: "POST", path: "/data/acquire/download", body: `{"symbol":"AAPL","timeframe":"1h"}`, faults: Faults{Backend: Backend3ba55e75}, status: 405, contains: `{"detail":"Method Not Allowed"}`},
		{name: "load success false", method: "POST", path: "/data/load", body: `{"symbol":"AAPL","timeframe":"1h"}`, faults: Faults{Backend: Backend3ba55e75, SuccessFalse: true}, status: 200, contains: `"success":false`},
		{name: "training flat task_id", method: "POST", path: "/trainings/start", body: `{"symbols":["AAPL"],"timeframes":["1h"],"strategy_name":"neuro_mean_reversion"}`, status: 200,
			topKeys: "estimated_duration_minutes,message,status,strategy_name,success,symbols,task_id,timeframes", contains: `"task_id":"op_training_`},
		{name: "training empty lists", method: "POST", path: "/trainings/start", body: `{"symbols":[],"timeframes":[],"strategy_name":"x"}`, status: 422, contains: `too_short`},
		{name: "training unknown strategy", method: "POST", path: "/trainings/start", body: `{"symbols":["AAPL"],"timeframes":["1h"],"strategy_name":"nope"}`, status: 400, contains: `Strategy file not found`},
		{name: "training no workers", method: "POST", path: "/trainings/start", body: `{"symbols":["AAPL"],"timeframes":["1h"],"strategy_name":"neuro_mean_reversion"}`, faults: Faults{NoWorkers: true}, status: 503, topKeys: "detail",
			contains: `"worker_type":"training"`},
		{name: "predict needs a load", method: "POST", path: "/models/predict", body: `{"model_name":"neuro_mean_reversion","symbol":"AAPL","timeframe":"1h"}`, status: 400,
			contains: `{"detail":"Model 'neuro_mean_reversion' is not loaded. Load it first."}`},
		{name: "load unknown model", method: "POST", path: "/models/nope/load", status: 404, contains: `{"detail":"Model 'nope' not found"}`},
		{name: "load model", method: "POST", path: "/models/neuro_mean_reversion/load", status: 200, topKeys: "model_info,model_loaded,model_name,success", contains: `"model_loaded":true`},
		{name: "predict stub after load", method: "POST", path: "/models/predict", body: `{"model_name":"neuro_mean_reversion","symbol":"AAPL","timeframe":"1h","test_date":"2024-06-28"}`, status: 200,
			topKeys: "input_features,model_name,prediction,success,symbol,test_date", contains: `"input_features":{}`},
		{name: "load with the file missing", method: "POST", path: "/models/neuro_mean_reversion/load", faults: Faults{ModelFileMissing: true}, status: 200, contains: `"model_loaded":false`},
		{name: "performance unknown", method: "GET", path: "/trainings/op_x/performance", status: 404, contains: `{"detail":"Training task op_x not found"}`},
		{name: "HEAD filters accept agent types", method: "GET", path: "/operations?operation_type=agent_research&status=resuming", status: 200, topKeys: "active_count,data,success,total_count"},
		{name: "3ba55e75 filters reject agent types", method: "GET", path: "/operations?operation_type=agent_research", faults: Faults{Backend: Backend3ba55e75}, status: 422},
		{name: "method not allowed", method: "POST", path: "/health", status: 405, contains: `Method Not Allowed`},
		{name: "unknown route", method: "GET", path: "/nope", status: 404, contains: `{"detail":"Not Found"}`},
		{name: "fault 503", method: "GET", path: "/health", faults: Faults{Status: 503}, status: 503, contains: `CONNECTION_ERROR`},
		{name: "fault 500", method: "GET", path: "/symbols", faults: Faults{Status: 500}, status: 500, contains: `INTERNAL_SERVER_ERROR`},
		{name: "fault 502 html", method: "GET", path: "/symbols", faults: Faults{Status: 502}, status: 502, contains: `<html>`},
		{name: "fault scoped", method: "GET", path: "/symbols", faults: Faults{Status: 500, PathPrefix: "/operations"}, status: 200},
		{name: "fault malformed", method: "GET", path: "/operations", faults: Faults{Malformed: true}, status: 200, contains: `{"success":true,"data":[{"operation_id":"op_`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if code, _, _ := do(t, "POST", base+"/_fake/faults", mustJSON(c.faults)); code != 200 {
				t.Fatalf("set faults: %d", code)
			}
			code, m, raw := do(t, c.method, api+c.path, c.body)
			if code != c.status {
				t.Fatalf("status %d, want %d: %s", code, c.status, raw)
			}
			if c.topKeys != "" && keys(m) != c.topKeys {
				t.Errorf("keys %q, want %q: %s", keys(m), c.topKeys, raw)
			}
			if c.contains != "" && !strings.Contains(raw, c.contains) {
				t.Errorf("body lacks %s: %s", c.contains, raw)
			}
		})
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestOperationLifecycle(t *testing.T) {
	s, base, clk := start(t, Options{NoSeed: true, Scripts: map[string]Script{"data_load": {Pending: time.Second, Duration: 10 * time.Second, Steps: 5}}})
	api := base + APIPrefix
	_, m, _ := do(t, "POST", api+"/data/acquire/download", `{"symbol":"MSFT","timeframe":"1h","mode":"tail"}`)
	id := m["operation_id"].(string)
	if !strings.HasPrefix(id, "op_data_load_20260105_100000_") || len(id) != len("op_data_load_20260105_100000_")+8 {
		t.Fatalf("id format: %s", id)
	}
	status := func() (string, float64, string) {
		_, m, raw := do(t, "GET", api+"/operations/"+id, "")
		d := m["data"].(map[string]any)
		p := d["progress"].(map[string]any)
		step, _ := p["current_step"].(string)
		if keys(d) != "completed_at,created_at,error_message,errors,metadata,metrics,operation_id,operation_type,parent_operation_id,progress,result_summary,started_at,status,warnings" {
			t.Fatalf("OperationInfo keys: %s", raw)
		}
		return d["status"].(string), p["percentage"].(float64), step
	}
	if st, _, _ := status(); st != "pending" {
		t.Fatalf("want pending, got %s", st)
	}
	if code, _, raw := do(t, "GET", api+"/operations/"+id+"/results", ""); code != 400 || !strings.Contains(raw, "Operation not finished (status: pending)") {
		t.Fatalf("results while pending: %d %s", code, raw)
	}
	clk.Advance(6 * time.Second)
	st, pct, step := status()
	if st != "running" || pct != 50 || step != "Loading MSFT data segment 3/5" {
		t.Fatalf("running: %s %v %q", st, pct, step)
	}
	_, m, _ = do(t, "GET", api+"/operations?active_only=true", "")
	if m["active_count"].(float64) != 1 || m["total_count"].(float64) != 1 {
		t.Fatalf("counts: %v", m)
	}
	clk.Advance(10 * time.Second)
	if st, pct, _ := status(); st != "completed" || pct != 100 {
		t.Fatalf("completed: %s %v", st, pct)
	}
	code, m, raw := do(t, "GET", api+"/operations/"+id+"/results", "")
	if code != 200 || keys(m) != "operation_id,operation_type,results,status,success" || m["results"].(map[string]any)["fetched_bars"] == nil {
		t.Fatalf("results: %d %s", code, raw)
	}
	code, _, raw = do(t, "DELETE", api+"/operations/"+id, `{"reason":"late"}`)
	if code != 400 || raw != `{"detail":"Operation `+id+` cannot be cancelled (status: OperationStatus.COMPLETED)"}` {
		t.Fatalf("cancel finished: %d %s", code, raw)
	}
	// completion made MSFT 1h data available
	_, _, raw = do(t, "GET", api+"/data/MSFT/1h?limit=2", "")
	if !strings.Contains(raw, `"point_count":2`) {
		t.Fatalf("data after load: %s", raw)
	}
	if s.Count("GET", APIPrefix+"/operations/"+id) != 3 {
		t.Fatalf("count = %d", s.Count("GET", APIPrefix+"/operations/"+id))
	}
}

// TestTrainingEpochs: at HEAD a training's status carries metrics.epochs, one
// record per finished epoch with the bridge's fields; null before the first;
// 3ba55e75 has no metrics key at all.
func TestTrainingEpochs(t *testing.T) {
	s, base, clk := start(t, Options{NoSeed: true, Scripts: map[string]Script{"training": {Duration: 10 * time.Second, Steps: 5}}})
	api := base + APIPrefix
	_, m, raw := do(t, "POST", api+"/trainings/start", `{"symbols":["AAPL"],"timeframes":["1h"],"strategy_name":"neuro_mean_reversion"}`)
	id, _ := m["task_id"].(string)
	if id == "" {
		t.Fatalf("start: %s", raw)
	}
	metrics := func() (any, bool) {
		_, m, _ := do(t, "GET", api+"/operations/"+id, "")
		v, ok := m["data"].(map[string]any)["metrics"]
		return v, ok
	}
	if v, ok := metrics(); !ok || v != nil {
		t.Fatalf("before the first epoch metrics = %v (present %v), want null", v, ok)
	}
	for _, tc := range []struct {
		after time.Duration
		n     int
	}{{4*time.Second + 100*time.Millisecond, 2}, {6 * time.Second, 5}} {
		clk.Advance(tc.after)
		v, _ := metrics()
		eps, _ := v.(map[string]any)["epochs"].([]any)
		if len(eps) != tc.n {
			t.Fatalf("epochs = %d, want %d: %v", len(eps), tc.n, v)
		}
		last := eps[len(eps)-1].(map[string]any)
		if keys(last) != "duration,epoch,learning_rate,timestamp,train_accuracy,train_loss,val_accuracy,val_loss" || last["epoch"].(float64) != float64(tc.n-1) {
			t.Fatalf("epoch record: %v", last)
		}
	}
	s.SetFaults(Faults{Backend: Backend3ba55e75})
	if v, ok := metrics(); ok {
		t.Fatalf("3ba55e75 sent metrics %v", v)
	}
}

func TestCancelAndFail(t *testing.T) {
	s, base, clk := start(t, Options{NoSeed: true})
	api := base + APIPrefix
	_, m, _ := do(t, "POST", api+"/trainings/start", `{"symbols":["AAPL"],"timeframes":["1h"],"strategy_name":"trend_momentum"}`)
	id := m["task_id"].(string)
	clk.Advance(time.Second)
	code, _, raw := do(t, "DELETE", api+"/operations/"+id, "")
	if code != 200 || !strings.Contains(raw, `"status":"cancelled"`) || !strings.Contains(raw, `"remote_cancelled":false,`) || !strings.Contains(raw, `"children_cancelled":[]`) ||
		strings.Contains(raw, "training_session_cancelled") || !strings.Contains(raw, `"cancellation_reason":null`) {
		t.Fatalf("cancel (HEAD): %d %s", code, raw)
	}
	s.SetFaults(Faults{Backend: Backend3ba55e75})
	_, m, _ = do(t, "POST", api+"/trainings/start", `{"symbols":["AAPL"],"timeframes":["1h"],"strategy_name":"trend_momentum"}`)
	if code, _, raw := do(t, "DELETE", api+"/operations/"+m["task_id"].(string), ""); code != 200 || !strings.Contains(raw, `"training_session_cancelled":true`) || strings.Contains(raw, "remote_cancelled") {
		t.Fatalf("cancel (3ba55e75): %d %s", code, raw)
	}
	s.ClearFaults()
	_ = m
	if s.Status(id) != StatusCancelled {
		t.Fatal("not cancelled")
	}
	code, _, raw = do(t, "GET", api+"/operations/"+id+"/results", "")
	if code != 400 || !strings.Contains(raw, "(status: cancelled)") {
		t.Fatalf("results of cancelled: %d %s", code, raw)
	}
	// unknown symbol: the load fails at 20% with a message
	_, m, _ = do(t, "POST", api+"/data/acquire/download", `{"symbol":"NOPE","timeframe":"1d","mode":"tail"}`)
	lid := m["operation_id"].(string)
	clk.Advance(time.Hour)
	_, m, raw = do(t, "GET", api+"/operations/"+lid, "")
	d := m["data"].(map[string]any)
	if d["status"] != "failed" || !strings.Contains(d["error_message"].(string), "NOPE") {
		t.Fatalf("failed op: %s", raw)
	}
	// Finish with an error via HTTP control
	_, m, _ = do(t, "POST", api+"/trainings/start", `{"symbols":["AAPL"],"timeframes":["1h"],"strategy_name":"trend_momentum"}`)
	tid := m["task_id"].(string)
	if code, _, _ := do(t, "POST", base+"/_fake/operations/"+tid+"/finish", ""); code != 200 {
		t.Fatal("finish")
	}
	_, _, raw = do(t, "GET", api+"/trainings/"+tid+"/performance", "")
	if !strings.Contains(raw, `"test_metrics"`) {
		t.Fatalf("performance: %s", raw)
	}
	_, _, raw = do(t, "GET", api+"/models", "")
	if !strings.Contains(raw, "trend_momentum_v1") {
		t.Fatalf("model not added: %s", raw)
	}
}

func TestListOrderAndPaging(t *testing.T) {
	_, base, _ := start(t, Options{})
	api := base + APIPrefix
	_, m, _ := do(t, "GET", api+"/operations?limit=2&offset=1", "")
	data := m["data"].([]any)
	if len(data) != 2 || m["total_count"].(float64) != 10 {
		t.Fatalf("paging: %v", m)
	}
	first := data[0].(map[string]any)
	if first["operation_type"] != "data_load" || first["status"] != "failed" {
		t.Fatalf("newest first broken: %v", first)
	}
	if keys(first) != "created_at,current_step,duration_seconds,operation_id,operation_type,progress_percentage,status,symbol" {
		t.Fatalf("summary keys: %v", keys(first))
	}
	_, m, _ = do(t, "GET", api+"/operations?operation_type=training&status=completed", "")
	if m["total_count"].(float64) != 4 {
		t.Fatalf("filter: %v", m)
	}
}

func TestLatencyHonoursCancel(t *testing.T) {
	s, base, _ := start(t, Options{})
	s.SetFaults(Faults{LatencyMS: 5000})
	req, _ := http.NewRequest("GET", base+APIPrefix+"/health", nil)
	c := &http.Client{Timeout: 100 * time.Millisecond}
	t0 := time.Now()
	if _, err := c.Do(req); err == nil {
		t.Fatal("want timeout")
	}
	if time.Since(t0) > 2*time.Second {
		t.Fatal("latency not interrupted")
	}
	s.ClearFaults()
	if s.Faults() != (Faults{}) {
		t.Fatal("clear")
	}
}
