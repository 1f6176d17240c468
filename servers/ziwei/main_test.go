package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

// publicGolden is the 300 public iztro 2.6.1 cases kept in the golden package's testdata.
func publicGolden(t testing.TB) string {
	t.Helper()
	return filepath.Join("golden", "testdata", "golden-public.jsonl.gz")
}

func conn(t testing.TB, args ...string) *servetest.Conn {
	t.Helper()
	if len(args) == 0 {
		args = []string{"--rules-file", filepath.Join(t.TempDir(), "cfg", "ziwei-rules.json")}
	}
	if tt, ok := t.(*testing.T); ok {
		// Rules in a state file of this test, as in production.
		tt.Setenv("MCPFLEET_STATE", "file")
		if !slices.Contains(args, "--state-dir") {
			args = append(args, "--state-dir", tt.TempDir())
		}
	}
	return servetest.New(t, app(&tools.Config{}), args...)
}

var birth1990 = map[string]any{"birthDate": "1990-05-17", "birthTimeIndex": 6, "gender": "男"}

func with(base map[string]any, kv ...any) map[string]any {
	m := map[string]any{}
	for k, v := range base {
		m[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// birthKeys are initialize_chart's birth arguments.
var birthKeys = map[string]bool{"birthDate": true, "birthTimeIndex": true, "birthTime": true, "longitude": true,
	"gender": true, "isLunar": true, "isLeapMonth": true, "fixLeap": true, "settings": true}

// onChart runs initialize_chart with the birth arguments in args and returns
// the other arguments with the chart_id in their place (the chart tools take
// only a chart_id).
func onChart(t testing.TB, c *servetest.Conn, args map[string]any) map[string]any {
	t.Helper()
	b, rest := map[string]any{}, map[string]any{}
	for k, v := range args {
		if birthKeys[k] {
			b[k] = v
		} else {
			rest[k] = v
		}
	}
	rest["chart_id"] = structured(t, c, "initialize_chart", b)["chart_id"]
	return rest
}

func structured(t testing.TB, c *servetest.Conn, tool string, args map[string]any) map[string]any {
	t.Helper()
	return servetest.Decode[map[string]any](t, c.Call(t, tool, args))
}

func TestToolDefinitions(t *testing.T) {
	all := tools.New("").All()
	servetest.Lint(t, all)
	servetest.Snapshot(t, all, "testdata/toolsnaps")
	if len(all) != 24 {
		t.Errorf("%d tools, want 24", len(all))
	}
	for _, tl := range all {
		a := tl.Tool.Annotations
		write := tl.Name() == "store_star_combination_meaning" || tl.Name() == "delete_star_combination_meaning"
		destructive := tl.Name() == "delete_star_combination_meaning"
		if *a.ReadOnlyHint == write || *a.DestructiveHint != destructive || !*a.IdempotentHint || *a.OpenWorldHint {
			t.Errorf("%s: hints %+v, want readOnly=%v destructive=%v idempotent=true openWorld=false", tl.Name(), a, !write, destructive)
		}
	}
}

func TestEveryTool(t *testing.T) {
	c := conn(t)
	init := structured(t, c, "initialize_chart", birth1990)
	id := init["chart_id"].(string)
	if !strings.HasPrefix(id, "zw1") || init["soulPalace"] != "命宫 丁亥" || init["fiveElementsClass"] != "土五局" {
		t.Fatalf("initialize_chart: %v", init)
	}
	byID := map[string]any{"chart_id": id}
	for _, tc := range []struct {
		tool  string
		args  map[string]any
		check func(t *testing.T, out map[string]any)
	}{
		{"get_chart_basics", byID, func(t *testing.T, o map[string]any) {
			if o["chineseDate"] != "庚午 辛巳 壬午 丙午" || o["bodyPalace"] != "命宫 丁亥" {
				t.Errorf("basics %v", o)
			}
		}},
		{"get_palace_info", byID, func(t *testing.T, o map[string]any) {
			if n := len(o["palaces"].([]any)); n != 12 {
				t.Errorf("%d palaces", n)
			}
		}},
		{"get_palace_info", with(byID, "palace", "财帛"), func(t *testing.T, o map[string]any) {
			p := o["palaces"].([]any)[0].(map[string]any)
			if p["palace"] != "财帛 癸未" || len(p["gods"].([]any)) != 4 {
				t.Errorf("palace %v", p)
			}
		}},
		{"get_stars_in_palace", with(byID, "palace", "亥"), func(t *testing.T, o map[string]any) {
			if o["palace"] != "命宫 丁亥" || len(o["stars"].([]any)) == 0 {
				t.Errorf("stars %v", o)
			}
		}},
		{"get_star_attributes", map[string]any{"starName": "紫微", "chart_id": id}, func(t *testing.T, o map[string]any) {
			if len(o["brightness"].([]any)) != 12 || o["fiveElement"] != "土" || o["yinYang"] != "阴" || o["inChart"] == "" {
				t.Errorf("attributes %v", o)
			}
		}},
		{"get_star_attributes", map[string]any{"starName": "emperor", "language": "en-US"}, func(t *testing.T, o map[string]any) {
			if o["name"] != "emperor" || o["fiveElement"] != "earth" {
				t.Errorf("attributes %v", o)
			}
		}},
		{"get_natal_sihua", byID, func(t *testing.T, o map[string]any) {
			items := o["items"].([]any)
			// 庚: 太阳 禄, 武曲 权, 太阴 科, 天同 忌
			if o["stem"] != "庚" || len(items) != 4 || !strings.HasPrefix(items[0].(string), "禄 太阳 ") || !strings.HasPrefix(items[3].(string), "忌 天同 ") {
				t.Errorf("sihua %v", o)
			}
		}},
		{"get_sanfang_sizheng", with(byID, "palace", "命宫"), func(t *testing.T, o map[string]any) {
			ref := func(k int) string {
				return strings.Fields(o["palaces"].([]any)[k].(map[string]any)["palace"].(string))[0]
			}
			if ref(0) != "命宫" || ref(1) != "财帛" || ref(2) != "官禄" || ref(3) != "迁移" {
				t.Errorf("sanfang %v", o)
			}
		}},
		{"get_anhe_palace", with(byID, "palace", "命宫"), func(t *testing.T, o map[string]any) {
			if !strings.HasSuffix(o["palaces"].([]any)[1].(map[string]any)["palace"].(string), "寅") { // 亥 ↔ 寅
				t.Errorf("anhe %v", o)
			}
		}},
		{"get_chongzhao_palace", with(byID, "palace", "命宫"), func(t *testing.T, o map[string]any) {
			if !strings.HasSuffix(o["palaces"].([]any)[1].(map[string]any)["palace"].(string), "巳") {
				t.Errorf("chongzhao %v", o)
			}
		}},
		{"get_jia_gong_info", with(byID, "palace", "命宫"), func(t *testing.T, o map[string]any) {
			if len(o["palaces"].([]any)) != 3 || len(o["pairs"].([]any)) != 0 {
				t.Errorf("jia 命宫 %v", o)
			}
		}},
		{"get_jia_gong_info", with(byID, "palace", "申"), func(t *testing.T, o map[string]any) {
			// 禄存 in 申 (子女): 擎羊 in 酉, 陀罗 in 未; 火星 in 未, 铃星 in 酉.
			pairs := o["pairs"].([]any)
			if len(pairs) != 2 || pairs[0].(map[string]any)["type"] != "羊陀夹" || pairs[1].(map[string]any)["type"] != "火铃夹" || pairs[0].(map[string]any)["good"] != false {
				t.Errorf("jia 申 %v", pairs)
			}
		}},
		{"get_decade_info", with(byID, "age", 30), func(t *testing.T, o map[string]any) {
			// 土五局: decades 5-14, 15-24, 25-34 …; 30 is in the third.
			if !strings.HasPrefix(o["decade"].(string), "3: 25-34 ") || len(o["palaces"].([]any)) != 12 || len(o["allDecades"].([]any)) != 12 ||
				!strings.Contains(strings.Join(anyStrings(o["palaces"]), "\n"), "运禄") {
				t.Errorf("decade %v", o)
			}
		}},
		{"get_decade_info", with(byID, "age", 2), func(t *testing.T, o map[string]any) {
			if !strings.HasPrefix(o["decade"].(string), "0: 2-2 ") {
				t.Errorf("childhood %v", o)
			}
		}},
		{"get_decade_sihua", with(byID, "decadeIndex", 1), func(t *testing.T, o map[string]any) {
			if len(o["items"].([]any)) != 4 || !strings.HasSuffix(o["items"].([]any)[0].(string), ")") {
				t.Errorf("decade sihua %v", o)
			}
		}},
		{"get_decade_sihua", with(byID, "stem", "甲"), func(t *testing.T, o map[string]any) {
			if !strings.HasPrefix(o["items"].([]any)[0].(string), "禄 廉贞 ") {
				t.Errorf("decade sihua by stem %v", o)
			}
		}},
		{"get_decade_overlapping_palaces", with(byID, "decadeIndex", 3), func(t *testing.T, o map[string]any) {
			p := o["palaces"].([]any)[0].(string)
			if !strings.HasPrefix(p, "大限命宫 = ") {
				t.Errorf("overlap %v", p)
			}
		}},
		{"get_annual_info", with(byID, "year", 2026), func(t *testing.T, o map[string]any) {
			// 2026 丙午: 流年命宫 on 午; nominal age 37
			if o["stem"] != "丙" || o["branch"] != "午" || o["nominalAge"].(float64) != 37 || !strings.HasSuffix(o["lifePalace"].(string), "午") ||
				!strings.Contains(o["palaces"].([]any)[0].(string), " | 岁建 ") {
				t.Errorf("annual %v", o)
			}
		}},
		{"get_annual_sihua", with(byID, "year", 2026), func(t *testing.T, o map[string]any) {
			if !strings.HasPrefix(o["items"].([]any)[0].(string), "禄 天同 ") { // 丙: 天同 禄
				t.Errorf("annual sihua %v", o)
			}
		}},
		{"get_annual_overlapping_palaces", with(byID, "year", 2026), func(t *testing.T, o map[string]any) {
			if len(o["annualToNatal"].([]any)) != 12 || len(o["annualToDecade"].([]any)) != 12 {
				t.Errorf("annual overlap %v", o)
			}
		}},
		{"get_palace_stem_sihua", byID, func(t *testing.T, o map[string]any) {
			if len(o["palaces"].([]any)) != 12 {
				t.Errorf("flying %v", o)
			}
		}},
		{"get_palace_stem_sihua", with(byID, "palace", "命宫"), func(t *testing.T, o map[string]any) {
			// 命宫 丁亥: 丁 化忌 巨门, which sits in 命宫 → 自化忌.
			p := o["palaces"].([]any)[0].(map[string]any)
			fl := p["flights"].([]any)
			if p["palace"] != "命宫 = 命宫 丁亥" || fl[3] != "忌 巨门 → 命宫 丁亥" ||
				len(p["selfTransformed"].([]any)) != 1 || p["selfTransformed"].([]any)[0] != "忌" {
				t.Errorf("自化 %v", p)
			}
		}},
		{"get_palace_stem_sihua", with(byID, "chartLevel", "Decade", "age", 40, "palace", "命宫"), func(t *testing.T, o map[string]any) {
			p := o["palaces"].([]any)[0].(map[string]any)
			if !strings.HasPrefix(p["palace"].(string), "大限命宫 = ") || len(p["flights"].([]any)) != 4 {
				t.Errorf("flying decade %v", p)
			}
		}},
		{"get_palace_stem_sihua", with(byID, "chartLevel", "Annual", "year", 2030, "palace", "财帛"), func(t *testing.T, o map[string]any) {
			if !strings.HasPrefix(o["palaces"].([]any)[0].(map[string]any)["palace"].(string), "流年财帛 = ") {
				t.Errorf("flying annual %v", o)
			}
		}},
		{"get_monthly_info", with(byID, "targetDate", "2026-03-20"), func(t *testing.T, o map[string]any) {
			if !strings.HasPrefix(o["palaces"].([]any)[0].(string), "流月命宫 = ") || len(o["sihua"].([]any)) != 4 || !strings.Contains(strings.Join(anyStrings(o["palaces"]), "\n"), "月禄") {
				t.Errorf("monthly %v", o)
			}
		}},
		{"get_daily_info", with(byID, "targetDate", "2026-03-20"), func(t *testing.T, o map[string]any) {
			if !strings.HasPrefix(o["palaces"].([]any)[0].(string), "流日命宫 = ") {
				t.Errorf("daily %v", o)
			}
		}},
		{"get_hourly_info", with(byID, "targetDate", "2026-03-20", "targetTimeIndex", 12), func(t *testing.T, o map[string]any) {
			if !strings.HasPrefix(o["palaces"].([]any)[0].(string), "流时命宫 = ") {
				t.Errorf("hourly %v", o)
			}
		}},
		{"query_astrological_pattern", with(byID, "includeMissing", true), func(t *testing.T, o map[string]any) {
			if n := len(o["patterns"].([]any)); n < 40 {
				t.Errorf("%d patterns", n)
			}
		}},
		{"query_astrological_pattern", with(byID, "pattern", "命身同宫"), func(t *testing.T, o map[string]any) {
			p := o["patterns"].([]any)[0].(map[string]any)
			if p["matched"] != true || len(p["conditions"].([]any)) == 0 {
				t.Errorf("pattern %v", p)
			}
		}},
		{"query_star_combination_meaning", map[string]any{"stars": []any{"紫微", "天府"}, "includeCatalogue": true}, func(t *testing.T, o map[string]any) {
			if len(o["results"].([]any)) < 2 {
				t.Errorf("combination %v", o)
			}
		}},
		{"store_star_combination_meaning", map[string]any{"name": "test", "meaning": "m", "rule": map[string]any{"stars": []any{"巨门"}, "in": "命宫"}, "chart_id": id}, func(t *testing.T, o map[string]any) {
			if o["matchesChart"] != true || o["count"].(float64) != 1 {
				t.Errorf("store %v", o)
			}
		}},
		{"delete_star_combination_meaning", map[string]any{"name": "test"}, func(t *testing.T, o map[string]any) {
			if len(o["deleted"].([]any)) != 1 || o["count"].(float64) != 0 {
				t.Errorf("delete %v", o)
			}
		}},
	} {
		t.Run(tc.tool, func(t *testing.T) { tc.check(t, structured(t, c, tc.tool, tc.args)) })
	}
}

func TestBadInputs(t *testing.T) {
	c := conn(t)
	valid := structured(t, c, "initialize_chart", birth1990)["chart_id"].(string)
	for _, tc := range []struct {
		name  string
		tool  string
		args  map[string]any
		field string
		want  string
	}{
		{"impossible date", "initialize_chart", with(birth1990, "birthDate", "2023-02-30"), "birthDate", "2023-02 has 28 days"},
		{"malformed date", "initialize_chart", with(birth1990, "birthDate", "17/05/1990"), "birthDate", "YYYY-MM-DD"},
		{"year too early", "initialize_chart", with(birth1990, "birthDate", "1899-12-31"), "birthDate", "1900-2100"},
		{"year too late", "initialize_chart", with(birth1990, "birthDate", "2101-01-01"), "birthDate", "1900-2100"},
		{"lunar day 30 of a 29-day month", "initialize_chart", with(birth1990, "birthDate", "2017-05-30", "isLunar", true), "birthDate", "has 29 days"},
		{"no time", "initialize_chart", map[string]any{"birthDate": "1990-05-17", "gender": "女"}, "birthTimeIndex", "birthTime"},
		{"both times", "initialize_chart", with(birth1990, "birthTime", "11:30"), "birthTime", "not both"},
		{"clock", "initialize_chart", map[string]any{"birthDate": "1990-05-17", "birthTime": "25:10", "gender": "女"}, "birthTime", "00-23"},
		{"leap flag on solar", "initialize_chart", with(birth1990, "isLeapMonth", true), "isLeapMonth", "isLunar"},
		{"empty chart_id", "get_chart_basics", map[string]any{"chart_id": " "}, "chart_id", "initialize_chart"},
		{"bad chart_id", "get_chart_basics", map[string]any{"chart_id": "zw1notavalidid!"}, "chart_id", "initialize_chart"},
		{"mistyped chart_id", "get_chart_basics", map[string]any{"chart_id": valid[:len(valid)-1] + flipChar(valid[len(valid)-1])}, "chart_id", "checksum"},
		{"other version", "get_chart_basics", map[string]any{"chart_id": "zw2" + valid[3:]}, "chart_id", "version"},
		{"bad palace", "get_stars_in_palace", map[string]any{"chart_id": valid, "palace": "厨房"}, "palace", "命宫"},
		{"bad star", "get_star_attributes", map[string]any{"starName": "北极星"}, "starName", "ziwei://stars"},
		{"year before birth", "get_annual_info", map[string]any{"chart_id": valid, "year": 1980}, "year", "1990 or later"},
		{"target before birth", "get_monthly_info", map[string]any{"chart_id": valid, "targetDate": "1980-01-01"}, "targetDate", "before the birth"},
		{"impossible target", "get_daily_info", map[string]any{"chart_id": valid, "targetDate": "2026-02-29"}, "targetDate", "28 days"},
		{"decade selector missing", "get_decade_info", map[string]any{"chart_id": valid}, "age", "decadeIndex"},
		{"annual info without year", "get_annual_info", map[string]any{"chart_id": valid}, "year", "lunar year"},
		{"annual level, year before birth", "get_palace_stem_sihua", map[string]any{"chart_id": valid, "chartLevel": "Annual", "year": 1950}, "year", "before the birth"},
		{"unknown pattern", "query_astrological_pattern", map[string]any{"chart_id": valid, "pattern": "xyz"}, "pattern", "includeMissing"},
		{"bad rule", "store_star_combination_meaning", map[string]any{"name": "n", "meaning": "m", "rule": map[string]any{"stars": []any{"紫微"}, "in": "厨房"}}, "rule", "unknown palace"},
		{"code as rule", "store_star_combination_meaning", map[string]any{"name": "n", "meaning": "m", "rule": map[string]any{"js": "return true"}}, "rule", "not a valid rule"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := servetest.ErrorBody(t, c.Call(t, tc.tool, tc.args))
			if body.Code != "invalid_argument" || !strings.Contains(body.Message, tc.want) || body.Details["field"] != tc.field {
				t.Errorf("got %s %q %v; want invalid_argument on %s mentioning %q", body.Code, body.Message, body.Details, tc.field, tc.want)
			}
		})
	}
	// Out-of-range numbers and unknown genders are refused by the input schema (min/max, enum) before the handler.
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{with(birth1990, "birthTimeIndex", 13), "birthTimeIndex: 13 is above the maximum 12"},
		{with(birth1990, "birthTimeIndex", -1), "birthTimeIndex: -1 is below the minimum 0"},
		{with(birth1990, "longitude", 181.0), "longitude: 181 is above the maximum 180"},
		{with(birth1990, "gender", "x"), `gender: "x" is not one of "男", "女", "male", "female"`},
		{map[string]any{"birthDate": "1990-05-17", "birthTimeIndex": 1}, "gender is required"},
	} {
		body := servetest.ErrorBody(t, c.Call(t, "initialize_chart", tc.args))
		if body.Code != "invalid_argument" || body.Message != tc.want {
			t.Errorf("%v: got %s %q, want invalid_argument %q", tc.args, body.Code, body.Message, tc.want)
		}
	}
}

// TestChartToolsTakeOnlyChartID: chart tools refuse birth fields (the schema
// names the valid arguments) and a missing chart_id.
func TestChartToolsTakeOnlyChartID(t *testing.T) {
	c := conn(t)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "chart_id is required"},
		{birth1990, "unknown argument birthDate — valid arguments: chart_id, language"},
	} {
		body := servetest.ErrorBody(t, c.Call(t, "get_chart_basics", tc.args))
		if body.Code != "invalid_argument" || !strings.Contains(body.Message, tc.want) {
			t.Errorf("%v: got %s %q, want %q", tc.args, body.Code, body.Message, tc.want)
		}
	}
}

