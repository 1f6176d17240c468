package client

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

func code(err error) envelope.Code {
	var e *envelope.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestParseLoadStarted(t *testing.T) {
	cases := []struct {
		name, route, body string
		wantID, wantErr   string // wantErr: substring of the message
	}{
		{"head flat", RouteAcquire, `{"success":true,"operation_id":"op_data_load_1","status":"started","message":"Started tail download for AAPL 1h"}`, "op_data_load_1", ""},
		{"legacy envelope", RouteLoad, `{"success":true,"data":{"status":"started","operation_id":"op_data_load_2","fetched_bars":0},"error":null}`, "op_data_load_2", ""},
		{"old shape on new route", RouteAcquire, `{"success":true,"data":{"operation_id":"op_data_load_3"},"error":null}`, "op_data_load_3", ""},
		{"missing id flat", RouteAcquire, `{"success":true,"status":"started","message":"Started tail download"}`, "", "data loading: the backend's answer has no operation_id (backend said: Started tail download)"},
		{"missing id legacy", RouteLoad, `{"success":true,"data":{"status":"started"},"error":null}`, "", "data loading: the backend's answer has no data.operation_id"},
		{"empty id", RouteAcquire, `{"success":true,"operation_id":""}`, "", "no operation_id"},
		{"malformed", RouteAcquire, `{"success":true,"operation_id":"op_`, "", "not valid JSON"},
		{"wrong type", RouteLoad, `{"success":true,"data":[]}`, "", "data loading"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseLoadStarted([]byte(c.body), c.route)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) || code(err) != envelope.UpstreamError {
					t.Fatalf("err = %v, want upstream_error containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil || got.OperationID != c.wantID || got.Route != c.route || got.Status != "started" {
				t.Fatalf("got %+v, %v", got, err)
			}
		})
	}
}

func TestParseTrainingStarted(t *testing.T) {
	cases := []struct{ name, body, wantID, wantErr string }{
		{"task_id", `{"success":true,"task_id":"op_training_1","status":"training_started","message":"m","symbols":["AAPL"],"timeframes":["1h"],"strategy_name":"s","estimated_duration_minutes":30}`, "op_training_1", ""},
		{"operation_id forward compat", `{"success":true,"operation_id":"op_training_2"}`, "op_training_2", ""},
		{"docstring shape", `{"success":true,"data":{"operation_id":"op_training_3"}}`, "op_training_3", ""},
		{"missing", `{"success":true,"status":"training_started","message":"queued"}`, "", "training start: the backend's answer has no task_id (backend said: queued)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseTrainingStarted([]byte(c.body))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || got.OperationID != c.wantID {
				t.Fatalf("got %+v, %v", got, err)
			}
		})
	}
	got, _ := ParseTrainingStarted([]byte(cases[0].body))
	if got.EstimatedDurationMinutes == nil || *got.EstimatedDurationMinutes != 30 || got.StrategyName != "s" {
		t.Fatalf("fields: %+v", got)
	}
}

func TestParseListsLenient(t *testing.T) {
	cases := []struct {
		name  string
		parse func([]byte) (int, error)
		body  string
		n     int
		code  envelope.Code
	}{
		{"symbols", func(b []byte) (int, error) { s, err := ParseSymbols(b); return len(s), err }, `{"success":true,"data":[{"symbol":"AAPL"}],"error":null}`, 1, ""},
		{"symbols missing data", func(b []byte) (int, error) { s, err := ParseSymbols(b); return len(s), err }, `{"success":true}`, 0, ""},
		{"symbols null data", func(b []byte) (int, error) { s, err := ParseSymbols(b); return len(s), err }, `{"success":true,"data":null}`, 0, ""},
		{"symbols wrong type", func(b []byte) (int, error) { s, err := ParseSymbols(b); return len(s), err }, `{"success":true,"data":{"symbol":"AAPL"}}`, 0, envelope.UpstreamError},
		{"indicators", func(b []byte) (int, error) { s, err := ParseIndicators(b); return len(s), err }, `{"success":true,"data":[{"id":"RSIIndicator","parameters":[{"name":"period","default":14,"min_value":2,"max_value":null,"options":null}]}]}`, 1, ""},
		{"strategies flat", func(b []byte) (int, error) { s, err := ParseStrategies(b); return len(s), err }, `{"success":true,"strategies":[{"name":"a"},{"name":"b"}]}`, 2, ""},
		{"strategies missing", func(b []byte) (int, error) { s, err := ParseStrategies(b); return len(s), err }, `{"success":true}`, 0, ""},
		{"models flat", func(b []byte) (int, error) { s, err := ParseModels(b); return len(s), err }, `{"success":true,"models":[{"model_id":"x","model_name":"y","training_accuracy":null}]}`, 1, ""},
		{"models malformed", func(b []byte) (int, error) { s, err := ParseModels(b); return len(s), err }, `{"success":true,"models":[`, 0, envelope.UpstreamError},
		{"operations", func(b []byte) (int, error) { s, err := ParseOperationList(b); return s.ReturnedCount, err }, `{"success":true,"data":[{"operation_id":"a","progress_percentage":"12.5","current_step":null}],"total_count":9,"active_count":1}`, 1, ""},
		{"operations empty", func(b []byte) (int, error) { s, err := ParseOperationList(b); return s.ReturnedCount, err }, `{"success":true,"data":[],"total_count":0,"active_count":0}`, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, err := c.parse([]byte(c.body))
			if code(err) != c.code || (c.code == "" && n != c.n) {
				t.Fatalf("n=%d err=%v, want n=%d code=%q", n, err, c.n, c.code)
			}
		})
	}
}

