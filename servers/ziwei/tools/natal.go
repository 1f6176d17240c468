package tools

import (
	"context"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

const chartSel = " Chart: chart_id or birth fields."

// TimeRead is birth.Resolution with descriptions sized for tools/list.
type TimeRead struct {
	TimeIndex         int      `json:"timeIndex" jsonschema:"slot used"`
	ClockTime         string   `json:"clockTime,omitempty"`
	TrueSolarTime     string   `json:"trueSolarTime,omitempty" jsonschema:"HH:MM, picks the slot"`
	LongitudeMinutes  *float64 `json:"longitudeCorrectionMin,omitempty" jsonschema:"4 min/° from 120°E"`
	EquationOfTimeMin *float64 `json:"equationOfTimeMin,omitempty"`
	DayShift          int      `json:"dayShift,omitempty" jsonschema:"±1: solar date shifted"`
}

// Basics is the chart's summary.
type Basics struct {
	ChartID           string   `json:"chart_id"`
	Gender            string   `json:"gender"`
	SolarDate         string   `json:"solarDate"`
	LunarDate         string   `json:"lunarDate"`
	ChineseDate       string   `json:"chineseDate" jsonschema:"four pillars"`
	Time              string   `json:"time"`
	TimeRange         string   `json:"timeRange"`
	Sign              string   `json:"sign"`
	Zodiac            string   `json:"zodiac"`
	SoulPalaceBranch  string   `json:"soulPalaceBranch"`
	BodyPalaceBranch  string   `json:"bodyPalaceBranch"`
	BodyPalace        string   `json:"bodyPalace" jsonschema:"role holding 身宫"`
	Soul              string   `json:"soul" jsonschema:"命主"`
	Body              string   `json:"body" jsonschema:"身主"`
	FiveElementsClass string   `json:"fiveElementsClass" jsonschema:"五行局"`
	OriginalPalace    string   `json:"originalPalace,omitempty" jsonschema:"来因宫"`
	BirthTime         TimeRead `json:"birthTime"`
}

func (cc *chartCtx) basics() Basics {
	c, l := cc.chart, cc.lang
	r := c.Render(l)
	b := Basics{
		ChartID: cc.id, Gender: r.Gender, SolarDate: c.SolarDate().String(), LunarDate: r.LunarDate,
		ChineseDate: r.ChineseDate, Time: r.Time, TimeRange: r.TimeRange, Sign: r.Sign, Zodiac: r.Zodiac,
		SoulPalaceBranch: r.EarthlyBranchOfSoulPalace, BodyPalaceBranch: r.EarthlyBranchOfBodyPalace,
		BodyPalace: c.PalaceRole(c.BodyIndex()).Name(l), Soul: r.Soul, Body: r.Body,
		FiveElementsClass: r.FiveElementsClass, BirthTime: TimeRead(cc.res),
	}
	if o := c.OriginalPalace(); o >= 0 {
		b.OriginalPalace = c.PalaceRole(o).Name(l)
	}
	return b
}

// ---- get_chart_basics

type BasicsIn struct {
	Birth
}

func getChartBasics() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_chart_basics", Title: "Chart basics", Toolset: "natal", Hints: toolkit.LocalRead,
		Description: "Natal summary: dates, four pillars, 命宫/身宫, 命主/身主, 五行局, 来因宫, how the birth time was read." + chartSel +
			" Related: initialize_chart (same plus patterns)."},
		func(ctx context.Context, in BasicsIn) (Basics, error) {
			cc, err := in.load()
			if err != nil {
				return Basics{}, err
			}
			return cc.basics(), nil
		})
}

// ---- get_palace_info

type PalaceInfoIn struct {
	Birth
	Palace string `json:"palace,omitempty" jsonschema:"role (命宫, 财帛, wealth…), 身宫 or branch (子…亥); omit for all 12"`
}

type PalaceInfo struct {
	PalaceRef
	IsBodyPalace     bool   `json:"isBodyPalace"`
	IsOriginalPalace bool   `json:"isOriginalPalace"`
	MajorStars       []Star `json:"majorStars"`
	MinorStars       []Star `json:"minorStars"`
	AdjectiveStars   []Star `json:"adjectiveStars"`
	Changsheng12     string `json:"changsheng12"`
	Boshi12          string `json:"boshi12"`
	Jiangqian12      string `json:"jiangqian12"`
	Suiqian12        string `json:"suiqian12"`
	Decade           [2]int `json:"decade" jsonschema:"decade ages"`
	Ages             []int  `json:"ages" jsonschema:"小限 ages"`
}

