package astro

// StarID identifies one of the 66 natal stars. The order is iztro's placement
// order (14 major stars, 14 minor stars, 38 adjective stars), so listing a
// palace's stars by ascending ID reproduces iztro's order within each group.
type StarID uint8

// The 66 natal stars.
const (
	ZiWei     StarID = iota // 紫微
	TianJi                  // 天机
	TaiYang                 // 太阳
	WuQu                    // 武曲
	TianTong                // 天同
	LianZhen                // 廉贞
	TianFu                  // 天府
	TaiYin                  // 太阴
	TanLang                 // 贪狼
	JuMen                   // 巨门
	TianXiang               // 天相
	TianLiang               // 天梁
	QiSha                   // 七杀
	PoJun                   // 破军

	ZuoFu    // 左辅
	YouBi    // 右弼
	WenChang // 文昌
	WenQu    // 文曲
	TianKui  // 天魁
	TianYue  // 天钺
	LuCun    // 禄存
	TianMa   // 天马
	DiKong   // 地空
	DiJie    // 地劫
	HuoXing  // 火星
	LingXing // 铃星
	QingYang // 擎羊
	TuoLuo   // 陀罗

	HongLuan      // 红鸾
	TianXi        // 天喜
	TianYao       // 天姚
	XianChi       // 咸池
	JieShen       // 解神
	SanTai        // 三台
	BaZuo         // 八座
	EnGuang       // 恩光
	TianGui       // 天贵
	LongChi       // 龙池
	FengGe        // 凤阁
	TianCai       // 天才
	TianShou      // 天寿
	TaiFu         // 台辅
	FengGao       // 封诰
	TianWu        // 天巫
	HuaGai        // 华盖
	TianGuan      // 天官
	TianFuFortune // 天福
	TianChu       // 天厨
	TianYueMoon   // 天月
	TianDe        // 天德
	YueDe         // 月德
	TianKong      // 天空
	XunKong       // 旬空
	JieLu         // 截路
	KongWang      // 空亡
	GuChen        // 孤辰
	GuaSu         // 寡宿
	FeiLian       // 蜚廉
	PoSui         // 破碎
	TianXing      // 天刑
	YinSha        // 阴煞
	TianKu        // 天哭
	TianXu        // 天虚
	TianShi       // 天使
	TianShang     // 天伤
	NianJie       // 年解

	// 中州派 only (algorithm "zhongzhou", where 截路 and 空亡 are absent).
	LongDe    // 龙德
	JieKong   // 截空
	JieShaAdj // 劫杀
	DaHaoAdj  // 大耗

	// NumStars is the number of natal stars known: 66 in every chart (70
	// minus the four 中州派 stars; a 中州派 chart has 68).
	NumStars int = iota
)

// StarGroup says in which of a palace's three lists a star appears.
type StarGroup uint8

// Star groups.
const (
	GroupMajor     StarGroup = iota // majorStars
	GroupMinor                      // minorStars (incl. 禄存 and 天马 in iztro 2.6.1)
	GroupAdjective                  // adjectiveStars
)

// Group returns the palace list the star belongs to.
func (s StarID) Group() StarGroup {
	switch {
	case s <= PoJun:
		return GroupMajor
	case s <= TuoLuo:
		return GroupMinor
	default:
		return GroupAdjective
	}
}

// Type returns iztro's star type.
func (s StarID) Type() StarType {
	if int(s) < NumStars {
		return starTypes[s]
	}
	return TypeAdjective
}

// Valid reports whether s names one of the 66 stars.
func (s StarID) Valid() bool { return int(s) < NumStars }

