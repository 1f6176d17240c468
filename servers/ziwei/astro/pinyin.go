package astro

import "strings"

// Pinyin names. Users and older tools (the seed's Get_Palace_Info with
// palaceName "Ming") write palaces and stars in toneless Hanyu Pinyin, in any
// case, with or without spaces, hyphens, apostrophes or tone marks. These are
// the standard readings of the Chinese names (《现代汉语词典》); 子女 is zinü,
// written zinv or zinu on keyboards.

// starPinyin is each star's pinyin, in StarID order. 天福 and 天月 read like
// 天府 and 天钺 without tones: the toneless name means the better-known star
// (天府, 天钺); write the characters for the other.
var starPinyin = [NumStars]string{
	"ziwei", "tianji", "taiyang", "wuqu", "tiantong", "lianzhen", "tianfu", "taiyin", "tanlang", "jumen", "tianxiang", "tianliang", "qisha", "pojun",
	"zuofu", "youbi", "wenchang", "wenqu", "tiankui", "tianyue", "lucun", "tianma", "dikong", "dijie", "huoxing", "lingxing", "qingyang", "tuoluo",
	"hongluan", "tianxi", "tianyao", "xianchi", "jieshen", "santai", "bazuo", "enguang", "tiangui", "longchi", "fengge", "tiancai", "tianshou", "taifu",
	"fenggao", "tianwu", "huagai", "tianguan", "tianfu", "tianchu", "tianyue", "tiande", "yuede", "tiankong", "xunkong", "jielu", "kongwang", "guchen",
	"guasu", "feilian", "posui", "tianxing", "yinsha", "tianku", "tianxu", "tianshi", "tianshang", "nianjie", "longde", "jiekong", "jiesha", "dahao",
}

// rolePinyin is each palace role's pinyin (命宫 is ming), with the other
// names of a role (交友 and 奴仆 for 仆役, 事业 for 官禄).
var rolePinyin = map[string]PalaceRole{
	"ming": Soul, "xiongdi": Siblings, "fuqi": Spouse, "zinv": Children, "zinu": Children, "caibo": Wealth,
	"jie": Health, "qianyi": Surface, "puyi": Friends, "jiaoyou": Friends, "nupu": Friends, "guanlu": Career,
	"shiye": Career, "tianzhai": Property, "fude": Spirit, "fumu": Parents,
}

var pinyinStarIndex = func() map[string]StarID {
	m := make(map[string]StarID, NumStars)
	for id, p := range starPinyin {
		if _, dup := m[p]; !dup { // the first (major, then minor) star keeps a shared reading
			m[p] = StarID(id)
		}
	}
	return m
}()

// toneless folds a pinyin spelling to the keys above: lower case, tone marks
// and tone numbers off, ü as v, no spaces, hyphens, underscores, apostrophes
// or dots. It returns "" for anything with other characters (Chinese, say).
func toneless(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(s)) {
		switch {
		case r >= 'a' && r <= 'z':
			b.WriteRune(r)
		case r >= '1' && r <= '5', r == ' ', r == '-', r == '_', r == '\'', r == '’', r == '.':
		default:
			base, ok := toneMarks[r]
			if !ok {
				return ""
			}
			b.WriteByte(base)
		}
	}
	return b.String()
}

// toneMarks maps the pinyin vowels with tone marks (and ü) to their keys.
var toneMarks = func() map[rune]byte {
	m := map[rune]byte{}
	for base, marked := range map[byte]string{'a': "āáǎà", 'e': "ēéěè", 'i': "īíǐì", 'o': "ōóǒò", 'u': "ūúǔù", 'v': "üǖǘǚǜ"} {
		for _, r := range marked {
			m[r] = base
		}
	}
	return m
}()

// starByPinyin finds a star by its pinyin: Ziwei, "Tian Fu", tiānfǔ.
func starByPinyin(name string) (StarID, bool) {
	id, ok := pinyinStarIndex[toneless(name)]
	return id, ok
}

// roleByPinyin finds a palace role by its pinyin, gong optional: Ming,
// Minggong, "Ming Gong", Fuqi, Guanlu.
func roleByPinyin(name string) (PalaceRole, bool) {
	k := toneless(name)
	if k == "" {
		return 0, false
	}
	if r, ok := rolePinyin[k]; ok {
		return r, true
	}
	r, ok := rolePinyin[strings.TrimSuffix(k, "gong")]
	return r, ok && strings.HasSuffix(k, "gong")
}

// IsBodyPalaceName reports whether name is the body palace: 身宫, 身宮, body,
// 신궁, "Cung Thân" (a bare Thân, like a bare "shen", is the branch 申), or
// the pinyin shengong.
func IsBodyPalaceName(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "身宫", "身宮", "body", "신궁":
		return true
	}
	return toneless(name) == "shengong" || fold(name) == "cungthan"
}