type PalaceInfoOut struct {
	ChartID string       `json:"chart_id"`
	Palaces []PalaceInfo `json:"palaces"`
}

func (cc *chartCtx) palaceInfo(i int) PalaceInfo {
	c, l := cc.chart, cc.lang
	p := PalaceInfo{PalaceRef: cc.ref(i), IsBodyPalace: i == c.BodyIndex(), IsOriginalPalace: c.IsOriginalPalace(i),
		MajorStars: []Star{}, MinorStars: []Star{}, AdjectiveStars: []Star{},
		Changsheng12: astro.Changsheng12Name(c.Changsheng12(i), l), Boshi12: astro.Boshi12Name(c.Boshi12(i), l),
		Jiangqian12: astro.Jiangqian12Name(c.Jiangqian12(i), l), Suiqian12: astro.Suiqian12Name(c.Suiqian12(i), l)}
	for _, s := range c.Stars(i) {
		switch s.Group() {
		case astro.GroupMajor:
			p.MajorStars = append(p.MajorStars, cc.star(s))
		case astro.GroupMinor:
			p.MinorStars = append(p.MinorStars, cc.star(s))
		default:
			p.AdjectiveStars = append(p.AdjectiveStars, cc.star(s))
		}
	}
	d := c.DecadeAt(i)
	p.Decade = [2]int{d.From, d.To}
	ages := c.Ages(i)
	p.Ages = ages[:]
	return p
}

func getPalaceInfo() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_palace_info", Title: "Palace info", Toolset: "natal", Hints: toolkit.LocalRead,
		Description: "One palace or all 12: role, stem, branch, every star (brightness, natal 四化), the 12-god cycles, decade and 小限 ages." + chartSel +
			" Related: get_stars_in_palace, get_sanfang_sizheng."},
		func(ctx context.Context, in PalaceInfoIn) (PalaceInfoOut, error) {
			cc, err := in.load()
			if err != nil {
				return PalaceInfoOut{}, err
			}
			out := PalaceInfoOut{ChartID: cc.id}
			if in.Palace == "" || equalFoldAny(in.Palace, "all", "全部", "所有") {
				for i := 0; i < 12; i++ {
					out.Palaces = append(out.Palaces, cc.palaceInfo(i))
				}
				return out, nil
			}
			i, err := cc.palace("palace", in.Palace)
			if err != nil {
				return out, err
			}
			out.Palaces = []PalaceInfo{cc.palaceInfo(i)}
			return out, nil
		})
}

// ---- get_stars_in_palace

type PalaceIn struct {
	Birth
	Palace string `json:"palace" jsonschema:"role (命宫, 财帛, wealth…), 身宫 or branch (子…亥)"`
}

type StarsInPalaceOut struct {
	ChartID string `json:"chart_id"`
	Palace  string `json:"palace"`
	Stars   []Star `json:"stars"`
}

func getStarsInPalace() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_stars_in_palace", Title: "Stars in a palace", Toolset: "natal", Hints: toolkit.LocalRead,
		Description: "The stars in one palace with type, brightness and natal 四化." + chartSel + " Related: get_palace_info, get_star_attributes."},
		func(ctx context.Context, in PalaceIn) (StarsInPalaceOut, error) {
			cc, err := in.load()
			if err != nil {
				return StarsInPalaceOut{}, err
			}
			i, err := cc.palace("palace", in.Palace)
			if err != nil {
				return StarsInPalaceOut{}, err
			}
			return StarsInPalaceOut{ChartID: cc.id, Palace: cc.at(i), Stars: cc.stars(i, true)}, nil
		})
}

// ---- get_star_attributes

type StarAttrIn struct {
	StarName string `json:"starName" jsonschema:"any language: 紫微, emperor…"`
	ChartID  string `json:"chart_id,omitempty" jsonschema:"also say where it sits"`
	Language string `json:"language,omitempty" mcp:"enum=zh-CN|zh-TW|en-US;default=zh-CN"`
}

type BranchBrightness struct {
	Branch     string `json:"branch"`
	Brightness string `json:"brightness"`
}

type StarInChart struct {
	Palace     string `json:"palace"`
	Brightness string `json:"brightness,omitempty"`
	Mutagen    string `json:"mutagen,omitempty"`
}

