package astro

import (
	"testing"

	"github.com/6tail/lunar-go/calendar"
)

// TestYearByLiChun: the cached 立春 boundary gives the same year pillar as
// lunar-go's GetYearGanByLiChun/ZhiByLiChun (the twin of the function iztro
// calls) on every day from mid-January to mid-February, 1900-2100.
func TestYearByLiChun(t *testing.T) {
	for y := MinYear; y <= MaxYear; y++ {
		for n := dayNumber(y, 1, 15); n <= dayNumber(y, 2, 20); n++ {
			d := civilFromDays(n)
			l := calendar.NewSolar(d.Year, d.Month, d.Day, 11, 30, 0).GetLunar()
			g, _ := StemByName(l.GetYearGanByLiChun())
			z, _ := BranchByName(l.GetYearZhiByLiChun())
			if got := yearByLiChun(d, 6); got != (GanZhi{g, z}) {
				t.Fatalf("%s: %v, lunar-go %v", formatDate(d), got, GanZhi{g, z})
			}
		}
	}
}
