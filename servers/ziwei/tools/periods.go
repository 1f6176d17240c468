package tools

import (
	"context"
	"fmt"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// Overlap maps one period palace onto the natal board.
type Overlap struct {
	PeriodPalace string   `json:"periodPalace"`
	NatalPalace  string   `json:"natalPalace"`
	MajorStars   []string `json:"majorStars"`
}

func (cc *chartCtx) overlaps(p astro.Period) []Overlap {
	out := make([]Overlap, 12)
	for r := astro.PalaceRole(0); r < 12; r++ {
		i := p.PalaceOfRole(r)
		o := Overlap{PeriodPalace: periodRoleName(p.Kind, r, cc.lang), NatalPalace: cc.at(i), MajorStars: []string{}}
		for _, s := range cc.chart.Stars(i) {
			if s.Group() == astro.GroupMajor {
				o.MajorStars = append(o.MajorStars, s.Name(cc.lang))
			}
		}
		out[r] = o
	}
	return out
}

// MovingStar is a period's moving star (流耀).
type MovingStar struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Palace string `json:"palace"`
}

func (cc *chartCtx) moving(p astro.Period) []MovingStar {
	out := []MovingStar{}
	if !p.HasMovingStars() {
		return out
	}
	all := p.MovingStars()
	for i := 0; i < 12; i++ {
		for _, m := range all[i] {
			out = append(out, MovingStar{Name: astro.MovingStarName(m, p.Kind, cc.lang), Type: m.Type().String(), Palace: cc.at(i)})
		}
	}
	return out
}

// ---- decades

// childhoodRoles: before the first decade, age 1 runs in 命宫, 2 财帛, 3 疾厄,
// 4 夫妻, 5 福德, 6 官禄 (iztro's 童限).
var childhoodRoles = [6]astro.PalaceRole{astro.Soul, astro.Wealth, astro.Health, astro.Spouse, astro.Spirit, astro.Career}

type DecadeSel struct {
	Age         *int `json:"age,omitempty" jsonschema:"虚岁; or decadeIndex" mcp:"min=1;max=120"`
	DecadeIndex *int `json:"decadeIndex,omitempty" jsonschema:"1 = first decade; or age" mcp:"min=1;max=12"`
}

type decadeSpan struct {
	period    astro.Period
	order     int // 1-12; 0 = childhood
	from, to  int
	childhood bool
}

func (cc *chartCtx) decade(sel DecadeSel) (decadeSpan, error) {
	c := cc.chart
	switch {
	case sel.Age != nil && sel.DecadeIndex != nil:
		return decadeSpan{}, envelope.Invalid("age", "give either age or decadeIndex, not both")
	case sel.DecadeIndex != nil:
		d, ok := c.DecadeByOrder(*sel.DecadeIndex - 1)
		if !ok {
			return decadeSpan{}, envelope.Invalid("decadeIndex", "decadeIndex %d is out of range: use 1 (first decade) to 12", *sel.DecadeIndex)
		}
		return decadeSpan{period: astro.Period{Kind: astro.PeriodDecadal, Index: d.Index, Stem: d.Stem, Branch: d.Branch}, order: d.Order + 1, from: d.From, to: d.To}, nil
	case sel.Age != nil:
		age := *sel.Age
		if age < 1 || age > astro.MaxNominalAge {
			return decadeSpan{}, envelope.Invalid("age", "age %d is out of range: use a nominal age (虚岁) 1-%d", age, astro.MaxNominalAge)
		}
		if d, ok := c.DecadeByAge(age); ok {
			return decadeSpan{period: astro.Period{Kind: astro.PeriodDecadal, Index: d.Index, Stem: d.Stem, Branch: d.Branch}, order: d.Order + 1, from: d.From, to: d.To}, nil
		}
		if age <= len(childhoodRoles) {
			i := c.PalaceOfRole(childhoodRoles[age-1])
			return decadeSpan{period: astro.Period{Kind: astro.PeriodChildhood, Index: i, Stem: c.PalaceStem(i), Branch: astro.BranchOfBoard(i)}, from: age, to: age, childhood: true}, nil
		}
		return decadeSpan{}, envelope.Invalid("age", "age %d is past the last decade: use an age up to %d", age, int(c.FiveElementsClass())+119)
	}
	return decadeSpan{}, envelope.Invalid("age", "say which decade: give age (虚岁) or decadeIndex (1-12)")
}

