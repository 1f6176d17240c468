package tools

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// overlaps maps the period's 12 palaces (in role order 命宫 … 父母) onto the
// natal board, one string each: "大限命宫 = 命宫 丁亥: 巨门; 运魁 运禄" — the
// period role, the natal palace, its major stars, then the period's moving
// stars there (流耀; a decade's 运曜). extra, when given, appends " | " and
// its text for board position i (the year's 岁前/将前 gods).
func (cc *chartCtx) overlaps(p astro.Period, extra func(i int) string) []string {
	out := make([]string, 12)
	var moving [12][]astro.MovingStar
	if p.HasMovingStars() {
		moving = p.MovingStars()
	}
	for r := astro.PalaceRole(0); r < 12; r++ {
		i := p.PalaceOfRole(r)
		var b strings.Builder
		b.WriteString(periodRoleName(p.Kind, r, cc.lang) + " = " + cc.at(i) + ":")
		for _, s := range cc.chart.Stars(i) {
			if s.Group() == astro.GroupMajor {
				b.WriteString(" " + s.Name(cc.lang))
			}
		}
		b.WriteString(";")
		for _, m := range moving[i] {
			b.WriteString(" " + astro.MovingStarName(m, p.Kind, cc.lang))
		}
		if extra != nil {
			b.WriteString(" | " + extra(i))
		}
		out[r] = b.String()
	}
	return out
}

// ---- decades

// childhoodRoles: before the first decade, age 1 runs in 命宫, 2 财帛, 3 疾厄,
// 4 夫妻, 5 福德, 6 官禄 (iztro's 童限).
var childhoodRoles = [6]astro.PalaceRole{astro.Soul, astro.Wealth, astro.Health, astro.Spouse, astro.Spirit, astro.Career}

type DecadeSel struct {
	Age         *int `json:"age,omitempty" jsonschema:"虚岁" mcp:"min=1;max=120"`
	DecadeIndex *int `json:"decadeIndex,omitempty" mcp:"min=1;max=12"`
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

// decadeLine is a decade in one string: "3: 25-34 夫妻 乙酉".
func (cc *chartCtx) decadeLine(d decadeSpan) string {
	return fmt.Sprintf("%d: %d-%d %s", d.order, d.from, d.to, cc.at(d.period.Index))
}

type DecadeIn struct {
	ChartIn
	DecadeSel
}

type DecadeInfoOut struct {
	Decade  string   `json:"decade" jsonschema:"index: ages palace; 0 = 童限"`
	Stem    string   `json:"stem"`
	Palaces []string `json:"palaces" jsonschema:"period role = natal palace: majors; period stars"`
	All     []string `json:"allDecades" jsonschema:"index: ages palace"`
}

func getDecadeInfo() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_decade_info", Title: "Decade (大限) info", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "A 大限 by age or decadeIndex (before the first: 童限): ages, palace, stem, its 12 palaces on the natal board with 运曜, all decades." +
			" Related: get_decade_sihua."},
		func(ctx context.Context, in DecadeIn) (DecadeInfoOut, error) {
			cc, err := in.load()
			if err != nil {
				return DecadeInfoOut{}, err
			}
			d, err := cc.decade(in.DecadeSel)
			if err != nil {
				return DecadeInfoOut{}, err
			}
			out := DecadeInfoOut{Decade: cc.decadeLine(d), Stem: d.period.Stem.Name(cc.lang), Palaces: cc.overlaps(d.period, nil)}
			for k := 1; k <= 12; k++ {
				ds, _ := cc.decade(DecadeSel{DecadeIndex: &k})
				out.All = append(out.All, cc.decadeLine(ds))
			}
			return out, nil
		})
}

type DecadeSihuaIn struct {
	ChartIn
	DecadeSel
	Stem string `json:"stem,omitempty" jsonschema:"甲…癸, instead of age/decadeIndex"`
}

type PeriodSihuaOut struct {
	Stem   string   `json:"stem"`
	Decade string   `json:"decade,omitempty" jsonschema:"index: ages palace"`
	Year   int      `json:"year,omitempty"`
	Items  []string `json:"items" jsonschema:"禄 权 科 忌: star palace (period role)"`
}

