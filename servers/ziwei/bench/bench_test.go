package bench

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/patterns"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/rules"
)

const seed = 20261121

// TestCasesMatchNode pins the first cases so a change to either generator is noticed
// (iztro-bench.mjs prints the same lines with --print-cases).
func TestCasesMatchNode(t *testing.T) {
	got := Cases(seed, 3)
	for i, want := range firstCases {
		if got[i].String() != want {
			t.Errorf("case %d: %q, want %q", i, got[i].String(), want)
		}
	}
}

func inputs(n int) ([]astro.Input, []Case) {
	cs := Cases(seed, n)
	ins := make([]astro.Input, n)
	for i, c := range cs {
		g := astro.Male
		if c.Female {
			g = astro.Female
		}
		ins[i] = astro.Input{Date: c.Date, TimeIndex: c.TimeIndex, Gender: g, FixLeap: true}
	}
	return ins, cs
}

// BenchmarkBySolar is iztro's astro.bySolar: a full natal chart.
func BenchmarkBySolar(b *testing.B) {
	ins, _ := inputs(2000)
	astro.WarmCalendar()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := astro.NewChart(ins[i%len(ins)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBySolarRender adds the zh-CN rendering (iztro's chart object has names).
func BenchmarkBySolarRender(b *testing.B) {
	ins, _ := inputs(2000)
	astro.WarmCalendar()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c, err := astro.NewChart(ins[i%len(ins)])
		if err != nil {
			b.Fatal(err)
		}
		c.Render(astro.ZhCN)
	}
}

// BenchmarkHoroscope is iztro's chart.horoscope(target, timeIndex).
func BenchmarkHoroscope(b *testing.B) {
	ins, cs := inputs(2000)
	astro.WarmCalendar()
	charts := make([]*astro.Chart, len(ins))
	for i, in := range ins {
		charts[i], _ = astro.NewChart(in)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(charts)
		if _, err := charts[k].Horoscope(cs[k].Target, cs[k].TargetTime); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPatterns is the pattern catalogue on one chart (what initialize_chart adds).
func BenchmarkPatterns(b *testing.B) {
	ins, _ := inputs(256)
	charts := make([]*astro.Chart, len(ins))
	for i, in := range ins {
		charts[i], _ = astro.NewChart(in)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		patterns.Found(&rules.Context{Chart: charts[i%len(charts)]})
	}
}

// firstCases are `node iztro-bench.mjs --print-cases 3`.
var firstCases = []string{
	"1904-03-18 7 男 1994-01-07 9",
	"2012-03-28 10 女 2039-03-23 11",
	"2015-03-16 10 男 2054-09-29 2",
}
