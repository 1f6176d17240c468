package docsparse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

func parseFile(t *testing.T, name string) *Docs {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := Parse(f)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return d
}

func TestParseCurrentPage(t *testing.T) {
	d := parseFile(t, "snapshot.html") // the embedded copy is the Nov 2025 page
	if got := len(d.Indicators); got != 92 {
		t.Errorf("indicators = %d, want 92", got)
	}
	if got := len(d.Drawings); got != 15 {
		t.Errorf("drawings = %d, want 15", got)
	}
	noInputs, named, positional := 0, 0, 0
	for _, in := range d.Indicators {
		switch {
		case len(in.Inputs) == 0:
			noInputs++
		case strings.HasPrefix(in.Inputs[0].Key, "in_"):
			positional++
		default:
			named++
		}
	}
	if noInputs != 9 {
		t.Errorf("indicators without inputs = %d, want 9", noInputs)
	}
	t.Logf("positional=%d named=%d none=%d", positional, named, noInputs)

	bb, ok := d.Indicator("Bollinger Bands")
	if !ok {
		t.Fatal("Bollinger Bands missing")
	}
	want := []struct {
		key, typ string
		def      any
		min, max float64
	}{{"in_0", "Integer", 20, 1, 10000}, {"in_1", "Float", 2.0, 0.001, 50}}
	if len(bb.Inputs) != len(want) {
		t.Fatalf("BB inputs = %+v", bb.Inputs)
	}
	for i, w := range want {
		in := bb.Inputs[i]
		if in.Key != w.key || in.Type != w.typ || in.Default != w.def || *in.Min != w.min || *in.Max != w.max {
			t.Errorf("BB input %d = %+v, want %+v", i, in, w)
		}
	}
	if bb.Category != "volatility" {
		t.Errorf("BB category = %q", bb.Category)
	}
	rsi, _ := d.Indicator("Relative Strength Index")
	if rsi.Inputs[0].Key != "length" || rsi.Inputs[1].Key != "smoothingLine" ||
		strings.Join(rsi.Inputs[1].Options, ",") != "SMA,EMA,WMA" {
		t.Errorf("RSI inputs = %+v", rsi.Inputs)
	}
	if _, ok := d.IndicatorFold("moving average exponential"); !ok {
		t.Error("IndicatorFold failed")
	}
	hl, _ := d.Drawing("Horizontal Line")
	if len(hl.Inputs) != 2 || !hl.Inputs[0].Required || hl.Inputs[1].Required {
		t.Errorf("Horizontal Line inputs = %+v", hl.Inputs)
	}

	pm := d.Parameters
	if strings.Join(pm.Ranges, ",") != "1D,5D,1M,3M,6M,1Y,5Y,ALL,DTD,WTD,MTD,YTD" {
		t.Errorf("ranges = %v", pm.Ranges)
	}
	if !contains(pm.Intervals, "2m") || pm.Intervals[1] != "2m" || len(pm.Intervals) != 22 {
		t.Errorf("intervals = %v (want 2m merged from the changelog)", pm.Intervals)
	}
	if strings.Join(pm.Styles, ",") != "bar,candle,line,area,heikinAshi,hollowCandle,baseline,hiLo,column" {
		t.Errorf("styles = %v", pm.Styles)
	}
	if strings.Join(pm.Themes, ",") != "light,dark" || len(pm.Formats) != 2 || len(pm.Scales) != 4 || len(pm.Sessions) != 2 {
		t.Errorf("themes/formats/scales/sessions = %v %v %v %v", pm.Themes, pm.Formats, pm.Scales, pm.Sessions)
	}
	if len(d.Limits) != 5 {
		t.Fatalf("limits = %+v", d.Limits)
	}
	basic, _ := d.Limit("BASIC")
	if basic != (PlanLimit{Plan: "BASIC", PerSecond: 1, Burst: 3, DailyMax: 50, MaxWidth: 800, MaxHeight: 600, Watermark: true, StorageDays: 14, MaxParameters: 3}) {
		t.Errorf("BASIC = %+v", basic)
	}
	ent, _ := d.Limit("ENTERPRISE")
	if !ent.AtLeast || ent.DailyMax != 5000 || ent.MaxParameters != 50 || !ent.CustomMark {
		t.Errorf("ENTERPRISE = %+v", ent)
	}
	if len(d.Exchanges) < 30 || d.Exchanges[0].ID != "BINANCE" || d.Exchanges[0].Category != "Crypto Currency" {
		t.Errorf("exchanges = %+v", d.Exchanges[:1])
	}
	if len(d.Examples) < 2 || !json.Valid([]byte(d.Examples[0].Body)) {
		t.Errorf("examples = %+v", d.Examples)
	}
	if d.LastChange != "Nov 26, 2025" {
		t.Errorf("lastChange = %q", d.LastChange)
	}
}