type DecadeSummary struct {
	DecadeIndex int    `json:"decadeIndex" jsonschema:"0 = 童限"`
	Childhood   bool   `json:"childhood,omitempty"`
	From        int    `json:"from"`
	To          int    `json:"to"`
	Palace      string `json:"palace"`
}

func (cc *chartCtx) decadeSummary(d decadeSpan) DecadeSummary {
	return DecadeSummary{DecadeIndex: d.order, Childhood: d.childhood, From: d.from, To: d.to, Palace: cc.at(d.period.Index)}
}

type DecadeIn struct {
	Birth
	DecadeSel
}

type DecadeInfoOut struct {
	ChartID string          `json:"chart_id"`
	Decade  DecadeSummary   `json:"decade"`
	Stem    string          `json:"stem"`
	Palaces []Overlap       `json:"palaces"`
	All     []DecadeSummary `json:"allDecades"`
}

func getDecadeInfo() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_decade_info", Title: "Decade (大限) info", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "A 大限 by age or decadeIndex: its ages, palace, stem, its 12 palaces on the natal board, and all decades. Ages before the first decade give 童限." + chartSel +
			" Related: get_decade_sihua, get_decade_overlapping_palaces, get_annual_info."},
		func(ctx context.Context, in DecadeIn) (DecadeInfoOut, error) {
			cc, err := in.load()
			if err != nil {
				return DecadeInfoOut{}, err
			}
			d, err := cc.decade(in.DecadeSel)
			if err != nil {
				return DecadeInfoOut{}, err
			}
			out := DecadeInfoOut{ChartID: cc.id, Decade: cc.decadeSummary(d), Stem: d.period.Stem.Name(cc.lang), Palaces: cc.overlaps(d.period)}
			for k := 1; k <= 12; k++ {
				ds, _ := cc.decade(DecadeSel{DecadeIndex: &k})
				out.All = append(out.All, cc.decadeSummary(ds))
			}
			return out, nil
		})
}

type DecadeSihuaIn struct {
	Birth
	DecadeSel
	Stem string `json:"stem,omitempty" jsonschema:"甲…癸, instead of age/decadeIndex"`
}

type PeriodSihuaOut struct {
	ChartID string         `json:"chart_id"`
	Level   string         `json:"level"`
	Stem    string         `json:"stem"`
	Decade  *DecadeSummary `json:"decade,omitempty"`
	Year    int            `json:"year,omitempty"`
	Items   []SihuaItem    `json:"items" jsonschema:"禄 权 科 忌 in order"`
}

func getDecadeSihua() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_decade_sihua", Title: "Decade 四化", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "大限 四化 (decade palace's stem): each star, its natal palace and that palace's decade role. Decade by age, decadeIndex or stem." + chartSel +
			" Related: get_natal_sihua, get_annual_sihua, get_palace_stem_sihua."},
		func(ctx context.Context, in DecadeSihuaIn) (PeriodSihuaOut, error) {
			cc, err := in.load()
			if err != nil {
				return PeriodSihuaOut{}, err
			}
			if in.Stem != "" {
				if in.Age != nil || in.DecadeIndex != nil {
					return PeriodSihuaOut{}, envelope.Invalid("stem", "give stem or age/decadeIndex, not both")
				}
				s, ok := astro.StemByName(in.Stem)
				if !ok {
					return PeriodSihuaOut{}, envelope.Invalid("stem", "unknown stem %q: use 甲 乙 丙 丁 戊 己 庚 辛 壬 癸 (or jia, yi…)", clip(in.Stem))
				}
				return PeriodSihuaOut{ChartID: cc.id, Level: "decade", Stem: s.Name(cc.lang), Items: cc.sihua(s, nil)}, nil
			}
			d, err := cc.decade(in.DecadeSel)
			if err != nil {
				return PeriodSihuaOut{}, err
			}
			sum := cc.decadeSummary(d)
			return PeriodSihuaOut{ChartID: cc.id, Level: "decade", Stem: d.period.Stem.Name(cc.lang), Decade: &sum, Items: cc.sihua(d.period.Stem, &d.period)}, nil
		})
}