type StarAttrOut struct {
	Name            string             `json:"name"`
	Type            string             `json:"type"`
	Group           string             `json:"group" mcp:"enum=major|minor|adjective"`
	FiveElement     string             `json:"fiveElement,omitempty"`
	YinYang         string             `json:"yinYang,omitempty"`
	AttributeSource string             `json:"attributeSource,omitempty" mcp:"enum=iztro|traditional"`
	Nature          string             `json:"nature,omitempty" jsonschema:"keyword"`
	Brightness      []BranchBrightness `json:"brightness" jsonschema:"per branch 子…亥; [] if none"`
	Mutagens        []string           `json:"mutagens" jsonschema:"e.g. 甲:忌"`
	InChart         *StarInChart       `json:"inChart,omitempty"`
}

func starAttributes(id astro.StarID, l astro.Lang) StarAttrOut {
	info := astro.Info(id)
	out := StarAttrOut{Name: id.Name(l), Type: id.Type().String(), Group: [...]string{"major", "minor", "adjective"}[id.Group()],
		FiveElement: info.Element.Name(l), YinYang: info.YinYang.Name(l), AttributeSource: info.ElementSource,
		Nature: starMetas[id].nature(l), Brightness: []BranchBrightness{}, Mutagens: []string{}}
	if astro.HasBrightness(id) {
		for b := astro.BranchZi; b <= astro.BranchHai; b++ {
			out.Brightness = append(out.Brightness, BranchBrightness{Branch: b.Name(l), Brightness: astro.BrightnessAt(id, b).Name(l)})
		}
	}
	for s := astro.StemJia; s <= astro.StemGui; s++ {
		if mu := astro.MutagenOf(s, id); mu != astro.MutagenNone {
			out.Mutagens = append(out.Mutagens, s.Name(l)+":"+mu.Name(l))
		}
	}
	return out
}

func getStarAttributes() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_star_attributes", Title: "Star attributes", Toolset: "natal", Hints: toolkit.LocalRead,
		Description: "Reference data for one star: type, brightness on each branch, five element, yin/yang, keyword, stems that transform it; with chart_id, where it sits. Errors: unknown star. Related: resource ziwei://stars, get_stars_in_palace."},
		func(ctx context.Context, in StarAttrIn) (StarAttrOut, error) {
			l, err := parseLang(in.Language)
			if err != nil {
				return StarAttrOut{}, err
			}
			id, ok := astro.StarByName(in.StarName)
			if !ok {
				return StarAttrOut{}, envelope.Invalid("starName", "unknown star %q: use one of the 66 names listed by the ziwei://stars resource (e.g. 紫微, 天机, emperor)", clip(in.StarName))
			}
			out := starAttributes(id, l)
			if in.ChartID != "" {
				cc, err := Birth{ChartID: in.ChartID, Language: in.Language}.load()
				if err != nil {
					return out, err
				}
				s := cc.star(id)
				out.InChart = &StarInChart{Palace: cc.at(cc.chart.StarPalace(id)), Brightness: s.Brightness, Mutagen: s.Mutagen}
			}
			return out, nil
		})
}

// ---- get_natal_sihua

type SihuaOut struct {
	ChartID string      `json:"chart_id"`
	Stem    string      `json:"stem"`
	Level   string      `json:"level"`
	Items   []SihuaItem `json:"items" jsonschema:"禄 权 科 忌"`
}

func getNatalSihua() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_natal_sihua", Title: "Natal 四化", Toolset: "natal", Hints: toolkit.LocalRead,
		Description: "Birth-year 四化 (化禄 权 科 忌): each star and its palace." + chartSel +
			" Related: get_decade_sihua, get_annual_sihua, get_palace_stem_sihua."},
		func(ctx context.Context, in BasicsIn) (SihuaOut, error) {
			cc, err := in.load()
			if err != nil {
				return SihuaOut{}, err
			}
			stem := cc.chart.Pillars()[0].Stem
			return SihuaOut{ChartID: cc.id, Stem: stem.Name(cc.lang), Level: "natal", Items: cc.sihua(stem, nil)}, nil
		})
}

func equalFoldAny(s string, opts ...string) bool {
	s = strings.TrimSpace(s)
	for _, o := range opts {
		if strings.EqualFold(s, o) {
			return true
		}
	}
	return false
}