func TestParseOlderLayout(t *testing.T) {
	d := parseFile(t, "testdata/docs-2023.html")
	basic, _ := d.Limit("BASIC")
	if basic.DailyMax != 100 || basic.Burst != 0 || basic.PerSecond != 1 {
		t.Errorf("BASIC (2023) = %+v", basic)
	}
	if _, ok := d.Limit("ENTERPRISE"); ok || len(d.Limits) != 4 {
		t.Errorf("2023 page has no ENTERPRISE: %+v", d.Limits)
	}
	if contains(d.Parameters.Intervals, "2m") || contains(d.Parameters.Intervals, "6h") {
		t.Errorf("2023 intervals = %v", d.Parameters.Intervals)
	}
	if len(d.Drawings) != 14 {
		t.Errorf("2023 drawings = %d", len(d.Drawings))
	}
}

func TestParseRejectsOtherPages(t *testing.T) {
	for _, page := range []string{"", "<html><body><h1>Hello</h1></body></html>", "not html at all", "<h1 id=x>TradingView Chart Indicators</h1><h2>X</h2>"} {
		if _, err := Parse(strings.NewReader(page)); err == nil {
			t.Errorf("Parse(%q) accepted a page that is not the docs", page)
		}
	}
}

func TestSnapshotParses(t *testing.T) {
	d := Snapshot()
	if len(d.Indicators) != 92 || len(d.Limits) != 5 {
		t.Fatalf("snapshot: %d indicators, %d limits", len(d.Indicators), len(d.Limits))
	}
	for _, in := range d.Indicators {
		if in.Category == "other" {
			t.Errorf("%s has no category", in.Name)
		}
	}
}

func FuzzParse(f *testing.F) {
	seed, _ := os.ReadFile("testdata/docs-2023.html")
	f.Add(string(seed[:20000]))
	f.Add("<h1>Request Limit</h1><table><tr><th>Plan</th><th>req/sec</th></tr><tr><td>X</td><td>1,0+</td></tr></table>")
	f.Add("<h1>TradingView Chart Indicators</h1><h2>A</h2><h4>Parameter input</h4><table><tr><td>in_0</td></tr></table>")
	f.Fuzz(func(t *testing.T, page string) {
		d, err := Parse(strings.NewReader(page))
		if err == nil && (len(d.Indicators) == 0 || len(d.Parameters.Intervals) == 0) {
			t.Fatal("accepted a page without indicators or intervals")
		}
	})
}

// TestSupportedTimezones: the advanced-chart "Supported Timezone" table is
// read as the closed list (81 rows in the Nov 2025 docs), and an older page
// without it leaves the list empty.
func TestSupportedTimezones(t *testing.T) {
	tz := Snapshot().Parameters.Timezones
	names := map[string]Timezone{}
	for _, z := range tz {
		names[z.Name] = z
	}
	for _, tc := range []struct {
		name   string
		listed bool
		offset string
	}{
		{"America/New_York", true, "UTC -05:00"}, {"US/Mountain", true, "UTC -06:00"}, {"Asia/Kathmandu", true, "UTC +05:45"},
		{"Atlantic/Reykjavik", true, "UTC"}, {"America/Denver", false, ""}, {"Etc/UTC", false, ""},
	} {
		z, ok := names[tc.name]
		if ok != tc.listed || z.Offset != tc.offset {
			t.Errorf("%s: listed=%v offset=%q, want %v %q", tc.name, ok, z.Offset, tc.listed, tc.offset)
		}
	}
	if len(tz) != 81 {
		t.Errorf("%d timezones, want 81", len(tz))
	}
	old, err := os.ReadFile("testdata/docs-2023.html")
	if err != nil {
		t.Fatal(err)
	}
	d, err := Parse(bytes.NewReader(old))
	if err != nil || len(d.Parameters.Timezones) != 0 {
		t.Errorf("2023 page: %d timezones, %v", len(d.Parameters.Timezones), err)
	}
}

// TestStudyOverrideTables: each indicator's "Parameter override" table is
// read, and the level values a study draws itself are found by Levels.
func TestStudyOverrideTables(t *testing.T) {
	d := Snapshot()
	for _, tc := range []struct {
		name   string
		levels map[string]any
	}{
		{"Relative Strength Index", map[string]any{"UpperLimit.value": 70.0, "LowerLimit.value": 30.0}},
		{"Williams %R", map[string]any{"UpperLimit.value": -20.0, "LowerLimit.value": -80.0}},
		{"Stochastic RSI", map[string]any{"UpperLimit.value": 80.0, "LowerLimit.value": 20.0}},
		{"Moving Average", map[string]any{}},
	} {
		ind, ok := d.Indicator(tc.name)
		if !ok || len(ind.Overrides) == 0 {
			t.Fatalf("%s: no override table", tc.name)
		}
		got := map[string]any{}
		for _, l := range ind.Levels() {
			got[l.Key] = l.Default
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.levels) {
			t.Errorf("%s levels = %v, want %v", tc.name, got, tc.levels)
		}
	}
}
