package golden

import (
	"encoding/json"
	"sort"
	"testing"
)

// TestGoldenLocalesAndAstroTypes checks the charts generated here with
// testdata/gen-iztro.js (iztro 2.6.1) in all six of its locales, per chart
// type, each under five setting groups (iztro's defaults, 中州派, yearDivide
// and horoscopeDivide exact, ageDivide birthday with dayDivide current,
// custom 四化 with custom brightness rows): every chart and both horoscopes
// of every locale must be equal. iztro cannot build ko-KR human charts (it
// throws); those records carry the error instead of a ko-KR rendering.
func TestGoldenLocalesAndAstroTypes(t *testing.T) {
	for _, tc := range []struct {
		file      string
		astroType string
		records   int
	}{
		{"locales-heaven-iztro.jsonl.gz", "", 100},
		{"astro-earth-iztro.jsonl.gz", "earth", 200},
		{"astro-human-iztro.jsonl.gz", "human", 200},
	} {
		t.Run(tc.file, func(t *testing.T) {
			sc := goldenLines(t, tc.file)
			type group struct{ passed, failed int }
			groups := map[string]*group{}
			// renderings per locale, across the file
			rendered := map[string]int{}
			n := 0
			for sc.Scan() {
				var c Case
				if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
					t.Fatal(err)
				}
				n++
				if c.AstroType != tc.astroType {
					t.Fatalf("%s: astroType %q, want %q", c.ID, c.AstroType, tc.astroType)
				}
				for lang, chart := range map[string]json.RawMessage{"zh-CN": c.Chart, "en-US": c.ChartEn, "zh-TW": c.ChartTw, "ja-JP": c.ChartJa, "ko-KR": c.ChartKo, "vi-VN": c.ChartVi} {
					if len(chart) > 0 {
						rendered[lang]++
					}
				}
				g := groups[string(c.Config)]
				if g == nil {
					g = &group{}
					groups[string(c.Config)] = g
				}
				if ms := CheckCase(&c); len(ms) > 0 {
					g.failed++
					for i, m := range ms {
						if i == 5 {
							break
						}
						t.Errorf("%s %s: want %s, got %s", c.ID, m.Path, m.Want, m.Got)
					}
					continue
				}
				g.passed++
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if n != tc.records {
				t.Errorf("%d records, want %d", n, tc.records)
			}
			if len(groups) != 5 {
				t.Errorf("%d setting groups, want 5", len(groups))
			}
			keys := make([]string, 0, len(groups))
			for k := range groups {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				t.Logf("config %s: %d passed, %d failed", k, groups[k].passed, groups[k].failed)
			}
			for _, lang := range []string{"zh-CN", "en-US", "zh-TW", "ja-JP", "ko-KR", "vi-VN"} {
				want := tc.records
				if lang == "ko-KR" && tc.astroType == "human" {
					want = 0
				}
				if rendered[lang] != want {
					t.Errorf("%s: %d charts, want %d", lang, rendered[lang], want)
				}
			}
		})
	}
}