func TestParseOperationStrict(t *testing.T) {
	good := `{"success":true,"data":{"operation_id":"op_1","operation_type":"training","status":"running","created_at":"2026-01-01T00:00:00Z","started_at":null,"progress":{"percentage":42.5,"current_step":"Epoch 5/10","steps_completed":4,"steps_total":10,"items_processed":0,"items_total":null,"current_item":null,"context":{}},"metadata":{"symbol":"AAPL","parameters":{}},"error_message":null,"warnings":[],"errors":[],"result_summary":null}}`
	op, err := ParseOperation([]byte(good), "op_1")
	if err != nil || op.Progress.Percentage != 42.5 || op.Progress.CurrentStep != "Epoch 5/10" || op.Metadata.Symbol != "AAPL" {
		t.Fatalf("%+v %v", op, err)
	}
	_, err = ParseOperation([]byte(`{"success":true,"data":{"status":"running"}}`), "op_1")
	if err == nil || !strings.Contains(err.Error(), "get status of op_1: the backend's answer has no data.operation_id") {
		t.Fatalf("strict: %v", err)
	}
}

func TestParseCancel(t *testing.T) {
	c, err := ParseCancel([]byte(`{"success":true,"data":{"success":true,"operation_id":"op_1","status":"cancelled","cancelled_at":"t","cancellation_reason":null,"task_cancelled":true,"training_session_cancelled":false}}`), "op_1")
	if err != nil || c.Status != "cancelled" || !c.TaskCancelled {
		t.Fatalf("%+v %v", c, err)
	}
	_, err = ParseCancel([]byte(`{"success":true,"data":{"success":false,"status":"running","message":"in critical section"}}`), "op_1")
	if code(err) != envelope.Conflict || !strings.Contains(err.Error(), "in critical section") {
		t.Fatalf("refused: %v", err)
	}
	_, err = ParseCancel([]byte(`{"success":true,"data":{}}`), "op_1")
	if code(err) != envelope.UpstreamError || !strings.Contains(err.Error(), "cancel op_1") {
		t.Fatalf("strict: %v", err)
	}
}

func TestParseMarketData(t *testing.T) {
	body := `{"success":true,"data":{"dates":["d1","d2","d3"],"ohlcv":[[1,2,0.5,1.5,10],[1.5,2,1,1.8,11],[1.8,2.2,1.7,2,12]],"points":null,"metadata":{"symbol":"AAPL","timeframe":"1h","start_date":"d1","end_date":"d3","point_count":3}},"error":null}`
	md, err := ParseMarketData([]byte(body), "AAPL", "1h", 2)
	if err != nil || md.Count != 2 || md.Dates[0] != "d2" || md.AvailableCount != 3 || !md.Limited || md.OHLCV[1][4] != 12 {
		t.Fatalf("%+v %v", md, err)
	}
	empty := `{"success":true,"data":{"dates":[],"ohlcv":[],"points":null,"metadata":{"symbol":"ZZZ","timeframe":"1h","start":"","end":"","points":0}},"error":null}`
	md, err = ParseMarketData([]byte(empty), "ZZZ", "1h", 50)
	if err != nil || md.Count != 0 || md.Dates == nil || md.Limited {
		t.Fatalf("empty: %+v %v", md, err)
	}
	bad := `{"success":true,"data":{"dates":["d1"],"ohlcv":[[1,2,3]]}}`
	if _, err = ParseMarketData([]byte(bad), "A", "1h", 5); code(err) != envelope.UpstreamError {
		t.Fatalf("short row: %v", err)
	}
}

