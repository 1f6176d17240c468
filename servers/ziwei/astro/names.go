package astro

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Reading names back: every parser takes the names of all six locales, then
// pinyin, then the Latin-script names without their diacritics (Vietnamese
// "Tu Vi" for Tử Vi, "Tai Bach" for Tài Bạch), since keyboards often drop them.

// fold writes a Latin-script name as lower-case letters without diacritics,
// spaces, hyphens or apostrophes ("Tử Vi" → "tuvi", đ → d). It returns ""
// for a name with other characters (Chinese, Korean).
func fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(strings.TrimSpace(s))) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '(', r == ')', r == '[', r == ']', r == '+':
			b.WriteRune(r)
		case r == 'đ':
			b.WriteByte('d')
		case unicode.Is(unicode.Mn, r), r == ' ', r == '-', r == '_', r == '\'', r == '’', r == '.':
		default:
			return ""
		}
	}
	return b.String()
}

// foldIndex maps the folded Vietnamese names of a table to their index;
// names two entries share after folding are left out.
func foldIndex(names func(*locale) []string) map[string]int {
	m := map[string]int{}
	dup := map[string]bool{}
	for i, n := range names(&locales[ViVN]) {
		k := fold(n)
		if _, seen := m[k]; seen && m[k] != i {
			dup[k] = true
		}
		m[k] = i
	}
	for k := range dup {
		delete(m, k)
	}
	return m
}

var (
	foldedStars    = foldIndex(func(l *locale) []string { return l.stars[:] })
	foldedRoles    = foldIndex(func(l *locale) []string { return l.roles[:] })
	foldedStems    = foldIndex(func(l *locale) []string { return l.stems[:] })
	foldedBranches = foldIndex(func(l *locale) []string { return l.branches[:] })
)

// starIndex maps every star name in every language (and its lower case) to
// its ID. A name two stars share within a locale (Korean 천상 for 天相 and
// 天伤, 천월 for 天钺 and 天月) is the first star's, as iztro's kot() reads it.
var starIndex = func() map[string]StarID {
	m := make(map[string]StarID, NumStars*7)
	for l := Lang(0); l < numLangs; l++ {
		for id := 0; id < NumStars; id++ {
			name := locales[l].stars[id]
			for _, k := range [2]string{name, strings.ToLower(name)} {
				if _, dup := m[k]; !dup {
					m[k] = StarID(id)
				}
			}
		}
	}
	// iztro's star aliases (lib/i18n/starAliases.js): a name two stars share
	// in Korean or Vietnamese, with the star's Chinese name to tell them apart.
	for name, id := range map[string]StarID{
		"천상(天相)": TianXiang, "천상(天傷)": TianShang, "천월(天鉞)": TianYue, "천월(天月)": TianYueMoon,
		"겁살(劫殺)": JieShaAdj, "비렴(蜚廉)": FeiLian, "kiếp sát(劫殺)": JieShaAdj, "phi liêm(蜚廉)": FeiLian,
	} {
		m[name] = id
	}
	return m
}()

// StarByName finds a star by its name in any supported language
// (紫微, 紫微, emperor, 자미, Tử Vi; case-insensitive), in pinyin (Ziwei) or
// in Vietnamese without diacritics (Tu Vi).
func StarByName(name string) (StarID, bool) {
	name = strings.TrimSpace(name)
	if id, ok := starIndex[name]; ok {
		return id, true
	}
	if id, ok := starIndex[strings.ToLower(name)]; ok {
		return id, true
	}
	if id, ok := starByPinyin(name); ok {
		return id, true
	}
	if i, ok := foldedStars[fold(name)]; ok {
		return StarID(i), true
	}
	return 0, false
}

// lookup finds name (compared in lower case) in a table of every locale.
func lookup(name string, table func(*locale) []string) (int, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	for l := Lang(0); l < numLangs; l++ {
		for i, n := range table(&locales[l]) {
			if strings.ToLower(n) == name {
				return i, true
			}
		}
	}
	return 0, false
}