var starTypes = [NumStars]StarType{
	ZiWei: TypeMajor, TianJi: TypeMajor, TaiYang: TypeMajor, WuQu: TypeMajor, TianTong: TypeMajor,
	LianZhen: TypeMajor, TianFu: TypeMajor, TaiYin: TypeMajor, TanLang: TypeMajor, JuMen: TypeMajor,
	TianXiang: TypeMajor, TianLiang: TypeMajor, QiSha: TypeMajor, PoJun: TypeMajor,
	ZuoFu: TypeSoft, YouBi: TypeSoft, WenChang: TypeSoft, WenQu: TypeSoft, TianKui: TypeSoft, TianYue: TypeSoft,
	LuCun: TypeLucun, TianMa: TypeTianma,
	DiKong: TypeTough, DiJie: TypeTough, HuoXing: TypeTough, LingXing: TypeTough, QingYang: TypeTough, TuoLuo: TypeTough,
	HongLuan: TypeFlower, TianXi: TypeFlower, TianYao: TypeFlower, XianChi: TypeFlower,
	JieShen: TypeHelper, NianJie: TypeHelper,
	LongDe: TypeAdjective, JieKong: TypeAdjective, JieShaAdj: TypeAdjective, DaHaoAdj: TypeAdjective,
	SanTai: TypeAdjective, BaZuo: TypeAdjective, EnGuang: TypeAdjective, TianGui: TypeAdjective,
	LongChi: TypeAdjective, FengGe: TypeAdjective, TianCai: TypeAdjective, TianShou: TypeAdjective,
	TaiFu: TypeAdjective, FengGao: TypeAdjective, TianWu: TypeAdjective, HuaGai: TypeAdjective,
	TianGuan: TypeAdjective, TianFuFortune: TypeAdjective, TianChu: TypeAdjective, TianYueMoon: TypeAdjective,
	TianDe: TypeAdjective, YueDe: TypeAdjective, TianKong: TypeAdjective, XunKong: TypeAdjective,
	JieLu: TypeAdjective, KongWang: TypeAdjective, GuChen: TypeAdjective, GuaSu: TypeAdjective,
	FeiLian: TypeAdjective, PoSui: TypeAdjective, TianXing: TypeAdjective, YinSha: TypeAdjective,
	TianKu: TypeAdjective, TianXu: TypeAdjective, TianShi: TypeAdjective, TianShang: TypeAdjective,
}

// Short aliases so the brightness table below reads like iztro's.
const (
	b_ = BrightnessNone
	bM = BrightMiao
	bW = BrightWang
	bD = BrightDe
	bL = BrightLi
	bP = BrightPing
	bB = BrightBu
	bX = BrightXian
)

// brightnessTable is iztro 2.6.1's built-in brightness table, indexed by board
// position (0 = 寅 … 11 = 丑). Stars not listed have no brightness. 2.6.1
// changed the 酉 entries (position 7) of 太阳 (陷→平), 太阴 (不→旺) and 七杀 (庙→旺).
var brightnessTable = [NumStars]*[12]Brightness{
	ZiWei:     {bW, bW, bD, bW, bM, bM, bW, bW, bD, bW, bP, bM},
	TianJi:    {bD, bW, bL, bP, bM, bX, bD, bW, bL, bP, bM, bX},
	TaiYang:   {bW, bM, bW, bW, bW, bD, bD, bP, bB, bX, bX, bB},
	WuQu:      {bD, bL, bM, bP, bW, bM, bD, bL, bM, bP, bW, bM},
	TianTong:  {bL, bP, bP, bM, bX, bB, bW, bP, bP, bM, bW, bB},
	LianZhen:  {bM, bP, bL, bX, bP, bL, bM, bP, bL, bX, bP, bL},
	TianFu:    {bM, bD, bM, bD, bW, bM, bD, bW, bM, bD, bM, bM},
	TaiYin:    {bW, bX, bX, bX, bB, bB, bL, bW, bW, bM, bM, bM},
	TanLang:   {bP, bL, bM, bX, bW, bM, bP, bL, bM, bX, bW, bM},
	JuMen:     {bM, bM, bX, bW, bW, bB, bM, bM, bX, bW, bW, bB},
	TianXiang: {bM, bX, bD, bD, bM, bD, bM, bX, bD, bD, bM, bM},
	TianLiang: {bM, bM, bM, bX, bM, bW, bX, bD, bM, bX, bM, bW},
	QiSha:     {bM, bW, bM, bP, bW, bM, bM, bW, bM, bP, bW, bM},
	PoJun:     {bD, bX, bW, bP, bM, bW, bD, bX, bW, bP, bM, bW},
	WenChang:  {bX, bL, bD, bM, bX, bL, bD, bM, bX, bL, bD, bM},
	WenQu:     {bP, bW, bD, bM, bX, bW, bD, bM, bX, bW, bD, bM},
	HuoXing:   {bM, bL, bX, bD, bM, bL, bX, bD, bM, bL, bX, bD},
	LingXing:  {bM, bL, bX, bD, bM, bL, bX, bD, bM, bL, bX, bD},
	QingYang:  {b_, bX, bM, b_, bX, bM, b_, bX, bM, b_, bX, bM},
	TuoLuo:    {bX, b_, bM, bX, b_, bM, bX, b_, bM, bX, b_, bM},
}

