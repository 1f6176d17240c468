package client

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestContractShapes: every recorded exchange of testdata/contract, replayed
// through the client, passes the shapes the probe and the run-time watch
// use (the client's answers feed the process's drift watch, checked on
// every answer here).
func TestContractShapes(t *testing.T) {
	raw, err := os.ReadFile("testdata/contract/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []contractCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	w := servetest.WatchEveryAnswer(t)
	for _, tc := range cases {
		rp := &servetest.Replay{T: t, Exchanges: tc.Exchanges, NullIsNoBody: true}
		srv := httptest.NewServer(rp)
		c, err := New(Config{APIURL: srv.URL + "/api/v1", Retries: -1, Timeout: 5 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, _ = invoke(ctx, c, tc.Call, tc.Args)
		cancel()
		srv.Close()
		for _, s := range w.Signals() {
			t.Errorf("%s: %s %s %s: %s", tc.Name, s.Route, s.Kind, s.Path, s.Detail)
		}
		w.Reset()
	}
}

// TestShapesCatchDrift: recorded bodies changed the ways the backend could
// change them fail their shapes.
func TestShapesCatchDrift(t *testing.T) {
	shape := func(route string) drift.Shape {
		for _, s := range Shapes {
			if s.Route == route {
				return s
			}
		}
		t.Fatalf("no shape %s", route)
		return drift.Shape{}
	}
	cases := []struct{ route, body, kind string }{
		{"list operations", `{"success":true,"data":[{"operation_id":"op_1","status":"paused"}],"total_count":1,"active_count":0}`, drift.NewEnum},
		{"list operations", `{"success":true,"operations":[],"total_count":0,"active_count":0}`, drift.Missing},
		{"get operation", `{"success":true,"data":{"operation_id":"op_1","status":"running","operation_type":"walk_forward"}}`, drift.NewEnum},
		{"get operation", `{"success":true,"data":{"id":"op_1","status":"running"}}`, drift.Missing},
		{"market data", `{"success":true,"data":{"dates":[],"ohlcv":{"open":[]}}}`, drift.Retyped},
	}
	for _, c := range cases {
		fs := shape(c.route).CheckBody([]byte(c.body))
		if len(fs) == 0 || fs[0].Kind != c.kind {
			t.Errorf("%s %s: %v", c.route, c.body, fs)
		}
	}
	for body, ok := range map[string]bool{`{"detail":"Not Found"}`: true, `{"success":false,"error":{"code":"X"}}`: true,
		`{"message":"boom"}`: false, `<html>`: false} {
		if fs := shape("get operation").CheckError([]byte(body)); (len(fs) == 0) != ok {
			t.Errorf("error body %s: %v", body, fs)
		}
	}
}