func getDecadeSihua() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_decade_sihua", Title: "Decade 四化", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "大限 四化 (decade palace's stem): each star, its natal palace and that palace's decade role. Decade by age, decadeIndex or stem."},
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
					return PeriodSihuaOut{}, envelope.Invalid("stem", "unknown stem %q: use 甲 乙 丙 丁 戊 己 庚 辛 壬 癸 (or jia, yi…)", extract.Clip(in.Stem, 32))
				}
				return PeriodSihuaOut{Stem: s.Name(cc.lang), Items: cc.sihua(s, nil)}, nil
			}
			d, err := cc.decade(in.DecadeSel)
			if err != nil {
				return PeriodSihuaOut{}, err
			}
			return PeriodSihuaOut{Stem: d.period.Stem.Name(cc.lang), Decade: cc.decadeLine(d), Items: cc.sihua(d.period.Stem, &d.period)}, nil
		})
}

type DecadeOverlapOut struct {
	Decade  string   `json:"decade" jsonschema:"index: ages palace; 0 = 童限"`
	Palaces []string `json:"palaces" jsonschema:"period role = natal palace: majors; period stars"`
}

func getDecadeOverlappingPalaces() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_decade_overlapping_palaces", Title: "Decade ↔ natal palaces", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "Which natal palace each decade palace falls on (大限命宫 = natal X …), with major stars and 运曜. Decade by age or decadeIndex."},
		func(ctx context.Context, in DecadeIn) (DecadeOverlapOut, error) {
			cc, err := in.load()
			if err != nil {
				return DecadeOverlapOut{}, err
			}
			d, err := cc.decade(in.DecadeSel)
			if err != nil {
				return DecadeOverlapOut{}, err
			}
			return DecadeOverlapOut{Decade: cc.decadeLine(d), Palaces: cc.overlaps(d.period, nil)}, nil
		})
}

// ---- annual

type YearSel struct {
	Year int `json:"year,omitempty" jsonschema:"lunar year" mcp:"min=1900;max=2100"`
}

// annual computes the horoscope for lunar year Y.
func (cc *chartCtx) annual(year int) (*astro.Horoscope, error) {
	c := cc.chart
	if year == 0 {
		// not required by the schema, so that a call without a chart_id (as
		// the seed's were) hears about the chart_id first
		return nil, envelope.Invalid("year", "say which year: give year, the lunar year (e.g. 2026); get_decade_info lists a decade's ages")
	}
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

type AnnualIn struct {
	ChartIn
	YearSel
}

type AnnualInfoOut struct {
	Stem         string   `json:"stem"`
	Branch       string   `json:"branch"`
	NominalAge   int      `json:"nominalAge"`
	LifePalace   string   `json:"lifePalace"`
	TaisuiPalace string   `json:"taisuiPalace"`
	SmallLimit   string   `json:"smallLimit"`
	Decade       string   `json:"decade"`
	Palaces      []string `json:"palaces" jsonschema:"year role = natal palace: majors; 流耀 | 岁前 将前"`
	Sihua        []string `json:"sihua" jsonschema:"禄 权 科 忌"`
}

// yearGods gives the year's 岁前 and 将前 gods at board position i
// (iztro's yearly.yearlyDecStar): "岁建 将星".
func (cc *chartCtx) yearGods(h *astro.Horoscope) func(i int) string {
	return func(i int) string {
		return astro.Suiqian12NameAlg(h.Suiqian12(i), cc.lang, cc.chart.Config().Algorithm) + " " + astro.Jiangqian12Name(h.Jiangqian12(i), cc.lang)
	}
}

func (cc *chartCtx) decadeRef(h *astro.Horoscope) string {
	p := h.Decadal
	from, to := h.NominalAge(), h.NominalAge()
	if p.Kind != astro.PeriodChildhood {
		d := cc.chart.DecadeAt(p.Index)
		from, to = d.From, d.To
	}
	return fmt.Sprintf("%s %d-%d %s", p.Kind.Name(cc.lang), from, to, cc.at(p.Index))
}

func getAnnualInfo() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_annual_info", Title: "Year (流年) info", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "流年 of a lunar year: stem-branch, nominal age, 命宫, 太岁, 小限, decade, 四化, 12 year palaces with 流耀 and 岁前/将前." +
			" Related: get_annual_overlapping_palaces."},
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
			return AnnualInfoOut{Stem: y.Stem.Name(cc.lang), Branch: y.Branch.Name(cc.lang), NominalAge: h.NominalAge(),
				LifePalace: cc.at(y.Index), TaisuiPalace: cc.at(y.Branch.BoardIndex()), SmallLimit: cc.at(h.Age.Index),
				Decade: cc.decadeRef(h), Palaces: cc.overlaps(y, cc.yearGods(h)), Sihua: cc.sihua(y.Stem, &y)}, nil
		})
}

