package pytool_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/pytool"
)

// The seed's own examples. The request and its expected response are the
// seed's python-functions/README.md ("Test Request", "Expected response"),
// and the second request its "Usage via MCP" example, verbatim. The three use
// cases (statistics, JSON processing, date calculations) are the seed's
// categories; the seed's exact text of them was not found in public
// sources, so they are written here around the one line of it the original design
// quotes (the JSON case ends with print(json.dumps(filtered, indent=2))).
func TestSeedExamples(t *testing.T) {
	c := connect(t, testConfig())
	cases := []struct {
		name, code string
		input      map[string]any
		want       string
	}{
		{"README test request", "print(\"Hello from Python!\")\nprint(sum([1,2,3,4,5]))", map[string]any{}, "Hello from Python!\n15\n"},
		{"README usage via MCP", "result = sum(range(100))\nprint(f'Sum: {result}')", map[string]any{}, "Sum: 4950\n"},
		{"statistical analysis", statisticsExample, nil, "mean 0.4633\nmedian 0.46\nstdev 0.0333\n"},
		{"JSON processing", `import json
markets = json.loads(data)
filtered = [m for m in markets if m["volume"] > 1000]
print(json.dumps(filtered, indent=2))`, map[string]any{"data": `[{"q": "a", "volume": 5000}, {"q": "b", "volume": 10}]`},
			"[\n  {\n    \"q\": \"a\",\n    \"volume\": 5000\n  }\n]\n"},
		{"date calculations", `from datetime import datetime, timedelta
end = datetime.strptime(end_date, "%Y-%m-%dT%H:%M:%SZ")
now = datetime(2026, 11, 27, 12, 0, 0)
left = end - now
print(left.days, "days", left.seconds // 3600, "hours")
print((now + timedelta(weeks=2)).strftime("%Y-%m-%d"))`, map[string]any{"end_date": "2026-12-31T18:00:00Z"}, "34 days 6 hours\n2026-12-11\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := map[string]any{"code": tc.code}
			if tc.input != nil {
				args["input_data"] = tc.input
			}
			res := c.Call(t, pytool.Name, args)
			if res.IsError {
				t.Fatalf("tool error: %s", servetest.Text(res))
			}
			// The seed's shape, key by key: "error" is present and null.
			b, _ := json.Marshal(res.StructuredContent)
			var raw map[string]json.RawMessage
			if err := json.Unmarshal(b, &raw); err != nil {
				t.Fatal(err)
			}
			if string(raw["success"]) != "true" || string(raw["error"]) != "null" || raw["execution_time_ms"] == nil {
				t.Fatalf("want the seed's shape {success:true, error:null, execution_time_ms}, got %s", b)
			}
			var out string
			_ = json.Unmarshal(raw["output"], &out)
			if out != tc.want {
				t.Fatalf("output %q, want %q", out, tc.want)
			}
		})
	}
}
