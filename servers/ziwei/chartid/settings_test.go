package chartid

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/birth"
)

// TestSettingsPart: default settings give the version-1 id unchanged (so
// every earlier id still decodes, as default settings), other settings add a
// part after Sep, and different settings never share an id.
func TestSettingsPart(t *testing.T) {
	spec := birth.Spec{Year: 1990, Month: 5, Day: 17, FixLeap: true, Gender: astro.Male, TimeIndex: 6, Clock: -1}
	base, err := Encode(spec)
	if err != nil {
		t.Fatal(err)
	}
	if id, _ := EncodeWith(spec, astro.Config{}); id != base {
		t.Errorf("default settings: %s, want %s", id, base)
	}
	s, cfg, err := DecodeWith(base)
	if err != nil || s != spec || !cfg.IsDefault() {
		t.Errorf("old id: %v %v %v", s, cfg, err)
	}
	seen := map[string]bool{base: true}
	for _, cfg := range []astro.Config{
		{Algorithm: astro.AlgorithmZhongzhou},
		{YearDivide: astro.DivideExact},
		{YearDivide: astro.DivideExact, HoroscopeDivide: astro.DivideExact},
		{AgeDivide: astro.AgeDivideBirthday, DayDivide: astro.DayDivideCurrent},
		{HasMutagens: 1 << astro.StemGeng, Mutagens: [10][4]astro.StarID{astro.StemGeng: {astro.TaiYang, astro.WuQu, astro.TianTong, astro.TaiYin}}},
	} {
		id, err := EncodeWith(spec, cfg)
		if err != nil || !strings.HasPrefix(id, base+Sep) || seen[id] {
			t.Fatalf("%+v: %s %v (seen %v)", cfg, id, err, seen[id])
		}
		seen[id] = true
		s, back, err := DecodeWith(strings.ToUpper(id))
		if err != nil || s != spec {
			t.Fatalf("%s: %v %v", id, s, err)
		}
		if again, _ := EncodeWith(s, back); again != id {
			t.Errorf("round trip %s → %s", id, again)
		}
	}
	if _, _, err := DecodeWith(base + Sep + "zz"); err == nil {
		t.Error("a bad settings part was accepted")
	}
}