func flipChar(b byte) string {
	if b == '0' {
		return "1"
	}
	return "0"
}

func TestChartIDRoundTrip(t *testing.T) {
	c := conn(t)
	for _, args := range []map[string]any{
		birth1990,
		{"birthDate": "2017-06-30", "isLunar": true, "isLeapMonth": true, "birthTimeIndex": 12, "gender": "female", "fixLeap": false},
		{"birthDate": "1984-02-02", "birthTime": "23:40", "gender": "女"},
		{"birthDate": "1990-02-11", "birthTime": "00:30", "longitude": 87.6, "gender": "male"},
		{"birthDate": "2100-12-31", "birthTimeIndex": 0, "gender": "男"},
	} {
		a := structured(t, c, "initialize_chart", args)
		b := structured(t, c, "get_chart_basics", map[string]any{"chart_id": a["chart_id"]})
		delete(a, "chart_id")
		delete(a, "patterns")
		delete(a, "matchedRules")
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Errorf("chart_id round trip differs:\n%s\n%s", ja, jb)
		}
	}
	// True solar time at 87.6°E moves 00:30 Beijing time to the previous evening.
	b := structured(t, c, "initialize_chart", map[string]any{"birthDate": "1990-02-11", "birthTime": "00:30", "longitude": 87.6, "gender": "male"})
	if bt := b["timeRead"].(string); b["solarDate"] != "1990-02-10" || !strings.Contains(bt, "solar date -1 day") || !strings.HasSuffix(bt, "slot 11") {
		t.Errorf("true solar time: %v", b)
	}
}