type AnnualSihuaIn struct {
	ChartIn
	Year int    `json:"year,omitempty" jsonschema:"lunar year; or stem" mcp:"min=1900;max=2100"`
	Stem string `json:"stem,omitempty" jsonschema:"甲…癸, instead of year"`
}

func getAnnualSihua() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_annual_sihua", Title: "Year 四化", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "流年 四化 (year stem): each star, its natal palace and that palace's year role. By year or stem."},
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
					return PeriodSihuaOut{}, envelope.Invalid("stem", "unknown stem %q: use 甲 乙 丙 丁 戊 己 庚 辛 壬 癸 (or jia, yi…)", extract.Clip(in.Stem, 32))
				}
				return PeriodSihuaOut{Stem: s.Name(cc.lang), Items: cc.sihua(s, nil)}, nil
			case in.Year == 0:
				return PeriodSihuaOut{}, envelope.Invalid("year", "say which year: give year (e.g. 2026) or a year stem")
			}
			h, err := cc.annual(in.Year)
			if err != nil {
				return PeriodSihuaOut{}, err
			}
			y := h.Yearly
			return PeriodSihuaOut{Stem: y.Stem.Name(cc.lang), Year: in.Year, Items: cc.sihua(y.Stem, &y)}, nil
		})
}

type AnnualDecadeOverlap struct {
	AnnualPalace string `json:"annualPalace"`
	DecadePalace string `json:"decadePalace"`
	NatalPalace  string `json:"natalPalace"`
}

type AnnualOverlapOut struct {
	Decade         string                `json:"decade"`
	AnnualToNatal  []string              `json:"annualToNatal"`
	AnnualToDecade []AnnualDecadeOverlap `json:"annualToDecade"`
}

func getAnnualOverlappingPalaces() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_annual_overlapping_palaces", Title: "Year ↔ decade ↔ natal palaces", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "For a lunar year: the natal and decade palace each 流年 palace falls on (流年命宫 = 大限X = natal Y …)."},
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
			out := AnnualOverlapOut{Decade: cc.decadeRef(h), AnnualToNatal: cc.overlaps(y, nil)}
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
	ChartIn
	TargetDate      string `json:"targetDate" jsonschema:"YYYY-MM-DD"`
	TargetTimeIndex *int   `json:"targetTimeIndex,omitempty" mcp:"min=0;max=12;default=6"`
}

type PeriodOut struct {
	LunarDate  string   `json:"lunarDate"`
	NominalAge int      `json:"nominalAge"`
	Stem       string   `json:"stem"`
	Branch     string   `json:"branch"`
	LifePalace string   `json:"lifePalace"`
	Palaces    []string `json:"palaces" jsonschema:"period role = natal palace: majors; period stars"`
	Sihua      []string `json:"sihua" jsonschema:"禄 权 科 忌"`
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
		Description: fmt.Sprintf("The %s at targetDate: stem-branch, 命宫, 四化, its 12 palaces on the natal board with 流耀.", what)},
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
			return PeriodOut{LunarDate: h.LunarDate().ChineseString(), NominalAge: h.NominalAge(), Stem: p.Stem.Name(cc.lang), Branch: p.Branch.Name(cc.lang),
				LifePalace: cc.at(p.Index), Palaces: cc.overlaps(p, nil), Sihua: cc.sihua(p.Stem, &p)}, nil
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

// today is the horoscope at the server's date d, for requests that name no
// period (the seed's server used the current date).
func (cc *chartCtx) today(d astro.Date) (*astro.Horoscope, error) {
	h, err := cc.chart.HoroscopeAt(d, 6)
	if err != nil {
		return nil, envelope.Invalid("age", "today (%04d-%02d-%02d) is before the birth: give age, decadeIndex or year", d.Year, d.Month, d.Day)
	}
	return h, nil
}
