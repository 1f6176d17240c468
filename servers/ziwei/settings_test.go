package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

// TestChartSettings: initialize_chart's settings become part of the chart_id;
// later tools on that id use them, an old-style id keeps the defaults, and
// bad settings are refused naming the fix.
func TestChartSettings(t *testing.T) {
	c := conn(t)
	// 1990 is a 庚 year: the default 庚 四化 is 太阳 武曲 太阴 天同, this school's 太阳 武曲 天同 太阴.
	custom := map[string]any{"mutagens": map[string]any{"庚": []any{"太阳", "武曲", "天同", "太阴"}}}
	def := structured(t, c, "initialize_chart", birth1990)
	got := structured(t, c, "initialize_chart", with(birth1990, "settings", custom))
	id := got["chart_id"].(string)
	if id == def["chart_id"] || !strings.HasPrefix(id, def["chart_id"].(string)+"-") {
		t.Fatalf("chart_id %s does not extend the default id %s", id, def["chart_id"])
	}
	if got["settings"] == nil || def["settings"] != nil || !strings.Contains(got["school"].(string), "自定四化") {
		t.Errorf("echo: default %v / custom %v %v", def["settings"], got["settings"], got["school"])
	}
	sihua := structured(t, c, "get_natal_sihua", map[string]any{"chart_id": id})["items"].([]any)
	if !strings.HasPrefix(sihua[2].(string), "科 天同 ") || !strings.HasPrefix(sihua[3].(string), "忌 太阴 ") {
		t.Errorf("custom 四化 not applied: %v", sihua)
	}
	old := structured(t, c, "get_natal_sihua", map[string]any{"chart_id": def["chart_id"]})["items"].([]any)
	if !strings.HasPrefix(old[3].(string), "忌 天同 ") {
		t.Errorf("default chart_id: %v", old)
	}
	for _, tc := range []struct {
		settings any
		want     string
	}{
		{map[string]any{"mutagens": map[string]any{"庚": []any{"太阳"}}}, "give exactly 4"},
		{map[string]any{"brightness": map[string]any{"北极星": []any{}}}, "unknown star"},
	} {
		body := servetest.ErrorBody(t, c.Call(t, "initialize_chart", with(birth1990, "settings", tc.settings)))
		if body.Code != "invalid_argument" || !strings.Contains(body.Message, tc.want) {
			t.Errorf("%v: %s %q", tc.settings, body.Code, body.Message)
		}
	}
	body := servetest.ErrorBody(t, c.Call(t, "get_chart_basics", map[string]any{"chart_id": id[:len(id)-1] + flipChar(id[len(id)-1])}))
	if body.Code != "invalid_argument" || !strings.Contains(body.Message, "settings part") {
		t.Errorf("mistyped settings part: %s %q", body.Code, body.Message)
	}
}

// TestDeploymentSettings: ZIWEI_SETTINGS is the default of initialize_chart,
// and invalid settings stop the start.
func TestDeploymentSettings(t *testing.T) {
	t.Setenv("ZIWEI_SETTINGS", `{"mutagens":{"geng":["sun","warrior","fortunate","moon"]}}`)
	c := conn(t)
	got := structured(t, c, "initialize_chart", birth1990)
	if !strings.Contains(got["chart_id"].(string), "-") || got["settings"] == nil {
		t.Errorf("deployment settings not applied: %v", got)
	}
	t.Setenv("ZIWEI_SETTINGS", `{"mutagens":{"庚":["太阳"]}}`)
	app := app(&tools.Config{})
	if err := app.Register(t.Context(), nil); err == nil || !strings.Contains(err.Error(), "ZIWEI_SETTINGS") {
		t.Errorf("invalid ZIWEI_SETTINGS accepted: %v", err)
	}
}

