package astro

// Star metadata for tools: type, group, five element (五行), yin/yang and the
// brightness row.
//
// Sources of the element and yin/yang:
//   - "iztro": iztro 2.6.1 data/stars.js (STARS_INFO), which defines them for
//     the 14 major stars only, leaving some blank (太阳, 七杀 entirely; the
//     yin/yang of 贪狼, 天相, 天梁, 破军).
//   - "traditional": the blanks and the other stars are filled from the
//     commonly printed tables of the 紫微斗数全书 tradition (e.g. 太阳 阳火,
//     七杀 阴金, 左辅 阳土, 擎羊 阳金). Stars without a generally agreed value
//     are left ElementNone / YinYangNone.

// Element is one of the five elements (五行).
type Element uint8

// Elements.
const (
	ElementNone  Element = iota
	ElementWood          // 木
	ElementFire          // 火
	ElementEarth         // 土
	ElementMetal         // 金
	ElementWater         // 水
)

// elementNames: ja-JP, ko-KR and vi-VN write the elements as iztro's
// bureau names do in those locales (水の二局, 수이국, Thủy Nhị Cục …).
var elementNames = [numLangs][6]string{
	ZhCN: {"", "木", "火", "土", "金", "水"},
	ZhTW: {"", "木", "火", "土", "金", "水"},
	EnUS: {"", "wood", "fire", "earth", "metal", "water"},
	JaJP: {"", "木", "火", "土", "金", "水"},
	KoKR: {"", "목", "화", "토", "금", "수"},
	ViVN: {"", "Mộc", "Hỏa", "Thổ", "Kim", "Thủy"},
}

// Name returns the element's name ("" for ElementNone).
func (e Element) Name(l Lang) string {
	if e > ElementWater || l >= numLangs {
		return ""
	}
	return elementNames[l][e]
}

// YinYang of a star.
type YinYang uint8

// Yin and yang.
const (
	YinYangNone YinYang = iota
	YinYangYin          // 阴
	YinYangYang         // 阳
)

// yinYangNames: ja-JP, ko-KR and vi-VN write 阴/阳 as iztro's names of 太阴
// and 太阳 do there (太陰/太陽, 태음/태양, Thái Âm/Thái Dương).
var yinYangNames = [numLangs][3]string{
	ZhCN: {"", "阴", "阳"},
	ZhTW: {"", "陰", "陽"},
	EnUS: {"", "yin", "yang"},
	JaJP: {"", "陰", "陽"},
	KoKR: {"", "음", "양"},
	ViVN: {"", "Âm", "Dương"},
}

// Name returns 阴/阳 (yin/yang), "" for YinYangNone.
func (y YinYang) Name(l Lang) string {
	if y > YinYangYang || l >= numLangs {
		return ""
	}
	return yinYangNames[l][y]
}

// StarInfo describes a natal star.
type StarInfo struct {
	ID      StarID
	Type    StarType
	Group   StarGroup
	Element Element
	YinYang YinYang
	// ElementSource and YinYangSource are "iztro", "traditional" or "" (none).
	ElementSource, YinYangSource string
	// HasBrightness is false for stars iztro gives no brightness.
	HasBrightness bool
	// Brightness by board position (0 = 寅 … 11 = 丑), iztro 2.6.1's table.
	Brightness [12]Brightness
}

type elemYY struct {
	e  Element
	y  YinYang
	es string
	ys string
}

const (
	srcIztro = "iztro"
	srcTrad  = "traditional"
)