func TestParseHealthPredictPerformance(t *testing.T) {
	h, err := ParseHealth([]byte(`{"status":"ok","version":"1.0.7","orphan_detector":null}`))
	if err != nil || h.Status != "ok" {
		t.Fatalf("%+v %v", h, err)
	}
	if _, err := ParseHealth([]byte(`{}`)); err == nil {
		t.Fatal("health without status")
	}
	p, err := ParsePrediction([]byte(`{"success":true,"model_name":"m","symbol":"AAPL","test_date":"d","prediction":{"signal":"buy","confidence":0.7,"signal_strength":"0.4","fuzzy_outputs":{"bullish":0.8,"bearish":0.2,"neutral":0.5}},"input_features":{"rsi":0.3}}`))
	if err != nil || p.Signal != "buy" || p.SignalStrength != 0.4 || p.FuzzyOutputs["bullish"] != 0.8 {
		t.Fatalf("%+v %v", p, err)
	}
	if _, err := ParsePrediction([]byte(`{"success":true,"prediction":{}}`)); err == nil || !strings.Contains(err.Error(), "prediction") {
		t.Fatalf("strict prediction: %v", err)
	}
	perf, err := ParsePerformance([]byte(`{"success":true,"task_id":"t","status":"completed","training_metrics":{"epochs_completed":10},"test_metrics":null,"model_info":null}`), "t")
	if err != nil || perf.TrainingMetrics["epochs_completed"] != 10.0 {
		t.Fatalf("%+v %v", perf, err)
	}
	r, err := ParseResults([]byte(`{"success":true,"operation_id":"o","operation_type":"data_load","status":"completed","results":null}`), "o")
	if err != nil || r.Results == nil {
		t.Fatalf("%+v %v", r, err)
	}
}

func TestCancelStatus(t *testing.T) {
	for in, want := range map[string]string{
		"Operation op_1 cannot be cancelled (status: OperationStatus.COMPLETED)": "completed",
		"Operation op_1 cannot be cancelled (status: cancelled)":                 "cancelled",
		"something else": "",
	} {
		if got := cancelStatus(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

func BenchmarkParseMarketData500(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"success":true,"data":{"dates":[`)
	for i := 0; i < 500; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"2024-01-02T14:30:00"`)
	}
	sb.WriteString(`],"ohlcv":[`)
	for i := 0; i < 500; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`[187.15,188.44,183.89,185.64,82488700]`)
	}
	sb.WriteString(`],"points":null,"metadata":{"symbol":"AAPL","timeframe":"1h","point_count":500}},"error":null}`)
	body := []byte(sb.String())
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseMarketData(body, "AAPL", "1h", 500); err != nil {
			b.Fatal(err)
		}
	}
}

// TestObjectDetail: HEAD's object details keep their fix and diagnostics.
func TestObjectDetail(t *testing.T) {
	for _, tc := range []struct {
		name, body, msg string
		details         map[string]any
	}{
		{"worker unavailable", `{"detail":{"error":"No training workers available","worker_type":"training","registered_workers":0,"backend_uptime_seconds":5.2,"hint":"Retry in a few seconds."}}`,
			"x. Retry in a few seconds.", map[string]any{"worker_type": "training", "registered_workers": 0, "backend_uptime_seconds": 5.2}},
		{"configuration error", `{"detail":{"message":"bad strategy","error_code":"CONFIG-InvalidStrategy","context":{},"details":{},"suggestion":"Fix the YAML."}}`,
			"x. Fix the YAML.", map[string]any{"upstream_code": "CONFIG-InvalidStrategy"}},
		{"string detail", `{"detail":"hint"}`, "x", nil},
		{"not json", `hint`, "x", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := withObjectDetail(envelope.New(envelope.UpstreamError, "x"), []byte(tc.body))
			var e *envelope.Error
			if !errors.As(err, &e) || e.Message != tc.msg {
				t.Fatalf("%v", err)
			}
			for k, v := range tc.details {
				if e.Details[k] != v {
					t.Errorf("details[%s] = %v, want %v", k, e.Details[k], v)
				}
			}
		})
	}
}