// TestYearDivideExactDeployment: a deployment with yearDivide exact takes the
// year from 立春. 2021-02-08 lies after 立春 (02-03) and before 正月初一
// (02-12): 庚子 by default, 辛丑 from 立春.
func TestYearDivideExactDeployment(t *testing.T) {
	birth := map[string]any{"birthDate": "2021-02-08", "birthTimeIndex": 6, "gender": "女"}
	def := structured(t, conn(t), "initialize_chart", birth)
	t.Setenv("ZIWEI_SETTINGS", `{"yearDivide":"exact"}`)
	exact := structured(t, conn(t), "initialize_chart", birth)
	if !strings.HasPrefix(def["chineseDate"].(string), "庚子 ") || !strings.HasPrefix(exact["chineseDate"].(string), "辛丑 ") {
		t.Errorf("year pillar: default %v, exact %v", def["chineseDate"], exact["chineseDate"])
	}
	if !strings.Contains(exact["school"].(string), "立春") || exact["chart_id"] == def["chart_id"] {
		t.Errorf("exact chart: %v", exact)
	}
	// The id carries the setting: a server with default settings reads it the same way.
	t.Setenv("ZIWEI_SETTINGS", "")
	again := structured(t, conn(t), "get_chart_basics", map[string]any{"chart_id": exact["chart_id"]})
	if again["chineseDate"] != exact["chineseDate"] {
		t.Errorf("decoded elsewhere: %v", again["chineseDate"])
	}
}

// TestZhongzhouChart: a chart_id made with settings {"algorithm":"zhongzhou"}
// shows 中州派 placements in later get_palace_info calls: 龙德 截空 劫杀 大耗
// instead of 截路 空亡, and 命主 by the year branch.
func TestZhongzhouChart(t *testing.T) {
	c := conn(t)
	zz := structured(t, c, "initialize_chart", with(birth1990, "settings", map[string]any{"algorithm": "zhongzhou"}))
	if !strings.Contains(zz["school"].(string), "中州派") {
		t.Errorf("school %v", zz["school"])
	}
	all := func(id any) string {
		var b strings.Builder
		for _, p := range structured(t, c, "get_palace_info", map[string]any{"chart_id": id})["palaces"].([]any) {
			for _, s := range p.(map[string]any)["adjectiveStars"].([]any) {
				b.WriteString(s.(string) + " ")
			}
		}
		return b.String()
	}
	got, def := all(zz["chart_id"]), all(structured(t, c, "initialize_chart", birth1990)["chart_id"])
	for _, s := range []string{"龙德", "截空", "劫杀", "大耗"} {
		if !strings.Contains(got, s) || strings.Contains(def, s) {
			t.Errorf("%s: zhongzhou %q, default %q", s, got, def)
		}
	}
	if strings.Contains(got, "截路") || !strings.Contains(def, "截路") {
		t.Errorf("截路: zhongzhou %q, default %q", got, def)
	}
	// 1990 庚午: 命主 by the year branch 午 is 破军 (default: by the 命宫 branch 亥, 巨门).
	if zz["soul"] != "破军" {
		t.Errorf("中州派 命主 %v", zz["soul"])
	}
	yr := strings.Join(anyStrings(structured(t, c, "get_annual_info", map[string]any{"chart_id": zz["chart_id"], "year": 2026})["palaces"]), "\n")
	if !strings.Contains(yr, "岁破") || strings.Contains(yr, "大耗") {
		t.Errorf("中州派 year gods: %s", yr)
	}
	a := structured(t, c, "get_star_attributes", map[string]any{"starName": "截路", "chart_id": zz["chart_id"]})
	if a["inChart"] != "not in this chart (school)" {
		t.Errorf("absent star: %v", a["inChart"])
	}
}

