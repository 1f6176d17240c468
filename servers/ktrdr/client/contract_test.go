package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestContract replays request/response pairs recorded from the real KTRDR
// backend (testdata/contract/cases.json; each names its source) against the
// client, with no fake in between: the client must send exactly the recorded
// request and turn the recorded answer into the expected result or error.
func TestContract(t *testing.T) {
	raw, err := os.ReadFile("testdata/contract/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []contractCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("only %d contract cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			if tc.Source == "" {
				t.Fatal("a contract case must name its source")
			}
			rp := &servetest.Replay{T: t, Exchanges: tc.Exchanges, NullIsNoBody: true}
			srv := httptest.NewServer(rp)
			defer srv.Close()
			c, err := New(Config{APIURL: srv.URL + "/api/v1", Retries: -1, Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			got, callErr := invoke(ctx, c, tc.Call, tc.Args)
			if n := rp.Served(); n != len(tc.Exchanges) {
				t.Fatalf("the client made %d of the %d recorded requests (err %v)", n, len(tc.Exchanges), callErr)
			}
			checkWant(t, tc.Want, got, callErr)
		})
	}
}

type contractCase struct {
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Call      string          `json:"call"`
	Args      json.RawMessage `json:"args"`
	Exchanges []exchange      `json:"exchanges"`
	Want      struct {
		ErrorCode       envelope.Code  `json:"error_code"`
		MessageContains []string       `json:"message_contains"`
		Details         map[string]any `json:"details"`
		Result          any            `json:"result"`
	} `json:"want"`
}

// exchange is one recorded request/response pair (servetest.Replay answers them).
type exchange = servetest.Exchange

// invoke calls the client method a case names.
func invoke(ctx context.Context, c *Client, call string, args json.RawMessage) (any, error) {
	var a struct {
		ID, Reason, Symbol, Timeframe, Mode, OperationType, Status string
		ModelName                                                  string `json:"model_name"`
		TestDate                                                   string `json:"test_date"`
		StrategyName                                               string `json:"strategy_name"`
		OpType                                                     string `json:"operation_type"`
		ActiveOnly                                                 bool   `json:"active_only"`
		Limit, Offset                                              int
		Symbols, Timeframes                                        []string
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return nil, err
	}
	switch call {
	case "list_operations":
		return c.ListOperations(ctx, ListOptions{OperationType: a.OpType, Status: a.Status, ActiveOnly: a.ActiveOnly, Limit: a.Limit, Offset: a.Offset})
	case "get_operation":
		return c.GetOperation(ctx, a.ID)
	case "cancel":
		return c.CancelOperation(ctx, a.ID, a.Reason)
	case "load_data":
		return c.LoadData(ctx, LoadRequest{Symbol: a.Symbol, Timeframe: a.Timeframe, Mode: a.Mode})
	case "start_training":
		return c.StartTraining(ctx, TrainingRequest{Symbols: a.Symbols, Timeframes: a.Timeframes, StrategyName: a.StrategyName})
	case "performance":
		return c.Performance(ctx, a.ID)
	case "predict":
		return c.Predict(ctx, PredictRequest{ModelName: a.ModelName, Symbol: a.Symbol, Timeframe: a.Timeframe, TestDate: a.TestDate})
	}
	return nil, fmt.Errorf("unknown call %q", call)
}

func checkWant(t *testing.T, want struct {
	ErrorCode       envelope.Code  `json:"error_code"`
	MessageContains []string       `json:"message_contains"`
	Details         map[string]any `json:"details"`
	Result          any            `json:"result"`
}, got any, err error) {
	t.Helper()
	if want.ErrorCode != "" {
		var e *envelope.Error
		if !errors.As(err, &e) {
			t.Fatalf("want %s, got result %+v (err %v)", want.ErrorCode, got, err)
		}
		if e.Code != want.ErrorCode {
			t.Fatalf("code %s, want %s: %s", e.Code, want.ErrorCode, e.Message)
		}
		for _, s := range want.MessageContains {
			if !strings.Contains(e.Message, s) {
				t.Errorf("message %q lacks %q", e.Message, s)
			}
		}
		d, _ := json.Marshal(e.Details)
		var details map[string]any
		_ = json.Unmarshal(d, &details)
		for k, v := range want.Details {
			if !reflect.DeepEqual(details[k], v) {
				t.Errorf("details[%s] = %v, want %v (%v)", k, details[k], v, details)
			}
		}
		return
	}
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	b, _ := json.Marshal(got)
	var gotJSON any
	_ = json.Unmarshal(b, &gotJSON)
	if path, ok := subset(want.Result, gotJSON, "result"); !ok {
		t.Fatalf("%s differs: got %s", path, b)
	}
}

// subset reports whether want is contained in got: objects by key, lists
// element-wise by position, scalars equal.
func subset(want, got any, path string) (string, bool) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return path, false
		}
		for k, v := range w {
			if p, ok := subset(v, g[k], path+"."+k); !ok {
				return p, false
			}
		}
		return "", true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) < len(w) {
			return path, false
		}
		for i, v := range w {
			if p, ok := subset(v, g[i], fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	}
	return path, reflect.DeepEqual(want, got)
}
