package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

// TestSeedToolIDsAreHiddenAliases: the seed's own requests (its tool IDs
// and names, its argument names, pinyin palace names) reach our tools, and
// tools/list does not grow.
func TestSeedToolIDsAreHiddenAliases(t *testing.T) {
	c := conn(t)
	listed := c.Tools(t)
	for _, tl := range listed {
		if strings.ContainsAny(tl.Name, "-ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			t.Errorf("tools/list lists the alias %s", tl.Name)
		}
	}
	if len(listed) != 24 {
		t.Errorf("tools/list has %d tools, want 24", len(listed))
	}
	id := structured(t, c, "MCP-SYS-01", birth1990)["chart_id"].(string)
	if id2 := structured(t, c, "Initialize_Chart", birth1990)["chart_id"]; id2 != id {
		t.Errorf("Initialize_Chart chart_id %v, MCP-SYS-01 %s", id2, id)
	}
	want := structured(t, c, "get_palace_info", map[string]any{"chart_id": id, "palace": "命宫"})
	for _, name := range []string{"Get_Palace_Info", "MCP-F02", "get_palace_info"} {
		arg := "palaceName"
		if name == "get_palace_info" {
			arg = "palace"
		}
		if got := structured(t, c, name, map[string]any{"chart_id": id, arg: "Ming"}); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s Ming = %v\nwant %v", name, got, want)
		}
	}
	all := structured(t, c, "Get_Palace_Info", map[string]any{"chart_id": id, "palaceName": "All"})
	if ps, _ := all["palaces"].([]any); len(ps) != 12 {
		t.Errorf("Get_Palace_Info All: %v", all)
	}
	for _, tc := range []struct {
		alias, tool string
		seed, ours  map[string]any
	}{
		{"Get_SanFang_SiZheng", "get_sanfang_sizheng", map[string]any{"referencePalaceIdentifier": "Guanlu"}, map[string]any{"palace": "官禄"}},
		{"MCP-R03", "get_chongzhao_palace", map[string]any{"referencePalaceIdentifier": "Fuqi"}, map[string]any{"palace": "夫妻"}},
		{"MCP-F03", "get_stars_in_palace", map[string]any{"palaceIdentifier": "Xiongdi"}, map[string]any{"palace": "兄弟"}},
		{"Get_Star_Attributes", "get_star_attributes", map[string]any{"starName": "Tianfu"}, map[string]any{"starName": "天府"}},
		{"MCP-T01", "get_decade_info", map[string]any{"userAge": 33}, map[string]any{"age": 33}},
		{"Get_Decade_SiHua", "get_decade_sihua", map[string]any{"decadeMingGongTianGan": "甲"}, map[string]any{"stem": "甲"}},
		{"MCP-T05", "get_annual_sihua", map[string]any{"annualTianGan": "yi"}, map[string]any{"stem": "乙"}},
		{"Get_Palace_Stem_SiHua", "get_palace_stem_sihua", map[string]any{"chartLevel": "Natal", "referencePalace": "Caibo"}, map[string]any{"chartLevel": "Natal", "palace": "财帛"}},
	} {
		seed, ours := with(tc.seed, "chart_id", id), with(tc.ours, "chart_id", id)
		if got, w := structured(t, c, tc.alias, seed), structured(t, c, tc.tool, ours); fmt.Sprint(got) != fmt.Sprint(w) {
			t.Errorf("%s %v = %v\nwant %v", tc.alias, tc.seed, got, w)
		}
	}
	// a seed request without the chart_id it never had is told it is needed
	b := servetest.ErrorBody(t, c.Call(t, "Get_Palace_Info", map[string]any{"palaceName": "Ming"}))
	if b.Code != "invalid_argument" || !strings.Contains(b.Message, "chart_id") {
		t.Errorf("no chart_id: %+v", b)
	}
}