func TestAnnualInBirthYear(t *testing.T) {
	c := conn(t)
	// Born 1990-01-20, before Chinese New Year: lunar year 1989 (己巳), nominal age 1.
	for _, tc := range []struct {
		date      string
		year, age int
	}{{"1990-01-20", 1989, 1}, {"1990-01-20", 1990, 2}, {"1990-10-20", 1990, 1}, {"1990-10-20", 1991, 2}} {
		o := structured(t, c, "get_annual_info", onChart(t, c, map[string]any{"birthDate": tc.date, "birthTimeIndex": 3, "gender": "女", "year": tc.year}))
		if o["nominalAge"].(float64) != float64(tc.age) {
			t.Errorf("%s %d: %v", tc.date, tc.year, o)
		}
	}
}

func TestLanguages(t *testing.T) {
	c := conn(t)
	en := structured(t, c, "get_natal_sihua", onChart(t, c, with(birth1990, "language", "en-US")))
	if !strings.HasPrefix(en["items"].([]any)[0].(string), "A sun ") {
		t.Errorf("en-US: %v", en)
	}
	tw := structured(t, c, "get_stars_in_palace", onChart(t, c, with(birth1990, "language", "zh-TW", "palace", "命宮")))
	if !strings.HasPrefix(tw["palace"].(string), "命宮 ") {
		t.Errorf("zh-TW: %v", tw)
	}
	res := c.Call(t, "initialize_chart", with(birth1990, "language", "fr-FR"))
	if !res.IsError {
		t.Errorf("fr-FR accepted")
	}
}

