package nl_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/validate"
)

var fixedNow = time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC) // a Wednesday; no test reads today

func builder() *nl.Builder {
	b := nl.New(docsparse.Snapshot())
	b.Now = func() time.Time { return fixedNow }
	return b
}

// sample is a value that fits the documented row: its default when the docs
// give one, else the lower bound, the first option, true, or a date.
func sample(in docsparse.Input) any {
	if in.Default != nil {
		if f, ok := in.Default.(float64); ok && in.Type == "Integer" {
			return int(f)
		}
		return in.Default
	}
	switch {
	case in.Type == "Integer" || in.Type == "Float":
		if in.Min != nil {
			if in.Type == "Integer" {
				return int(*in.Min)
			}
			return *in.Min
		}
		return 1
	case in.Type == "Boolean":
		return true
	case strings.HasPrefix(in.Type, "DateTime"):
		return "2026-03-02T00:00:00Z"
	case len(in.Options) > 0:
		return in.Options[0]
	}
	return "rgb(33,150,243)"
}

// roundTrip sends v through JSON, as a client's arguments arrive.
func roundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestStructuredRoundTripsEveryStudy: every study of the docs snapshot, named
// as documented with every input and override set by its documented key,
// comes out exactly as given, with no warning, and the validator finds
// nothing wrong with it.
func TestStructuredRoundTripsEveryStudy(t *testing.T) {
	d := docsparse.Snapshot()
	b := builder()
	v := validate.New(d, b)
	if len(d.Indicators) < 90 {
		t.Fatalf("snapshot has %d indicators", len(d.Indicators))
	}
	for _, ind := range d.Indicators {
		t.Run(ind.Name, func(t *testing.T) {
			// the arguments as JSON gives them (numbers float64)
			args := roundTrip(t, map[string]any{"inputs": values(ind.Inputs), "overrides": values(ind.Overrides)})
			in, _ := args["inputs"].(map[string]any)
			ov, _ := args["overrides"].(map[string]any)
			r := b.Build(nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: ind.Name, Inputs: in, Overrides: ov}}})
			if len(r.Errors) > 0 || len(r.Warnings) > 0 {
				t.Fatalf("errors %v, warnings %v", r.Errors, r.Warnings)
			}
			if len(r.Config.Studies) != 1 {
				t.Fatalf("studies %+v", r.Config.Studies)
			}
			got := roundTrip(t, r.Config.Studies[0])
			want := roundTrip(t, chart.Study{Name: ind.Name, Input: values(ind.Inputs), Override: values(ind.Overrides)})
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("study\n got %v\nwant %v", got, want)
			}
			res := v.Validate(roundTrip(t, r.Config), chart.Plans[len(chart.Plans)-1])
			for _, e := range res.Errors {
				t.Errorf("validator: %s: %s (%s)", e.Field, e.Message, e.Severity)
			}
		})
	}
}

func values(rows []docsparse.Input) map[string]any {
	if len(rows) == 0 {
		return nil
	}
	m := make(map[string]any, len(rows))
	for _, r := range rows {
		m[r.Key] = sample(r)
	}
	return m
}