type DecadeOverlapOut struct {
	ChartID string        `json:"chart_id"`
	Decade  DecadeSummary `json:"decade"`
	Palaces []Overlap     `json:"palaces"`
}

func getDecadeOverlappingPalaces() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_decade_overlapping_palaces", Title: "Decade ↔ natal palaces", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "Which natal palace each decade palace falls on (大限命宫 = natal X …), with major stars. Decade by age or decadeIndex." + chartSel +
			" Related: get_decade_info, get_annual_overlapping_palaces."},
		func(ctx context.Context, in DecadeIn) (DecadeOverlapOut, error) {
			cc, err := in.load()
			if err != nil {
				return DecadeOverlapOut{}, err
			}
			d, err := cc.decade(in.DecadeSel)
			if err != nil {
				return DecadeOverlapOut{}, err
			}
			return DecadeOverlapOut{ChartID: cc.id, Decade: cc.decadeSummary(d), Palaces: cc.overlaps(d.period)}, nil
		})
}

// ---- annual

type YearSel struct {
	Year int `json:"year" jsonschema:"lunar year, from the birth year" mcp:"min=1900;max=2100"`
}

// annual computes the horoscope for lunar year Y.
func (cc *chartCtx) annual(year int) (*astro.Horoscope, error) {
	c := cc.chart
	if year < c.LunarDate().Year {
		return nil, envelope.Invalid("year", "year %d is before the birth (lunar year %d): use %d or later", year, c.LunarDate().Year, c.LunarDate().Year)
	}
	if year > astro.MaxYear {
		return nil, envelope.Invalid("year", "year %d is outside the supported range %d-%d", year, astro.MinYear, astro.MaxYear)
	}
	if age := year - c.LunarDate().Year + 1; age > astro.MaxNominalAge {
		return nil, envelope.Invalid("year", "year %d gives nominal age %d: horoscopes cover ages 1-%d, so use %d at the latest", year, age, astro.MaxNominalAge, c.LunarDate().Year+astro.MaxNominalAge-1)
	}
	// 1 July is always inside lunar year Y; when that is before the birth
	// (only possible for Y = the birth's lunar year), the birth date is too.
	d := astro.Date{Year: year, Month: 7, Day: 1}
	if sd := c.SolarDate(); dateBefore(d, sd) {
		d = sd
	}
	h, err := c.HoroscopeAt(d, 6)
	if err != nil {
		return nil, mapErr(err)
	}
	return h, nil
}

func dateBefore(a, b astro.Date) bool {
	if a.Year != b.Year {
		return a.Year < b.Year
	}
	if a.Month != b.Month {
		return a.Month < b.Month
	}
	return a.Day < b.Day
}

type PeriodRef struct {
	Name   string `json:"name" jsonschema:"大限 or 童限"`
	From   int    `json:"from"`
	To     int    `json:"to"`
	Palace string `json:"palace"`
}

type AnnualIn struct {
	Birth
	YearSel
}

type AnnualInfoOut struct {
	ChartID      string       `json:"chart_id"`
	Year         int          `json:"year"`
	Stem         string       `json:"stem"`
	Branch       string       `json:"branch"`
	NominalAge   int          `json:"nominalAge"`
	LifePalace   string       `json:"lifePalace" jsonschema:"流年命宫"`
	TaisuiPalace string       `json:"taisuiPalace" jsonschema:"太岁"`
	SmallLimit   string       `json:"smallLimit" jsonschema:"小限"`
	Decade       PeriodRef    `json:"decade"`
	Palaces      []Overlap    `json:"palaces"`
	Sihua        []SihuaItem  `json:"sihua"`
	MovingStars  []MovingStar `json:"movingStars" jsonschema:"流耀"`
}

func (cc *chartCtx) decadeRef(h *astro.Horoscope) PeriodRef {
	p := h.Decadal
	r := PeriodRef{Name: p.Kind.Name(cc.lang), Palace: cc.at(p.Index)}
	if p.Kind == astro.PeriodChildhood {
		r.From, r.To = h.NominalAge(), h.NominalAge()
	} else {
		d := cc.chart.DecadeAt(p.Index)
		r.From, r.To = d.From, d.To
	}
	return r
}

