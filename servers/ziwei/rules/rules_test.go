package rules

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// chart1990 is 1990-05-17 午时 男: 命宫 亥 (巨门, 身宫), 迁移 巳 (太阳 化禄),
// 财帛 未 (天机; 左辅 右弼 天钺 火星 陀罗), 官禄 卯 (天同 化忌), 申 紫微 天府 禄存 天马,
// 酉 太阴 化科 擎羊 铃星, 辰 武曲 化权 文昌.
func chart1990(t testing.TB) *astro.Chart {
	c, err := astro.NewChart(astro.Input{Date: "1990-05-17", TimeIndex: 6, Gender: astro.Male, FixLeap: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEval(t *testing.T) {
	ctx := &Context{Chart: chart1990(t)}
	for _, tc := range []struct {
		rule string
		want bool
	}{
		{`{"stars":["巨门"],"in":"命宫"}`, true},
		{`{"stars":["advocator"],"in":"soul"}`, true},
		{`{"stars":["巨门"],"in":"亥"}`, true},
		{`{"stars":["巨门"],"in":"身宫"}`, true},
		{`{"stars":["紫微","天府"],"in":"@禄存"}`, true},
		{`{"stars":["紫微","天府"],"in":"命宫"}`, false},
		{`{"stars":["太阳"],"in":"命宫","scope":"opposite"}`, true},
		{`{"stars":["太阳","天机","天同"],"in":"命宫","scope":"sanfang"}`, true},
		{`{"stars":["太阳","天机","天同"],"in":"命宫","scope":"sanhe"}`, false},
		{`{"stars":["天机","天同"],"in":"命宫","scope":"sanhe"}`, true},
		{`{"stars":["擎羊","陀罗"],"in":"申","scope":"flank"}`, true},
		{`{"stars":["擎羊","铃星"],"in":"申","scope":"flank"}`, false},
		{`{"stars":["太阳"],"minBrightness":"旺"}`, true},
		{`{"stars":["太阳"],"brightness":["庙"]}`, false},
		{`{"stars":["天同"],"maxBrightness":"平"}`, true},
		{`{"stars":["太阳"],"mutagen":"禄"}`, true},
		{`{"stars":["太阳"],"mutagen":"A","in":"迁移"}`, true},
		{`{"mutagens":["禄","权","科"],"in":"命宫","scope":"sanfang"}`, false},
		{`{"mutagens":["禄","忌"],"in":"命宫","scope":"sanfang"}`, true},
		{`{"mutagens":["科","忌"],"in":"命宫","scope":"sanfang","min":1}`, true},
		{`{"count":["major"],"in":"命宫","max":0}`, false},
		{`{"count":["major"],"in":"财帛","min":1,"max":1}`, true},
		{`{"count":["六煞"],"in":"财帛","min":2}`, true},
		{`{"count":["左辅","右弼","天钺"],"in":"未","min":3}`, true},
		{`{"palace":"命宫","branch":["亥"]}`, true},
		{`{"palace":"命宫","branch":["子","午"]}`, false},
		{`{"same":["身宫","命宫"]}`, true},
		{`{"same":["@太阳","@太阴"]}`, false},
		{`{"not":{"stars":["紫微"],"in":"命宫"}}`, true},
		{`{"any":[{"stars":["紫微"],"in":"命宫"},{"stars":["巨门"],"in":"命宫"}]}`, true},
		{`{"all":[{"stars":["巨门"],"in":"命宫"},{"stars":["紫微"],"in":"命宫"}]}`, false},
		{`{"stars":["巨门"],"in":"大限命宫"}`, false}, // no target date: not checkable
	} {
		r, err := Parse([]byte(tc.rule))
		if err != nil {
			t.Fatalf("%s: %v", tc.rule, err)
		}
		if got := r.Match(ctx); got != tc.want {
			t.Errorf("%s: Match %v, want %v", tc.rule, got, tc.want)
		}
		ok, checks := r.Explain(ctx, astro.ZhCN)
		if ok != tc.want || len(checks) == 0 {
			t.Errorf("%s: Explain %v %v", tc.rule, ok, checks)
		}
	}
}

func TestEvalWithPeriods(t *testing.T) {
	c := chart1990(t)
	h, err := c.Horoscope("2026-06-01", 6)
	if err != nil {
		t.Fatal(err)
	}
	d, y := h.Decadal, h.Yearly
	ctx := &Context{Chart: c, Decade: &d, Yearly: &y}
	// 2026 丙午: 流年命宫 on 午 (破军); 丙 化禄 天同.
	for _, tc := range []struct {
		rule string
		want bool
	}{
		{`{"stars":["破军"],"in":"流年命宫"}`, true},
		{`{"stars":["破军"],"in":"annual:soul"}`, true},
		{`{"stars":["天同"],"mutagen":"禄","level":"annual"}`, true},
		{`{"mutagens":["禄"],"level":"annual","in":"官禄"}`, true},
		{`{"stars":["紫微"],"in":"流年命宫"}`, false},
	} {
		r, err := Parse([]byte(tc.rule))
		if err != nil {
			t.Fatalf("%s: %v", tc.rule, err)
		}
		if !r.NeedsHoroscope() {
			t.Errorf("%s: NeedsHoroscope false", tc.rule)
		}
		if got := r.Match(ctx); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.rule, got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	deep := strings.Repeat(`{"not":`, 10) + `{"stars":["紫微"]}` + strings.Repeat(`}`, 10)
	many := `{"any":[` + strings.TrimSuffix(strings.Repeat(`{"stars":["紫微"]},`, 17), ",") + `]}`
	for _, tc := range []struct{ rule, want string }{
		{`[]`, "not a valid rule object"},
		{`{"js":"return true"}`, "not a valid rule object"},
		{`{}`, "exactly one of"},
		{`{"stars":["紫微"],"all":[]}`, "exactly one of"},
		{`{"stars":[]}`, "1-16 star names"},
		{`{"stars":["北极星"]}`, `stars[0]: unknown star`},
		{`{"stars":["紫微","紫微"]}`, "listed twice"},
		{`{"stars":["紫微"],"in":"厨房"}`, "unknown palace"},
		{`{"stars":["紫微"],"in":"命宫","scope":"near"}`, "unknown scope"},
		{`{"stars":["紫微"],"scope":"sanfang"}`, `scope needs "in"`},
		{`{"stars":["紫微"],"min":2}`, "min must be 1-1"},
		{`{"stars":["紫微"],"brightness":["亮"]}`, "unknown brightness"},
		{`{"stars":["紫微"],"brightness":["庙"],"minBrightness":"旺"}`, "one of brightness"},
		{`{"stars":["紫微"],"level":"decade"}`, "level applies to mutagen"},
		{`{"mutagens":["福"],"in":"命宫"}`, "unknown transformation"},
		{`{"count":["major"]}`, `count needs "in"`},
		{`{"count":["major"],"in":"命宫","min":3,"max":1}`, "min/max"},
		{`{"count":["星星"],"in":"命宫"}`, "unknown star or group"},
		{`{"palace":"命宫"}`, "both palace and branch"},
		{`{"palace":"命宫","branch":["甲"]}`, "unknown branch"},
		{`{"same":["命宫"]}`, "2-16 palace"},
		{`{"stars":["紫微"],"in":"大限身宫"}`, "natal chart"},
		{`{"all":[{"stars":["紫微"]},{"stars":["x"]}]}`, "all[1].stars[0]"},
		{`{"stars":["紫微"],"palace":"命宫"}`, "exactly one of"},
		{`{"mutagens":["禄"],"in":"命宫","brightness":["庙"]}`, `key "brightness" does not belong`},
		{deep, "nests"},
		{many, "1-16 rules"},
		{`{"stars":["紫微"]} {"x":1}`, "trailing data"},
		{`{"stars":["` + strings.Repeat("紫", 4000) + `"]}`, "limit"},
	} {
		_, err := Parse([]byte(tc.rule))
		var re *Error
		if !errors.As(err, &re) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.60s: error %v, want one mentioning %q", tc.rule, err, tc.want)
		}
	}
}

func TestStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "rules.json")
	s := NewStore(path)
	if l, err := s.List("u"); err != nil || len(l.Rules) != 0 {
		t.Fatalf("empty store: %v %v", l, err)
	}
	rule := json.RawMessage(`{ "stars" : ["巨门"], "in":"命宫" }`)
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	a, replaced, err := s.Put("u", "n1", "m1", rule, now)
	if err != nil || replaced || a.ID != RuleID("u", "n1") || string(a.Rule) != `{"stars":["巨门"],"in":"命宫"}` {
		t.Fatalf("put: %+v %v %v", a, replaced, err)
	}
	if _, replaced, _ = s.Put("u", "n1", "m2", rule, now); !replaced {
		t.Errorf("same name did not replace")
	}
	if _, _, err := s.Put("other", "n1", "m", rule, now); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Put("u", "bad", "m", json.RawMessage(`{"stars":["x"]}`), now); err == nil {
		t.Errorf("bad rule stored")
	}
	if _, _, err := s.Put("u", "", "m", rule, now); err == nil {
		t.Errorf("empty name stored")
	}
	ls, _ := s.List("u")
	l := ls.Rules
	if len(l) != 1 || l[0].Meaning != "m2" || !l[0].Compiled.Match(&Context{Chart: chart1990(t)}) {
		t.Errorf("list u: %+v", l)
	}
	if l, _ := NewStore(path).List("other"); len(l.Rules) != 1 {
		t.Errorf("a fresh store on the file sees %d rules for other", len(l.Rules))
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v %v", st.Mode(), err)
	}
	// The rules file and its lock file (shared by replicas), no temp files.
	if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 2 || ents[0].Name() != "rules.json" || ents[1].Name() != "rules.json.lock" {
		t.Errorf("temp files left behind: %v", ents)
	}
	// Concurrent puts from one process never lose an update.
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, _, err := s.Put("c", "r"+string(rune('a'+i)), "m", rule, now); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	if l, _ := s.List("c"); len(l.Rules) != 8 {
		t.Errorf("concurrent puts kept %d of 8", len(l.Rules))
	}
	if _, err := NewStore("").List("u"); !errors.Is(err, ErrNoPath) {
		t.Errorf("no path: %v", err)
	}
}

func BenchmarkMatch(b *testing.B) {
	c := chart1990(b)
	r, _ := Parse([]byte(`{"all":[{"stars":["太阳","天梁","文昌"],"in":"命宫","scope":"sanfang"},{"any":[{"stars":["禄存"],"in":"命宫","scope":"sanfang"},{"mutagens":["禄"],"in":"命宫","scope":"sanfang"}]}]}`))
	ctx := &Context{Chart: c}
	b.ReportAllocs()
	for b.Loop() {
		r.Match(ctx)
	}
}

func FuzzRule(f *testing.F) {
	for _, s := range []string{
		`{"stars":["紫微","天府"],"in":"命宫"}`,
		`{"all":[{"stars":["太阳"],"in":"命宫","scope":"sanfang","minBrightness":"旺"},{"not":{"count":["major"],"in":"@太阴","max":0}}]}`,
		`{"mutagens":["禄","权","科"],"in":"流年命宫","scope":"flank","min":2,"level":"annual"}`,
		`{"palace":"身宫","branch":["子","午"]}`,
		`{"same":["@紫微","大限命宫"]}`,
		`{"any":[{"stars":["擎羊"],"mutagen":"忌","level":"decade"}]}`,
	} {
		f.Add([]byte(s))
	}
	c := chart1990(f)
	h, _ := c.Horoscope("2030-01-01", 3)
	d, y := h.Decadal, h.Yearly
	ctxs := []*Context{{Chart: c}, {Chart: c, Decade: &d, Yearly: &y}}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		r, err := Parse(data)
		if err != nil {
			var re *Error
			if !errors.As(err, &re) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if r.Size() > MaxNodes {
			t.Fatalf("%d nodes", r.Size())
		}
		for _, ctx := range ctxs {
			m := r.Match(ctx)
			ok, _ := r.Explain(ctx, astro.EnUS)
			if ok != m {
				t.Fatalf("Match %v but Explain %v", m, ok)
			}
		}
		if d := time.Since(start); d > time.Second {
			t.Fatalf("parse+eval took %v", d)
		}
	})
}
