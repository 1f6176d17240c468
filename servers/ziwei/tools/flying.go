package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

type FlyIn struct {
	Birth
	ChartLevel string `json:"chartLevel,omitempty" jsonschema:"whose roles; Decade needs age/decadeIndex, Annual year" mcp:"enum=Natal|Decade|Annual;default=Natal"`
	Palace     string `json:"palace,omitempty" jsonschema:"role at that level or branch; omit for all"`
	DecadeSel
	Year int `json:"year,omitempty" jsonschema:"lunar year" mcp:"min=1900;max=2100"`
}

type FlyPalace struct {
	Index       int    `json:"index"`
	Name        string `json:"name" jsonschema:"role at the level"`
	NatalPalace string `json:"natalPalace"`
	Stem        string `json:"stem"`
	Branch      string `json:"branch"`
}

type Flight struct {
	Mutagen string `json:"mutagen"`
	Star    string `json:"star"`
	To      string `json:"to" jsonschema:"palace; period role (natal palace)"`
	Self    bool   `json:"self" jsonschema:"自化"`
}

type FlyEntry struct {
	Palace          FlyPalace `json:"palace"`
	Flights         []Flight  `json:"flights" jsonschema:"禄 权 科 忌"`
	SelfTransformed []string  `json:"selfTransformed" jsonschema:"自化"`
}

type FlyOut struct {
	ChartID string     `json:"chart_id"`
	Level   string     `json:"level"`
	Palaces []FlyEntry `json:"palaces"`
}

func getPalaceStemSihua() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_palace_stem_sihua", Title: "飞四化 by palace stem", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "飞四化: where a palace's stem (or each of the 12) sends 禄 权 科 忌, flagging 自化 (lands in the palace itself). Roles at Natal, Decade or Annual level; stems are the board's." + chartSel +
			" Related: get_natal_sihua, get_decade_sihua, get_annual_sihua."},
		func(ctx context.Context, in FlyIn) (FlyOut, error) {
			cc, err := in.load()
			if err != nil {
				return FlyOut{}, err
			}
			c, l := cc.chart, cc.lang
			level := in.ChartLevel
			if level == "" {
				level = "Natal"
			}
			var period *astro.Period
			switch level {
			case "Natal":
				if in.Age != nil || in.DecadeIndex != nil || in.Year != 0 {
					return FlyOut{}, envelope.Invalid("chartLevel", "age, decadeIndex and year apply to the Decade and Annual levels: set chartLevel or drop them")
				}
			case "Decade":
				if in.Year != 0 {
					return FlyOut{}, envelope.Invalid("year", "year applies to chartLevel Annual; for Decade give age or decadeIndex")
				}
				d, err := cc.decade(in.DecadeSel)
				if err != nil {
					return FlyOut{}, err
				}
				period = &d.period
			case "Annual":
				if in.Age != nil || in.DecadeIndex != nil {
					return FlyOut{}, envelope.Invalid("year", "for chartLevel Annual give year, not age/decadeIndex")
				}
				if in.Year == 0 {
					return FlyOut{}, envelope.Invalid("year", "chartLevel Annual needs year (the lunar year, e.g. 2026)")
				}
				h, err := cc.annual(in.Year)
				if err != nil {
					return FlyOut{}, err
				}
				y := h.Yearly
				period = &y
			default:
				return FlyOut{}, envelope.Invalid("chartLevel", "unknown chartLevel %q: use Natal, Decade or Annual", clip(level))
			}
			roleAt := c.PalaceRole
			ofRole := c.PalaceOfRole
			body := c.BodyIndex()
			if period != nil {
				roleAt, ofRole, body = period.PalaceRole, period.PalaceOfRole, -1
			}
			fp := func(i int) FlyPalace {
				name := roleAt(i).Name(l)
				if period != nil {
					name = periodRoleName(period.Kind, roleAt(i), l)
				}
				return FlyPalace{Index: i, Name: name, NatalPalace: c.PalaceRole(i).Name(l), Stem: c.PalaceStem(i).Name(l), Branch: astro.BranchOfBoard(i).Name(l)}
			}
			var which []int
			if in.Palace == "" || equalFoldAny(in.Palace, "all", "全部") {
				for r := astro.PalaceRole(0); r < 12; r++ {
					which = append(which, ofRole(r))
				}
			} else {
				i, err := parsePalaceFor("palace", in.Palace, ofRole, body)
				if err != nil {
					return FlyOut{}, err
				}
				which = []int{i}
			}
			out := FlyOut{ChartID: cc.id, Level: level}
			for _, i := range which {
				e := FlyEntry{Palace: fp(i), SelfTransformed: []string{}}
				for k, s := range astro.Mutagens(c.PalaceStem(i)) {
					to := c.StarPalace(s)
					m := astro.Mutagen(k + 1).Name(l)
					dest := cc.at(to)
					if period != nil {
						dest = fp(to).Name + " (" + dest + ")"
					}
					e.Flights = append(e.Flights, Flight{Mutagen: m, Star: s.Name(l), To: dest, Self: to == i})
					if to == i {
						e.SelfTransformed = append(e.SelfTransformed, m)
					}
				}
				out.Palaces = append(out.Palaces, e)
			}
			return out, nil
		})
}
