package astro

import "testing"

func TestNamesInEveryLocale(t *testing.T) {
	for _, l := range Langs() {
		for s := StemJia; s <= StemGui; s++ {
			if got, ok := StemByName(s.Name(l)); !ok || got != s {
				t.Errorf("%s StemByName(%q) = %d, %v", l, s.Name(l), got, ok)
			}
		}
		for b := BranchZi; b <= BranchHai; b++ {
			if got, ok := BranchByName(b.Name(l)); !ok || got != b {
				t.Errorf("%s BranchByName(%q) = %d, %v", l, b.Name(l), got, ok)
			}
		}
		for r := Soul; r <= Parents; r++ {
			if got, ok := RoleByName(r.Name(l)); !ok || got != r {
				t.Errorf("%s RoleByName(%q) = %d, %v", l, r.Name(l), got, ok)
			}
		}
		for m := MutagenLu; m <= MutagenJi; m++ {
			if got, ok := MutagenByName(m.Name(l)); !ok || got != m {
				t.Errorf("%s MutagenByName(%q) = %d, %v", l, m.Name(l), got, ok)
			}
		}
		for b := BrightMiao; b <= BrightXian; b++ {
			if got, ok := BrightnessByName(b.Name(l)); !ok || got != b {
				t.Errorf("%s BrightnessByName(%q) = %d, %v", l, b.Name(l), got, ok)
			}
		}
	}
}

func TestNamesOtherSpellings(t *testing.T) {
	stars := []struct {
		in   string
		want StarID
	}{
		{"Tu Vi", ZiWei}, {"tử vi", ZiWei}, {"THIEN PHU", TianFu}, {"Thien Phuc", TianFuFortune}, {"자미", ZiWei},
		{"紫微", ZiWei}, {"天機", TianJi}, {"천상", TianXiang}, {"천상(天傷)", TianShang}, {"천월(天月)", TianYueMoon},
		{"Dia Khong", DiKong}, {"Ziwei", ZiWei},
	}
	for _, c := range stars {
		if got, ok := StarByName(c.in); !ok || got != c.want {
			t.Errorf("StarByName(%q) = %d, %v; want %d", c.in, got, ok, c.want)
		}
	}
	roles := []struct {
		in   string
		want PalaceRole
	}{
		{"Cung Tài Bạch", Wealth}, {"tai bach", Wealth}, {"Menh", Soul}, {"cung menh", Soul}, {"명궁", Soul}, {"형제궁", Siblings},
		{"財帛宮", Wealth}, {"Minggong", Soul}, {"phuc duc", Spirit}, {"복덕", Spirit},
	}
	for _, c := range roles {
		if got, ok := RoleByName(c.in); !ok || got != c.want {
			t.Errorf("RoleByName(%q) = %d, %v; want %d", c.in, got, ok, c.want)
		}
	}
	if s, ok := StemByName("Giap"); !ok || s != StemJia {
		t.Error("Giap")
	}
	if s, ok := StemByName("신"); !ok || s != StemXin {
		t.Error("신 stem")
	}
	if b, ok := BranchByName("신"); !ok || b != BranchShen {
		t.Error("신 branch")
	}
	// Tý (子) and Tỵ (巳) are both "Ty" without marks: refused, not guessed.
	if b, ok := BranchByName("Ty"); ok {
		t.Errorf("BranchByName(Ty) = %d", b)
	}
	if m, ok := MutagenByName("化忌"); !ok || m != MutagenJi {
		t.Error("化忌")
	}
	if b, ok := BrightnessByName("Hãm"); !ok || b != BrightXian {
		t.Error("Hãm")
	}
	if m, ok := MutagenByName("Ky"); !ok || m != MutagenJi {
		t.Error("Ky")
	}
}
