package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/pkg/apps/apptest"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/apps"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

// appConn is a ziwei server seen by a client that declares MCP Apps.
func appConn(t *testing.T) *servetest.Conn {
	t.Helper()
	return servetest.NewWithOptions(t, app(&tools.Config{}), []mcpclient.ClientOption{mcpclient.WithClientCapabilities(mcpapps.ClientCapabilities())},
		"--rules-file", filepath.Join(t.TempDir(), "rules.json"))
}

// viewCharts are the three fixed charts of the browser test.
var viewCharts = []struct {
	name  string
	birth map[string]any
	// bodyOnSoul: 身宫 is 命宫; empty: some palace has no major star (借对宫).
	bodyOnSoul, empty bool
}{
	{"body-on-soul", map[string]any{"birthDate": "1990-05-17", "birthTimeIndex": 6, "gender": "男"}, true, false},
	{"empty-palaces-zh-TW", map[string]any{"birthDate": "1985-11-02", "birthTimeIndex": 3, "gender": "女", "language": "zh-TW"}, false, true},
	{"ordinary-en-US", map[string]any{"birthDate": "1976-08-30", "birthTimeIndex": 1, "gender": "女", "language": "en-US"}, false, false},
}

func TestChartViewLinks(t *testing.T) {
	c := appConn(t)
	var linked []string
	for _, tl := range c.Tools(t) {
		b, _ := json.Marshal(tl.Meta)
		if strings.Contains(string(b), `"resourceUri":"`+apps.ChartURI+`"`) {
			linked = append(linked, tl.Name)
		}
	}
	want := slices.Sorted(slices.Values(tools.ViewTools))
	if slices.Sort(linked); !slices.Equal(linked, want) {
		t.Errorf("linked %v, want %v", linked, want)
	}
	res := c.Call(t, "initialize_chart", viewCharts[0].birth)
	if res.Meta == nil || res.Meta.AdditionalFields[tools.BoardMetaKey] == nil {
		t.Errorf("a declaring client's initialize_chart result has no _meta[%q]", tools.BoardMetaKey)
	}
	// Everyone else: no links, no _meta, the same result text.
	plain := conn(t)
	for _, tl := range plain.Tools(t) {
		if tl.Meta != nil {
			t.Errorf("%s has _meta for a client without MCP Apps", tl.Name)
		}
	}
	pres := plain.Call(t, "initialize_chart", viewCharts[0].birth)
	if pres.Meta != nil && pres.Meta.AdditionalFields[tools.BoardMetaKey] != nil {
		t.Errorf("initialize_chart result has the board for a client without MCP Apps")
	}
	if servetest.Text(pres) != servetest.Text(res) {
		t.Error("the result text differs between a declaring and a plain client")
	}
}

// flight is one line of get_palace_stem_sihua: "禄 天同 → 父母 丁酉".
func flightTarget(s string) (star, palace string) {
	parts := strings.SplitN(s, " → ", 2)
	f := strings.Fields(parts[0])
	return f[len(f)-1], parts[1]
}