// TestPinyinPalaceAndStarNames: pinyin is read wherever a Chinese palace or
// star name is: tool arguments, the rule language, the star resource.
func TestPinyinPalaceAndStarNames(t *testing.T) {
	c := conn(t)
	id := structured(t, c, "initialize_chart", birth1990)["chart_id"].(string)
	for _, tc := range []struct{ pinyin, chinese string }{
		{"Ming", "命宫"}, {"minggong", "命宫"}, {"Ming Gong", "命宫"}, {"Xiongdi", "兄弟"}, {"Fuqi", "夫妻"},
		{"Zinv", "子女"}, {"zinü", "子女"}, {"Caibo", "财帛"}, {"Jie", "疾厄"}, {"Qianyi", "迁移"}, {"Jiaoyou", "仆役"},
		{"Puyi", "仆役"}, {"Guanlu", "官禄"}, {"Shiye", "官禄"}, {"Tianzhai", "田宅"}, {"Fude", "福德"}, {"Fumu", "父母"},
		{"Shengong", "身宫"},
	} {
		got := structured(t, c, "get_palace_info", map[string]any{"chart_id": id, "palace": tc.pinyin})
		want := structured(t, c, "get_palace_info", map[string]any{"chart_id": id, "palace": tc.chinese})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("palace %s = %v, want %s's %v", tc.pinyin, got, tc.chinese, want)
		}
	}
	for _, tc := range []struct{ pinyin, chinese string }{
		{"Ziwei", "紫微"}, {"Tianfu", "天府"}, {"tiānfǔ", "天府"}, {"Tai Yang", "太阳"}, {"tanlang", "贪狼"}, {"QiSha", "七杀"},
		{"Wenchang", "文昌"}, {"Lucun", "禄存"}, {"Qingyang", "擎羊"}, {"Hongluan", "红鸾"},
	} {
		got := structured(t, c, "get_star_attributes", map[string]any{"starName": tc.pinyin, "chart_id": id})
		want := structured(t, c, "get_star_attributes", map[string]any{"starName": tc.chinese, "chart_id": id})
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("star %s = %v, want %v", tc.pinyin, got, want)
		}
	}
	// the rule language: stars and palaces in pinyin
	res := c.Call(t, "store_star_combination_meaning", map[string]any{"name": "pinyin rule", "meaning": "m", "chart_id": id,
		"rule": map[string]any{"any": []any{
			map[string]any{"stars": []any{"Ziwei"}, "in": "Ming", "scope": "sanfang"},
			map[string]any{"stars": []any{"Tianfu"}, "in": "Guanlu"},
		}}})
	if res.IsError {
		t.Errorf("store with pinyin: %s", servetest.Text(res))
	}
	if one := readResource(t, c, "ziwei://stars/Ziwei"); !strings.Contains(one, "紫微") {
		t.Errorf("ziwei://stars/Ziwei: %s", one)
	}
}

func readResource(t *testing.T, c *servetest.Conn, uri string) string {
	t.Helper()
	var req mcp.ReadResourceRequest
	req.Params.URI = uri
	res, err := c.Client.ReadResource(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", uri, err)
	}
	return res.Contents[0].(mcp.TextResourceContents).Text
}

// TestStarResourceRawAndEncoded: the star template answers the raw name its
// own description shows and the percent-encoded one alike.
func TestStarResourceRawAndEncoded(t *testing.T) {
	c := conn(t)
	want := readResource(t, c, "ziwei://stars/%E7%B4%AB%E5%BE%AE")
	for _, uri := range []string{"ziwei://stars/紫微", "ziwei://stars/紫微", "ziwei://stars/emperor", "ziwei://stars/%e7%b4%ab%e5%be%ae"} {
		if got := readResource(t, c, uri); got != want {
			t.Errorf("%s = %s\nwant %s", uri, got, want)
		}
	}
	id := structured(t, c, "initialize_chart", birth1990)["chart_id"].(string)
	if b := readResource(t, c, "ziwei://chart/"+id+"?language=zh-TW"); !strings.Contains(b, "命宮") {
		t.Errorf("zh-TW board:\n%s", b)
	}
}

// TestResourceReadEchoesURIAsAsked: the contents of a read carry the URI
// exactly as the client wrote it, raw or percent-encoded (clients match
// them to the request by that text), not the encoded form the template
// matching needs.
func TestResourceReadEchoesURIAsAsked(t *testing.T) {
	c := conn(t)
	for _, uri := range []string{"ziwei://stars/紫微", "ziwei://stars/%E7%B4%AB%E5%BE%AE", "ziwei://stars/emperor"} {
		var req mcp.ReadResourceRequest
		req.Params.URI = uri
		res, err := c.Client.ReadResource(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", uri, err)
		}
		if got := res.Contents[0].(mcp.TextResourceContents).URI; got != uri {
			t.Errorf("read %s answered for %s", uri, got)
		}
	}
}

