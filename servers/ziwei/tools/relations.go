package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

func mod12(i int) int { return (i%12 + 12) % 12 }

// ---- get_sanfang_sizheng

// Related is what the relation tools return: palaces in the order their
// description gives.
type Related struct {
	Palaces []PalaceBrief `json:"palaces"`
}

func (cc *chartCtx) related(idx ...int) Related {
	out := Related{Palaces: make([]PalaceBrief, 0, len(idx))}
	for _, i := range idx {
		out.Palaces = append(out.Palaces, cc.brief(mod12(i)))
	}
	return out
}

func getSanfangSizheng() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_sanfang_sizheng", Title: "三方四正", Toolset: "relations", Hints: toolkit.LocalRead,
		Description: "三方四正 of a palace: palaces = [the palace, its 财帛 position, its 官禄 position, its opposite], with major and minor stars."},
		func(ctx context.Context, in PalaceIn) (Related, error) {
			cc, err := in.load()
			if err != nil {
				return Related{}, err
			}
			p, err := cc.palace("palace", in.Palace)
			if err != nil {
				return Related{}, err
			}
			return cc.related(p, p-4, p+4, p+6), nil
		})
}

// ---- get_chongzhao_palace

func getChongzhaoPalace() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_chongzhao_palace", Title: "冲照 palace", Toolset: "relations", Hints: toolkit.LocalRead,
		Description: "冲照: palaces = [the palace, its opposite], with major and minor stars."},
		func(ctx context.Context, in PalaceIn) (Related, error) {
			cc, err := in.load()
			if err != nil {
				return Related{}, err
			}
			p, err := cc.palace("palace", in.Palace)
			if err != nil {
				return Related{}, err
			}
			return cc.related(p, p+6), nil
		})
}

// ---- get_anhe_palace

func getAnhePalace() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_anhe_palace", Title: "暗合 palace", Toolset: "relations", Hints: toolkit.LocalRead,
		Description: "暗合: palaces = [the palace, its 六合 branch partner, then the palaces whose stem 五合s with its stem]."},
		func(ctx context.Context, in PalaceIn) (Related, error) {
			cc, err := in.load()
			if err != nil {
				return Related{}, err
			}
			p, err := cc.palace("palace", in.Palace)
			if err != nil {
				return Related{}, err
			}
			partner := astro.Branch((13 - int(astro.BranchOfBoard(p))) % 12)
			idx := []int{p, partner.BoardIndex()}
			he := astro.Stem((int(cc.chart.PalaceStem(p)) + 5) % 10)
			for i := 0; i < 12; i++ {
				if cc.chart.PalaceStem(i) == he {
					idx = append(idx, i)
				}
			}
			return cc.related(idx...), nil
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
// original's Get_Jia_Gong_Info list 羊陀 火铃 左右 昌曲, lujunjiehhh/iztro
// mcp-tools.ts; plus 魁钺 空劫 日月 紫府 and the
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

type FlankPair struct {
	Type  string   `json:"type"`
	Good  bool     `json:"good"`
	Stars []string `json:"stars" jsonschema:"star[四化] palace"`
}

type JiaGongOut struct {
	Related
	Pairs []FlankPair `json:"pairs"`
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
		Description: "夹: palaces = [the palace, previous, next], and the pairs flanking it (羊陀 火铃 空劫 左右 昌曲 魁钺 日月 紫府 权禄 科权 科禄 双禄 刑忌)."},
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
			out := JiaGongOut{Related: cc.related(p, prev, next), Pairs: []FlankPair{}}
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
				mk := func(s astro.StarID, t flankToken, pos int) string {
					n := s.Name(cc.lang)
					if t.mutagen != astro.MutagenNone {
						n += "[" + t.mutagen.Name(cc.lang) + "]"
					}
					return n + " " + cc.at(pos)
				}
				out.Pairs = append(out.Pairs, FlankPair{Type: name, Good: fp.good, Stars: []string{mk(sa, fp.a, pa), mk(sb, fp.b, pb)}})
			}
			return out, nil
		})
}
