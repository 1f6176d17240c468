package tools

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// BoardMetaKey is the result _meta key that carries the chart view's board.
const BoardMetaKey = "ziwei/board"

// ViewTools are the tools linked to the chart view (ui://ziwei/chart.html).
// The basics tools' results carry the centre panel; the period tools' the
// overlay (their palaces strings place each period role on the natal board).
var ViewTools = []string{"initialize_chart", "get_chart_basics", "get_decade_info", "get_decade_overlapping_palaces",
	"get_annual_info", "get_monthly_info", "get_daily_info", "get_hourly_info"}

// basicsTools already return Basics in structuredContent: their board leaves it out.
var basicsTools = map[string]bool{"initialize_chart": true, "get_chart_basics": true}

// ViewBoard is what the chart view draws and no linked tool's result carries
// (the palaces with their stars, decades and flying 四化). It travels in the
// result's _meta, which hosts hand to the view and not to the model (ext-apps
// docs/overview.md; ChatGPT: "result _meta is widget-only").
type ViewBoard struct {
	Lang    string      `json:"lang"`
	Body    int         `json:"body"`             // board index of 身宫
	Basics  *Basics     `json:"basics,omitempty"` // for tools whose result is not Basics
	Palaces []ViewPlace `json:"palaces"`          // board order: 0 = 寅 … 11 = 丑
}

// ViewPlace is one palace in the strings get_palace_info uses, plus the
// flights of its stem: 禄 权 科 忌, each [star, board index of its palace]
// (index -1: the star is not in this chart's school).
type ViewPlace struct {
	Palace string    `json:"p"`
	Major  []string  `json:"ma"`
	Minor  []string  `json:"mi"`
	Adj    []string  `json:"ad"`
	Decade [2]int    `json:"d"`
	Fly    [4][2]any `json:"f"`
}

func (cc *chartCtx) viewBoard(withBasics bool) ViewBoard {
	c := cc.chart
	v := ViewBoard{Lang: cc.lang.String(), Body: c.BodyIndex(), Palaces: make([]ViewPlace, 12)}
	if withBasics {
		b := cc.basics()
		v.Basics = &b
	}
	for i := range 12 {
		pi := cc.palaceInfo(i)
		p := ViewPlace{Palace: pi.Palace, Major: pi.MajorStars, Minor: pi.MinorStars, Adj: pi.AdjectiveStars, Decade: pi.Decade}
		for k, s := range c.Mutagens(c.PalaceStem(i)) {
			p.Fly[k] = [2]any{s.Name(cc.lang), c.StarPalace(s)}
		}
		v.Palaces[i] = p
	}
	return v
}

// ViewMiddleware adds the board to a linked tool's successful result, only
// for clients that declare MCP Apps (supports): everyone else gets the same
// bytes as before, and the model never sees _meta. The result is copied, not
// changed in place.
func (t *Tools) ViewMiddleware(supports func(context.Context) bool) server.ToolHandlerMiddleware {
	linked := map[string]bool{}
	for _, n := range ViewTools {
		linked[n] = true
	}
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := next(ctx, req)
			name := req.Params.Name
			if err != nil || res == nil || res.IsError || !linked[name] || !supports(ctx) {
				return res, err
			}
			cc := t.viewChart(name, req.GetRawArguments())
			if cc == nil {
				return res, err
			}
			out := *res
			m := map[string]any{}
			if res.Meta != nil {
				for k, v := range res.Meta.AdditionalFields {
					m[k] = v
				}
				if res.Meta.ProgressToken != nil {
					m["progressToken"] = res.Meta.ProgressToken
				}
			}
			m[BoardMetaKey] = cc.viewBoard(!basicsTools[name])
			out.Meta = mcp.NewMetaFromMap(m)
			return &out, nil
		}
	}
}

// viewChart rebuilds the call's chart from its arguments (the tool already
// accepted them); nil when they do not decode.
func (t *Tools) viewChart(name string, raw any) *chartCtx {
	b, err := json.Marshal(raw)
	if err != nil {
		return nil
	}
	var cc *chartCtx
	if name == "initialize_chart" {
		var in BirthIn
		if json.Unmarshal(b, &in) == nil {
			cc, err = in.load(t.settings)
		}
	} else {
		var in ChartIn
		if json.Unmarshal(b, &in) == nil {
			cc, err = in.load()
		}
	}
	if err != nil {
		return nil
	}
	return cc
}
