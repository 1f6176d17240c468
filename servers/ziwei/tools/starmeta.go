package tools

import "github.com/mcpfleet/mcpfleet/servers/ziwei/astro"

// Traditional attributes of the stars (五行, 阴阳 and a keyword), as commonly
// listed in 《紫微斗数全书》's 诸星 sections and modern handbooks. The engine
// (iztro) carries no such table; stars without a traditional entry are left
// blank rather than guessed.
type starMeta struct {
	element  int8 // index into elements; -1 unknown
	yang     int8 // 1 阳, 0 阴, -1 unknown
	natureZh string
	natureEn string
}

var elements = [3][5]string{
	{"木", "火", "土", "金", "水"},
	{"木", "火", "土", "金", "水"},
	{"wood", "fire", "earth", "metal", "water"},
}

const (
	eWood, eFire, eEarth, eMetal, eWater = 0, 1, 2, 3, 4
)

var starMetas = map[astro.StarID]starMeta{
	astro.ZiWei:     {eEarth, 0, "帝座，尊贵、领导", "the emperor: dignity, leadership"},
	astro.TianJi:    {eWood, 0, "善星，智慧、谋略、变动", "wisdom, planning, change"},
	astro.TaiYang:   {eFire, 1, "贵星，光明、博爱、名声", "brightness, generosity, fame"},
	astro.WuQu:      {eMetal, 0, "财星，刚毅、果决", "wealth star: firmness, decision"},
	astro.TianTong:  {eWater, 1, "福星，温和、享受", "blessings, gentleness, enjoyment"},
	astro.LianZhen:  {eFire, 0, "囚星，次桃花，原则与欲望", "the prisoner: principle and desire"},
	astro.TianFu:    {eEarth, 1, "库星，稳重、保守、积蓄", "the treasury: steadiness, saving"},
	astro.TaiYin:    {eWater, 0, "富星，柔和、细腻、田宅", "the moon: gentleness, property"},
	astro.TanLang:   {eWood, 1, "桃花星，欲望、多才多艺", "desire, versatility, romance"},
	astro.JuMen:     {eWater, 0, "暗星，口舌、是非、辩才", "the dark star: speech, disputes"},
	astro.TianXiang: {eWater, 1, "印星，辅佐、公正", "the seal: service, fairness"},
	astro.TianLiang: {eEarth, 1, "荫星，庇护、长寿、清高", "the shelter: protection, longevity"},
	astro.QiSha:     {eMetal, 0, "将星，刚烈、开创", "the general: force, pioneering"},
	astro.PoJun:     {eWater, 0, "耗星，破旧立新、变动", "the breaker: renewal, upheaval"},
	astro.ZuoFu:     {eEarth, 1, "辅佐之吉星", "helper star: support"},
	astro.YouBi:     {eWater, 0, "辅佐之吉星", "helper star: support"},
	astro.WenChang:  {eMetal, 1, "文星，科甲、文书", "literary star: exams, documents"},
	astro.WenQu:     {eWater, 0, "文星，才艺、口才", "literary star: arts, eloquence"},
	astro.TianKui:   {eFire, 1, "天乙贵人（阳贵）", "noble helper (yang)"},
	astro.TianYue:   {eFire, 0, "天乙贵人（阴贵）", "noble helper (yin)"},
	astro.LuCun:     {eEarth, 0, "禄星，财禄、保守", "income, caution"},
	astro.TianMa:    {eFire, 1, "驿马，迁动、奔波", "travel horse: movement"},
	astro.QingYang:  {eMetal, 1, "刑星，刚烈、冲突", "the blade: conflict, force"},
	astro.TuoLuo:    {eMetal, 0, "忌星，拖延、纠缠", "the spinner: delay, entanglement"},
	astro.HuoXing:   {eFire, 1, "杀星，急躁、突发", "fire: haste, sudden events"},
	astro.LingXing:  {eFire, 0, "杀星，阴沉、积郁", "bell: brooding, hidden trouble"},
	astro.DiKong:    {eFire, 0, "空亡之星，理想、落空", "void: ideals, emptiness"},
	astro.DiJie:     {eFire, 1, "劫煞之星，破耗", "robbery: loss"},
	astro.HongLuan:  {eWater, 0, "婚姻喜庆", "marriage, celebration"},
	astro.TianXi:    {eWater, 1, "喜庆生育", "joy, births"},
	astro.TianYao:   {eWater, 0, "风流才艺", "charm, artistry"},
	astro.XianChi:   {eWater, 0, "桃花", "romance"},
}

func (m starMeta) elementName(l astro.Lang) string {
	if m.element < 0 {
		return ""
	}
	return elements[l][m.element]
}

func (m starMeta) yinYang(l astro.Lang) string {
	switch {
	case m.yang == 1 && l == astro.EnUS:
		return "yang"
	case m.yang == 0 && l == astro.EnUS:
		return "yin"
	case m.yang == 1 && l == astro.ZhTW:
		return "陽"
	case m.yang == 1:
		return "阳"
	case m.yang == 0:
		if l == astro.ZhTW {
			return "陰"
		}
		return "阴"
	}
	return ""
}

func (m starMeta) nature(l astro.Lang) string {
	if l == astro.EnUS {
		return m.natureEn
	}
	return m.natureZh
}

func metaOf(s astro.StarID) starMeta {
	if m, ok := starMetas[s]; ok {
		return m
	}
	return starMeta{element: -1, yang: -1}
}
