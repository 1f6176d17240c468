package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

func mod12(i int) int { return (i%12 + 12) % 12 }

// ---- get_sanfang_sizheng

type SanfangOut struct {
	ChartID        string      `json:"chart_id"`
	Reference      PalaceBrief `json:"reference"`
	WealthPosition PalaceBrief `json:"wealthPosition"`
	CareerPosition PalaceBrief `json:"careerPosition"`
	Opposite       PalaceBrief `json:"opposite"`
}

func getSanfangSizheng() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_sanfang_sizheng", Title: "三方四正", Toolset: "relations", Hints: toolkit.LocalRead,
		Description: "三方四正 of a palace: itself, its two trines (财帛/官禄 positions) and its opposite, with major and minor stars." + chartSel +
			" Related: get_chongzhao_palace, get_jia_gong_info, get_anhe_palace."},
		func(ctx context.Context, in PalaceIn) (SanfangOut, error) {
			cc, err := in.load()
			if err != nil {
				return SanfangOut{}, err
			}
			p, err := cc.palace("palace", in.Palace)
			if err != nil {
				return SanfangOut{}, err
			}
			return SanfangOut{ChartID: cc.id, Reference: cc.brief(p), WealthPosition: cc.brief(mod12(p - 4)),
				CareerPosition: cc.brief(mod12(p + 4)), Opposite: cc.brief(mod12(p + 6))}, nil
		})
}

// ---- get_chongzhao_palace

type ChongzhaoOut struct {
	ChartID   string      `json:"chart_id"`
	Reference PalaceBrief `json:"reference"`
	Opposite  PalaceBrief `json:"opposite"`
}

func getChongzhaoPalace() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_chongzhao_palace", Title: "冲照 palace", Toolset: "relations", Hints: toolkit.LocalRead,
		Description: "The opposite (冲照) palace of a palace, with the stars of both." + chartSel + " Related: get_sanfang_sizheng."},
		func(ctx context.Context, in PalaceIn) (ChongzhaoOut, error) {
			cc, err := in.load()
			if err != nil {
				return ChongzhaoOut{}, err
			}
			p, err := cc.palace("palace", in.Palace)
			if err != nil {
				return ChongzhaoOut{}, err
			}
			return ChongzhaoOut{ChartID: cc.id, Reference: cc.brief(p), Opposite: cc.brief(mod12(p + 6))}, nil
		})
}

// ---- get_anhe_palace

type AnheOut struct {
	ChartID   string        `json:"chart_id"`
	Reference PalaceBrief   `json:"reference"`
	Anhe      PalaceBrief   `json:"anhe"`
	StemHe    []PalaceBrief `json:"stemHe" jsonschema:"stem 五合 palaces"`
}

func getAnhePalace() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_anhe_palace", Title: "暗合 palace", Toolset: "relations", Hints: toolkit.LocalRead,
		Description: "暗合 palace of a palace (六合 branch partner: 子丑 寅亥 卯戌 辰酉 巳申 午未), plus the palaces whose stem 五合s with its stem (甲己 乙庚 丙辛 丁壬 戊癸)." + chartSel +
			" Related: get_sanfang_sizheng, get_chongzhao_palace."},
		func(ctx context.Context, in PalaceIn) (AnheOut, error) {
			cc, err := in.load()
			if err != nil {
				return AnheOut{}, err
			}
			p, err := cc.palace("palace", in.Palace)
			if err != nil {
				return AnheOut{}, err
			}
			partner := astro.Branch((13 - int(astro.BranchOfBoard(p))) % 12)
			out := AnheOut{ChartID: cc.id, Reference: cc.brief(p), Anhe: cc.brief(partner.BoardIndex()), StemHe: []PalaceBrief{}}
			he := astro.Stem((int(cc.chart.PalaceStem(p)) + 5) % 10)
			for i := 0; i < 12; i++ {
				if cc.chart.PalaceStem(i) == he {
					out.StemHe = append(out.StemHe, cc.brief(i))
				}
			}
			return out, nil
		})
}

// ---- get_jia_gong_info

// A flank token is a star or a natal transformation.
type flankToken struct {
	star    astro.StarID
	mutagen astro.Mutagen // when set, the star carrying this natal 四化
}

type flankPair struct {
	zh, tw, en string
	good       bool
	a, b       flankToken
}

func st(s astro.StarID) flankToken  { return flankToken{star: s} }
func mu(m astro.Mutagen) flankToken { return flankToken{mutagen: m} }

