package openai

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// TestContractShapes: every recorded answer, replayed through the client,
// passes the shapes the probe and the run-time watch use (2xx against the
// route, errors against the error shape), so a drift report means OpenAI
// changed, not our recordings.
func TestContractShapes(t *testing.T) {
	contract.RunShapes(t)
	contract.CheckRecordingsUsed(t, "*.json") // so RunShapes saw every recording
	model := servetest.ShapeOf(t, Shapes, "model")
	for _, body := range []string{
		`{"id":"gpt-5-nano","object":"model","created":1754426384,"owned_by":"system","shutdown_date":"2026-12-11"}`,
		`{"id":"gpt-6-luna","object":"model","created":1780000000,"owned_by":"system","shutdown_date":null}`,
		`{"id":"gpt-4o","object":"model","created":1715367049,"owned_by":"system"}`,
	} {
		if fs := model.CheckBody([]byte(body)); len(fs) != 0 {
			t.Errorf("%s: %v", body, fs)
		}
	}
}

// TestShapesCatchDrift: a recorded answer changed the ways OpenAI could
// change it fails the shape: a renamed field, a retyped one, a new item
// type, a new error shape.
func TestShapesCatchDrift(t *testing.T) {
	rec := string(contract.Recording(t, "gpt-5-mini-2025-12.json"))
	servetest.CheckShapesCatchDrift(t, Shapes, []servetest.Drifted{
		{Name: "output renamed", Route: "search", Of: rec, Body: strings.Replace(rec, `"output"`, `"items"`, 1), Kind: drift.Missing},
		{Name: "status retyped", Route: "search", Of: rec, Body: strings.Replace(rec, `"status": "completed"`, `"status": 1`, 1), Kind: drift.Retyped},
		{Name: "new item type", Route: "search", Of: rec, Body: strings.Replace(rec, `"type": "web_search_call"`, `"type": "web_search_preview_call"`, 1), Kind: drift.NewEnum},
		{Name: "new annotation type", Route: "search", Of: rec, Body: strings.Replace(rec, `"type": "url_citation"`, `"type": "file_citation"`, 1), Kind: drift.NewEnum},
	}, "search", map[string]string{`{"detail":"Not Found"}`: drift.ErrorBody})
}
