package toolkit

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

type checkNested struct {
	Algorithm string `json:"algorithm" mcp:"enum=default|zhongzhou"`
}

type checkIn struct {
	SearchText     string       `json:"search_text" mcp:"minLength=3;maxLength=10"`
	BirthTimeIndex int          `json:"birthTimeIndex,omitempty" mcp:"min=0;max=12"`
	Limit          int          `json:"limit,omitempty" mcp:"min=1;max=500"`
	Ratio          float64      `json:"ratio,omitempty" mcp:"min=0.5;max=1.5"`
	Gender         string       `json:"gender,omitempty" mcp:"enum=male|female"`
	Date           string       `json:"date,omitempty" mcp:"pattern=^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	Tags           []string     `json:"tags,omitempty" mcp:"minItems=1;maxItems=2"`
	Settings       *checkNested `json:"settings,omitempty"`
	Value          any          `json:"value,omitempty" mcp:"type=number"`
}

// TestInputErrorsAreSentences: every schema keyword the fleet uses (required,
// additionalProperties, type, enum, minimum, maximum, minLength, maxLength,
// pattern, minItems, maxItems, nested objects) fails as one plain sentence per
// field, never a Go struct dump, and always as invalid_argument with details.fields.
func TestInputErrorsAreSentences(t *testing.T) {
	tl := New(Def{Name: "t", Description: "d", Hints: LocalRead}, func(ctx context.Context, in checkIn) (sampleOut, error) {
		return sampleOut{Count: 1}, nil
	})
	cases := []struct {
		name, args string
		want       []string // messages, in order
		fields     []string
	}{
		{"required", `{}`, []string{"search_text is required"}, []string{"search_text"}},
		{"null args", `null`, []string{"search_text is required"}, []string{"search_text"}},
		{"unknown with suggestion", `{"search_text":"abcd","serch_text":"x"}`, []string{"unknown argument serch_text — did you mean search_text?"}, []string{"serch_text"}},
		{"unknown prefix suggestion", `{"search_text":"abcd","query":"x"}`, []string{"unknown argument query — valid arguments: birthTimeIndex, date, gender, limit, ratio, search_text, settings, tags, value"}, []string{"query"}},
		{"unknown for the missing one", `{"query":"abcd"}`, []string{"unknown argument query — did you mean search_text?", "search_text is required"}, nil},
		{"maximum", `{"search_text":"abcd","birthTimeIndex":13}`, []string{"birthTimeIndex: 13 is above the maximum 12"}, []string{"birthTimeIndex"}},
		{"minimum", `{"search_text":"abcd","limit":0}`, []string{"limit: 0 is below the minimum 1"}, []string{"limit"}},
		{"fraction bounds", `{"search_text":"abcd","ratio":0.25}`, []string{"ratio: 0.25 is below the minimum 0.5"}, []string{"ratio"}},
		{"type", `{"search_text":"abcd","limit":"5"}`, []string{"limit: expected integer, got string"}, []string{"limit"}},
		{"typed any", `{"search_text":"abcd","value":"x"}`, []string{"value: expected number, got string"}, []string{"value"}},
		{"enum", `{"search_text":"abcd","gender":"m"}`, []string{`gender: "m" is not one of "male", "female"`}, []string{"gender"}},
		{"minLength", `{"search_text":"ab"}`, []string{"search_text: 2 characters is shorter than the minimum 3"}, []string{"search_text"}},
		{"maxLength", `{"search_text":"abcdefghijkl"}`, []string{"search_text: 12 characters is longer than the maximum 10"}, []string{"search_text"}},
		{"pattern", `{"search_text":"abcd","date":"17/05/1990"}`, []string{`date: "17/05/1990" does not match the pattern ^[0-9]{4}-[0-9]{2}-[0-9]{2}$`}, []string{"date"}},
		{"minItems", `{"search_text":"abcd","tags":[]}`, []string{"tags: 0 items is fewer than the minimum 1"}, []string{"tags"}},
		{"maxItems", `{"search_text":"abcd","tags":["a","b","c"]}`, []string{"tags: 3 items is more than the maximum 2"}, []string{"tags"}},
		{"item type", `{"search_text":"abcd","tags":["a",2]}`, []string{"tags[1]: expected string, got number"}, []string{"tags[1]"}},
		{"nested enum", `{"search_text":"abcd","settings":{"algorithm":"x"}}`, []string{`settings.algorithm: "x" is not one of "default", "zhongzhou"`}, []string{"settings.algorithm"}},
		{"nested required", `{"search_text":"abcd","settings":{}}`, []string{"settings.algorithm is required"}, []string{"settings.algorithm"}},
		{"nested unknown", `{"search_text":"abcd","settings":{"algorithm":"default","x":1}}`, []string{"unknown field settings.x"}, []string{"settings.x"}},
		{"not an object", `[1]`, []string{"arguments: expected object, got array"}, []string{""}},
		{"two fields", `{"birthTimeIndex":13}`, []string{"birthTimeIndex: 13 is above the maximum 12", "search_text is required"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := mcp.CallToolRequest{}
			req.Params.Name = "t"
			req.Params.Arguments = json.RawMessage(c.args)
			res, err := tl.Handler(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			if !res.IsError {
				t.Fatalf("accepted %s", c.args)
			}
			body := res.StructuredContent.(envelope.Body)
			if body.Code != envelope.InvalidArgument {
				t.Fatalf("code %s", body.Code)
			}
			fields, _ := body.Details["fields"].([]FieldError)
			var got, gotFields []string
			for _, f := range fields {
				got = append(got, f.Message)
				gotFields = append(gotFields, f.Field)
			}
			if strings.Join(got, "|") != strings.Join(c.want, "|") && !sameSet(got, c.want) {
				t.Errorf("messages\n got %q\nwant %q", got, c.want)
			}
			if c.fields != nil && strings.Join(gotFields, "|") != strings.Join(c.fields, "|") {
				t.Errorf("fields got %q want %q", gotFields, c.fields)
			}
			text := res.Content[0].(mcp.TextContent).Text
			for _, bad := range []string{"&{", `\u0026`, `\u003c`, "Got:", "Want:"} {
				if strings.Contains(text, bad) {
					t.Errorf("text has %q: %s", bad, text)
				}
			}
			if !strings.HasPrefix(text, "invalid_argument: "+c.want[0]) && !sameSet(got, c.want) {
				t.Errorf("text %q", text)
			}
		})
	}
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	m := map[string]int{}
	for _, x := range a {
		m[x]++
	}
	for _, x := range b {
		if m[x] == 0 {
			return false
		}
		m[x]--
	}
	return true
}

func TestValidArgumentsReachHandler(t *testing.T) {
	var got checkIn
	tl := New(Def{Name: "t", Description: "d", Hints: LocalRead}, func(ctx context.Context, in checkIn) (sampleOut, error) {
		got = in
		return sampleOut{Count: 1}, nil
	})
	req := mcp.CallToolRequest{}
	req.Params.Arguments = json.RawMessage(`{"search_text":"abcd","limit":500,"settings":{"algorithm":"zhongzhou"}}`)
	res, _ := tl.Handler(context.Background(), req)
	if res.IsError {
		t.Fatalf("%+v", res.StructuredContent)
	}
	if got.SearchText != "abcd" || got.Limit != 500 || got.Settings == nil || got.Settings.Algorithm != "zhongzhou" {
		t.Fatalf("%+v", got)
	}
}

func TestClosest(t *testing.T) {
	names := []string{"get_palace_info", "get_chart_basics", "initialize_chart"}
	for in, want := range map[string]string{
		"get_palce_info": "get_palace_info", "get_plaace_info": "get_palace_info", "GET_PALACE_INFO": "get_palace_info",
		"initialise_chart": "initialize_chart", "chart_basics": "get_chart_basics", "completely_else": "",
	} {
		if got := Closest(in, names); got != want {
			t.Errorf("Closest(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzInputCheck(f *testing.F) {
	for _, s := range []string{`{}`, `{"search_text":"abcd","tags":["a",2]}`, `[`, `{"settings":{"x":1}}`, `null`, `"x"`} {
		f.Add([]byte(s))
	}
	tl := New(Def{Name: "t", Description: "d", Hints: LocalRead}, func(ctx context.Context, in checkIn) (sampleOut, error) {
		return sampleOut{Count: 1}, nil
	})
	f.Fuzz(func(t *testing.T, b []byte) {
		req := mcp.CallToolRequest{}
		req.Params.Arguments = json.RawMessage(b)
		res, err := tl.Handler(context.Background(), req)
		if err != nil || res == nil {
			t.Fatalf("err %v", err)
		}
		if res.IsError {
			body := res.StructuredContent.(envelope.Body)
			if body.Code != envelope.InvalidArgument || body.Message == "" {
				t.Fatalf("%+v", body)
			}
		}
	})
}

// TestRepeatedArgumentsCheckedEachTime: a repeat of good arguments passes
// and a repeat of bad ones fails the same way, every time.
func TestRepeatedArgumentsCheckedEachTime(t *testing.T) {
	tl := New(Def{Name: "t", Description: "d", Hints: LocalRead}, func(ctx context.Context, in checkIn) (sampleOut, error) {
		return sampleOut{Count: 1}, nil
	})
	call := func(args string) *mcp.CallToolResult {
		req := mcp.CallToolRequest{}
		req.Params.Arguments = json.RawMessage(args)
		res, _ := tl.Handler(context.Background(), req)
		return res
	}
	good, bad := `{"search_text":"abcd"}`, `{"search_text":"ab"}`
	for range 3 {
		if res := call(good); res.IsError {
			t.Fatalf("good args refused: %+v", res.StructuredContent)
		}
		if res := call(bad); !res.IsError {
			t.Fatal("bad args accepted on a repeat")
		}
	}
}
