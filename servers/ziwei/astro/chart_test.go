package astro

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// Values from the public golden case s1-00001 (iztro 2.6.1).
func TestChartKnownCase(t *testing.T) {
	c, err := NewChart(Input{Date: "1900-03-10", TimeIndex: 0, Gender: Male})
	if err != nil {
		t.Fatal(err)
	}
	r := c.Render(ZhCN)
	for _, tc := range []struct{ field, got, want string }{
		{"lunarDate", r.LunarDate, "一九〇〇年二月初十"},
		{"chineseDate", r.ChineseDate, "庚子 己卯 壬午 庚子"},
		{"time", r.Time, "早子时"},
		{"sign", r.Sign, "双鱼座"},
		{"zodiac", r.Zodiac, "鼠"},
		{"soulBranch", r.EarthlyBranchOfSoulPalace, "卯"},
		{"bodyBranch", r.EarthlyBranchOfBodyPalace, "卯"},
		{"soul", r.Soul, "文曲"},
		{"body", r.Body, "火星"},
		{"five", r.FiveElementsClass, "土五局"},
		{"palace0", r.Palaces[0].Name, "兄弟"},
		{"palace0 stem", r.Palaces[0].HeavenlyStem, "戊"},
		{"palace1", r.Palaces[1].Name, "命宫"},
		{"changsheng0", r.Palaces[0].Changsheng12, "病"},
		{"boshi0", r.Palaces[0].Boshi12, "飞廉"},
		{"jiangqian0", r.Palaces[0].Jiangqian12, "岁驿"},
		{"suiqian0", r.Palaces[0].Suiqian12, "丧门"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %q, want %q", tc.field, tc.got, tc.want)
		}
	}
	if got := r.Palaces[0].MajorStars; len(got) != 2 || got[0] != [5]string{"天机", "major", "origin", "得", ""} || got[1] != [5]string{"太阴", "major", "origin", "旺", "科"} {
		t.Errorf("palace 0 major stars %v", got)
	}
	if got := r.Palaces[1].Decadal; got.Range != [2]int{5, 14} {
		t.Errorf("palace 1 decade %v", got)
	}
	if got := r.Palaces[0].Ages; got[0] != 5 || got[9] != 113 {
		t.Errorf("palace 0 ages %v", got)
	}
	en := c.Render(EnUS)
	if en.ChineseDate != "geng zi - ji mao - ren woo - geng zi" || en.Soul != "artist" || en.FiveElementsClass != "earth 5th" || en.RawDates != nil {
		t.Errorf("en-US rendering: %q %q %q rawDates=%v", en.ChineseDate, en.Soul, en.FiveElementsClass, en.RawDates)
	}
	tw := c.Render(ZhTW)
	if tw.Palaces[0].MajorStars[0][0] != "天機" || tw.Palaces[0].MajorStars[1][4] != "科" || tw.Time != "早子時" {
		t.Errorf("zh-TW rendering: %v %q", tw.Palaces[0].MajorStars, tw.Time)
	}
}

func randomCharts(t testing.TB, n int) []*Chart {
	t.Helper()
	out := make([]*Chart, 0, n)
	for _, in := range benchInputs(n) {
		c, err := NewChart(in)
		if err != nil {
			t.Fatalf("%+v: %v", in, err)
		}
		out = append(out, c)
	}
	return out
}

// Structural invariants of every chart.
func TestChartInvariants(t *testing.T) {
	for _, c := range randomCharts(t, 300) {
		seen := 0
		mut := 0
		for i := 0; i < 12; i++ {
			stars := c.Stars(i)
			if !slices.IsSorted(stars) {
				t.Fatalf("%v: palace %d stars out of order %v", c.input, i, stars)
			}
			for _, s := range stars {
				seen++
				if c.StarPalace(s) != i {
					t.Fatalf("%v: star %d listed in %d, placed in %d", c.input, s, i, c.StarPalace(s))
				}
				if c.StarMutagen(s) != MutagenNone {
					mut++
				}
			}
			if got := c.PalaceOfRole(c.PalaceRole(i)); got != i {
				t.Fatalf("role round trip %d → %d", i, got)
			}
			d := c.DecadeAt(i)
			if dd, ok := c.DecadeByAge(d.From + 5); !ok || dd.Index != i {
				t.Fatalf("DecadeByAge(%d) = %v, want palace %d", d.From+5, dd, i)
			}
			if od, ok := c.DecadeByOrder(d.Order); !ok || od != d {
				t.Fatalf("DecadeByOrder(%d) = %v, want %v", d.Order, od, d)
			}
			for _, a := range c.Ages(i) {
				if c.AgePalace(a) != i {
					t.Fatalf("AgePalace(%d) = %d, want %d", a, c.AgePalace(a), i)
				}
			}
		}
		if seen != 66 || mut != 4 { // every common-school chart has 66 stars
			t.Fatalf("%v: %d stars, %d mutagens", c.input, seen, mut)
		}
		if c.PalaceRole(c.SoulIndex()) != Soul || c.OriginalPalace() < 0 || c.OriginalPalace() > 9 {
			t.Fatalf("%v: soul role / original palace", c.input)
		}
		if first, ok := c.DecadeByOrder(0); !ok || first.Index != c.SoulIndex() || first.From != int(c.FiveElementsClass()) {
			t.Fatalf("%v: first decade %v", c.input, first)
		}
	}
}

