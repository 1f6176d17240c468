package client

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestContractShapes: every recorded exchange, replayed through the client,
// passes the shapes the probe and the run-time watch use.
func TestContractShapes(t *testing.T) { contract.RunShapes(t) }

// TestShapesCatchDrift: recorded bodies changed the ways chart-img could
// change them fail their shapes.
func TestShapesCatchDrift(t *testing.T) {
	servetest.CheckShapesCatchDrift(t, Shapes, []servetest.Drifted{
		{Route: "list exchanges", Body: `{"updatedAt":"2024-07-08T00:00:00.106Z","data":["NASDAQ"]}`, Kind: drift.Missing},
		{Route: "list exchanges", Body: `{"payload":[{"id":"NASDAQ"}]}`, Kind: drift.Retyped},
		{Route: "list symbols", Body: `{"payload":[{"symbol":"AAPL","type":"tokenized-stock"}]}`, Kind: drift.NewEnum},
		{Route: "store chart", Body: `{"link":"https://r2.chart-img.com/x.png"}`, Kind: drift.Missing},
	}, "list exchanges", map[string]string{`{"message":"Limit Exceeded"}`: "", `[{"value":"X","msg":"bad","param":"symbol","location":"body"}]`: "",
		`{"errors":[{"msg":"bad"}]}`: "", `{"errors":[{"status":"400","detail":"x"}]}`: drift.ErrorBody, `{"detail":"x"}`: drift.ErrorBody})
}