// StemByName parses a stem in any language (甲 / jia / 갑 / Giáp, Giap).
func StemByName(name string) (Stem, bool) {
	if i, ok := lookup(name, func(l *locale) []string { return l.stems[:] }); ok {
		return Stem(i), true
	}
	i, ok := foldedStems[fold(name)]
	return Stem(i), ok
}

// BranchByName parses a branch in any language (子 / zi / 자 / Tý, Ty; 午 is
// "woo" in iztro's English).
func BranchByName(name string) (Branch, bool) {
	if strings.EqualFold(strings.TrimSpace(name), "wu") { // iztro writes 午 as "woo" to keep it apart from the stem 戊 "wu"
		return BranchWu, true
	}
	if i, ok := lookup(name, func(l *locale) []string { return l.branches[:] }); ok {
		return Branch(i), true
	}
	i, ok := foldedBranches[fold(name)]
	return Branch(i), ok
}

// trimPalaceWord drops the word "palace" a role may carry: 宫/宮 after it,
// Korean 궁 after it, Vietnamese "cung" before it.
func trimPalaceWord(s string) string {
	s = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, "宫"), "宮"), "궁")
	if f := strings.Fields(s); len(f) > 1 && strings.EqualFold(f[0], "cung") {
		s = strings.Join(f[1:], " ")
	}
	return strings.TrimSpace(s)
}

// RoleByName parses a palace role in any language; "命宫", "命", "soul",
// "兄弟宫", "兄弟", "siblings", "명궁", "형제", "Mệnh", "Cung Tài Bạch" … are
// accepted (the word for palace is optional), and pinyin (Ming, Minggong,
// Xiongdi, Fuqi, Guanlu …) and Vietnamese without diacritics (Tai Bach).
func RoleByName(name string) (PalaceRole, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	trimmed := trimPalaceWord(name)
	for l := Lang(0); l < numLangs; l++ {
		for i, n := range locales[l].roles {
			n = strings.ToLower(n)
			if n == name || trimPalaceWord(n) == trimmed {
				return PalaceRole(i), true
			}
		}
	}
	switch trimmed {
	case "奴仆", "交友", "僕役", "奴僕", "교우":
		return Friends, true
	case "事业", "事業", "사업":
		return Career, true
	}
	if r, ok := roleByPinyin(name); ok {
		return r, true
	}
	i, ok := foldedRoles[fold(trimmed)]
	return PalaceRole(i), ok
}

// MutagenByName reads 禄 权 科 忌 in any language (祿 權, A-D, 록 권 과 기,
// Lộc Quyền Khoa Kỵ), with or without 化, or their pinyin (lu, quan, ke, ji).
func MutagenByName(s string) (Mutagen, bool) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "化"))
	if i, ok := lookup(s, func(l *locale) []string { return l.mutagens[:] }); ok {
		return Mutagen(i + 1), true
	}
	switch fold(s) {
	case "lu", "loc":
		return MutagenLu, true
	case "quan", "quyen":
		return MutagenQuan, true
	case "ke", "khoa":
		return MutagenKe, true
	case "ji", "ky":
		return MutagenJi, true
	}
	return MutagenNone, false
}

// BrightnessByName reads a brightness name in any language (庙 廟 [+3] Miếu …)
// or pinyin (miao, wang, de, li, ping, bu, xian).
func BrightnessByName(s string) (Brightness, bool) {
	if i, ok := lookup(s, func(l *locale) []string { return l.brightness[:] }); ok {
		return Brightness(i + 1), true
	}
	k := fold(s)
	if k == "ham" { // Hãm, the usual Vietnamese word for 陷 (iztro's vi-VN writes Hạn)
		return BrightXian, true
	}
	for i, p := range [...]string{"miao", "wang", "de", "li", "ping", "bu", "xian"} {
		if k == p || k == fold(locales[ViVN].brightness[i]) {
			return Brightness(i + 1), true
		}
	}
	return BrightnessNone, false
}
