package client

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// researchSeeds are bodies of the research-loop routes (kpiteira/ktrdr@2c5c7173
// shapes) and near misses of them.
var researchSeeds = []string{
	`{"success":true,"operation_id":"op","status":"started","message":"m","symbol":"AAPL","timeframe":"1h","mode":"remote"}`,
	`{"success":true,"data":{"operation_id":"op","status":"resuming","resumed_from":{"checkpoint_type":"cancellation","created_at":"t","epoch":"3"}}}`,
	`{"success":true,"data":{"operation_id":"op_retry_x","status":"pending"}}`,
	`{"success":true,"data":[{"operation_id":"op","checkpoint_type":"cancellation","created_at":"t","state_summary":{"epoch":2},"artifacts_size_bytes":"9"}],"total_count":"1"}`,
	`{"success":true,"data":{"symbol":"AAPL","timeframe":"1d","start_date":"a","end_date":"b","point_count":840.0},"error":null}`,
	`{"name":"s","symbol":"AAPL","fuzzy_config":[],"available_versions":[1]}`,
	`{"success":true,"valid":"false","issues":null,"strategy_name":"s"}`,
	`{"success":true,"features":[{"feature_id":"f","indicator_output":3}],"count":1}`,
	`{"triggered":true,"operation_id":"op","model":"opus"}`, `{"triggered":false,"reason":"at_capacity","message":"m"}`,
	`{"status":"active","active_researches":[{"operation_id":"op"}],"budget":[]}`,
	`{"success":true,"operation_id":"op","child_cancelled":null}`,
	`{"daily_limit":5,"today_spend":"0.15","remaining":null,"budget_disabled":true,"cycles_affordable":-1,"spend_events":1}`,
}

// FuzzResearchAnswers: every research-loop call turns any 200 body into a
// value or an *envelope.Error, never a panic or a bare Go error.
func FuzzResearchAnswers(f *testing.F) {
	for _, s := range append(append([]string{}, seeds...), researchSeeds...) {
		f.Add([]byte(s))
	}
	var body atomic.Pointer[[]byte]
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if b := body.Load(); b != nil {
			_, _ = w.Write(*b)
		}
	}))
	f.Cleanup(srv.Close)
	c, err := New(Config{APIURL: srv.URL + "/api/v1", Retries: -1, Timeout: 5 * time.Second})
	if err != nil {
		f.Fatal(err)
	}
	calls := []func(context.Context) error{
		func(ctx context.Context) error {
			_, err := c.StartBacktest(ctx, BacktestRequest{StrategyName: "s", StartDate: "2024-01-01", EndDate: "2024-02-01"})
			return err
		},
		func(ctx context.Context) error { _, err := c.ResumeOperation(ctx, "op"); return err },
		func(ctx context.Context) error { _, err := c.RetryOperation(ctx, "op"); return err },
		func(ctx context.Context) error { _, _, err := c.Checkpoints(ctx); return err },
		func(ctx context.Context) error { _, _, err := c.DataRange(ctx, "AAPL", "1d"); return err },
		func(ctx context.Context) error { _, err := c.Strategy(ctx, "s"); return err },
		func(ctx context.Context) error { _, err := c.ValidateStrategy(ctx, "s"); return err },
		func(ctx context.Context) error { _, err := c.StrategyFeatures(ctx, "s"); return err },
		func(ctx context.Context) error { _, err := c.Children(ctx, "op"); return err },
		func(ctx context.Context) error {
			_, err := c.TriggerAgent(ctx, AgentTrigger{Strategy: "s"})
			return err
		},
		func(ctx context.Context) error { _, err := c.AgentStatus(ctx); return err },
		func(ctx context.Context) error { _, err := c.CancelAgent(ctx, "op"); return err },
		func(ctx context.Context) error { _, err := c.AgentBudget(ctx); return err },
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		body.Store(&b)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for i, call := range calls {
			err := call(ctx)
			var e *envelope.Error
			if err != nil && !errors.As(err, &e) {
				t.Fatalf("call %d: bare error %T: %v", i, err, err)
			}
		}
	})
}
