package patterns

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/rules"
)

func TestCatalogue(t *testing.T) {
	if n := len(All()); n < 40 {
		t.Fatalf("%d patterns, want at least 40", n)
	}
	for _, p := range All() {
		for _, key := range []string{p.ID, p.Name, p.NameTW, p.NameEn, strings.ToUpper(p.NameEn)} {
			if f, ok := Find(key); !ok || f != p {
				t.Errorf("Find(%q) does not give %s", key, p.ID)
			}
		}
		if p.Rule.NeedsHoroscope() {
			t.Errorf("%s: a natal pattern must not need a horoscope", p.ID)
		}
	}
	if _, ok := Find("no such pattern"); ok {
		t.Errorf("Find accepted an unknown name")
	}
}

// TestDocumented checks that docs/ziwei-patterns.md lists every pattern with its source.
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "ziwei-patterns.md"))
	if err != nil {
		t.Fatalf("docs/ziwei-patterns.md: %v", err)
	}
	for _, p := range All() {
		row := ""
		for _, line := range strings.Split(string(doc), "\n") {
			if strings.Contains(line, "| "+p.Name+" ") {
				row = line
			}
		}
		if row == "" || !strings.Contains(row, p.Source) || !strings.Contains(row, p.ID) {
			t.Errorf("%s (%s) is not documented with its id and source", p.Name, p.ID)
		}
	}
}

func TestFoundOnKnownChart(t *testing.T) {
	// 1984-08-15 寅时 男 … a chart is checked by hand in the server's golden test;
	// here only determinism and language rendering are checked.
	c, err := astro.NewChart(astro.Input{Date: "1990-05-17", TimeIndex: 6, Gender: astro.Male, FixLeap: true})
	if err != nil {
		t.Fatal(err)
	}
	found := Found(&rules.Context{Chart: c})
	names := []string{}
	for _, p := range found {
		names = append(names, p.Name)
	}
	// 命宫 亥 巨门 (身宫同宫); 羊陀 flank 申 not 亥; no 紫府 in 命宫.
	if strings.Join(names, ",") != "命身同宫" {
		t.Errorf("found %v", names)
	}
	if found[0].LocalName(astro.EnUS) != "Life and body palace coincide (命身同宫)" || found[0].LocalMeaning(astro.EnUS) == found[0].LocalMeaning(astro.ZhCN) {
		t.Errorf("localisation: %q", found[0].LocalName(astro.EnUS))
	}
}

func BenchmarkFound(b *testing.B) {
	c, _ := astro.NewChart(astro.Input{Date: "1990-05-17", TimeIndex: 6, Gender: astro.Male, FixLeap: true})
	ctx := &rules.Context{Chart: c}
	b.ReportAllocs()
	for b.Loop() {
		Found(ctx)
	}
}