func TestResourcesAndPrompt(t *testing.T) {
	c := conn(t)
	id := structured(t, c, "initialize_chart", birth1990)["chart_id"].(string)
	ctx := context.Background()
	read := func(uri string) string {
		t.Helper()
		var req mcp.ReadResourceRequest
		req.Params.URI = uri
		res, err := c.Client.ReadResource(ctx, req)
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		return res.Contents[0].(mcp.TextResourceContents).Text
	}
	board := read("ziwei://chart/" + id)
	for _, want := range []string{"命宫·身 丁亥", "巨门", "庚午 辛巳 壬午 丙午", id, "+------------------------+"} {
		if !strings.Contains(board, want) {
			t.Errorf("board lacks %q:\n%s", want, board)
		}
	}
	if en := read("ziwei://chart/" + id + "?language=en-US"); !strings.Contains(en, "soul (body)") {
		t.Errorf("en board:\n%s", en)
	}
	var stars []map[string]any
	if err := json.Unmarshal([]byte(read("ziwei://stars")), &stars); err != nil || len(stars) != 70 { // 66 in every chart + 4 中州派 stars
		t.Errorf("ziwei://stars: %d stars, %v", len(stars), err)
	}
	if one := read("ziwei://stars/emperor"); !strings.Contains(one, "紫微") || !strings.Contains(one, "zh-TW") {
		t.Errorf("ziwei://stars/emperor: %s", one)
	}
	var bad mcp.ReadResourceRequest
	bad.Params.URI = "ziwei://chart/zw1000000000000"
	if _, err := c.Client.ReadResource(ctx, bad); err == nil {
		t.Errorf("a bad chart_id resource read succeeded")
	}
	var pr mcp.GetPromptRequest
	pr.Params.Name = "read_chart"
	pr.Params.Arguments = map[string]string{"chart_id": id, "focus": "career"}
	p, err := c.Client.GetPrompt(ctx, pr)
	if err != nil {
		t.Fatal(err)
	}
	text := p.Messages[0].Content.(mcp.TextContent).Text
	if !strings.Contains(text, "career") || !strings.Contains(text, "命身同宫") || !strings.Contains(text, "+---") {
		t.Errorf("prompt text:\n%s", text)
	}
}

func TestRulesStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "sub", "ziwei.db")
	c := conn(t, "--state-dir", filepath.Join(dir, "sub"))
	rule := map[string]any{"all": []any{
		map[string]any{"stars": []any{"巨门"}, "in": "命宫"},
		map[string]any{"mutagens": []any{"禄"}, "in": "命宫", "scope": "sanfang"},
	}}
	st := structured(t, c, "store_star_combination_meaning", map[string]any{"name": "巨门得禄", "meaning": "口才生财", "rule": rule})
	if st["replaced"] != false || st["count"].(float64) != 1 {
		t.Fatalf("store: %v", st)
	}
	info, err := os.Stat(file)
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("state file: %v, mode %v", err, info)
	}
	again := structured(t, c, "store_star_combination_meaning", map[string]any{"name": "巨门得禄", "meaning": "口才生财 (2)", "rule": rule})
	if again["replaced"] != true || again["count"].(float64) != 1 || again["id"] != st["id"] {
		t.Fatalf("replace: %v", again)
	}
	// 1990-05-17 午时: 巨门 in 命宫 (亥); 庚 化禄 太阳 in the 三方四正?
	q := structured(t, c, "query_star_combination_meaning", onChart(t, c, with(birth1990, "name", "巨门得禄")))
	res := q["results"].([]any)
	if len(res) != 1 || res[0].(map[string]any)["meaning"] != "口才生财 (2)" || len(res[0].(map[string]any)["conditions"].([]any)) != 2 {
		t.Fatalf("query: %v", q)
	}
	matched := res[0].(map[string]any)["matched"].(bool)
	init := structured(t, c, "initialize_chart", birth1990)
	if got := len(init["matchedRules"].([]any)); (got == 1) != matched {
		t.Errorf("initialize_chart matchedRules %v, query said matched=%v", init["matchedRules"], matched)
	}
	// A rule that holds (巨门 sits in 命宫) matches on every call, also once
	// the chart's summary is memoised and the chart is built only for the rules.
	structured(t, c, "store_star_combination_meaning", map[string]any{"name": "巨门坐命", "meaning": "m",
		"rule": map[string]any{"stars": []any{"巨门"}, "in": "命宫"}})
	for round := range 2 {
		hits := structured(t, c, "initialize_chart", birth1990)["matchedRules"].([]any)
		found := false
		for _, h := range hits {
			found = found || h.(map[string]any)["name"] == "巨门坐命"
		}
		if !found {
			t.Errorf("round %d: initialize_chart matchedRules %v lacks 巨门坐命", round, hits)
		}
	}
	structured(t, c, "delete_star_combination_meaning", map[string]any{"name": "巨门坐命"})
	// A second server on the same state file sees the rule (processes share it).
	c2 := conn(t, "--state-dir", filepath.Dir(file))
	if n := len(structured(t, c2, "query_star_combination_meaning", map[string]any{})["results"].([]any)); n != 1 {
		t.Errorf("second server sees %d rules", n)
	}
	// Read-only mode drops the writing tool.
	ro := conn(t, "--state-dir", filepath.Dir(file), "--read-only")
	for _, tl := range ro.Tools(t) {
		if tl.Name == "store_star_combination_meaning" {
			t.Errorf("store tool listed in read-only mode")
		}
	}
	if len(ro.Tools(t)) != 22 {
		t.Errorf("read-only: %d tools", len(ro.Tools(t)))
	}
}