var starElements = [NumStars]elemYY{
	// 14 major stars: iztro's STARS_INFO, blanks filled traditionally.
	ZiWei:     {ElementEarth, YinYangYin, srcIztro, srcIztro},
	TianJi:    {ElementWood, YinYangYin, srcIztro, srcIztro},
	TaiYang:   {ElementFire, YinYangYang, srcTrad, srcTrad},
	WuQu:      {ElementMetal, YinYangYin, srcIztro, srcIztro},
	TianTong:  {ElementWater, YinYangYang, srcIztro, srcIztro},
	LianZhen:  {ElementFire, YinYangYin, srcIztro, srcIztro},
	TianFu:    {ElementEarth, YinYangYang, srcIztro, srcIztro},
	TaiYin:    {ElementWater, YinYangYin, srcIztro, srcIztro},
	TanLang:   {ElementWater, YinYangYang, srcIztro, srcTrad},
	JuMen:     {ElementEarth, YinYangYin, srcIztro, srcIztro},
	TianXiang: {ElementWater, YinYangYang, srcIztro, srcTrad},
	TianLiang: {ElementEarth, YinYangYang, srcIztro, srcTrad},
	QiSha:     {ElementMetal, YinYangYin, srcTrad, srcTrad},
	PoJun:     {ElementWater, YinYangYin, srcIztro, srcTrad},
	// 14 minor stars: traditional.
	ZuoFu:    {ElementEarth, YinYangYang, srcTrad, srcTrad},
	YouBi:    {ElementWater, YinYangYin, srcTrad, srcTrad},
	WenChang: {ElementMetal, YinYangYang, srcTrad, srcTrad},
	WenQu:    {ElementWater, YinYangYin, srcTrad, srcTrad},
	TianKui:  {ElementFire, YinYangYang, srcTrad, srcTrad},
	TianYue:  {ElementFire, YinYangYin, srcTrad, srcTrad},
	LuCun:    {ElementEarth, YinYangYin, srcTrad, srcTrad},
	TianMa:   {ElementFire, YinYangYang, srcTrad, srcTrad},
	DiKong:   {ElementFire, YinYangYin, srcTrad, srcTrad},
	DiJie:    {ElementFire, YinYangYang, srcTrad, srcTrad},
	HuoXing:  {ElementFire, YinYangYang, srcTrad, srcTrad},
	LingXing: {ElementFire, YinYangYin, srcTrad, srcTrad},
	QingYang: {ElementMetal, YinYangYang, srcTrad, srcTrad},
	TuoLuo:   {ElementMetal, YinYangYin, srcTrad, srcTrad},
	// Adjective stars with generally agreed values.
	HongLuan: {ElementWater, YinYangYin, srcTrad, srcTrad},
	TianXi:   {ElementWater, YinYangYang, srcTrad, srcTrad},
	TianYao:  {ElementWater, YinYangYin, srcTrad, srcTrad},
	TianXing: {ElementFire, YinYangYang, srcTrad, srcTrad},
	LongChi:  {ElementWater, YinYangYang, srcTrad, srcTrad},
	FengGe:   {ElementEarth, YinYangYang, srcTrad, srcTrad},
	SanTai:   {ElementEarth, YinYangYang, srcTrad, srcTrad},
	BaZuo:    {ElementEarth, YinYangYin, srcTrad, srcTrad},
	TianKu:   {ElementMetal, YinYangYang, srcTrad, srcTrad},
	TianXu:   {ElementEarth, YinYangYin, srcTrad, srcTrad},
	GuChen:   {ElementFire, YinYangYang, srcTrad, srcTrad},
	GuaSu:    {ElementFire, YinYangYin, srcTrad, srcTrad},
}

// Info returns the star's metadata.
func Info(s StarID) StarInfo {
	if !s.Valid() {
		return StarInfo{ID: s}
	}
	ey := starElements[s]
	si := StarInfo{
		ID: s, Type: s.Type(), Group: s.Group(),
		Element: ey.e, YinYang: ey.y, ElementSource: ey.es, YinYangSource: ey.ys,
		HasBrightness: brightnessTable[s] != nil,
	}
	if si.HasBrightness {
		si.Brightness = *brightnessTable[s]
	}
	return si
}

// AllStars lists the 66 natal stars in iztro's order.
func AllStars() []StarID {
	out := make([]StarID, NumStars)
	for i := range out {
		out[i] = StarID(i)
	}
	return out
}
