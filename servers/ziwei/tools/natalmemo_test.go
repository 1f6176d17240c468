package tools

import (
	"reflect"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/settings"
)

// TestNatalMemo: the memo answers what rendering answers, per chart and
// language, on a first call and on a repeat, and stays within its bound.
func TestNatalMemo(t *testing.T) {
	idx := func(i int) *int { return &i }
	births := []BirthIn{
		{BirthDate: "1990-05-17", BirthTimeIndex: idx(6), Gender: "female"},
		{BirthDate: "1984-02-02", BirthTime: "07:30", Longitude: ptr(104.06), Gender: "男"},
		{BirthDate: "2000-01-01", BirthTimeIndex: idx(0), Gender: "male", Settings: &settings.Settings{Algorithm: "zhongzhou"}},
	}
	m := natalMemo{}
	m.m.Max = natalMemoMax
	for _, b := range births {
		for _, lang := range []string{"zh-CN", "zh-TW", "en-US"} {
			b.Language = lang
			cc, err := b.load(astro.Config{})
			if err != nil {
				t.Fatalf("%+v: %v", b, err)
			}
			want := natalEntry{basics: cc.basics(), patterns: cc.patternLines()}
			for round := range 2 {
				got := m.get(cc)
				if !reflect.DeepEqual(got.basics, want.basics) || !reflect.DeepEqual(got.patterns, want.patterns) {
					t.Fatalf("%s %s round %d:\n got %+v\nwant %+v", b.BirthDate, lang, round, got, want)
				}
			}
		}
	}
	if m.m.Len() != len(births)*3 {
		t.Fatalf("memo holds %d entries, want %d", m.m.Len(), len(births)*3)
	}
	cc, _ := births[0].load(astro.Config{})
	for i := range natalMemoMax + 5 {
		c := *cc
		c.id = cc.id + string(rune('a'+i%26)) + string(rune('a'+i/26))
		m.get(&c)
	}
	if m.m.Len() > natalMemoMax {
		t.Fatalf("memo holds %d entries, bound %d", m.m.Len(), natalMemoMax)
	}
}

func ptr[T any](v T) *T { return &v }