func TestChartViewInBrowser(t *testing.T) {
	browser := apptest.Browser(t)
	c := appConn(t)
	var req mcp.ReadResourceRequest
	req.Params.URI = apps.ChartURI
	rr, err := c.Client.ReadResource(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	content := rr.Contents[0].(mcp.TextResourceContents)
	if content.MIMEType != mcpapps.MIMEType {
		t.Errorf("MIME %q", content.MIMEType)
	}
	html := content.Text
	if err := apptest.SelfContained(html); err != nil {
		t.Fatal(err)
	}
	for _, ch := range viewCharts {
		t.Run(ch.name, func(t *testing.T) {
			res := c.Call(t, "initialize_chart", ch.birth)
			if res.IsError {
				t.Fatal(servetest.Text(res))
			}
			basics := servetest.Decode[struct {
				ChartID    string `json:"chart_id"`
				SoulPalace string `json:"soulPalace"`
				BodyPalace string `json:"bodyPalace"`
				Five       string `json:"fiveElementsClass"`
				Soul       string `json:"soul"`
			}](t, res)
			lang, _ := ch.birth["language"].(string)
			on := map[string]any{"chart_id": basics.ChartID}
			if lang != "" {
				on["language"] = lang
			}
			// The palaces as get_palace_info (another tool) gives them.
			info := servetest.Decode[tools.PalaceInfoOut](t, c.Call(t, "get_palace_info", on))
			if len(info.Palaces) != 12 {
				t.Fatalf("%d palaces", len(info.Palaces))
			}
			if ch.bodyOnSoul != (basics.BodyPalace == basics.SoulPalace) {
				t.Fatalf("fixture: body %q soul %q", basics.BodyPalace, basics.SoulPalace)
			}
			empty := 0
			for _, p := range info.Palaces {
				if len(p.MajorStars) == 0 {
					empty++
				}
			}
			if ch.empty != (empty > 0) {
				t.Fatalf("fixture: %d palaces without a major star", empty)
			}
			var bg []string
			for _, theme := range []string{"light", "dark"} {
				v := apptest.Open(t, browser, apptest.Run{HTML: html, Args: ch.birth, Result: res, Theme: theme})
				roles := apptest.Eval[[]string](t, v, `Array.from(document.querySelectorAll('.cell [data-k="role"]')).map(e=>e.textContent)`)
				for _, p := range info.Palaces {
					role := strings.Fields(p.Palace)[0]
					if !slices.Contains(roles, role) {
						t.Errorf("palace %q not shown (roles %v)", role, roles)
					}
					majors := apptest.Eval[[]string](t, v, `Array.from(document.querySelector('.cell[data-palace="`+p.Palace+`"]').querySelectorAll('.major')).map(e=>e.dataset.s)`)
					if !slices.Equal(majors, p.MajorStars) && !(len(majors) == 0 && len(p.MajorStars) == 0) {
						t.Errorf("%s shows majors %v, get_palace_info says %v", p.Palace, majors, p.MajorStars)
					}
					borrowed := apptest.Eval[string](t, v, `(document.querySelector('.cell[data-palace="`+p.Palace+`"] [data-k="borrowed"]')||{}).textContent||""`)
					if len(p.MajorStars) == 0 {
						for _, s := range oppositeMajors(info.Palaces, p.Palace) {
							if !strings.Contains(borrowed, s) {
								t.Errorf("empty %s borrows %q, lacks the opposite palace's %s", p.Palace, borrowed, s)
							}
						}
					} else if borrowed != "" {
						t.Errorf("%s has majors yet shows %q", p.Palace, borrowed)
					}
					dec := apptest.Eval[string](t, v, `document.querySelector('.cell[data-palace="`+p.Palace+`"] [data-k="decade"]').textContent`)
					if want := fmt.Sprintf("%d-%d", p.Decade[0], p.Decade[1]); dec != want {
						t.Errorf("%s decade %q, want %q", p.Palace, dec, want)
					}
				}
				body := apptest.Eval[[]string](t, v, `Array.from(document.querySelectorAll('[data-k="body-palace"]')).map(e=>e.closest('.cell').dataset.palace)`)
				if !slices.Equal(body, []string{basics.BodyPalace}) {
					t.Errorf("身宫 marked on %v, want %s", body, basics.BodyPalace)
				}
				centre := apptest.Eval[string](t, v, `document.querySelector('[data-k="centre"]').textContent`)
				for _, want := range []string{basics.Five, basics.Soul} {
					if !strings.Contains(centre, want) {
						t.Errorf("centre %q lacks %q", centre, want)
					}
				}
				switch lang {
				case "en-US":
					if !strings.Contains(centre, "Bureau") || !slices.Contains(roles, "soul") {
						t.Errorf("en-US labels missing: centre %q roles %v", centre, roles)
					}
				case "zh-TW":
					if !strings.Contains(centre, "命宮") || !strings.Contains(centre, "農曆") {
						t.Errorf("zh-TW labels missing: centre %q", centre)
					}
				default:
					if !strings.Contains(centre, "五行局") || !strings.Contains(centre, "命主") || !strings.Contains(centre, "身主") {
						t.Errorf("zh-CN labels missing: centre %q", centre)
					}
				}
				v.Check(t)
				bg = append(bg, v.Background(t))
				checkClick(t, v, c, on, basics.SoulPalace)
				v.Screenshot(t, filepath.Join("docs", "chart-"+ch.name+"-"+theme+".png"))
			}
			if bg[0] == bg[1] {
				t.Errorf("dark theme did not change the background (%s)", bg[0])
			}
		})
	}
}

// oppositeMajors: the major star names (brightness and 四化 cut) of the
// palace opposite palace, found by branch in get_palace_info's order.
func oppositeMajors(ps []tools.PalaceInfo, palace string) []string {
	branchOf := func(p string) int {
		for i, q := range ps {
			if q.Palace == p {
				return i
			}
		}
		return -1
	}
	i := branchOf(palace)
	var out []string
	for _, s := range ps[(i+6)%12].MajorStars {
		out = append(out, strings.TrimRightFunc(strings.Split(s, "[")[0], func(r rune) bool { return strings.ContainsRune("庙廟旺得利平不陷", r) }))
	}
	return out
}

// checkClick clicks palace on the board: exactly its 三方四正 are marked and
// its four flights land where get_palace_stem_sihua says.
func checkClick(t *testing.T, v *apptest.View, c *servetest.Conn, on map[string]any, palace string) {
	t.Helper()
	i := apptest.Eval[int](t, v, `(function(){var e=document.querySelector('.cell[data-palace="`+palace+`"]');e.click();return +e.dataset.i})()`)
	marked := apptest.Eval[[]int](t, v, `Array.from(document.querySelectorAll('.cell.sf')).map(e=>+e.dataset.i).sort((a,b)=>a-b)`)
	want := []int{i, (i + 4) % 12, (i + 6) % 12, (i + 8) % 12}
	slices.Sort(want)
	if !slices.Equal(marked, want) {
		t.Errorf("三方四正 of board %d marked %v, want %v", i, marked, want)
	}
	args := map[string]any{"palace": strings.Fields(palace)[0]}
	for k, val := range on {
		args[k] = val
	}
	fly := servetest.Decode[tools.FlyOut](t, c.Call(t, "get_palace_stem_sihua", args))
	got := apptest.Eval[[]string](t, v, `Array.from(document.querySelectorAll('.cell [data-k="fly"]')).sort((a,b)=>a.dataset.m-b.dataset.m).map(e=>(e.parentElement.dataset.name||"")+" "+e.closest('.cell').dataset.palace)`)
	var exp []string
	for _, f := range fly.Palaces[0].Flights {
		star, to := flightTarget(f)
		exp = append(exp, star+" "+to)
	}
	if !slices.Equal(got, exp) {
		t.Errorf("flying 四化 of %s shown %v, get_palace_stem_sihua says %v", palace, got, exp)
	}
	if n := apptest.Eval[int](t, v, `document.querySelectorAll('#lines line').length`); n != 4 {
		t.Errorf("%d flight lines, want 4", n)
	}
}

func TestChartViewPeriodOverlay(t *testing.T) {
	browser := apptest.Browser(t)
	c := appConn(t)
	var req mcp.ReadResourceRequest
	req.Params.URI = apps.ChartURI
	rr, err := c.Client.ReadResource(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	html := rr.Contents[0].(mcp.TextResourceContents).Text
	id := servetest.Decode[struct {
		ChartID string `json:"chart_id"`
	}](t, c.Call(t, "initialize_chart", viewCharts[0].birth)).ChartID
	cases := []struct {
		name, tool string
		args       map[string]any
		sihua      int
	}{
		{"decade", "get_decade_info", map[string]any{"chart_id": id, "age": 30}, 0},
		{"annual", "get_annual_info", map[string]any{"chart_id": id, "year": 2024}, 4},
		{"hourly-en-US", "get_hourly_info", map[string]any{"chart_id": id, "targetDate": "2024-03-01", "language": "en-US"}, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := c.Call(t, tc.tool, tc.args)
			if res.IsError {
				t.Fatal(servetest.Text(res))
			}
			out := servetest.Decode[struct {
				Decade  string   `json:"decade"`
				Palaces []string `json:"palaces"`
			}](t, res)
			var bg []string
			for _, theme := range []string{"light", "dark"} {
				v := apptest.Open(t, browser, apptest.Run{HTML: html, Args: tc.args, Result: res, Theme: theme})
				for _, line := range out.Palaces {
					role, rest, _ := strings.Cut(line, " = ")
					natal, _, _ := strings.Cut(rest, ":")
					got := apptest.Eval[[]string](t, v, `Array.from(document.querySelectorAll('.cell[data-palace="`+natal+`"] [data-k="period-role"]')).map(e=>e.textContent)`)
					if !slices.Equal(got, []string{role}) {
						t.Errorf("%s shows period roles %v, the tool says %q", natal, got, role)
					}
				}
				if n := apptest.Eval[int](t, v, `document.querySelectorAll('[data-k="period-sihua"]').length`); n != tc.sihua {
					t.Errorf("%d period 四化 marks, want %d", n, tc.sihua)
				}
				if p := apptest.Eval[string](t, v, `document.querySelector('[data-k="period"]').textContent`); tc.name == "decade" && p != out.Decade {
					t.Errorf("period title %q, want %q", p, out.Decade)
				}
				v.Check(t)
				bg = append(bg, v.Background(t))
				v.Screenshot(t, filepath.Join("docs", "chart-"+tc.name+"-"+theme+".png"))
			}
			if bg[0] == bg[1] {
				t.Errorf("dark theme did not change the background (%s)", bg[0])
			}
		})
	}
}

// TestChartViewBoardByEra: over streamable HTTP, the board rides a linked
// tool's result only for a client that declared the extension, in the legacy
// handshake (capabilities once) and the 2026-07-28 core (in every request).
func TestChartViewBoardByEra(t *testing.T) {
	c := conn(t)
	for _, version := range []string{mcp.LATEST_LEGACY_PROTOCOL_VERSION, mcp.LATEST_PROTOCOL_VERSION} {
		for _, declare := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/declare=%v", version, declare), func(t *testing.T) {
				ts := httptest.NewServer(serve.HTTPHandler(c.Built))
				t.Cleanup(ts.Close)
				tr, err := transport.NewStreamableHTTP(ts.URL + "/mcp")
				if err != nil {
					t.Fatal(err)
				}
				hc := mcpclient.NewClient(tr, mcpclient.WithProtocolVersion(version))
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				defer cancel()
				if err := hc.Start(ctx); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { _ = hc.Close() })
				var init mcp.InitializeRequest
				init.Params.ProtocolVersion = version
				init.Params.ClientInfo = mcp.Implementation{Name: "ziwei-apps-test", Version: "1"}
				if declare {
					init.Params.Capabilities = mcpapps.ClientCapabilities()
				}
				if _, err := hc.Initialize(ctx, init); err != nil {
					t.Fatal(err)
				}
				var req mcp.CallToolRequest
				req.Params.Name = "initialize_chart"
				req.Params.Arguments = viewCharts[0].birth
				res, err := hc.CallTool(ctx, req)
				if err != nil || res.IsError {
					t.Fatalf("initialize_chart: %v %v", err, res)
				}
				has := res.Meta != nil && res.Meta.AdditionalFields[tools.BoardMetaKey] != nil
				if has != declare {
					t.Errorf("board in _meta: %v, declared: %v", has, declare)
				}
			})
		}
	}
}
