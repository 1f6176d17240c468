package client

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestContractShapes: every recorded exchange of testdata/contract,
// replayed through the client, passes the shapes the probe and the
// run-time watch use (answers and error bodies alike); so does the error
// body of the legacy offset route, which the client never calls (it pages
// on the keyset routes).
func TestContractShapes(t *testing.T) {
	contract.RunShapes(t)
	const offset = "observed_offset_422.json"
	if fs := servetest.ShapeOf(t, Shapes, "list markets").CheckError(contract.Recording(t, offset)); len(fs) != 0 {
		t.Errorf("%s: %v", offset, fs)
	}
	contract.CheckRecordingsUsed(t, "*.json", offset)
}

// TestShapesCatchDrift: the recordings changed the ways Polymarket could
// change them fail their shapes.
func TestShapesCatchDrift(t *testing.T) {
	keyset := string(contract.Recording(t, "keyset_markets.json"))
	book := string(contract.Recording(t, "book.json"))
	servetest.CheckShapesCatchDrift(t, Shapes, []servetest.Drifted{
		{Route: "list markets", Of: keyset, Body: strings.Replace(keyset, `"conditionId"`, `"condition_id"`, 1), Kind: drift.Missing},
		{Route: "list markets", Of: keyset, Body: strings.Replace(keyset, `"markets"`, `"data"`, 1), Kind: drift.Missing},
		{Route: "get order book", Of: book, Body: strings.Replace(book, `"bids"`, `"buys"`, 1), Kind: drift.Missing},
		{Route: "get order book", Of: book, Body: strings.Replace(book, `"asset_id": "`, `"asset_id": 1, "x": "`, 1), Kind: drift.Retyped},
		{Route: "get user activity", Body: `[{"timestamp":1,"type":"PREDICTION_BONUS","side":""}]`, Kind: drift.NewEnum},
		{Route: "get user activity", Body: `[{"timestamp":1,"type":"TRADE","side":"SHORT"}]`, Kind: drift.NewEnum},
	}, "get order book", map[string]string{`{"message":"No orderbook"}`: drift.ErrorBody})
}
