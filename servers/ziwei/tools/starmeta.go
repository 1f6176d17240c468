package tools

import "github.com/mcpfleet/mcpfleet/servers/ziwei/astro"

// A one-line traditional keyword per star, as commonly summarised from
// 《紫微斗数全书》's 诸星 sections. Element and yin/yang come from the engine
// (astro.Info: iztro's STARS_INFO, blanks filled from the traditional tables).
type starMeta struct {
	natureZh string
	natureEn string
}

var starMetas = map[astro.StarID]starMeta{
	astro.ZiWei:     {"帝座，尊贵、领导", "the emperor: dignity, leadership"},
	astro.TianJi:    {"善星，智慧、谋略、变动", "wisdom, planning, change"},
	astro.TaiYang:   {"贵星，光明、博爱、名声", "brightness, generosity, fame"},
	astro.WuQu:      {"财星，刚毅、果决", "wealth star: firmness, decision"},
	astro.TianTong:  {"福星，温和、享受", "blessings, gentleness, enjoyment"},
	astro.LianZhen:  {"囚星，次桃花，原则与欲望", "the prisoner: principle and desire"},
	astro.TianFu:    {"库星，稳重、保守、积蓄", "the treasury: steadiness, saving"},
	astro.TaiYin:    {"富星，柔和、细腻、田宅", "the moon: gentleness, property"},
	astro.TanLang:   {"桃花星，欲望、多才多艺", "desire, versatility, romance"},
	astro.JuMen:     {"暗星，口舌、是非、辩才", "the dark star: speech, disputes"},
	astro.TianXiang: {"印星，辅佐、公正", "the seal: service, fairness"},
	astro.TianLiang: {"荫星，庇护、长寿、清高", "the shelter: protection, longevity"},
	astro.QiSha:     {"将星，刚烈、开创", "the general: force, pioneering"},
	astro.PoJun:     {"耗星，破旧立新、变动", "the breaker: renewal, upheaval"},
	astro.ZuoFu:     {"辅佐之吉星", "helper star: support"},
	astro.YouBi:     {"辅佐之吉星", "helper star: support"},
	astro.WenChang:  {"文星，科甲、文书", "literary star: exams, documents"},
	astro.WenQu:     {"文星，才艺、口才", "literary star: arts, eloquence"},
	astro.TianKui:   {"天乙贵人（阳贵）", "noble helper (yang)"},
	astro.TianYue:   {"天乙贵人（阴贵）", "noble helper (yin)"},
	astro.LuCun:     {"禄星，财禄、保守", "income, caution"},
	astro.TianMa:    {"驿马，迁动、奔波", "travel horse: movement"},
	astro.QingYang:  {"刑星，刚烈、冲突", "the blade: conflict, force"},
	astro.TuoLuo:    {"忌星，拖延、纠缠", "the spinner: delay, entanglement"},
	astro.HuoXing:   {"杀星，急躁、突发", "fire: haste, sudden events"},
	astro.LingXing:  {"杀星，阴沉、积郁", "bell: brooding, hidden trouble"},
	astro.DiKong:    {"空亡之星，理想、落空", "void: ideals, emptiness"},
	astro.DiJie:     {"劫煞之星，破耗", "robbery: loss"},
	astro.HongLuan:  {"婚姻喜庆", "marriage, celebration"},
	astro.TianXi:    {"喜庆生育", "joy, births"},
	astro.TianYao:   {"风流才艺", "charm, artistry"},
	astro.XianChi:   {"桃花", "romance"},
}

func (m starMeta) nature(l astro.Lang) string {
	if l == astro.EnUS {
		return m.natureEn
	}
	return m.natureZh
}