func TestStructuredInput(t *testing.T) {
	b := builder()
	ptrue := true
	cases := []struct {
		name     string
		req      nl.Request
		studies  string // JSON of config.studies; "" = none
		drawings string
		timezone string
		warn     string // substring of a warning; "" = no warnings
		errField string // the refused field; "" = none
		closest  string // one of the closest names offered
	}{
		{name: "rsi by display name", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Relative Strength Index", Inputs: map[string]any{"length": 21.0}, Overrides: map[string]any{"UpperLimit.value": 80.0, "LowerLimit.value": 20.0}}}}, studies: `[{"name":"Relative Strength Index","input":{"length":21},"override":{"LowerLimit.value":20,"UpperLimit.value":80}}]`},
		{name: "alias is sent as the display name", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "RSI"}}}, studies: `[{"name":"Relative Strength Index"}]`, warn: `"RSI" is not a display name`},
		{name: "case folded", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "bollinger bands", Inputs: map[string]any{"in_0": 20.0, "in_1": 2.5}}}}, studies: `[{"name":"Bollinger Bands","input":{"in_0":20,"in_1":2.5}}]`, warn: "spelled"},
		{name: "input by its description", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Bollinger Bands", Inputs: map[string]any{"length": 30.0}}}}, studies: `[{"name":"Bollinger Bands","input":{"in_0":30}}]`, warn: `documented as input "in_0"`},
		{name: "option in any case", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Relative Strength Index", Inputs: map[string]any{"smoothingLine": "ema", "smoothingLength": 9.0}}}}, studies: `[{"name":"Relative Strength Index","input":{"smoothingLength":9,"smoothingLine":"EMA"}}]`},
		{name: "force overlay", req: nl.Request{Symbol: "NASDAQ:MSFT", Studies: []nl.StudySpec{{Name: "Volume", ForceOverlay: &ptrue}}}, studies: `[{"name":"Volume","forceOverlay":true}]`},
		{name: "unknown study refused with the closest", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Relative Strength Idx"}}}, errField: "studies[0].name", closest: "Relative Strength Index"},
		{name: "misspelt study refused with the closest", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Ichimoku Clowd"}}}, errField: "studies[0].name", closest: "Ichimoku Cloud"},
		{name: "unknown input key", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Relative Strength Index", Inputs: map[string]any{"lenght": 14.0}}}}, errField: "studies[0].inputs.lenght", closest: "length"},
		{name: "input out of bounds", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Relative Strength Index", Inputs: map[string]any{"length": 0.0}}}}, errField: "studies[0].inputs.length"},
		{name: "integer input not whole", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Relative Strength Index", Inputs: map[string]any{"length": 14.5}}}}, errField: "studies[0].inputs.length"},
		{name: "string where a number is documented", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Relative Strength Index", Inputs: map[string]any{"length": "14"}}}}, errField: "studies[0].inputs.length"},
		{name: "option not documented", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Relative Strength Index", Inputs: map[string]any{"smoothingLine": "HMA"}}}}, errField: "studies[0].inputs.smoothingLine", closest: "SMA"},
		{name: "unknown override key", req: nl.Request{Symbol: "NASDAQ:AAPL", Studies: []nl.StudySpec{{Name: "Relative Strength Index", Overrides: map[string]any{"upper": 80.0}}}}, errField: "studies[0].overrides.upper"},
		{name: "studies win over the text", req: nl.Request{Text: "AAPL daily with MACD", Studies: []nl.StudySpec{{Name: "Relative Strength Index"}}}, studies: `[{"name":"Relative Strength Index"}]`, warn: "the studies argument wins"},
		{name: "same study in text and studies is no conflict", req: nl.Request{Text: "AAPL daily with RSI", Studies: []nl.StudySpec{{Name: "Relative Strength Index"}}}, studies: `[{"name":"Relative Strength Index"}]`},
		{name: "empty studies clears the text's", req: nl.Request{Text: "AAPL daily with RSI", Studies: []nl.StudySpec{}}, warn: "the studies argument wins"},
		{name: "timezone listed", req: nl.Request{Symbol: "NASDAQ:AAPL", Timezone: "America/New_York"}, timezone: "America/New_York"},
		{name: "timezone default", req: nl.Request{Symbol: "NASDAQ:AAPL", Timezone: "Etc/UTC"}, timezone: "Etc/UTC"},
		{name: "timezone any case", req: nl.Request{Symbol: "NASDAQ:AAPL", Timezone: "asia/tokyo"}, timezone: "Asia/Tokyo"},
		{name: "timezone abbreviation", req: nl.Request{Symbol: "NASDAQ:AAPL", Timezone: "EST"}, timezone: "America/New_York"},
		{name: "timezone unlisted, same clock all year", req: nl.Request{Symbol: "NASDAQ:AAPL", Timezone: "America/Denver"}, timezone: "US/Mountain", warn: "same clock all year"},
		{name: "timezone unlisted, no listed twin", req: nl.Request{Symbol: "NASDAQ:AAPL", Timezone: "Asia/Kabul"}, errField: "timezone"},
		{name: "timezone unknown", req: nl.Request{Symbol: "NASDAQ:AAPL", Timezone: "Mars/Olympus"}, errField: "timezone"},
		{name: "timezone wins over text", req: nl.Request{Text: "AAPL 15m in Tokyo time", Timezone: "Europe/London"}, timezone: "Europe/London", warn: "overrides Asia/Tokyo"},
		{name: "drawing", req: nl.Request{Symbol: "NASDAQ:AAPL", Drawings: []nl.DrawingSpec{{Name: "Horizontal Line", Input: map[string]any{"price": 180.5}, Override: map[string]any{"lineColor": "rgb(50,205,50)"}}}}, drawings: `[{"name":"Horizontal Line","input":{"price":180.5},"override":{"lineColor":"rgb(50,205,50)"}}]`},
		{name: "drawing missing a required input", req: nl.Request{Symbol: "NASDAQ:AAPL", Drawings: []nl.DrawingSpec{{Name: "Trend Line", Input: map[string]any{"startDatetime": "2026-03-02T00:00:00Z"}}}}, errField: "drawings[0].input."},
		{name: "drawing bad date", req: nl.Request{Symbol: "NASDAQ:AAPL", Drawings: []nl.DrawingSpec{{Name: "Vertical Line", Input: map[string]any{"datetime": "yesterday"}}}}, errField: "drawings[0].input.datetime"},
		{name: "drawing unknown", req: nl.Request{Symbol: "NASDAQ:AAPL", Drawings: []nl.DrawingSpec{{Name: "Horizontal Ray", Input: map[string]any{"price": 1.0}}}}, errField: "drawings[0].name", closest: "Horizontal Line"},
		{name: "drawings win over text", req: nl.Request{Text: "AAPL daily, stop loss at 150", Drawings: []nl.DrawingSpec{{Name: "Horizontal Line", Input: map[string]any{"price": 160.0}}}}, drawings: `[{"name":"Horizontal Line","input":{"price":160}}]`, warn: "the drawings argument wins"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := b.Build(c.req)
			if c.errField != "" {
				if len(r.Errors) == 0 || !strings.HasPrefix(r.Errors[0].Field, c.errField) {
					t.Fatalf("errors %+v, want field %s", r.Errors, c.errField)
				}
				if c.closest != "" && !contains(r.Errors[0].Closest, c.closest) {
					t.Fatalf("closest %v lacks %q (%s)", r.Errors[0].Closest, c.closest, r.Errors[0].Message)
				}
				return
			}
			if len(r.Errors) > 0 {
				t.Fatalf("errors %+v", r.Errors)
			}
			if got := jsonOf(t, r.Config.Studies); got != orNull(c.studies) {
				t.Errorf("studies %s, want %s", got, c.studies)
			}
			if got := jsonOf(t, r.Config.Drawings); got != orNull(c.drawings) {
				t.Errorf("drawings %s, want %s", got, c.drawings)
			}
			if r.Config.Timezone != c.timezone {
				t.Errorf("timezone %q, want %q", r.Config.Timezone, c.timezone)
			}
			if c.warn == "" && len(r.Warnings) > 0 {
				t.Errorf("warnings %v", r.Warnings)
			}
			if c.warn != "" && !strings.Contains(strings.Join(r.Warnings, "\n"), c.warn) {
				t.Errorf("warnings %v lack %q", r.Warnings, c.warn)
			}
		})
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func jsonOf(t *testing.T, v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(raw) == "[]" {
		return "null"
	}
	return string(raw)
}

func orNull(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

// FuzzStructured: any JSON a client sends as studies, drawings and timezone
// is read or refused, never a panic, and what is accepted is documented.
func FuzzStructured(f *testing.F) {
	f.Add(`[{"name":"Relative Strength Index","inputs":{"length":21},"overrides":{"UpperLimit.value":80}}]`, `[{"name":"Horizontal Line","input":{"price":1}}]`, "America/New_York")
	f.Add(`[{"name":"rsi","input":{"LENGTH":"x"}},{"name":7}]`, `[{"name":"Trend Line","input":{}}]`, "Mars/Base")
	f.Add(`[{"name":"MACD","forceOverlay":"yes","params":1}]`, `[{"zOrder":"middle"}]`, "EST")
	b := builder()
	d := docsparse.Snapshot()
	f.Fuzz(func(t *testing.T, studies, drawings, tz string) {
		var ss, ds []map[string]any
		_ = json.Unmarshal([]byte(studies), &ss)
		_ = json.Unmarshal([]byte(drawings), &ds)
		sp, errs := nl.StudySpecs(ss)
		dp, derrs := nl.DrawingSpecs(ds)
		if len(errs)+len(derrs) > 0 {
			return
		}
		r := b.Build(nl.Request{Text: "AAPL daily", Studies: sp, Drawings: dp, Timezone: tz})
		if len(r.Errors) > 0 {
			return
		}
		for _, st := range r.Config.Studies {
			if _, ok := d.Indicator(st.Name); !ok {
				t.Fatalf("undocumented study %q accepted", st.Name)
			}
		}
		for _, dr := range r.Config.Drawings {
			if _, ok := d.Drawing(dr.Name); !ok {
				t.Fatalf("undocumented drawing %q accepted", dr.Name)
			}
		}
	})
}