func TestDecadeRuleNeedsTarget(t *testing.T) {
	c := conn(t)
	rule := map[string]any{"mutagens": []any{"忌"}, "level": "decade", "in": "大限命宫", "scope": "sanfang"}
	structured(t, c, "store_star_combination_meaning", map[string]any{"name": "大限忌冲", "meaning": "m", "rule": rule})
	q := structured(t, c, "query_star_combination_meaning", onChart(t, c, birth1990))
	cond := q["results"].([]any)[0].(map[string]any)["conditions"].([]any)[0].(map[string]any)
	if !strings.Contains(cond["detail"].(string), "targetDate") {
		t.Errorf("without targetDate: %v", cond)
	}
	q = structured(t, c, "query_star_combination_meaning", onChart(t, c, with(birth1990, "targetDate", "2030-06-01")))
	cond = q["results"].([]any)[0].(map[string]any)["conditions"].([]any)[0].(map[string]any)
	if d, _ := cond["detail"].(string); strings.Contains(d, "targetDate") {
		t.Errorf("with targetDate: %v", cond)
	}
}

// goldenCase is the part of a golden record the tests read.
type goldenCase struct {
	ID    string `json:"id"`
	Input struct {
		Date        string `json:"date"`
		IsLunar     bool   `json:"isLunar"`
		IsLeapMonth bool   `json:"isLeapMonth"`
		FixLeap     bool   `json:"fixLeap"`
		TimeIndex   int    `json:"timeIndex"`
		Gender      string `json:"gender"`
	} `json:"input"`
	Chart struct {
		Palaces []struct {
			Name         string      `json:"name"`
			IsBodyPalace bool        `json:"isBodyPalace"`
			Branch       string      `json:"earthlyBranch"`
			Major        [][5]string `json:"majorStars"`
			Minor        [][5]string `json:"minorStars"`
		} `json:"palaces"`
	} `json:"chart"`
	Horoscope []struct {
		Date      string `json:"date"`
		TimeIndex int    `json:"timeIndex"`
		Zh        struct {
			Monthly goldenPeriod `json:"monthly"`
			Daily   goldenPeriod `json:"daily"`
			Hourly  goldenPeriod `json:"hourly"`
		} `json:"zh"`
	} `json:"horoscope"`
}

