package tools

import (
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// seedTools are the tool IDs and names of the project this server grew from
// (lujunjiehhh/iztro, mcp-tools.ts and mcp-server-stdio.ts at cde6a51, May
// 2025; its MCP rewrite on main, Dec 2025, keeps the names), with the tool
// each one is here and how its argument names map. They are served as
// aliases: a request written for the seed reaches the right tool, and
// tools/list (paid by every client) does not grow.
var seedTools = []struct {
	id, name, target string
	args             map[string]string // seed argument → ours; "" drops it
	// chart: the tool needs a chart_id, which the seed (one global chart)
	// never sent; a call without one gets the tool's own answer naming
	// initialize_chart (MCP-SYS-01) instead of the bare schema error.
	chart bool
	// period reads the seed's echoed decadeInfo/annualInfo into ours.
	period func(a map[string]any, now func() astro.Date)
}{
	{"MCP-SYS-01", "Initialize_Chart", "initialize_chart", nil, false, nil},
	{"MCP-F01", "Get_Chart_Basics", "get_chart_basics", nil, true, nil},
	{"MCP-F02", "Get_Palace_Info", "get_palace_info", map[string]string{"palaceName": "palace"}, true, nil},
	{"MCP-F03", "Get_Stars_In_Palace", "get_stars_in_palace", map[string]string{"palaceIdentifier": "palace", "palaceName": "palace"}, true, nil},
	{"MCP-F04", "Get_Star_Attributes", "get_star_attributes", nil, false, nil},
	{"MCP-F05", "Get_Natal_SiHua", "get_natal_sihua", nil, true, nil},
	{"MCP-R01", "Get_SanFang_SiZheng", "get_sanfang_sizheng", map[string]string{"referencePalaceIdentifier": "palace", "palaceName": "palace"}, true, nil},
	{"MCP-R02", "Get_AnHe_Palace", "get_anhe_palace", map[string]string{"referencePalaceIdentifier": "palace", "palaceName": "palace"}, true, nil},
	{"MCP-R03", "Get_ChongZhao_Palace", "get_chongzhao_palace", map[string]string{"referencePalaceIdentifier": "palace", "palaceName": "palace"}, true, nil},
	{"MCP-R04", "Get_Jia_Gong_Info", "get_jia_gong_info", map[string]string{"referencePalaceIdentifier": "palace", "palaceName": "palace"}, true, nil},
	{"MCP-T01", "Get_Decade_Info", "get_decade_info", map[string]string{"userAge": "age"}, true, nil},
	{"MCP-T02", "Get_Decade_SiHua", "get_decade_sihua", map[string]string{"decadeMingGongTianGan": "stem"}, true, nil},
	{"MCP-T03", "Get_Decade_Overlapping_Palaces", "get_decade_overlapping_palaces", map[string]string{"userAge": "age", "decadeInfo": ""}, true, seedDecade},
	{"MCP-T04", "Get_Annual_Info", "get_annual_info", nil, true, nil},
	{"MCP-T05", "Get_Annual_SiHua", "get_annual_sihua", map[string]string{"annualTianGan": "stem"}, true, nil},
	{"MCP-T06", "Get_Annual_Overlapping_Palaces", "get_annual_overlapping_palaces", map[string]string{"annualInfo": "", "decadeInfo": ""}, true, seedYear},
	{"MCP-T07", "Get_Palace_Stem_SiHua", "get_palace_stem_sihua", map[string]string{"referencePalace": "palace", "palaceName": "palace", "yearForAnnualChart": "year"}, true, nil},
	{"MCP-A01", "Query_Astrological_Pattern", "query_astrological_pattern", map[string]string{"chartContext": ""}, false, nil},
	{"MCP-A02", "Query_Star_Combination_Meaning", "query_star_combination_meaning", map[string]string{"contextDescription": ""}, false, nil},
	{"MCP-A03", "Store_Star_Combination_Meaning", "store_star_combination_meaning", map[string]string{"combinationName": "name", "description": "meaning", "relatedCharts": ""}, false, nil},
}

// seedAliases are the seed's IDs and names as serve aliases of our tools
// (its names in lower case are our own names already); now is the server's
// date, for the seed's "this year" and "this decade".
func seedAliases(now func() astro.Date) []serve.Alias {
	var out []serve.Alias
	for _, s := range seedTools {
		args := seedArgs(s.args, s.chart, s.period, now)
		out = append(out, serve.Alias{Name: s.id, Target: s.target, Args: args}, serve.Alias{Name: s.name, Target: s.target, Args: args})
	}
	return out
}

// seedArgs renames a seed tool's arguments to ours. Values stay as they
// are: pinyin and Chinese palace and star names are read by the tools
// themselves; the seed's "All" palace is our omitted palace. Arguments with
// no counterpart are dropped after period has read what it needs of them
// (the seed's decadeInfo/annualInfo echo its own outputs back; here a
// period is found by age, decadeIndex or year).
func seedArgs(rename map[string]string, chart bool, period func(map[string]any, func() astro.Date), now func() astro.Date) func(map[string]any) map[string]any {
	return func(a map[string]any) map[string]any {
		if _, ok := a["chart_id"]; chart && !ok {
			a["chart_id"] = ""
		}
		if period != nil {
			period(a, now)
		}
		for from, to := range rename {
			v, ok := a[from]
			if !ok {
				continue
			}
			delete(a, from)
			if _, set := a[to]; to != "" && !set {
				a[to] = v
			}
		}
		if p, ok := a["palace"].(string); ok && strings.EqualFold(strings.TrimSpace(p), "all") {
			delete(a, "palace")
		}
		return a
	}
}
