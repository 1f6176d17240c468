package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

func contractBody(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "contract", file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestContractShapes: every recorded answer passes its route's shape (the
// one the probe and the run-time watch use); every recorded error body
// passes the error shape.
func TestContractShapes(t *testing.T) {
	ok := map[string]string{
		"keyset_markets.json": "list markets", "observed_keyset_closed.json": "list markets",
		"market_live_2025-12-31.json": "get market", "search_nulls.json": "search",
		"book.json": "get order book", "prices_live_strings.json": "get prices", "prices_sdk_numbers.json": "get prices",
		"history.json": "get price history", "holders.json": "get top holders", "builders.json": "get builder leaderboard",
	}
	for file, route := range ok {
		if fs := servetest.ShapeOf(t, Shapes, route).CheckBody(contractBody(t, file)); len(fs) != 0 {
			t.Errorf("%s as %s: %v", file, route, fs)
		}
	}
	errs, _ := filepath.Glob(filepath.Join("testdata", "contract", "*_4[0-9][0-9].json"))
	more, _ := filepath.Glob(filepath.Join("testdata", "contract", "error_*.json"))
	errs = append(errs, more...)
	if len(errs) < 6 {
		t.Fatalf("%d error recordings", len(errs))
	}
	for _, f := range errs {
		if fs := servetest.ShapeOf(t, Shapes, "get market").CheckError(contractBody(t, filepath.Base(f))); len(fs) != 0 {
			t.Errorf("%s: %v", f, fs)
		}
	}
}

// TestShapesCatchDrift: the recordings changed the ways Polymarket could
// change them fail their shapes.
func TestShapesCatchDrift(t *testing.T) {
	keyset := string(contractBody(t, "keyset_markets.json"))
	book := string(contractBody(t, "book.json"))
	servetest.CheckShapesCatchDrift(t, Shapes, []servetest.Drifted{
		{Route: "list markets", Of: keyset, Body: strings.Replace(keyset, `"conditionId"`, `"condition_id"`, 1), Kind: drift.Missing},
		{Route: "list markets", Of: keyset, Body: strings.Replace(keyset, `"markets"`, `"data"`, 1), Kind: drift.Missing},
		{Route: "get order book", Of: book, Body: strings.Replace(book, `"bids"`, `"buys"`, 1), Kind: drift.Missing},
		{Route: "get order book", Of: book, Body: strings.Replace(book, `"asset_id": "`, `"asset_id": 1, "x": "`, 1), Kind: drift.Retyped},
		{Route: "get user activity", Body: `[{"timestamp":1,"type":"MAKER_REBATE","side":""}]`, Kind: drift.NewEnum},
		{Route: "get user activity", Body: `[{"timestamp":1,"type":"TRADE","side":"SHORT"}]`, Kind: drift.NewEnum},
	}, "get order book", map[string]string{`{"message":"No orderbook"}`: drift.ErrorBody})
}
