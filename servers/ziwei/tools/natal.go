package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/birth"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/settings"
)

// Basics is the chart's summary (initialize_chart and get_chart_basics).
// Palaces are written "role stem-branch", like everywhere in results.
type Basics struct {
	Gender            string `json:"gender"`
	SolarDate         string `json:"solarDate"`
	LunarDate         string `json:"lunarDate"`
	ChineseDate       string `json:"chineseDate"`
	Time              string `json:"time"`
	Zodiac            string `json:"zodiac"`
	SoulPalace        string `json:"soulPalace"`
	BodyPalace        string `json:"bodyPalace"`
	Soul              string `json:"soul" jsonschema:"命主"`
	Body              string `json:"body" jsonschema:"身主"`
	FiveElementsClass string `json:"fiveElementsClass"`
	OriginalPalace    string `json:"originalPalace,omitempty" jsonschema:"来因宫"`
	TimeRead          string `json:"timeRead,omitempty"`
	School            string `json:"school"`
	Settings          string `json:"settings,omitempty" jsonschema:"non-default iztro settings (JSON)"`
	// HeavenBodyPalace: in an earth or human chart, the heaven chart's 身宫,
	// whose branch iztro still reports as the body palace's.
	HeavenBodyPalace string `json:"heavenBodyPalace,omitempty"`
}

func (cc *chartCtx) basics() Basics {
	c, l := cc.chart, cc.lang
	r := c.Render(l)
	b := Basics{
		Gender: r.Gender, SolarDate: c.SolarDate().String(), LunarDate: r.LunarDate,
		ChineseDate: r.ChineseDate, Time: r.Time + " " + r.TimeRange, Zodiac: r.Zodiac,
		SoulPalace: cc.at(c.SoulIndex()), BodyPalace: cc.at(c.BodyIndex()), Soul: r.Soul, Body: r.Body,
		FiveElementsClass: r.FiveElementsClass, TimeRead: timeRead(cc.res),
	}
	if o := c.OriginalPalace(); o >= 0 {
		b.OriginalPalace = cc.at(o)
	}
	cfg := c.Config()
	b.School = settings.School(cfg, l)
	if !cfg.IsDefault() {
		j, _ := json.Marshal(settings.Of(cfg))
		b.Settings = string(j)
	}
	if c.AstroType() != astro.AstroHeaven {
		b.HeavenBodyPalace = cc.at(c.HeavenBodyIndex())
	}
	return b
}

// timeRead says how a clock time became the hour slot: "07:30", or with a
// longitude "07:30 → true solar 07:12 (longitude -18.4 min, EoT +0.4 min)",
// plus ", solar date -1 day" when that crosses midnight. Empty for slot input.
func timeRead(r birth.Resolution) string {
	if r.ClockTime == "" {
		return ""
	}
	s := r.ClockTime
	if r.TrueSolarTime != "" {
		s += fmt.Sprintf(" → true solar %s (longitude %+.1f min, EoT %+.1f min)", r.TrueSolarTime, *r.LongitudeMinutes, *r.EquationOfTimeMin)
	}
	if r.DayShift != 0 {
		s += fmt.Sprintf(", solar date %+d day", r.DayShift)
	}
	return s + fmt.Sprintf(", slot %d", r.TimeIndex)
}

// ---- get_chart_basics

func getChartBasics() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_chart_basics", Title: "Chart basics", Toolset: "natal", Hints: toolkit.LocalRead,
		Description: "Natal summary: dates, four pillars, 命宫/身宫, 命主/身主, 五行局, 来因宫, how a clock time was read."},
		func(ctx context.Context, in ChartIn) (Basics, error) {
			cc, err := in.load()
			if err != nil {
				return Basics{}, err
			}
			return cc.basics(), nil
		})
}

// ---- get_palace_info

type PalaceInfoIn struct {
	ChartIn
	Palace string `json:"palace,omitempty" jsonschema:"role (命宫, 财帛, wealth…), 身宫 or branch (子…亥); omit for all 12"`
}

type PalaceInfo struct {
	Palace           string   `json:"palace"`
	IsBodyPalace     bool     `json:"isBodyPalace"`
	IsOriginalPalace bool     `json:"isOriginalPalace"`
	MajorStars       []string `json:"majorStars"`
	MinorStars       []string `json:"minorStars"`
	AdjectiveStars   []string `json:"adjectiveStars"`
	Gods             []string `json:"gods" jsonschema:"长生 博士 将前 岁前"`
	Decade           [2]int   `json:"decade" jsonschema:"大限 ages"`
	Ages             []int    `json:"ages" jsonschema:"小限 ages"`
}

type PalaceInfoOut struct {
	Palaces []PalaceInfo `json:"palaces"`
}

