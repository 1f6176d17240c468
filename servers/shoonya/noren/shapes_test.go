package noren

import (
	"path"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

func shapeOf(t *testing.T, route string) drift.Shape { return servetest.ShapeOf(t, Shapes, route) }

// TestContractShapes: every recorded Noren answer, replayed through the
// client, passes its route's shape (the one the run-time watch uses). The
// watch skips a route it has no shape for, so every recorded route must
// have one.
func TestContractShapes(t *testing.T) {
	for _, tc := range contract.Cases(t) {
		for _, ex := range tc.Exchanges {
			shapeOf(t, path.Base(ex.Request.Path))
		}
	}
	contract.RunShapes(t)
}

// TestShapesCatchDrift: recorded answers changed the ways Noren could change
// them fail their shapes.
func TestShapesCatchDrift(t *testing.T) {
	servetest.CheckShapesCatchDrift(t, Shapes, []servetest.Drifted{
		{Route: "OrderBook", Body: `[{"stat":"Ok","norenordno":"1","status":"OPEN","tsym":"ACC-EQ","trantype":"X"}]`, Kind: drift.NewEnum},
		{Route: "OrderBook", Body: `[{"stat":"Ok","order_no":"1","status":"OPEN","tsym":"ACC-EQ"}]`, Kind: drift.Missing},
		{Route: "SearchScrip", Body: `{"stat":"Ok","values":[{"tsym":"RELIANCE-EQ","token":2885}]}`, Kind: drift.Retyped},
		{Route: "QuickAuth", Body: `{"stat":"Ok","access_token":"x"}`, Kind: drift.Missing},
	}, "OrderBook", map[string]string{`{"error":"bad"}`: drift.ErrorBody, `{"stat":"Not_Ok","emsg":"Session Expired"}`: ""})
	// A new error body is one finding, not one per field.
	if fs := shapeOf(t, "OrderBook").CheckError([]byte(`{"error":"bad"}`)); len(fs) != 1 {
		t.Errorf("new error body: %v", fs)
	}
}