func getAnnualInfo() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_annual_info", Title: "Year (流年) info", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "流年 of a lunar year: stem-branch, nominal age, 流年命宫, 太岁, 小限, running decade, 12 year palaces, 四化, moving stars." + chartSel +
			" Related: get_annual_sihua, get_annual_overlapping_palaces, get_monthly_info."},
		func(ctx context.Context, in AnnualIn) (AnnualInfoOut, error) {
			cc, err := in.load()
			if err != nil {
				return AnnualInfoOut{}, err
			}
			h, err := cc.annual(in.Year)
			if err != nil {
				return AnnualInfoOut{}, err
			}
			y := h.Yearly
			return AnnualInfoOut{ChartID: cc.id, Year: in.Year, Stem: y.Stem.Name(cc.lang), Branch: y.Branch.Name(cc.lang), NominalAge: h.NominalAge(),
				LifePalace: cc.at(y.Index), TaisuiPalace: cc.at(y.Branch.BoardIndex()), SmallLimit: cc.at(h.Age.Index),
				Decade: cc.decadeRef(h), Palaces: cc.overlaps(y), Sihua: cc.sihua(y.Stem, &y), MovingStars: cc.moving(y)}, nil
		})
}

type AnnualSihuaIn struct {
	Birth
	Year int    `json:"year,omitempty" jsonschema:"lunar year; or stem" mcp:"min=1900;max=2100"`
	Stem string `json:"stem,omitempty" jsonschema:"甲…癸, instead of year"`
}

func getAnnualSihua() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_annual_sihua", Title: "Year 四化", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "流年 四化 (year stem): each star, its natal palace and that palace's year role. By year or stem." + chartSel +
			" Related: get_annual_info, get_decade_sihua, get_natal_sihua."},
		func(ctx context.Context, in AnnualSihuaIn) (PeriodSihuaOut, error) {
			cc, err := in.load()
			if err != nil {
				return PeriodSihuaOut{}, err
			}
			switch {
			case in.Stem != "" && in.Year != 0:
				return PeriodSihuaOut{}, envelope.Invalid("stem", "give year or stem, not both")
			case in.Stem != "":
				s, ok := astro.StemByName(in.Stem)
				if !ok {
					return PeriodSihuaOut{}, envelope.Invalid("stem", "unknown stem %q: use 甲 乙 丙 丁 戊 己 庚 辛 壬 癸 (or jia, yi…)", clip(in.Stem))
				}
				return PeriodSihuaOut{ChartID: cc.id, Level: "annual", Stem: s.Name(cc.lang), Items: cc.sihua(s, nil)}, nil
			case in.Year == 0:
				return PeriodSihuaOut{}, envelope.Invalid("year", "say which year: give year (e.g. 2026) or a year stem")
			}
			h, err := cc.annual(in.Year)
			if err != nil {
				return PeriodSihuaOut{}, err
			}
			y := h.Yearly
			return PeriodSihuaOut{ChartID: cc.id, Level: "annual", Stem: y.Stem.Name(cc.lang), Year: in.Year, Items: cc.sihua(y.Stem, &y)}, nil
		})
}

type AnnualDecadeOverlap struct {
	AnnualPalace string `json:"annualPalace"`
	DecadePalace string `json:"decadePalace"`
	NatalPalace  string `json:"natalPalace"`
}

type AnnualOverlapOut struct {
	ChartID        string                `json:"chart_id"`
	Year           int                   `json:"year"`
	Decade         PeriodRef             `json:"decade"`
	AnnualToNatal  []Overlap             `json:"annualToNatal"`
	AnnualToDecade []AnnualDecadeOverlap `json:"annualToDecade"`
}