// TestAstroTypeCharts: settings.astroType gives iztro's 地盘 and 人盘
// (astro.withOptions, iztro 2.6.1: for 1990-05-17 寅时 女 the 命宫 moves from
// 己卯 to the body palace's 癸未, resp. the 福德 palace's 辛巳, and the bureau
// to 木三局, resp. 金四局), the chart_id carries it, every tool and the board
// on that id use it, and an unknown astroType is refused naming the values.
func TestAstroTypeCharts(t *testing.T) {
	c := conn(t)
	birth := map[string]any{"birthDate": "1990-05-17", "birthTimeIndex": 2, "gender": "女"}
	heaven := structured(t, c, "initialize_chart", birth)
	for _, tc := range []struct {
		astroType, soul, bureau, school, heavenBody string
	}{
		{"heaven", "命宫 己卯", "土五局", "", ""},
		{"earth", "命宫 癸未", "木三局", "地盘", "命宫 癸未"},
		{"human", "命宫 辛巳", "金四局", "人盘", "福德 癸未"},
	} {
		got := structured(t, c, "initialize_chart", with(birth, "settings", map[string]any{"astroType": tc.astroType}))
		id := got["chart_id"].(string)
		if tc.astroType == "heaven" {
			if id != heaven["chart_id"] {
				t.Errorf("heaven chart_id %s, default %s", id, heaven["chart_id"])
			}
		} else if !strings.HasPrefix(id, heaven["chart_id"].(string)+"-") {
			t.Errorf("%s chart_id %s does not extend %s", tc.astroType, id, heaven["chart_id"])
		}
		basics := structured(t, c, "get_chart_basics", map[string]any{"chart_id": id})
		if basics["soulPalace"] != tc.soul || basics["fiveElementsClass"] != tc.bureau || !strings.Contains(fmt.Sprint(basics["school"]), tc.school) ||
			fmt.Sprint(basics["heavenBodyPalace"]) != map[bool]string{true: "<nil>", false: tc.heavenBody}[tc.heavenBody == ""] {
			t.Errorf("%s basics: %v", tc.astroType, basics)
		}
		if d := structured(t, c, "get_decade_info", map[string]any{"chart_id": id, "decadeIndex": 1}); !strings.Contains(fmt.Sprint(d["decade"]), tc.soul) {
			t.Errorf("%s first decade %v, want it in %s", tc.astroType, d["decade"], tc.soul)
		}
		if b := readResource(t, c, "ziwei://chart/"+id+"?language=ja-JP"); !strings.Contains(b, id) {
			t.Errorf("%s board:\n%s", tc.astroType, b)
		}
	}
	body := servetest.ErrorBody(t, c.Call(t, "initialize_chart", with(birth, "settings", map[string]any{"astroType": "sky"})))
	if body.Code != "invalid_argument" || !strings.Contains(body.Message, "earth") {
		t.Errorf("astroType sky: %s %q", body.Code, body.Message)
	}
}

// TestSixLocales: every tool answers in each of iztro 2.6.1's six locales
// as iztro names things there (1990-05-17 午时 男: 命宫 丁亥 with 巨门 旺,
// 土五局; values printed by iztro's astro.withOptions), and reads palace and
// star names back in any of them.
func TestSixLocales(t *testing.T) {
	c := conn(t)
	id := structured(t, c, "initialize_chart", birth1990)["chart_id"].(string)
	for _, tc := range []struct {
		lang, palace, soul, bureau, star, palaceIn, starIn string
	}{
		{"zh-CN", "命宫 丁亥", "巨门", "土五局", "巨门旺", "命宫", "巨门"},
		{"zh-TW", "命宮 丁亥", "巨門", "土五局", "巨門旺", "命宮", "巨門"},
		{"en-US", "soul ding-hai", "advocator", "earth 5th", "advocator[+2]", "soul", "advocator"},
		{"ja-JP", "命宮 丁亥", "巨門", "土の五局", "巨門旺", "命宮", "巨門"},
		{"ko-KR", "명궁 정해", "거문", "토오국", "거문[+2]", "명궁", "거문"},
		{"vi-VN", "Mệnh Đinh-Hợi", "Cự Môn", "Thổ Ngũ Cục", "Cự MônVượng", "Mệnh", "Cự Môn"},
	} {
		basics := structured(t, c, "get_chart_basics", map[string]any{"chart_id": id, "language": tc.lang})
		if basics["soulPalace"] != tc.palace || basics["soul"] != tc.soul || basics["fiveElementsClass"] != tc.bureau {
			t.Errorf("%s basics: %v", tc.lang, basics)
		}
		info := structured(t, c, "get_palace_info", map[string]any{"chart_id": id, "language": tc.lang, "palace": tc.palaceIn})
		if s := fmt.Sprint(info); !strings.Contains(s, tc.star) {
			t.Errorf("%s get_palace_info %s: %s", tc.lang, tc.palaceIn, s)
		}
		attr := structured(t, c, "get_star_attributes", map[string]any{"chart_id": id, "language": tc.lang, "starName": tc.starIn})
		if s := fmt.Sprint(attr); !strings.Contains(s, tc.palace) {
			t.Errorf("%s get_star_attributes %s: %s", tc.lang, tc.starIn, s)
		}
		if b := readResource(t, c, "ziwei://chart/"+id+"?language="+tc.lang); !strings.Contains(b, tc.star) || !strings.Contains(b, tc.bureau) {
			t.Errorf("%s board:\n%s", tc.lang, b)
		}
	}
}