func TestMutagensAndLookup(t *testing.T) {
	if got := Mutagens(StemGeng); got != [4]StarID{TaiYang, WuQu, TaiYin, TianTong} {
		t.Errorf("庚 mutagens %v", got)
	}
	if MutagenOf(StemRen, ZuoFu) != MutagenKe || MutagenOf(StemRen, YouBi) != MutagenNone {
		t.Error("MutagenOf")
	}
	for _, tc := range []struct {
		name string
		want StarID
	}{{"紫微", ZiWei}, {"天機", TianJi}, {"warrior", WuQu}, {"Emperor", ZiWei}, {"天福", TianFuFortune}, {"天府", TianFu}, {"天月", TianYueMoon}, {"天鉞", TianYue}, {"年解", NianJie}} {
		if got, ok := StarByName(tc.name); !ok || got != tc.want {
			t.Errorf("StarByName(%q) = %v, %v", tc.name, got, ok)
		}
	}
	if _, ok := StarByName("nonsense"); ok {
		t.Error("StarByName(nonsense) found a star")
	}
	if b, ok := BranchByName("woo"); !ok || b != BranchWu {
		t.Error("BranchByName(woo)")
	}
	if s, ok := StemByName("丙"); !ok || s != StemBing {
		t.Error("StemByName(丙)")
	}
	if r, ok := RoleByName("官禄宫"); !ok || r != Career {
		t.Error("RoleByName(官禄宫)")
	}
	if r, ok := RoleByName("spirit"); !ok || r != Spirit {
		t.Error("RoleByName(spirit)")
	}
	// iztro 2.6.1's 酉 entries
	if BrightnessAt(TaiYang, BranchYou) != BrightPing || BrightnessAt(TaiYin, BranchYou) != BrightWang || BrightnessAt(QiSha, BranchYou) != BrightWang {
		t.Error("2.6.1 brightness at 酉")
	}
	if HasBrightness(TianMa) || !HasBrightness(QingYang) || BrightnessAt(QingYang, BranchZi) != BrightXian {
		t.Error("brightness rows")
	}
}

func TestHoroscope(t *testing.T) {
	c, err := NewChart(Input{Date: "1900-03-10", TimeIndex: 0, Gender: Male})
	if err != nil {
		t.Fatal(err)
	}
	h, err := c.Horoscope("1902-08-01", 10)
	if err != nil {
		t.Fatal(err)
	}
	if !h.IsChildhood() || h.NominalAge() != 3 || h.Decadal.Index != 8 || h.Age.Index != 10 || h.Yearly.Index != 0 || h.Monthly.Index != 4 || h.Daily.Index != 7 || h.Hourly.Index != 5 {
		t.Fatalf("horoscope %+v", h)
	}
	r := h.Render(EnUS)
	if r.Decadal.Name != "childhood" || r.Decadal.HeavenlyStem != "sick" || r.Age.Name != "age" || r.Yearly.Stars == nil || r.Age.Stars != nil {
		t.Fatalf("en rendering %+v", r.Decadal)
	}
	if got := (*r.Yearly.Stars)[6]; len(got) != 2 || got[0] != [2]string{"considery(Y)", "helper"} {
		t.Fatalf("yearly stars at 6: %v", got)
	}
	ms := h.Yearly.MovingStars()
	if len(ms[6]) != 2 || ms[6][0] != MovNianJie || ms[6][1] != MovMa {
		t.Fatalf("MovingStars()[6] = %v", ms[6])
	}
	for _, tc := range []struct {
		date  string
		ti    int
		field string
	}{
		{"1900-03-09", 0, "date"}, // before birth
		{"2030-02-30", 0, "date"}, // impossible
		{"2101-01-01", 0, "date"}, // out of range
		{"2021-03-01", 0, "date"}, // nominal age 122 > 120
		{"1950-01-01", 13, "timeIndex"},
	} {
		_, err := c.Horoscope(tc.date, tc.ti)
		var ie *InputError
		if !errors.As(err, &ie) || ie.Field != tc.field {
			t.Errorf("Horoscope(%s, %d) error %v, want InputError on %s", tc.date, tc.ti, err, tc.field)
		}
	}
	if _, err := c.Horoscope("1900-03-10", 0); err != nil {
		t.Errorf("horoscope on the birth day: %v", err)
	}
}