func getAnnualOverlappingPalaces() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_annual_overlapping_palaces", Title: "Year ↔ decade ↔ natal palaces", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "For a lunar year: the natal and decade palace each 流年 palace falls on (流年命宫 = 大限X = natal Y …)." + chartSel +
			" Related: get_annual_info, get_decade_overlapping_palaces."},
		func(ctx context.Context, in AnnualIn) (AnnualOverlapOut, error) {
			cc, err := in.load()
			if err != nil {
				return AnnualOverlapOut{}, err
			}
			h, err := cc.annual(in.Year)
			if err != nil {
				return AnnualOverlapOut{}, err
			}
			y, d := h.Yearly, h.Decadal
			out := AnnualOverlapOut{ChartID: cc.id, Year: in.Year, Decade: cc.decadeRef(h), AnnualToNatal: cc.overlaps(y)}
			for r := astro.PalaceRole(0); r < 12; r++ {
				i := y.PalaceOfRole(r)
				out.AnnualToDecade = append(out.AnnualToDecade, AnnualDecadeOverlap{
					AnnualPalace: periodRoleName(y.Kind, r, cc.lang), DecadePalace: periodRoleName(d.Kind, d.PalaceRole(i), cc.lang), NatalPalace: cc.at(i)})
			}
			return out, nil
		})
}

// ---- monthly, daily, hourly

type TargetIn struct {
	Birth
	TargetDate      string `json:"targetDate" jsonschema:"solar YYYY-MM-DD"`
	TargetTimeIndex *int   `json:"targetTimeIndex,omitempty" jsonschema:"hour slot" mcp:"min=0;max=12;default=6"`
}

type PeriodOut struct {
	ChartID     string       `json:"chart_id"`
	Period      string       `json:"period"`
	TargetDate  string       `json:"targetDate"`
	LunarDate   string       `json:"lunarDate"`
	TimeIndex   int          `json:"timeIndex"`
	NominalAge  int          `json:"nominalAge"`
	Stem        string       `json:"stem"`
	Branch      string       `json:"branch"`
	LifePalace  string       `json:"lifePalace"`
	Palaces     []Overlap    `json:"palaces"`
	Sihua       []SihuaItem  `json:"sihua"`
	MovingStars []MovingStar `json:"movingStars"`
}

func (cc *chartCtx) target(in TargetIn) (*astro.Horoscope, error) {
	d, err := astro.ParseSolarDate(in.TargetDate)
	if err != nil {
		if ie, ok := err.(*astro.InputError); ok {
			return nil, envelope.Invalid("targetDate", "%s", ie.Message)
		}
		return nil, err
	}
	ti := 6
	if in.TargetTimeIndex != nil {
		ti = *in.TargetTimeIndex
	}
	h, err := cc.chart.HoroscopeAt(d, ti)
	if err != nil {
		return nil, mapErr(err)
	}
	return h, nil
}

func periodTool(name, title, what string, pick func(*astro.Horoscope) astro.Period) toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: name, Title: title, Toolset: "periods", Hints: toolkit.LocalRead,
		Description: fmt.Sprintf("The %s at targetDate: stem-branch, 命宫, 12 palaces, 四化, moving stars.", what) + chartSel +
			" Related: get_annual_info, get_monthly_info, get_daily_info, get_hourly_info."},
		func(ctx context.Context, in TargetIn) (PeriodOut, error) {
			cc, err := in.load()
			if err != nil {
				return PeriodOut{}, err
			}
			h, err := cc.target(in)
			if err != nil {
				return PeriodOut{}, err
			}
			p := pick(h)
			return PeriodOut{ChartID: cc.id, Period: p.Kind.Name(cc.lang), TargetDate: h.SolarDate().String(), LunarDate: h.LunarDate().ChineseString(),
				TimeIndex: h.TimeIndex(), NominalAge: h.NominalAge(), Stem: p.Stem.Name(cc.lang), Branch: p.Branch.Name(cc.lang),
				LifePalace: cc.at(p.Index), Palaces: cc.overlaps(p), Sihua: cc.sihua(p.Stem, &p), MovingStars: cc.moving(p)}, nil
		})
}

func getMonthlyInfo() toolkit.Tool {
	return periodTool("get_monthly_info", "Month (流月) info", "流月 (lunar month)", func(h *astro.Horoscope) astro.Period { return h.Monthly })
}

func getDailyInfo() toolkit.Tool {
	return periodTool("get_daily_info", "Day (流日) info", "流日", func(h *astro.Horoscope) astro.Period { return h.Daily })
}

func getHourlyInfo() toolkit.Tool {
	return periodTool("get_hourly_info", "Hour (流时) info", "流时 (targetTimeIndex)", func(h *astro.Horoscope) astro.Period { return h.Hourly })
}
