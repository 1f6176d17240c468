package client

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

func shapeOf(t *testing.T, route string) drift.Shape {
	t.Helper()
	for _, s := range Shapes {
		if s.Route == route {
			return s
		}
	}
	t.Fatalf("no shape for %q", route)
	return drift.Shape{}
}

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
		if fs := shapeOf(t, route).CheckBody(contractBody(t, file)); len(fs) != 0 {
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
		if fs := shapeOf(t, "get market").CheckError(contractBody(t, filepath.Base(f))); len(fs) != 0 {
			t.Errorf("%s: %v", f, fs)
		}
	}
}

// TestShapesCatchDrift: the recordings changed the ways Polymarket could
// change them fail their shapes.
func TestShapesCatchDrift(t *testing.T) {
	keyset := string(contractBody(t, "keyset_markets.json"))
	book := string(contractBody(t, "book.json"))
	cases := []struct{ route, body, kind string }{
		{"list markets", strings.Replace(keyset, `"conditionId"`, `"condition_id"`, 1), drift.Missing},
		{"list markets", strings.Replace(keyset, `"markets"`, `"data"`, 1), drift.Missing},
		{"get order book", strings.Replace(book, `"bids"`, `"buys"`, 1), drift.Missing},
		{"get order book", strings.Replace(book, `"asset_id": "`, `"asset_id": 1, "x": "`, 1), drift.Retyped},
		{"get user activity", `[{"timestamp":1,"type":"MAKER_REBATE","side":""}]`, drift.NewEnum},
		{"get user activity", `[{"timestamp":1,"type":"TRADE","side":"SHORT"}]`, drift.NewEnum},
	}
	for _, c := range cases {
		fs := shapeOf(t, c.route).CheckBody([]byte(c.body))
		if len(fs) == 0 || fs[0].Kind != c.kind {
			t.Errorf("%s: %.80s → %v", c.route, c.body, fs)
		}
	}
	if fs := shapeOf(t, "get order book").CheckError([]byte(`{"message":"No orderbook"}`)); len(fs) != 1 || fs[0].Kind != drift.ErrorBody {
		t.Errorf("new error body: %v", fs)
	}
}
