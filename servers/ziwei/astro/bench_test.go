package astro

import (
	"math/rand/v2"
	"testing"
)

// benchInputs returns n distinct pseudo-random solar inputs spread over 1900-2100.
func benchInputs(n int) []Input {
	r := rand.New(rand.NewPCG(1, 2))
	lo := dayNumber(MinYear, 1, 1)
	hi := dayNumber(MaxYear, 12, 31)
	out := make([]Input, n)
	for i := range out {
		d := civilFromDays(lo + r.IntN(hi-lo+1))
		out[i] = Input{Date: formatDate(d), FixLeap: r.IntN(2) == 0, TimeIndex: r.IntN(13), Gender: Gender(r.IntN(2))}
	}
	return out
}

func BenchmarkNewChart(b *testing.B) {
	ins := benchInputs(4096)
	WarmCalendar()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := NewChart(ins[i%len(ins)]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHoroscope(b *testing.B) {
	ins := benchInputs(1024)
	WarmCalendar()
	charts := make([]*Chart, len(ins))
	targets := make([]string, len(ins))
	r := rand.New(rand.NewPCG(3, 4))
	maxDay := dayNumber(MaxYear, 12, 31)
	for i, in := range ins {
		c, err := NewChart(in)
		if err != nil {
			b.Fatal(err)
		}
		charts[i] = c
		t := c.dayNum + r.IntN(100*365)
		if t > maxDay {
			t = maxDay
		}
		targets[i] = formatDate(civilFromDays(t))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(charts)
		if _, err := charts[k].Horoscope(targets[k], i%13); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRenderChart(b *testing.B) {
	c, err := NewChart(Input{Date: "1990-05-17", TimeIndex: 6, Gender: Female, FixLeap: true})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		c.Render(ZhCN)
	}
}

func BenchmarkRenderHoroscope(b *testing.B) {
	c, err := NewChart(Input{Date: "1990-05-17", TimeIndex: 6, Gender: Female, FixLeap: true})
	if err != nil {
		b.Fatal(err)
	}
	h, err := c.Horoscope("2026-11-21", 5)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.Render(EnUS)
	}
}

// BenchmarkLunarYearBuild measures one lunar-go year computation (the cost
// the per-year cache avoids).
func BenchmarkLunarYearBuild(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buildLunarYear(1900 + i%200)
	}
}
