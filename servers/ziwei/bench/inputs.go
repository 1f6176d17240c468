// Package bench holds the inputs shared by the Go benchmarks here and the
// node script iztro-bench.mjs, so both time the same charts. The generator is
// mulberry32 (32-bit, identical in Go and JavaScript).
package bench

import (
	"fmt"
	"time"
)

// Case is one benchmark input: a solar birth and a horoscope target.
type Case struct {
	Date       string // YYYY-MM-DD, 1900-01-01 … 2100-12-31
	TimeIndex  int
	Female     bool
	Target     string // on or after Date, within 100 years, ≤ 2100-12-31
	TargetTime int
}

type mulberry32 uint32

func (m *mulberry32) next() uint32 {
	*m += 0x6D2B79F5
	z := uint32(*m)
	z = (z ^ z>>15) * (z | 1)
	z ^= z + (z^z>>7)*(z|61)
	return z ^ z>>14
}

var epoch = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)

// Cases returns n cases from seed.
func Cases(seed uint32, n int) []Case {
	r := mulberry32(seed)
	last := time.Date(2100, 12, 31, 0, 0, 0, 0, time.UTC)
	span := uint32(last.Sub(epoch).Hours()/24) + 1
	out := make([]Case, n)
	for i := range out {
		d := epoch.AddDate(0, 0, int(r.next()%span))
		ti := int(r.next() % 13)
		female := r.next()%2 == 1
		t := d.AddDate(0, 0, int(r.next()%(100*365)))
		if t.After(last) {
			t = last
		}
		tt := int(r.next() % 13)
		out[i] = Case{Date: d.Format("2006-01-02"), TimeIndex: ti, Female: female, Target: t.Format("2006-01-02"), TargetTime: tt}
	}
	return out
}

// String is the case as the node script prints it (for cross-checking the generators).
func (c Case) String() string {
	g := "男"
	if c.Female {
		g = "女"
	}
	return fmt.Sprintf("%s %d %s %s %d", c.Date, c.TimeIndex, g, c.Target, c.TargetTime)
}
