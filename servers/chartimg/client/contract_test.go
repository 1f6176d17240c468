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
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
)

// TestContract replays chart-img's documented request/response pairs
// (testdata/contract/cases.json; each names its docs section) against the
// client, with no fake in between.
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
			rp := &servetest.Replay{T: t, Exchanges: tc.Exchanges}
			srv := httptest.NewServer(rp)
			defer srv.Close()
			var plan chart.Plan
			if tc.Plan != "" {
				var ok bool
				if plan, ok = chart.PlanByName(tc.Plan); !ok {
					t.Fatalf("plan %q", tc.Plan)
				}
			}
			c := New(Config{APIURL: srv.URL, APIKey: "contract-key", Plan: plan, Retries: -1, NoLimiter: true, Timeout: 5 * time.Second})
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			got, callErr := invoke(ctx, c, tc.Call, tc.Args)
			if n := rp.Served(); n != len(tc.Exchanges) {
				t.Fatalf("the client made %d of the %d recorded requests (err %v)", n, len(tc.Exchanges), callErr)
			}
			checkWant(t, tc.Want, got, callErr)
			if tc.Want.PlanAfter != nil && c.Plan().Name != *tc.Want.PlanAfter {
				t.Errorf("plan after: %q, want %q", c.Plan().Name, *tc.Want.PlanAfter)
			}
		})
	}
}

type want struct {
	ErrorCode       envelope.Code  `json:"error_code"`
	MessageContains []string       `json:"message_contains"`
	Details         map[string]any `json:"details"`
	Result          any            `json:"result"`
	PlanAfter       *string        `json:"plan_after"`
}

type contractCase struct {
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Call      string          `json:"call"`
	Plan      string          `json:"plan"`
	Args      json.RawMessage `json:"args"`
	Exchanges []exchange      `json:"exchanges"`
	Want      want            `json:"want"`
}

// exchange is one recorded request/response pair (servetest.Replay answers them).
type exchange = servetest.Exchange

func invoke(ctx context.Context, c *Client, call string, args json.RawMessage) (any, error) {
	switch call {
	case "store":
		var cfg map[string]any
		if err := json.Unmarshal(args, &cfg); err != nil {
			return nil, err
		}
		return c.Store(ctx, cfg)
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

func checkWant(t *testing.T, w want, got any, err error) {
	t.Helper()
	if w.ErrorCode != "" {
		var e *envelope.Error
		if !errors.As(err, &e) {
			t.Fatalf("want %s, got result %+v (err %v)", w.ErrorCode, got, err)
		}
		if e.Code != w.ErrorCode {
			t.Fatalf("code %s, want %s: %s", e.Code, w.ErrorCode, e.Message)
		}
		for _, s := range w.MessageContains {
			if !strings.Contains(e.Message, s) {
				t.Errorf("message %q lacks %q", e.Message, s)
			}
		}
		for k, v := range w.Details {
			if fmt.Sprint(e.Details[k]) != fmt.Sprint(v) {
				t.Errorf("details[%s] = %v, want %v (%v)", k, e.Details[k], v, e.Details)
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
	if path, ok := subset(w.Result, gotJSON, "result"); !ok {
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