// flankPairs are the 夹 pairs the literature names (《紫微斗数全书》 and the
// reference's §1.2 list 羊陀 火铃 左右 昌曲; plus 魁钺 空劫 日月 紫府 and the
// transformation pairs).
var flankPairs = []flankPair{
	{"羊陀夹", "羊陀夾", "Ram-Spinner flank", false, st(astro.QingYang), st(astro.TuoLuo)},
	{"火铃夹", "火鈴夾", "Fire-Bell flank", false, st(astro.HuoXing), st(astro.LingXing)},
	{"空劫夹", "空劫夾", "Void-Robbery flank", false, st(astro.DiKong), st(astro.DiJie)},
	{"左右夹", "左右夾", "Assistants flank", true, st(astro.ZuoFu), st(astro.YouBi)},
	{"昌曲夹", "昌曲夾", "Scholar-Artist flank", true, st(astro.WenChang), st(astro.WenQu)},
	{"魁钺夹", "魁鉞夾", "Nobles flank", true, st(astro.TianKui), st(astro.TianYue)},
	{"日月夹", "日月夾", "Sun-Moon flank", true, st(astro.TaiYang), st(astro.TaiYin)},
	{"紫府夹", "紫府夾", "Emperor-Empress flank", true, st(astro.ZiWei), st(astro.TianFu)},
	{"权禄夹", "權祿夾", "Quan-Lu flank", true, mu(astro.MutagenLu), mu(astro.MutagenQuan)},
	{"科权夹", "科權夾", "Ke-Quan flank", true, mu(astro.MutagenQuan), mu(astro.MutagenKe)},
	{"科禄夹", "科祿夾", "Ke-Lu flank", true, mu(astro.MutagenLu), mu(astro.MutagenKe)},
	{"双禄夹", "雙祿夾", "Double-Lu flank", true, st(astro.LuCun), mu(astro.MutagenLu)},
	{"刑忌夹", "刑忌夾", "Blade-Ji flank", false, st(astro.QingYang), mu(astro.MutagenJi)},
}

type FlankStar struct {
	Star    string `json:"star"`
	Mutagen string `json:"mutagen,omitempty"`
	Palace  string `json:"palace"`
}

type FlankPair struct {
	Type  string      `json:"type"`
	Good  bool        `json:"good" jsonschema:"吉"`
	Stars []FlankStar `json:"stars"`
}

type JiaGongOut struct {
	ChartID   string      `json:"chart_id"`
	Reference PalaceBrief `json:"reference"`
	Previous  PalaceBrief `json:"previous"`
	Next      PalaceBrief `json:"next"`
	Pairs     []FlankPair `json:"pairs"`
}

func (cc *chartCtx) tokenPos(t flankToken) (astro.StarID, int) {
	s := t.star
	if t.mutagen != astro.MutagenNone {
		s = cc.chart.NatalMutagens()[t.mutagen-1]
	}
	return s, cc.chart.StarPalace(s)
}

func getJiaGongInfo() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_jia_gong_info", Title: "夹宫", Toolset: "relations", Hints: toolkit.LocalRead,
		Description: "Pairs flanking (夹) a palace from its neighbours: 羊陀 火铃 空劫 左右 昌曲 魁钺 日月 紫府, and 四化 pairs 权禄 科权 科禄 双禄 (禄存+化禄) 刑忌 (擎羊+化忌)." + chartSel +
			" Related: get_sanfang_sizheng, query_astrological_pattern (夹命 patterns)."},
		func(ctx context.Context, in PalaceIn) (JiaGongOut, error) {
			cc, err := in.load()
			if err != nil {
				return JiaGongOut{}, err
			}
			p, err := cc.palace("palace", in.Palace)
			if err != nil {
				return JiaGongOut{}, err
			}
			prev, next := mod12(p-1), mod12(p+1)
			out := JiaGongOut{ChartID: cc.id, Reference: cc.brief(p), Previous: cc.brief(prev), Next: cc.brief(next), Pairs: []FlankPair{}}
			for _, fp := range flankPairs {
				sa, pa := cc.tokenPos(fp.a)
				sb, pb := cc.tokenPos(fp.b)
				if sa == sb || !((pa == prev && pb == next) || (pa == next && pb == prev)) {
					continue
				}
				name := fp.zh
				switch cc.lang {
				case astro.ZhTW:
					name = fp.tw
				case astro.EnUS:
					name = fp.en
				}
				mk := func(s astro.StarID, t flankToken, pos int) FlankStar {
					return FlankStar{Star: s.Name(cc.lang), Mutagen: t.mutagen.Name(cc.lang), Palace: cc.at(pos)}
				}
				out.Pairs = append(out.Pairs, FlankPair{Type: name, Good: fp.good, Stars: []FlankStar{mk(sa, fp.a, pa), mk(sb, fp.b, pb)}})
			}
			return out, nil
		})
}
