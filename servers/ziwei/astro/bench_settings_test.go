package astro

import "testing"

// BenchmarkNewChartSettings: a natal chart under the default settings beside
// the same charts under other schools' settings, in one run (go test -bench
// NewChartSettings ./servers/ziwei/astro).
func BenchmarkNewChartSettings(b *testing.B) {
	ins := benchInputs(4096)
	WarmCalendar()
	custom := Config{HasMutagens: 1<<StemGeng | 1<<StemRen}
	custom.Mutagens[StemGeng] = [4]StarID{TaiYang, WuQu, TianTong, TaiYin}
	custom.Mutagens[StemRen] = [4]StarID{TianLiang, ZiWei, TianFu, WuQu}
	for _, bc := range []struct {
		name string
		cfg  *Config
	}{
		{"default", nil},
		{"zhongzhou", &Config{Algorithm: AlgorithmZhongzhou}},
		{"custom-sihua", &custom},
		{"yearDivide-exact", &Config{YearDivide: DivideExact}},
		{"age-birthday+day-current", &Config{AgeDivide: AgeDivideBirthday, DayDivide: DayDivideCurrent}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := NewChartWith(ins[i%len(ins)], bc.cfg); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
