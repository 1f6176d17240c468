package tools

import (
	"context"
	"fmt"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

type FlyIn struct {
	ChartIn
	ChartLevel string `json:"chartLevel,omitempty" mcp:"enum=Natal|Decade|Annual;default=Natal"`
	Palace     string `json:"palace,omitempty" jsonschema:"role at that level or branch; omit: all"`
	DecadeSel
	Year int `json:"year,omitempty" jsonschema:"lunar year" mcp:"min=1900;max=2100"`
}

// FlyEntry is one palace's flights, in the order 禄 权 科 忌, each "禄 太阳 →
// 财帛 丙申" (with the level's role when not Natal); selfTransformed lists
// the transformations landing in the palace itself (自化).
type FlyEntry struct {
	Palace          string   `json:"palace" jsonschema:"level role = natal palace"`
	Flights         []string `json:"flights" jsonschema:"禄 权 科 忌: star → palace"`
	SelfTransformed []string `json:"selfTransformed" jsonschema:"自化"`
}

type FlyOut struct {
	// Period is the decade or year of a Decade or Annual level (the one in
	// force today when the call named none).
	Period  string     `json:"period,omitempty"`
	Palaces []FlyEntry `json:"palaces"`
}

func (t *Tools) getPalaceStemSihua() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_palace_stem_sihua", Title: "飞四化 by palace stem", Toolset: "periods", Hints: toolkit.LocalRead,
		Description: "飞四化: where a palace's stem (or each of the 12) sends 禄 权 科 忌, and its 自化. Roles at chartLevel (Decade: age or decadeIndex, Annual: year; default: now); stems are the board's."},
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
			var used string
			switch level {
			case "Natal":
				if in.Age != nil || in.DecadeIndex != nil || in.Year != 0 {
					return FlyOut{}, envelope.Invalid("chartLevel", "age, decadeIndex and year apply to the Decade and Annual levels: set chartLevel or drop them")
				}
			case "Decade":
				if in.Year != 0 {
					return FlyOut{}, envelope.Invalid("year", "year applies to chartLevel Annual; for Decade give age or decadeIndex")
				}
				if in.Age == nil && in.DecadeIndex == nil {
					// as the seed did: the decade in force today
					h, err := cc.today(t.now())
					if err != nil {
						return FlyOut{}, err
					}
					age := h.NominalAge()
					in.Age = &age
				}
				d, err := cc.decade(in.DecadeSel)
				if err != nil {
					return FlyOut{}, err
				}
				period, used = &d.period, cc.decadeLine(d)
			case "Annual":
				if in.Age != nil || in.DecadeIndex != nil {
					return FlyOut{}, envelope.Invalid("year", "for chartLevel Annual give year, not age/decadeIndex")
				}
				if in.Year == 0 {
					// as the seed did: this year
					h, err := cc.today(t.now())
					if err != nil {
						return FlyOut{}, err
					}
					in.Year = h.LunarDate().Year
				}
				h, err := cc.annual(in.Year)
				if err != nil {
					return FlyOut{}, err
				}
				y := h.Yearly
				period, used = &y, fmt.Sprintf("%d %s", in.Year, astro.GanZhiName(y.Stem, y.Branch, l))
			default:
				return FlyOut{}, envelope.Invalid("chartLevel", "unknown chartLevel %q: use Natal, Decade or Annual", extract.Clip(level, 32))
			}
			roleAt := c.PalaceRole
			ofRole := c.PalaceOfRole
			body := c.BodyIndex()
			if period != nil {
				roleAt, ofRole, body = period.PalaceRole, period.PalaceOfRole, -1
			}
			role := func(i int) string {
				if period != nil {
					return periodRoleName(period.Kind, roleAt(i), l)
				}
				return roleAt(i).Name(l)
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
			out := FlyOut{Period: used}
			for _, i := range which {
				e := FlyEntry{Palace: role(i) + " = " + cc.at(i), SelfTransformed: []string{}}
				for k, s := range c.Mutagens(c.PalaceStem(i)) {
					to := c.StarPalace(s)
					m := astro.Mutagen(k + 1).Name(l)
					dest := cc.at(to)
					if period != nil {
						dest = role(to) + " (" + dest + ")"
					}
					e.Flights = append(e.Flights, m+" "+s.Name(l)+" → "+dest)
					if to == i {
						e.SelfTransformed = append(e.SelfTransformed, m)
					}
				}
				out.Palaces = append(out.Palaces, e)
			}
			return out, nil
		})
}
