package astro

import (
	"fmt"
	"strings"
)

// Lang is an output language. Names come from iztro 2.6.1's locale tables.
type Lang uint8

// Supported languages.
const (
	ZhCN Lang = iota // simplified Chinese (iztro's default)
	ZhTW             // traditional Chinese (iztro's zh-TW table, as published)
	EnUS             // English
	JaJP             // Japanese
	KoKR             // Korean
	ViVN             // Vietnamese
	numLangs
)

var langCodes = [numLangs]string{"zh-CN", "zh-TW", "en-US", "ja-JP", "ko-KR", "vi-VN"}

// LangCodes lists the codes of the supported languages, iztro's six locales.
const LangCodes = "zh-CN, zh-TW, en-US, ja-JP, ko-KR, vi-VN"

// String returns the BCP 47 code, e.g. "zh-CN".
func (l Lang) String() string {
	if l < numLangs {
		return langCodes[l]
	}
	return fmt.Sprintf("Lang(%d)", uint8(l))
}

// Langs lists the supported languages.
func Langs() []Lang { return []Lang{ZhCN, ZhTW, EnUS, JaJP, KoKR, ViVN} }

// Chinese reports whether the language writes in Chinese characters with
// Chinese wording (zh-CN, zh-TW); text this server writes itself (pattern
// meanings, star keywords, labels) is Chinese there and English otherwise.
func (l Lang) Chinese() bool { return l == ZhCN || l == ZhTW }

// ParseLang accepts iztro's six codes (case-insensitive, "_" or "-") and the
// short forms zh, zh-hans, zh-hant, en, ja, ko, vi.
func ParseLang(s string) (Lang, error) {
	switch strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "-") {
	case "zh-cn", "zh", "zh-hans", "zh-sg", "cn":
		return ZhCN, nil
	case "zh-tw", "zh-hant", "zh-hk", "tw":
		return ZhTW, nil
	case "en-us", "en", "en-gb":
		return EnUS, nil
	case "ja-jp", "ja":
		return JaJP, nil
	case "ko-kr", "ko":
		return KoKR, nil
	case "vi-vn", "vi":
		return ViVN, nil
	}
	return 0, &InputError{Field: "language", Message: fmt.Sprintf("unknown language %q: use one of %s", s, LangCodes)}
}

type locale struct {
	stars       [NumStars]string
	stems       [10]string
	branches    [12]string
	brightness  [7]string
	mutagens    [4]string
	roles       [12]string
	fiveClasses [5]string // 水二 木三 金四 土五 火六
	changsheng  [12]string
	boshi       [12]string
	suiqian     [12]string
	jiangqian   [12]string
	zodiac      [12]string
	signs       [12]string
	times       [13]string
	periods     [7]string // decadal childhood turn yearly monthly daily hourly
	genders     [2]string
	moving      [5][10]string // scope decadal, yearly, monthly, daily, hourly × 魁钺昌曲禄羊陀马鸾喜
	suipo       string        // 岁破, the 中州派's name of the 7th 岁前 god
	body        string        // 身宫
	origin      string        // 来因

	// How iztro reads this locale's names back (its kot(): the first key,
	// over all six locales, whose text equals the name), where that changes
	// its output; see gen-locales.js.
	decadeStems    [10]string     // a decade's stem as iztro prints it
	soulBranches   [12]string     // the 命宫 branch as iztro prints it in earth and human charts
	lostDecadeStem string         // the stem printed for a decade palace it could not find
	roleKot        [12]int8       // the role a palace's name reads back as (-1: none)
	starKot        [NumStars]int8 // the star a star's name reads back as (-1: none)
}

func (l Lang) loc() *locale {
	if l >= numLangs {
		l = ZhCN
	}
	return &locales[l]
}

// Name returns the star's name in the language.
func (s StarID) Name(l Lang) string {
	if int(s) >= NumStars {
		return ""
	}
	return l.loc().stars[s]
}

// Name returns the stem's name in the language (甲 / jia).
func (s Stem) Name(l Lang) string { return l.loc().stems[s%10] }

// Name returns the branch's name in the language (子 / zi).
func (b Branch) Name(l Lang) string { return l.loc().branches[b%12] }

// Name returns the brightness name (庙 / [+3]); "" for BrightnessNone.
func (b Brightness) Name(l Lang) string {
	if b == BrightnessNone || b > BrightXian {
		return ""
	}
	return l.loc().brightness[b-1]
}

