package noren

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

func shapeOf(t *testing.T, route string) drift.Shape { return servetest.ShapeOf(t, Shapes, route) }

// TestContractShapes: every recorded Noren answer passes its route's
// shape (the one the run-time watch uses); changed the ways Noren could
// change them, they do not.
func TestContractShapes(t *testing.T) {
	raw, err := os.ReadFile("testdata/contract/samples.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []contractCase
	if err := json.Unmarshal(raw, &cases); err != nil {
		t.Fatal(err)
	}
	for _, cc := range cases {
		route := strings.TrimSuffix(cc.Route, "LMT")
		if fs := shapeOf(t, route).CheckBody([]byte(cc.Response)); len(fs) != 0 {
			t.Errorf("%s: %v", cc.Name, fs)
		}
	}
	drifted := []struct{ route, body, kind string }{
		{"OrderBook", `[{"stat":"Ok","norenordno":"1","status":"OPEN","tsym":"ACC-EQ","trantype":"X"}]`, drift.NewEnum},
		{"OrderBook", `[{"stat":"Ok","order_no":"1","status":"OPEN","tsym":"ACC-EQ"}]`, drift.Missing},
		{"SearchScrip", `{"stat":"Ok","values":[{"tsym":"RELIANCE-EQ","token":2885}]}`, drift.Retyped},
		{"QuickAuth", `{"stat":"Ok","access_token":"x"}`, drift.Missing},
	}
	for _, c := range drifted {
		fs := shapeOf(t, c.route).CheckBody([]byte(c.body))
		if len(fs) == 0 || fs[0].Kind != c.kind {
			t.Errorf("%s %s: %v", c.route, c.body, fs)
		}
	}
	if fs := shapeOf(t, "OrderBook").CheckError([]byte(`{"error":"bad"}`)); len(fs) != 1 || fs[0].Kind != drift.ErrorBody {
		t.Errorf("new error body: %v", fs)
	}
	if fs := shapeOf(t, "OrderBook").CheckError([]byte(`{"stat":"Not_Ok","emsg":"Session Expired"}`)); len(fs) != 0 {
		t.Errorf("Noren's error: %v", fs)
	}
}
