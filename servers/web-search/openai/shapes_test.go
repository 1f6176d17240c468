package openai

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

func shapeOf(t *testing.T, route string) drift.Shape {
	for _, s := range Shapes {
		if s.Route == route {
			return s
		}
	}
	t.Fatalf("no shape for %s", route)
	return drift.Shape{}
}

// TestContractShapes: every recorded answer passes the shapes the probe
// and the run-time watch use (2xx against the route, errors against the
// error shape), so a drift report means OpenAI changed, not our recordings.
func TestContractShapes(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "contract", "*.json"))
	if len(files) < 8 {
		t.Fatalf("only %d recordings", len(files))
	}
	search := shapeOf(t, "search")
	for _, f := range files {
		body, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var fs []drift.Finding
		if strings.HasPrefix(filepath.Base(f), "error-") {
			fs = search.CheckError(body)
		} else {
			fs = search.CheckBody(body)
		}
		if len(fs) != 0 {
			t.Errorf("%s: %v", f, fs)
		}
	}
	model := shapeOf(t, "model")
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
	rec := string(readContract(t, "gpt-5-mini-2025-12.json"))
	search := shapeOf(t, "search")
	cases := []struct{ name, body, kind string }{
		{"output renamed", strings.Replace(rec, `"output"`, `"items"`, 1), drift.Missing},
		{"status retyped", strings.Replace(rec, `"status": "completed"`, `"status": 1`, 1), drift.Retyped},
		{"new item type", strings.Replace(rec, `"type": "web_search_call"`, `"type": "web_search_preview_call"`, 1), drift.NewEnum},
		{"new annotation type", strings.Replace(rec, `"type": "url_citation"`, `"type": "file_citation"`, 1), drift.NewEnum},
	}
	for _, c := range cases {
		if c.body == rec {
			t.Fatalf("%s: the recording did not change", c.name)
		}
		fs := search.CheckBody([]byte(c.body))
		if len(fs) == 0 || fs[0].Kind != c.kind {
			t.Errorf("%s: %v", c.name, fs)
		}
	}
	if fs := search.CheckError([]byte(`{"detail":"Not Found"}`)); len(fs) != 1 || fs[0].Kind != drift.ErrorBody {
		t.Errorf("new error body: %v", fs)
	}
}
