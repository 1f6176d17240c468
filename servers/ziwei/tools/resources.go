package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/board"
)

// boardText is the text board with the basics in the centre.
func (cc *chartCtx) boardText() string {
	b := cc.basics()
	lb := board.LabelsFor(cc.lang)
	lines := []string{
		"chart_id " + cc.id,
		b.Gender + " " + b.SolarDate + " " + b.Time,
		b.LunarDate,
		b.ChineseDate,
		lb.Bureau + " " + b.FiveElementsClass,
		lb.SoulRuler + " " + b.Soul + lb.Join + lb.BodyRuler + " " + b.Body,
		lb.Zodiac + " " + b.Zodiac + lb.Join + astro.SignName(cc.chart.Sign(), cc.lang),
	}
	if b.Settings != "" {
		lines = append(lines, b.School)
	}
	if cc.res.TrueSolarTime != "" {
		lines = append(lines, "true solar time "+cc.res.TrueSolarTime)
	}
	return board.Render(cc.chart, cc.lang, lines)
}

func addResources(r *serve.Registry) {
	r.Server.GetHooks().AddBeforeReadResource(encodeIRI)
	r.CheckResourceURIs(checkResourceURI)
	r.Server.AddResourceTemplate(
		mcp.NewResourceTemplate("ziwei://chart/{chart_id}{?language}", "Chart board",
			mcp.WithTemplateDescription("The whole natal chart as the 4×4 text board people read (palaces around the edge, basics in the centre). chart_id from initialize_chart; language zh-CN (default), zh-TW, en-US, ja-JP, ko-KR or vi-VN."),
			mcp.WithTemplateMIMEType("text/plain")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			id, lang := chartURI(req.Params.URI)
			cc, err := ChartIn{ChartID: id, Language: lang}.load()
			if err != nil {
				return nil, err
			}
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: askedURI(req), MIMEType: "text/plain", Text: cc.boardText()}}, nil
		})

	r.Server.AddResource(
		mcp.NewResource("ziwei://stars", "Star reference",
			mcp.WithResourceDescription("All 70 natal stars (66 in every chart; 龙德 截空 劫杀 大耗 only under 中州派, which drops 截路 空亡): names in iztro's six languages, type, five element, yin/yang and brightness on the 12 branches (iztro 2.6.1)."),
			mcp.WithMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			type entry struct {
				ZhCN string `json:"zh-CN"`
				ZhTW string `json:"zh-TW"`
				EnUS string `json:"en-US"`
				JaJP string `json:"ja-JP"`
				KoKR string `json:"ko-KR"`
				ViVN string `json:"vi-VN"`
				StarAttrOut
			}
			list := make([]entry, 0, astro.NumStars)
			for id := 0; id < astro.NumStars; id++ {
				s := astro.StarID(id)
				list = append(list, entry{ZhCN: s.Name(astro.ZhCN), ZhTW: s.Name(astro.ZhTW), EnUS: s.Name(astro.EnUS),
					JaJP: s.Name(astro.JaJP), KoKR: s.Name(astro.KoKR), ViVN: s.Name(astro.ViVN), StarAttrOut: starAttributes(s, astro.ZhCN)})
			}
			b, _ := json.Marshal(list)
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: askedURI(req), MIMEType: "application/json", Text: string(b)}}, nil
		})

	r.Server.AddResourceTemplate(
		mcp.NewResourceTemplate("ziwei://stars/{name}", "One star",
			mcp.WithTemplateDescription("Reference data for one star by name in any language (紫微, emperor, 자미, Tử Vi, Ziwei), raw or percent-encoded: as get_star_attributes, in each of iztro's six languages."),
			mcp.WithTemplateMIMEType("application/json")),
		func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			name := starURI(req.Params.URI)
			id, ok := astro.StarByName(name)
			if !ok {
				return nil, fmt.Errorf("unknown star %q: read ziwei://stars for the 70 names (Chinese, English or pinyin)", extract.Clip(name, 32))
			}
			out := map[string]StarAttrOut{}
			for _, l := range astro.Langs() {
				out[l.String()] = starAttributes(id, l)
			}
			b, _ := json.Marshal(out)
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: askedURI(req), MIMEType: "application/json", Text: string(b)}}, nil
		})
}

func (t *Tools) addPrompts(r *serve.Registry) {
	r.Server.AddPrompt(mcp.NewPrompt("read_chart",
		mcp.WithPromptDescription("Read a Zi Wei Dou Shu chart: the board, the patterns found and a reading plan, optionally focused on one area."),
		mcp.WithArgument("chart_id", mcp.ArgumentDescription("chart_id from initialize_chart (or give birthDate, birthTimeIndex, gender)")),
		mcp.WithArgument("birthDate", mcp.ArgumentDescription("YYYY-MM-DD, when no chart_id")),
		mcp.WithArgument("birthTimeIndex", mcp.ArgumentDescription("0-12, when no chart_id")),
		mcp.WithArgument("gender", mcp.ArgumentDescription("男/女, when no chart_id")),
		mcp.WithArgument("focus", mcp.ArgumentDescription("what to focus on: career, wealth, relationships, health, a year (e.g. 2026) …")),
		mcp.WithArgument("language", mcp.ArgumentDescription("zh-CN (default), zh-TW, en-US, ja-JP, ko-KR or vi-VN")),
	), func(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		a := req.Params.Arguments
		var cc *chartCtx
		var err error
		if a["chart_id"] != "" {
			cc, err = ChartIn{ChartID: a["chart_id"], Language: a["language"]}.load()
		} else {
			b := BirthIn{BirthDate: a["birthDate"], Gender: a["gender"], Language: a["language"]}
			if s := a["birthTimeIndex"]; s != "" {
				var ti int
				if _, err := fmt.Sscanf(s, "%d", &ti); err != nil {
					return nil, fmt.Errorf("birthTimeIndex must be a number 0-12")
				}
				b.BirthTimeIndex = &ti
			}
			cc, err = b.load(t.settings)
		}
		if err != nil {
			return nil, err
		}
		var pats []string
		for _, p := range cc.patternsFound() {
			pats = append(pats, "- "+p.Name+": "+p.Meaning)
		}
		if len(pats) == 0 {
			pats = []string{"- (none from the catalogue)"}
		}
		focus := strings.TrimSpace(a["focus"])
		if focus == "" {
			focus = "the whole chart: character, career, wealth, relationships, health"
		}
		text := "Read this Zi Wei Dou Shu (紫微斗数) chart. Focus: " + focus + ".\n\n" +
			"Method: start from 命宫 and its 三方四正 (get_sanfang_sizheng), then 身宫; weigh brightness and the natal 四化 (get_natal_sihua); note 夹 (get_jia_gong_info) and 格局; " +
			"for timing use get_decade_info / get_annual_info with the chart_id. Say which stars and palaces support each statement; keep interpretation separate from the computed facts.\n\n" +
			"chart_id: " + cc.id + "\n\nPatterns found:\n" + strings.Join(pats, "\n") + "\n\nBoard:\n" + cc.boardText()
		return mcp.NewGetPromptResult("Read a Zi Wei chart", []mcp.PromptMessage{
			mcp.NewPromptMessage(mcp.RoleUser, mcp.NewTextContent(text)),
		}), nil
	})
}