// TestBadResourceURIIsInvalidParams: a malformed chart_id (or an unknown
// star or language) in a resource URI is -32602 over stdio and HTTP, with a
// message naming the fix; a good URI still reads.
func TestBadResourceURIIsInvalidParams(t *testing.T) {
	reads := []struct {
		uri  string
		code int
		want string
	}{
		{"ziwei://chart/zw1000000000000", mcp.INVALID_PARAMS, "initialize_chart"},
		{"ziwei://chart/not-an-id", mcp.INVALID_PARAMS, "chart_id"},
		{"ziwei://chart/zw1b9c900r000sv?language=fr-FR", mcp.INVALID_PARAMS, "zh-CN"},
		{"ziwei://stars/北极星", mcp.INVALID_PARAMS, "ziwei://stars"},
		{"ziwei://stars/紫微", 0, "紫微"},
		{"ziwei://chart/zw1b9c900r000sv", 0, "zw1b9c900r000sv"},
	}
	const init = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	read := func(i int, uri string) string {
		b, _ := json.Marshal(uri)
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":{"uri":%s}}`, i+1, b)
	}
	check := func(transport string, i int, body []byte) {
		t.Helper()
		var m struct {
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%s %s: %v: %s", transport, reads[i].uri, err, body)
		}
		tc := reads[i]
		switch {
		case tc.code == 0 && (m.Error != nil || !strings.Contains(string(m.Result), tc.want)):
			t.Errorf("%s %s: %s", transport, tc.uri, body)
		case tc.code != 0 && (m.Error == nil || m.Error.Code != tc.code || !strings.Contains(m.Error.Message, tc.want)):
			t.Errorf("%s %s: %s; want code %d naming %q", transport, tc.uri, body, tc.code, tc.want)
		}
	}

	// stdio
	in := init + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	for i, r := range reads {
		in += read(i, r.uri) + "\n"
	}
	var out, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- serve.Run(context.Background(), app(&tools.Config{}), []string{"--rules-file", t.TempDir() + "/r.json"}, strings.NewReader(in), &out, &stderr)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("stdio server did not exit")
	}
	byID := map[int][]byte{}
	for _, line := range bytes.Split(bytes.TrimSpace(out.Bytes()), []byte("\n")) {
		var m struct {
			ID int `json:"id"`
		}
		_ = json.Unmarshal(line, &m)
		byID[m.ID] = line
	}
	for i := range reads {
		check("stdio", i, byID[i+1])
	}

	// HTTP
	t.Setenv("MCPFLEET_STATE", "memory") // as users choose it: no state file in the tester's home
	o, err := serve.ParseOptions(app(&tools.Config{}), []string{"--transport", "http", "--rules-file", t.TempDir() + "/r.json"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	log, _ := serve.NewLogger(io.Discard, "error")
	built, err := serve.Build(context.Background(), app(&tools.Config{}), o, log)
	if err != nil {
		t.Fatal(err)
	}
	h := serve.HTTPHandler(built)
	session := ""
	post := func(body string) []byte {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if session != "" {
			req.Header.Set("Mcp-Session-Id", session)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if s := rec.Header().Get("Mcp-Session-Id"); s != "" {
			session = s
		}
		b := rec.Body.Bytes()
		if i := bytes.Index(b, []byte("data: ")); i >= 0 { // an SSE answer: its one event
			b = bytes.TrimSpace(b[i+6:])
		}
		return b
	}
	post(init)
	for i, r := range reads {
		check("http", i, post(read(i, r.uri)))
	}
}

// TestSeedFormCalls: the calls the seed's README and code describe, by its
// tool IDs and its MCP names: its period tools given only its own echoed
// outputs (decadeInfo, annualInfo), 飞四化 at the Decade or Annual level
// with no age or year (the seed used today: here the server's clock), no
// chart_id (the seed kept one global chart), and a star combination with
// nothing stored.
func TestSeedFormCalls(t *testing.T) {
	c := conn(t)
	id := structured(t, c, "initialize_chart", birth1990)["chart_id"].(string)
	type call struct {
		tool string
		args map[string]any
	}
	same := func(t *testing.T, got, want call) {
		t.Helper()
		g, w := structured(t, c, got.tool, with(got.args, "chart_id", id)), structured(t, c, want.tool, with(want.args, "chart_id", id))
		if fmt.Sprint(g) != fmt.Sprint(w) {
			t.Errorf("%s %v =\n%v\nwant (%s %v)\n%v", got.tool, got.args, g, want.tool, want.args, w)
		}
	}
	// the seed's DecadeInfo (mcp-tools.ts), its rewrite's {range, …} and our own get_decade_info result
	seedDecade := map[string]any{"decadeStartAge": 25, "decadeEndAge": 34, "decadeMingGongTianGan": "己",
		"decadeMingGong": map[string]any{"name": "福德", "diZhi": "丑", "tianGan": "己"}, "decadePalaces": []any{}}
	ourDecade := structured(t, c, "get_decade_info", map[string]any{"chart_id": id, "age": 30})
	decadeAt30 := call{"get_decade_overlapping_palaces", map[string]any{"age": 30}}
	// the seed's AnnualInfo for 2026 (丙午) and the rewrite's {year}
	seedAnnual := map[string]any{"yearTianGan": "丙", "yearDiZhi": "午", "annualPalaces": []any{}}
	year2026 := call{"get_annual_overlapping_palaces", map[string]any{"year": 2026}}
	for _, name := range []string{"MCP-T03", "Get_Decade_Overlapping_Palaces"} {
		for _, di := range []any{seedDecade, map[string]any{"range": []any{25, 34}}, ourDecade} {
			same(t, call{name, map[string]any{"decadeInfo": di}}, decadeAt30)
		}
		// the echo as text, as a model may pass a result on
		b, _ := json.Marshal(seedDecade)
		same(t, call{name, map[string]any{"decadeInfo": string(b)}}, decadeAt30)
	}
	for _, name := range []string{"MCP-T06", "Get_Annual_Overlapping_Palaces"} {
		for _, args := range []map[string]any{
			{"annualInfo": seedAnnual},
			{"annualInfo": seedAnnual, "decadeInfo": map[string]any{"decadeStartAge": 35, "decadeEndAge": 44}},
			{"annualInfo": map[string]any{"year": 2026}},
			{"annualInfo": map[string]any{"year": "2026", "solarDateUsed": "2026-06-15"}},
			{"annualInfo": map[string]any{"nominalAge": 37, "stem": "丙", "branch": "午"}},
		} {
			same(t, call{name, args}, year2026)
		}
		// 丙午 is also 1966 (before the birth) and 2086: the decade given picks 2086
		same(t, call{name, map[string]any{"annualInfo": seedAnnual, "decadeInfo": map[string]any{"range": []any{95, 104}}}},
			call{"get_annual_overlapping_palaces", map[string]any{"year": 2086}})
	}

	// 飞四化 at the Decade and Annual levels without age or year: today, by the server's clock
	for _, name := range []string{"MCP-T07", "Get_Palace_Stem_SiHua"} {
		annual := structured(t, c, name, map[string]any{"chart_id": id, "chartLevel": "Annual", "referencePalace": "Ming"})
		var year int
		if _, err := fmt.Sscanf(fmt.Sprint(annual["period"]), "%d", &year); err != nil {
			t.Fatalf("%s Annual: period %v: %v", name, annual["period"], err)
		}
		now := clock.MustFromEnv().Now().In(time.FixedZone("UTC+8", 8*3600)).Year()
		if year != now && year != now-1 { // the lunar year starts in January or February
			t.Errorf("%s Annual without year used %d; today is in %d", name, year, now)
		}
		same(t, call{name, map[string]any{"chartLevel": "Annual", "referencePalace": "Ming"}},
			call{"get_palace_stem_sihua", map[string]any{"chartLevel": "Annual", "palace": "命宫", "year": year}})
		same(t, call{name, map[string]any{"chartLevel": "Decade", "referencePalace": "Ming"}},
			call{"get_palace_stem_sihua", map[string]any{"chartLevel": "Decade", "palace": "命宫", "age": year - 1990 + 1}})
	}

	// no chart_id: the answer names the seed's MCP-SYS-01 and our initialize_chart
	for _, tc := range []call{
		{"MCP-F02", map[string]any{"palaceName": "Ming"}}, {"Get_Palace_Info", map[string]any{"palaceName": "All"}},
		{"MCP-F01", nil}, {"Get_Natal_SiHua", nil}, {"MCP-R01", map[string]any{"referencePalaceIdentifier": "命宫"}},
		{"MCP-T03", map[string]any{"decadeInfo": seedDecade}}, {"Get_Annual_Overlapping_Palaces", map[string]any{"annualInfo": seedAnnual}},
		{"MCP-T07", map[string]any{"chartLevel": "Decade", "referencePalace": "Ming"}}, {"Get_Decade_Info", map[string]any{"userAge": 30}},
	} {
		b := servetest.ErrorBody(t, c.Call(t, tc.tool, tc.args))
		if b.Code != "invalid_argument" || !strings.Contains(b.Message, "MCP-SYS-01") || !strings.Contains(b.Message, "initialize_chart") {
			t.Errorf("%s without chart_id: %+v", tc.tool, b)
		}
	}

	// the seed's own combination query: results, or a note saying why not and what would match
	for _, name := range []string{"MCP-A02", "Query_Star_Combination_Meaning"} {
		for _, args := range []map[string]any{
			{"stars": []any{"紫微", "天相"}},
			{"stars": []any{"紫微", "天相"}, "includeCatalogue": true},
			{"stars": []any{"紫微", "天相"}, "includeCatalogue": true, "contextDescription": "命宫"},
		} {
			out := structured(t, c, name, args)
			if rs, _ := out["results"].([]any); len(rs) > 0 {
				continue
			}
			note, _ := out["note"].(string)
			for _, want := range []string{"紫微", "天相", "store_star_combination_meaning", "紫府同宫"} {
				if !strings.Contains(note, want) {
					t.Errorf("%s %v: empty results, note %q lacks %q", name, args, note, want)
				}
			}
		}
	}
}