// BrightnessAt returns the star's brightness in the palace on branch b
// (iztro 2.6.1 table); BrightnessNone when the star has no brightness there.
func BrightnessAt(s StarID, b Branch) Brightness {
	if int(s) >= NumStars || brightnessTable[s] == nil {
		return BrightnessNone
	}
	return brightnessTable[s][b.BoardIndex()]
}

// HasBrightness reports whether iztro defines a brightness row for the star.
func HasBrightness(s StarID) bool { return int(s) < NumStars && brightnessTable[s] != nil }

// mutagenTable is iztro's built-in 四化 table: for each stem the stars taking
// 禄, 权, 科, 忌.
var mutagenTable = [10][4]StarID{
	StemJia:  {LianZhen, PoJun, WuQu, TaiYang},
	StemYi:   {TianJi, TianLiang, ZiWei, TaiYin},
	StemBing: {TianTong, TianJi, WenChang, LianZhen},
	StemDing: {TaiYin, TianTong, TianJi, JuMen},
	StemWu:   {TanLang, TaiYin, YouBi, TianJi},
	StemJi:   {WuQu, TanLang, TianLiang, WenQu},
	StemGeng: {TaiYang, WuQu, TaiYin, TianTong},
	StemXin:  {JuMen, TaiYang, WenQu, WenChang},
	StemRen:  {TianLiang, ZiWei, ZuoFu, WuQu},
	StemGui:  {PoJun, JuMen, TaiYin, TanLang},
}

// Mutagens returns the four stars transformed by the stem, in the order
// 禄, 权, 科, 忌 (iztro's built-in table).
func Mutagens(s Stem) [4]StarID { return mutagenTable[s%10] }

// MutagenOf returns the transformation the stem gives the star, or MutagenNone.
func MutagenOf(s Stem, star StarID) Mutagen {
	for i, id := range mutagenTable[s%10] {
		if id == star {
			return Mutagen(i + 1)
		}
	}
	return MutagenNone
}

// MovingStar identifies one of the horoscope moving stars (流耀): the ten
// period stars 魁 钺 昌 曲 禄 羊 陀 马 鸾 喜, plus 年解 in the yearly period.
type MovingStar uint8

// Moving stars, in iztro's placement order (年解 first in the yearly period).
const (
	MovKui MovingStar = iota
	MovYue
	MovChang
	MovQu
	MovLu
	MovYang
	MovTuo
	MovMa
	MovLuan
	MovXi
	MovNianJie
	numMoving
)

var movingTypes = [numMoving]StarType{TypeSoft, TypeSoft, TypeSoft, TypeSoft, TypeLucun, TypeTough, TypeTough, TypeTianma, TypeFlower, TypeFlower, TypeHelper}

// Type returns the moving star's iztro type.
func (m MovingStar) Type() StarType {
	if m < numMoving {
		return movingTypes[m]
	}
	return TypeAdjective
}
