package toolkit

import (
	"encoding/json"
	"strings"
	"testing"
)

type sampleIn struct {
	Symbol string   `json:"symbol" jsonschema:"ticker, e.g. NSE:INFY" mcp:"minLength=1;maxLength=40"`
	Limit  int      `json:"limit,omitempty" jsonschema:"rows to return" mcp:"min=1;max=500;default=50"`
	Side   string   `json:"side,omitempty" mcp:"enum=BUY|SELL"`
	Slots  []int    `json:"slots,omitempty" mcp:"min=0;max=12;maxItems=3"`
	Tags   []string `json:"tags,omitempty"`
}

type sampleOut struct {
	Items []string `json:"items"`
	Count int      `json:"count"`
}

func TestSchemaForAppliesTags(t *testing.T) {
	in, err := SchemaFor[sampleIn](false)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(in, &m); err != nil {
		t.Fatal(err)
	}
	props := m["properties"].(map[string]any)
	cases := []struct {
		path string
		got  any
		want any
	}{
		{"symbol.minLength", props["symbol"].(map[string]any)["minLength"], 1.0},
		{"symbol.description", props["symbol"].(map[string]any)["description"], "ticker, e.g. NSE:INFY"},
		{"limit.maximum", props["limit"].(map[string]any)["maximum"], 500.0},
		{"limit.default", props["limit"].(map[string]any)["default"], 50.0},
		{"side.enum.0", props["side"].(map[string]any)["enum"].([]any)[0], "BUY"},
		{"slots.items.maximum", props["slots"].(map[string]any)["items"].(map[string]any)["maximum"], 12.0},
		{"slots.maxItems", props["slots"].(map[string]any)["maxItems"], 3.0},
		{"additionalProperties", m["additionalProperties"], false},
		{"required", m["required"].([]any)[0], "symbol"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s = %v, want %v", c.path, c.got, c.want)
		}
	}
	t.Logf("%s", in)
	out, err := SchemaFor[sampleOut](true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", out)
}

type anyIn struct {
	Default any            `json:"default,omitempty" jsonschema:"any scalar"`
	Range   any            `json:"range,omitempty" mcp:"type=string|object"`
	Rule    any            `json:"rule,omitempty" mcp:"type=object"`
	List    []any          `json:"list,omitempty"`
	Free    map[string]any `json:"free,omitempty"`
}

func TestUntypedFieldsGetTypes(t *testing.T) {
	b, err := SchemaFor[anyIn](true)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, bad := range []string{`:true,`, `:true}`} {
		if strings.Contains(strings.ReplaceAll(s, `"additionalProperties":true`, ""), bad) {
			t.Fatalf("bare true schema left: %s", s)
		}
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	props := m["properties"].(map[string]any)
	if props["rule"].(map[string]any)["type"] != "object" {
		t.Errorf("rule: %v", props["rule"])
	}
	if len(props["range"].(map[string]any)["anyOf"].([]any)) != 2 {
		t.Errorf("range: %v", props["range"])
	}
	if props["default"].(map[string]any)["description"] != "any scalar" || len(props["default"].(map[string]any)["anyOf"].([]any)) != 6 {
		t.Errorf("default: %v", props["default"])
	}
}

func TestOutputSchemasAreLean(t *testing.T) {
	out, _ := SchemaFor[sampleOut](true)
	in, _ := SchemaFor[sampleIn](false)
	if strings.Contains(string(out), `"required"`) || strings.Contains(string(out), `"additionalProperties"`) {
		t.Fatalf("output schema keeps tautologies: %s", out)
	}
	if !strings.Contains(string(in), `"required":["symbol"]`) || !strings.Contains(string(in), `"additionalProperties":false`) {
		t.Fatalf("input schema must keep required and additionalProperties: %s", in)
	}
	type html struct {
		A string `json:"a" jsonschema:"x < y & z"`
	}
	b, _ := SchemaFor[html](false)
	if !strings.Contains(string(b), "x < y & z") {
		t.Fatalf("HTML-escaped description: %s", b)
	}
}

func TestUnescapeHTML(t *testing.T) {
	cases := map[string]string{
		`"x \u003c y \u0026 z \u003e"`: `"x < y & z >"`,
		`"literal \\u003c kept"`:       `"literal \\u003c kept"`,
		`"\u00e9 and \n"`:              `"\u00e9 and \n"`,
		`"end \u00`:                    `"end \u00`,
	}
	for in, want := range cases {
		if got := string(unescapeHTML([]byte(in))); got != want {
			t.Errorf("%s -> %s, want %s", in, got, want)
		}
	}
}
