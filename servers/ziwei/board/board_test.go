package board

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

func TestRenderLayout(t *testing.T) {
	c, err := astro.NewChart(astro.Input{Date: "1990-05-17", TimeIndex: 6, Gender: astro.Male, FixLeap: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range astro.Langs() {
		out := Render(c, l, []string{"header line", strings.Repeat("长", 40)})
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		want := 4*CellWidth + 5
		for i, line := range lines {
			if w := Width(line); w != want {
				t.Errorf("%s line %d has width %d, want %d: %q", l, i, w, want, line)
			}
		}
		if !strings.Contains(out, "header line") {
			t.Errorf("%s: header missing", l)
		}
	}
	zh := Render(c, astro.ZhCN, nil)
	// top row 巳 午 未 申, bottom row 寅 丑 子 亥
	top := strings.Split(zh, "\n")[1]
	if !(strings.Index(top, "巳") < strings.Index(top, "午") && strings.Index(top, "午") < strings.Index(top, "未") && strings.Index(top, "未") < strings.Index(top, "申")) {
		t.Errorf("top row order: %q", top)
	}
	if !strings.Contains(zh, "命宫·身 丁亥") || !strings.Contains(zh, "太阳旺[禄]") {
		t.Errorf("board:\n%s", zh)
	}
}

func TestWrap(t *testing.T) {
	for _, s := range []string{"", "a b c", strings.Repeat("x", 60), "紫微庙 天府旺 七杀庙 破军陷 贪狼平 巨门旺"} {
		for _, line := range wrap(s, 10) {
			if Width(line) > 10 {
				t.Errorf("wrap(%q): line %q too wide", s, line)
			}
		}
	}
}