func (cc *chartCtx) palaceInfo(i int) PalaceInfo {
	c, l := cc.chart, cc.lang
	p := PalaceInfo{Palace: cc.at(i), IsBodyPalace: i == c.BodyIndex(), IsOriginalPalace: c.IsOriginalPalace(i),
		MajorStars: []string{}, MinorStars: []string{}, AdjectiveStars: []string{},
		Gods: []string{astro.Changsheng12Name(c.Changsheng12(i), l), astro.Boshi12Name(c.Boshi12(i), l),
			astro.Jiangqian12Name(c.Jiangqian12(i), l), astro.Suiqian12NameAlg(c.Suiqian12(i), l, c.Config().Algorithm)}}
	for _, s := range c.Stars(i) {
		switch s.Group() {
		case astro.GroupMajor:
			p.MajorStars = append(p.MajorStars, cc.compact(s))
		case astro.GroupMinor:
			p.MinorStars = append(p.MinorStars, cc.compact(s))
		default:
			p.AdjectiveStars = append(p.AdjectiveStars, cc.compact(s))
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
		Description: "One palace or all 12: every star (name brightness[natal 四化]), the four 12-god cycles, decade and 小限 ages."},
		func(ctx context.Context, in PalaceInfoIn) (PalaceInfoOut, error) {
			cc, err := in.load()
			if err != nil {
				return PalaceInfoOut{}, err
			}
			out := PalaceInfoOut{}
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
	ChartIn
	Palace string `json:"palace" jsonschema:"role (命宫, 财帛, wealth…), 身宫 or branch (子…亥)"`
}

type StarsInPalaceOut struct {
	Palace string `json:"palace"`
	Stars  []Star `json:"stars"`
}

func getStarsInPalace() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_stars_in_palace", Title: "Stars in a palace", Toolset: "natal", Hints: toolkit.LocalRead,
		Description: "The stars in one palace with type, brightness and natal 四化."},
		func(ctx context.Context, in PalaceIn) (StarsInPalaceOut, error) {
			cc, err := in.load()
			if err != nil {
				return StarsInPalaceOut{}, err
			}
			i, err := cc.palace("palace", in.Palace)
			if err != nil {
				return StarsInPalaceOut{}, err
			}
			return StarsInPalaceOut{Palace: cc.at(i), Stars: cc.stars(i, true)}, nil
		})
}

// ---- get_star_attributes

type StarAttrIn struct {
	StarName string `json:"starName" jsonschema:"any language: 紫微, emperor…"`
	ChartID  string `json:"chart_id,omitempty" jsonschema:"also say where it sits"`
	Language string `json:"language,omitempty" mcp:"enum=zh-CN|zh-TW|en-US|ja-JP|ko-KR|vi-VN;default=zh-CN"`
}

type StarAttrOut struct {
	Name            string   `json:"name"`
	Type            string   `json:"type"`
	FiveElement     string   `json:"fiveElement,omitempty"`
	YinYang         string   `json:"yinYang,omitempty"`
	AttributeSource string   `json:"attributeSource,omitempty" mcp:"enum=iztro|traditional"`
	Nature          string   `json:"nature,omitempty"`
	Brightness      []string `json:"brightness" jsonschema:"子…亥"`
	Mutagens        []string `json:"mutagens" jsonschema:"e.g. 甲:忌"`
	InChart         string   `json:"inChart,omitempty" jsonschema:"palace star brightness[四化]"`
}

func starAttributes(id astro.StarID, l astro.Lang) StarAttrOut {
	info := astro.Info(id)
	out := StarAttrOut{Name: id.Name(l), Type: id.Type().String(),
		FiveElement: info.Element.Name(l), YinYang: info.YinYang.Name(l),
		Nature: starMetas[id].nature(l), Brightness: []string{}, Mutagens: []string{}}
	if astro.HasBrightness(id) {
		for b := astro.BranchZi; b <= astro.BranchHai; b++ {
			out.Brightness = append(out.Brightness, b.Name(l)+astro.BrightnessAt(id, b).Name(l))
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
		Description: "One star's reference data: type, brightness per branch, five element, yin/yang, keyword, transforming stems; with chart_id, where it sits. Related: resource ziwei://stars."},
		func(ctx context.Context, in StarAttrIn) (StarAttrOut, error) {
			l, err := parseLang(in.Language)
			if err != nil {
				return StarAttrOut{}, err
			}
			id, ok := astro.StarByName(in.StarName)
			if !ok {
				return StarAttrOut{}, envelope.Invalid("starName", "unknown star %q: use one of the names listed by the ziwei://stars resource (e.g. 紫微, 天机, emperor)", extract.Clip(in.StarName, 32))
			}
			out := starAttributes(id, l)
			if in.ChartID != "" {
				cc, err := ChartIn{ChartID: in.ChartID, Language: in.Language}.load()
				if err != nil {
					return out, err
				}
				if pos := cc.chart.StarPalace(id); pos >= 0 {
					out.InChart = cc.at(pos) + " " + cc.compact(id)
				} else {
					out.InChart = "not in this chart (school)"
				}
			}
			return out, nil
		})
}

// ---- get_natal_sihua

func getNatalSihua() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_natal_sihua", Title: "Natal 四化", Toolset: "natal", Hints: toolkit.LocalRead,
		Description: "Birth-year 四化 (化禄 权 科 忌): each star and its palace."},
		func(ctx context.Context, in ChartIn) (PeriodSihuaOut, error) {
			cc, err := in.load()
			if err != nil {
				return PeriodSihuaOut{}, err
			}
			stem := cc.chart.Pillars()[0].Stem
			return PeriodSihuaOut{Stem: stem.Name(cc.lang), Items: cc.sihua(stem, nil)}, nil
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