// Name returns the mutagen name (禄 / A); "" for MutagenNone.
func (m Mutagen) Name(l Lang) string {
	if m == MutagenNone || m > MutagenJi {
		return ""
	}
	return l.loc().mutagens[m-1]
}

// Name returns the palace role's name (命宫 / soul).
func (r PalaceRole) Name(l Lang) string { return l.loc().roles[r%12] }

// Name returns the bureau's name (木三局 / wood 3rd).
func (f FiveElementsClass) Name(l Lang) string {
	if f < Water2 || f > Fire6 {
		return ""
	}
	// table order 水二 木三 金四 土五 火六 equals bureau number order
	return l.loc().fiveClasses[f-Water2]
}

// Name returns the gender's name (男 / male).
func (g Gender) Name(l Lang) string { return l.loc().genders[g&1] }

// Name returns the period's name (大限, 童限, 小限, 流年, 流月, 流日, 流时).
func (p PeriodKind) Name(l Lang) string {
	if p > PeriodHourly {
		return ""
	}
	return l.loc().periods[p]
}

// ZodiacName returns the Chinese zodiac animal of a year branch (鼠 / rat).
func ZodiacName(b Branch, l Lang) string { return l.loc().zodiac[b%12] }

// SignName returns the western star sign name; 0 = aries … 11 = pisces.
func SignName(sign int, l Lang) string { return l.loc().signs[mod12(sign)] }

// TimeName returns the name of hour slot 0-12 (早子时 … 晚子时).
func TimeName(timeIndex int, l Lang) string {
	if timeIndex < 0 || timeIndex > 12 {
		return ""
	}
	return l.loc().times[timeIndex]
}

// TimeRange returns the clock range of hour slot 0-12, e.g. "23:00~00:00".
func TimeRange(timeIndex int) string {
	if timeIndex < 0 || timeIndex > 12 {
		return ""
	}
	return timeRanges[timeIndex]
}

var timeRanges = [13]string{
	"00:00~01:00", "01:00~03:00", "03:00~05:00", "05:00~07:00", "07:00~09:00", "09:00~11:00",
	"11:00~13:00", "13:00~15:00", "15:00~17:00", "17:00~19:00", "19:00~21:00", "21:00~23:00", "23:00~00:00",
}

// Twelve-god cycles (十二神).

// Changsheng12Name returns the name of the i-th 长生 god (0 = 长生 … 11 = 养).
func Changsheng12Name(i int, l Lang) string { return l.loc().changsheng[mod12(i)] }

// Boshi12Name returns the name of the i-th 博士 god (0 = 博士 … 11 = 官府).
func Boshi12Name(i int, l Lang) string { return l.loc().boshi[mod12(i)] }

// Suiqian12Name returns the name of the i-th 岁前 god (0 = 岁建 … 11 = 病符).
func Suiqian12Name(i int, l Lang) string { return l.loc().suiqian[mod12(i)] }

// Suiqian12NameAlg is Suiqian12Name under an algorithm: 中州派 calls the 7th
// 岁前 god 岁破 where the common tables say 大耗 (iztro's getYearly12).
func Suiqian12NameAlg(i int, l Lang, a Algorithm) string {
	if a == AlgorithmZhongzhou && mod12(i) == 6 {
		return l.loc().suipo
	}
	return Suiqian12Name(i, l)
}

// Jiangqian12Name returns the name of the i-th 将前 god (0 = 将星 … 11 = 亡神).
func Jiangqian12Name(i int, l Lang) string { return l.loc().jiangqian[mod12(i)] }

// MovingStarName returns the name of a moving star in a period (e.g. 运魁,
// 流禄, 月马, 日昌, 时喜; 年解 for MovNianJie). Only the decadal (or childhood),
// yearly, monthly, daily and hourly periods have moving stars.
func MovingStarName(m MovingStar, p PeriodKind, l Lang) string {
	if m == MovNianJie {
		return l.loc().stars[NianJie]
	}
	if m >= numMoving {
		return ""
	}
	scope := -1
	switch p {
	case PeriodDecadal, PeriodChildhood:
		scope = 0
	case PeriodYearly:
		scope = 1
	case PeriodMonthly:
		scope = 2
	case PeriodDaily:
		scope = 3
	case PeriodHourly:
		scope = 4
	}
	if scope < 0 {
		return ""
	}
	return l.loc().moving[scope][m]
}
