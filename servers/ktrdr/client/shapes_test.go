package client

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestContractShapes: every recorded exchange of testdata/contract, replayed
// through the client, passes the shapes the probe and the run-time watch
// use (the client's answers feed the process's drift watch, checked on
// every answer here).
func TestContractShapes(t *testing.T) { contract.RunShapes(t) }

// TestShapesCatchDrift: recorded bodies changed the ways the backend could
// change them fail their shapes.
func TestShapesCatchDrift(t *testing.T) {
	servetest.CheckShapesCatchDrift(t, Shapes, []servetest.Drifted{
		{Route: "list operations", Body: `{"success":true,"data":[{"operation_id":"op_1","status":"paused"}],"total_count":1,"active_count":0}`, Kind: drift.NewEnum},
		{Route: "list operations", Body: `{"success":true,"operations":[],"total_count":0,"active_count":0}`, Kind: drift.Missing},
		{Route: "get operation", Body: `{"success":true,"data":{"operation_id":"op_1","status":"running","operation_type":"walk_forward"}}`, Kind: drift.NewEnum},
		{Route: "get operation", Body: `{"success":true,"data":{"id":"op_1","status":"running"}}`, Kind: drift.Missing},
		{Route: "market data", Body: `{"success":true,"data":{"dates":[],"ohlcv":{"open":[]}}}`, Kind: drift.Retyped},
	}, "get operation", map[string]string{`{"detail":"Not Found"}`: "", `{"success":false,"error":{"code":"X"}}`: "",
		`{"message":"boom"}`: drift.ErrorBody, `<html>`: drift.ErrorBody})
}
