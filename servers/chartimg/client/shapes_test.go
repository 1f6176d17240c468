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

// TestContractShapes: every recorded exchange, replayed through the client,
// passes the shapes the probe and the run-time watch use.
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
		rp := &servetest.Replay{T: t, Exchanges: tc.Exchanges}
		srv := httptest.NewServer(rp)
		c := New(Config{APIURL: srv.URL, APIKey: "contract-key", Retries: -1, NoLimiter: true, Timeout: 5 * time.Second})
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

// TestShapesCatchDrift: recorded bodies changed the ways chart-img could
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
		{"list exchanges", `{"updatedAt":"2024-07-08T00:00:00.106Z","data":["NASDAQ"]}`, drift.Missing},
		{"list exchanges", `{"payload":[{"id":"NASDAQ"}]}`, drift.Retyped},
		{"list symbols", `{"payload":[{"symbol":"AAPL","type":"tokenized-stock"}]}`, drift.NewEnum},
		{"store chart", `{"link":"https://r2.chart-img.com/x.png"}`, drift.Missing},
	}
	for _, c := range cases {
		fs := shape(c.route).CheckBody([]byte(c.body))
		if len(fs) == 0 || fs[0].Kind != c.kind {
			t.Errorf("%s %s: %v", c.route, c.body, fs)
		}
	}
	for body, ok := range map[string]bool{`{"message":"Limit Exceeded"}`: true, `[{"value":"X","msg":"bad","param":"symbol","location":"body"}]`: true,
		`{"errors":[{"msg":"bad"}]}`: true, `{"errors":[{"status":"400","detail":"x"}]}`: false, `{"detail":"x"}`: false} {
		if fs := shape("list exchanges").CheckError([]byte(body)); (len(fs) == 0) != ok {
			t.Errorf("error body %s: %v", body, fs)
		}
	}
}
