package client

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
)

// contract is chart-img's documented request/response pairs
// (testdata/contract/cases.json; each names its docs section). A case may
// name the plan the client runs on and the plan it must end on.
var contract = servetest.Contract{File: "testdata/contract/cases.json", MinCases: 10, Shapes: Shapes,
	Call: func(t *testing.T, base string, tc servetest.ContractCase) (any, error) {
		var own struct {
			Plan      string    `json:"plan"`
			TVSession [2]string `json:"tv_session"`
			Want      struct {
				PlanAfter *string `json:"plan_after"`
			} `json:"want"`
		}
		if err := json.Unmarshal(tc.Raw, &own); err != nil {
			t.Fatal(err)
		}
		var plan chart.Plan
		if own.Plan != "" {
			var ok bool
			if plan, ok = chart.PlanByName(own.Plan); !ok {
				t.Fatalf("plan %q", own.Plan)
			}
		}
		c := New(Config{APIURL: base, APIKey: "contract-key", Plan: plan, Retries: -1, NoLimiter: true, Timeout: 5 * time.Second,
			TVSession: TVSession{ID: own.TVSession[0], Sign: own.TVSession[1]}, Drift: tc.Drift})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		got, err := invoke(ctx, c, tc.Call, tc.Args)
		if own.Want.PlanAfter != nil && c.Plan().Name != *own.Want.PlanAfter {
			t.Errorf("plan after: %q, want %q", c.Plan().Name, *own.Want.PlanAfter)
		}
		return got, err
	}}

// TestContract replays the recorded cases against the client, with no fake
// in between.
func TestContract(t *testing.T) { contract.Run(t) }

func invoke(ctx context.Context, c *Client, call string, args json.RawMessage) (any, error) {
	switch call {
	case "store":
		var cfg map[string]any
		if err := json.Unmarshal(args, &cfg); err != nil {
			return nil, err
		}
		return c.Store(ctx, cfg)
	case "layout_store":
		var a struct {
			LayoutID string         `json:"layoutId"`
			Body     map[string]any `json:"body"`
		}
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		r, err := c.Layout(ctx, a.LayoutID, a.Body, true)
		return r.Stored, err
	case "exchanges":
		return c.Exchanges(ctx)
	case "symbols":
		var a struct{ Exchange, Symbol, Type string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		return c.Symbols(ctx, a.Exchange, a.Symbol, a.Type)
	}
	return nil, fmt.Errorf("unknown call %q", call)
}