type goldenPeriod struct {
	Index   int      `json:"index"`
	Mutagen []string `json:"mutagen"`
}

func readGolden(t testing.TB) []goldenCase {
	f, err := os.Open(publicGolden(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 16<<20)
	var out []goldenCase
	for sc.Scan() {
		var g goldenCase
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		out = append(out, g)
	}
	return out
}

func (g *goldenCase) args() map[string]any {
	return map[string]any{"birthDate": g.Input.Date, "isLunar": g.Input.IsLunar, "isLeapMonth": g.Input.IsLeapMonth,
		"fixLeap": g.Input.FixLeap, "birthTimeIndex": g.Input.TimeIndex, "gender": g.Input.Gender}
}

// TestPatternsAgainstGolden re-derives a few patterns from iztro's own star
// placements in the golden data (not from our engine) and checks that
// initialize_chart reports exactly those charts.
func TestPatternsAgainstGolden(t *testing.T) {
	cases := readGolden(t)
	c := conn(t)
	has := func(list [][5]string, names ...string) bool {
		n := 0
		for _, want := range names {
			for _, s := range list {
				if s[0] == want {
					n++
				}
			}
		}
		return n == len(names)
	}
	counts := map[string]int{}
	for i := range cases {
		g := &cases[i]
		ps := g.Chart.Palaces
		soul := -1
		for k, p := range ps {
			if p.Name == "命宫" {
				soul = k
			}
		}
		prev, next := ps[(soul+11)%12], ps[(soul+1)%12]
		all := func(k int) [][5]string { return append(append([][5]string{}, ps[k].Major...), ps[k].Minor...) }
		want := map[string]bool{
			"紫府同宫": has(ps[soul].Major, "紫微", "天府"),
			"命无正曜": len(ps[soul].Major) == 0,
			"石中隐玉": has(ps[soul].Major, "巨门") && (ps[soul].Branch == "子" || ps[soul].Branch == "午"),
			"命身同宫": ps[soul].IsBodyPalace,
			"羊陀夹命": (has(all((soul+11)%12), "擎羊") && has(all((soul+1)%12), "陀罗")) || (has(all((soul+11)%12), "陀罗") && has(all((soul+1)%12), "擎羊")),
			"日月夹命": (has(prev.Major, "太阳") && has(next.Major, "太阴")) || (has(prev.Major, "太阴") && has(next.Major, "太阳")),
			"杀破狼":  has(ps[soul].Major, "七杀") || has(ps[soul].Major, "破军") || has(ps[soul].Major, "贪狼"),
			"左右同宫": has(ps[soul].Minor, "左辅", "右弼"),
		}
		out := structured(t, c, "initialize_chart", g.args())
		got := map[string]bool{}
		for _, p := range out["patterns"].([]any) {
			name, _, _ := strings.Cut(p.(string), ": ")
			got[name] = true
		}
		for name, w := range want {
			if got[name] != w {
				t.Errorf("%s %s: pattern reported %v, golden placements say %v", g.ID, name, got[name], w)
			}
			if w {
				counts[name]++
			}
		}
	}
	for _, name := range []string{"命无正曜", "命身同宫", "羊陀夹命", "杀破狼"} {
		if counts[name] == 0 {
			t.Errorf("no golden chart has %s; the check is vacuous", name)
		}
	}
	t.Logf("pattern counts over %d golden charts: %v", len(cases), counts)
}

// TestPeriodsAgainstGolden checks the 流月/流日/流时 tools' life palace and 四化
// against iztro's horoscopes in the golden data.
func TestPeriodsAgainstGolden(t *testing.T) {
	cases := readGolden(t)
	c := conn(t)
	for i := 0; i < len(cases); i += 7 {
		g := &cases[i]
		id := structured(t, c, "initialize_chart", g.args())["chart_id"]
		for _, h := range g.Horoscope {
			for tool, want := range map[string]goldenPeriod{"get_monthly_info": h.Zh.Monthly, "get_daily_info": h.Zh.Daily, "get_hourly_info": h.Zh.Hourly} {
				key := tool
				out := structured(t, c, tool, map[string]any{"chart_id": id, "targetDate": h.Date, "targetTimeIndex": h.TimeIndex})
				// lifePalace is "role stem+branch"; board index 0 is 寅.
				if got, br := out["lifePalace"].(string), string([]rune("子丑寅卯辰巳午未申酉戌亥")[(want.Index+2)%12]); !strings.HasSuffix(got, br) {
					t.Errorf("%s %s %s: life palace %s, golden index %d (%s)", g.ID, h.Date, key, got, want.Index, br)
				}
				for k, it := range out["sihua"].([]any) {
					if s := strings.Fields(it.(string))[1]; s != want.Mutagen[k] {
						t.Errorf("%s %s %s: 四化[%d] %v, golden %s", g.ID, h.Date, key, k, s, want.Mutagen[k])
					}
				}
			}
		}
	}
}

func TestCheckGolden(t *testing.T) {
	path := publicGolden(t)
	var out, errOut strings.Builder
	code := checkGolden([]string{path}, &out, &errOut)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	last := lines[len(lines)-1]
	if code != 0 || last != "300 passed, 0 failed" {
		t.Errorf("check-golden exit %d, last line %q (stderr %s)", code, last, errOut.String())
	}
	// A broken record fails with exit 1 and still ends with the summary line.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"id":"x","input":{"date":"1990-05-17","timeIndex":6,"gender":"男"},"chart":{"gender":"女"}}`+"\n"), 0o600)
	out.Reset()
	if code := checkGolden([]string{bad}, &out, &errOut); code != 1 || !strings.HasSuffix(strings.TrimSpace(out.String()), "0 passed, 1 failed") {
		t.Errorf("bad file: exit %d, output %q", code, out.String())
	}
	if code := checkGolden(nil, &out, &errOut); code != 2 {
		t.Errorf("no argument: exit %d", code)
	}
}

// BenchmarkInitializeChartMCP is one initialize_chart through the in-process
// MCP client (schema validation, handler, patterns, JSON both ways).
func BenchmarkInitializeChartMCP(b *testing.B) {
	c := conn(b)
	args := make([]map[string]any, 64)
	for i := range args {
		args[i] = map[string]any{"birthDate": "19" + string(rune('5'+i%5)) + "0-0" + string(rune('1'+i%9)) + "-1" + string(rune('0'+i%10)), "birthTimeIndex": i % 13, "gender": "男"}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if res := c.Call(b, "initialize_chart", args[i%len(args)]); res.IsError {
			b.Fatal(servetest.Text(res))
		}
	}
}

func anyStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}