// Horoscope invariants over random charts and targets.
func TestHoroscopeInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	maxDay := dayNumber(MaxYear, 12, 31)
	for _, c := range randomCharts(t, 200) {
		n := c.dayNum + r.IntN(100*365)
		if n > maxDay {
			n = maxDay
		}
		h, err := c.HoroscopeAt(civilFromDays(n), r.IntN(13))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range h.Periods() {
			if p.Index < 0 || p.Index > 11 || p.PalaceRole(p.Index) != Soul || p.PalaceOfRole(Soul) != p.Index {
				t.Fatalf("period %+v", p)
			}
		}
		if h.Age.Index != c.AgePalace(h.NominalAge()) {
			t.Fatal("age palace")
		}
		if !h.IsChildhood() {
			if d, _ := c.DecadeByAge(h.NominalAge()); d.Index != h.Decadal.Index {
				t.Fatal("decade")
			}
		}
	}
}

// Charts and horoscopes are read-only: concurrent use is safe (run with -race).
func TestConcurrentUse(t *testing.T) {
	charts := randomCharts(t, 50)
	done := make(chan struct{})
	for g := 0; g < 4; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for _, c := range charts {
				c.Render(Lang(g % 3))
				if h, err := c.Horoscope("2100-12-31", g); err == nil {
					h.Render(Lang(g % 3))
				}
			}
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

func TestStarInfo(t *testing.T) {
	if len(AllStars()) != NumStars {
		t.Fatal("AllStars")
	}
	for _, s := range AllStars() {
		in := Info(s)
		if in.ID != s || in.Type != s.Type() || in.HasBrightness != HasBrightness(s) {
			t.Fatalf("Info(%d) = %+v", s, in)
		}
		if (in.Element == ElementNone) != (in.ElementSource == "") {
			t.Fatalf("Info(%d): element source %q", s, in.ElementSource)
		}
		for _, l := range Langs() {
			// A name two stars share (Korean 천상 is 天相 and 天伤, 천월 天钺 and
			// 天月) reads as the star iztro's kot() reads it as.
			want := s
			if k := l.loc().starKot[s]; k >= 0 {
				want = StarID(k)
			}
			if got, ok := StarByName(s.Name(l)); !ok || got != want {
				t.Fatalf("StarByName(%q) = %d, %v; want %d", s.Name(l), got, ok, want)
			}
		}
	}
	if in := Info(ZiWei); in.Element != ElementEarth || in.YinYang != YinYangYin || in.ElementSource != "iztro" || in.Brightness[0] != BrightWang {
		t.Errorf("Info(紫微) = %+v", in)
	}
	if Info(TaiYang).Element.Name(EnUS) != "fire" || Info(TaiYang).YinYang.Name(ZhTW) != "陽" {
		t.Error("太阳 names")
	}
}

func TestPalaceViews(t *testing.T) {
	c, err := NewChart(Input{Date: "1900-03-10", TimeIndex: 0, Gender: Male})
	if err != nil {
		t.Fatal(err)
	}
	ps := c.Palaces()
	if ps[1].Role != Soul || !ps[1].IsBodyPalace || !ps[2].IsOriginalPalace || ps[0].Role != Siblings {
		t.Fatalf("palaces %+v", ps[:3])
	}
	if p := c.PalaceByRole(Soul); p.Index != 1 || p.Branch != BranchMao || !c.HasStar(1, ZiWei) || c.HasStar(0, ZiWei) {
		t.Fatalf("soul palace %+v", p)
	}
	if p := c.PalaceByBranch(BranchChen); p.Index != 2 || p.Decade.From != 15 {
		t.Fatalf("辰 palace %+v", p)
	}
	if s := SurroundedPalaces(1); s != (Surrounded{1, 7, 9, 5}) {
		t.Fatalf("surrounded %+v", s)
	}
	if p, n := FlankingPalaces(0); p != 11 || n != 1 {
		t.Fatalf("flanking %d %d", p, n)
	}
	if Changsheng12Name(ps[0].Changsheng12, ZhCN) != "病" || Boshi12Name(ps[0].Boshi12, EnUS) != "gossip" {
		t.Fatal("cycle names")
	}
}
