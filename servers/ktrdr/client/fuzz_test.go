package client

import (
	"errors"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Every parser of backend bodies must accept any bytes: a value or an
// *envelope.Error, never a panic or a bare Go error.

var seeds = []string{
	``, `null`, `[]`, `{}`, `"x"`, `{"success":true`,
	`{"success":true,"data":[{"operation_id":"a","progress_percentage":"1.5"}],"total_count":1,"active_count":0}`,
	`{"success":true,"data":{"operation_id":"a","status":"running","progress":{"percentage":5}}}`,
	`{"success":true,"data":{"success":true,"operation_id":"a","status":"cancelled"}}`,
	`{"success":true,"data":{"operation_id":"a","status":"running","metrics":{"epochs":[{"epoch":0,"train_loss":"0.5","val_loss":null},{}],"best_epoch":0}}}`,
	`{"success":true,"data":{"operation_id":"a","status":"running","metrics":[[{"epoch":0}],1]}}`,
	`{"success":true,"operation_id":"a","operation_type":"training","status":"completed","results":{}}`,
	`{"success":true,"operation_id":"op","status":"started","message":"m"}`,
	`{"success":true,"data":{"operation_id":"op"},"error":null}`,
	`{"success":true,"task_id":"op","estimated_duration_minutes":"3"}`,
	`{"success":true,"data":{"dates":["a"],"ohlcv":[[1,2,3,4,5]],"metadata":{"original_points":7}}}`,
	`{"success":true,"data":{"dates":["a"],"ohlcv":[["1","x"]]}}`,
	`{"success":true,"strategies":[{"name":"s","available_versions":[1]}]}`,
	`{"success":true,"models":[{"model_id":"m"}]}`,
	`{"status":"ok","version":"1"}`,
	`{"success":true,"prediction":{"signal":"buy","confidence":"0.5"},"input_features":{"a":1}}`,
	`{"success":true,"model_name":"m","model_loaded":true,"model_info":{"symbol":"AAPL"}}`,
	`{"detail":{"error":"No training workers available","worker_type":"training","registered_workers":"0","backend_uptime_seconds":5.2,"hint":"h"}}`,
	`{"detail":"Method Not Allowed"}`, `{"detail":"Not Found"}`, `{"detail":null}`,
}

func fuzzParser(f *testing.F, parse func([]byte) error) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		err := parse(body)
		var e *envelope.Error
		if err != nil && !errors.As(err, &e) {
			t.Fatalf("bare error %T: %v", err, err)
		}
	})
}

func FuzzParseOperationList(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseOperationList(b); return err })
}

func FuzzParseOperation(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseOperation(b, "op"); return err })
}

func FuzzParseCancel(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseCancel(b, "op"); return err })
}

func FuzzParseResults(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseResults(b, "op"); return err })
}

func FuzzParseLoadStarted(f *testing.F) {
	fuzzParser(f, func(b []byte) error {
		if _, err := ParseLoadStarted(b, RouteLoad); err != nil {
			return err
		}
		_, err := ParseLoadStarted(b, RouteAcquire)
		return err
	})
}

func FuzzParseTrainingStarted(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseTrainingStarted(b); return err })
}

func FuzzParseMarketData(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseMarketData(b, "A", "1h", 2); return err })
}

func FuzzParseSymbols(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseSymbols(b); return err })
}

func FuzzParseIndicators(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseIndicators(b); return err })
}

func FuzzParseStrategies(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseStrategies(b); return err })
}

func FuzzParseModels(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseModels(b); return err })
}

func FuzzParseHealth(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseHealth(b); return err })
}

func FuzzParsePerformance(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParsePerformance(b, "t"); return err })
}

func FuzzParsePrediction(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParsePrediction(b); return err })
}

func FuzzParseModelLoaded(f *testing.F) {
	fuzzParser(f, func(b []byte) error { _, err := ParseModelLoaded(b); return err })
}

// FuzzErrorBodies covers the readers of error bodies: the missing-route check
// and the object detail (HEAD's 503), which must keep an *envelope.Error.
func FuzzErrorBodies(f *testing.F) {
	fuzzParser(f, func(b []byte) error {
		_ = routeMissing(404, b) || routeMissing(405, b)
		return withObjectDetail(envelope.New(envelope.UpstreamUnavailable, "ktrdr: No training workers available"), b)
	})
}
