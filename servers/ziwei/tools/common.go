// Package tools is the ziwei server's MCP surface: the chart tools, the
// pattern and rule tools, the chart board and star resources and the
// read_chart prompt. Every tool is stateless: a chart is rebuilt (in
// microseconds) from a chart_id or the birth fields on each call.
package tools

import (
	"errors"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/birth"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/chartid"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/settings"
)

// ChartIn is every chart tool's chart selector: the chart_id that
// initialize_chart returned (it encodes the birth, so any replica rebuilds the
// chart) and the language of the names.
type ChartIn struct {
	ChartID  string `json:"chart_id"`
	Language string `json:"language,omitempty" mcp:"enum=zh-CN|zh-TW|en-US|ja-JP|ko-KR|vi-VN"`
}

// Birth is the optional chart of the rule tools: with chart_id they also
// evaluate on that chart.
type Birth struct {
	ChartID  string `json:"chart_id,omitempty" jsonschema:"evaluate on this chart"`
	Language string `json:"language,omitempty" mcp:"enum=zh-CN|zh-TW|en-US|ja-JP|ko-KR|vi-VN"`
}

func (b Birth) load() (*chartCtx, error) { return ChartIn(b).load() }

// BirthIn is initialize_chart's input: the birth itself.
type BirthIn struct {
	BirthDate      string   `json:"birthDate" jsonschema:"YYYY-MM-DD, solar unless isLunar"`
	BirthTimeIndex *int     `json:"birthTimeIndex,omitempty" jsonschema:"0 00-01h early Rat, 1 01-03h … 11 21-23h, 12 23-24h late Rat" mcp:"min=0;max=12"`
	BirthTime      string   `json:"birthTime,omitempty" jsonschema:"HH:MM UTC+8"`
	Longitude      *float64 `json:"longitude,omitempty" jsonschema:"°E: true solar time" mcp:"min=-180;max=180"`
	Gender         string   `json:"gender" mcp:"enum=男|女|male|female"`
	IsLunar        bool     `json:"isLunar,omitempty"`
	IsLeapMonth    bool     `json:"isLeapMonth,omitempty"`
	FixLeap        *bool    `json:"fixLeap,omitempty" jsonschema:"leap-month days 16+ count as next month" mcp:"default=true"`
	Language       string   `json:"language,omitempty" mcp:"enum=zh-CN|zh-TW|en-US|ja-JP|ko-KR|vi-VN"`
	// Settings: iztro's astro.config for this chart (default: the deployment's
	// ZIWEI_SETTINGS, else iztro's defaults); the chart_id carries them.
	Settings *settings.Settings `json:"settings,omitempty"`
}

// chartCtx is a resolved chart with the call's language.
type chartCtx struct {
	chart *astro.Chart
	id    string
	spec  birth.Spec
	res   birth.Resolution
	lang  astro.Lang
}

func (b BirthIn) fields() birth.Fields {
	return birth.Fields{BirthDate: b.BirthDate, BirthTimeIndex: b.BirthTimeIndex, BirthTime: b.BirthTime,
		Longitude: b.Longitude, Gender: b.Gender, IsLunar: b.IsLunar, IsLeapMonth: b.IsLeapMonth, FixLeap: b.FixLeap}
}

func parseLang(s string) (astro.Lang, error) {
	if s == "" {
		return astro.ZhCN, nil
	}
	l, err := astro.ParseLang(s)
	if err != nil {
		return 0, envelope.Invalid("language", "unknown language %q: use one of %s", extract.Clip(s, 32), astro.LangCodes)
	}
	return l, nil
}

// load decodes the chart_id and rebuilds its chart.
func (b ChartIn) load() (*chartCtx, error) {
	lang, err := parseLang(b.Language)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(b.ChartID) == "" {
		return nil, envelope.Invalid("chart_id", "chart_id is required: call initialize_chart (the seed's MCP-SYS-01 / Initialize_Chart) with the birth data first and pass the chart_id it returns")
	}
	spec, cfg, err := chartid.DecodeWith(b.ChartID)
	if err != nil {
		return nil, mapErr(err)
	}
	return build(spec, cfg, lang)
}

// load builds the chart of the birth fields (initialize_chart); def are the
// settings used when the call gives none (the deployment's).
func (b BirthIn) load(def astro.Config) (*chartCtx, error) {
	spec, cfg, lang, err := b.resolve(def)
	if err != nil {
		return nil, err
	}
	return build(spec, cfg, lang)
}

// resolve checks the birth fields, settings and language without building
// the chart.
func (b BirthIn) resolve(def astro.Config) (birth.Spec, astro.Config, astro.Lang, error) {
	lang, err := parseLang(b.Language)
	if err != nil {
		return birth.Spec{}, def, 0, err
	}
	spec, err := b.fields().Spec()
	if err != nil {
		return spec, def, 0, mapErr(err)
	}
	cfg := def
	if b.Settings != nil {
		if cfg, err = b.Settings.Config(); err != nil {
			se := err.(*settings.Error)
			return spec, def, 0, envelope.Invalid("settings", "settings.%s", se.Error())
		}
	}
	return spec, cfg, lang, nil
}

func build(spec birth.Spec, cfg astro.Config, lang astro.Lang) (*chartCtx, error) {
	// Encoding fails only on a spec that does not validate, and building
	// validates the same way first: the error is the same either way.
	id, err := chartid.EncodeWith(spec, cfg)
	if err != nil {
		return nil, mapErr(err)
	}
	return buildAs(id, spec, cfg, lang)
}

// buildAs builds the chart of spec and cfg, whose chart_id the caller has
// already encoded.
func buildAs(id string, spec birth.Spec, cfg astro.Config, lang astro.Lang) (*chartCtx, error) {
	c, res, err := spec.ChartWith(&cfg)
	if err != nil {
		return nil, mapErr(err)
	}
	return &chartCtx{chart: c, id: id, spec: spec, res: res, lang: lang}, nil
}

// mapErr turns input errors from the birth, chartid and astro packages into
// invalid_argument envelopes naming the field.
func mapErr(err error) error {
	var be *birth.Error
	var ce *chartid.Error
	var ae *astro.InputError
	switch {
	case errors.As(err, &be):
		return envelope.Invalid(be.Field, "%s", be.Message)
	case errors.As(err, &ce):
		return envelope.Invalid("chart_id", "%s", ce.Error())
	case errors.As(err, &ae):
		f := ae.Field
		if f == "date" {
			f = "targetDate"
		} else if f == "timeIndex" {
			f = "targetTimeIndex"
		}
		return envelope.Invalid(f, "%s", ae.Message)
	}
	return err
}

// at names palace i in one string, "命宫 丁亥" ("soul ding-hai" in en-US): the
// role, stem and branch at a fraction of the schema and result bytes.
func (cc *chartCtx) at(i int) string {
	c, l := cc.chart, cc.lang
	return c.PalaceRole(i).Name(l) + " " + astro.GanZhiName(c.PalaceStem(i), astro.BranchOfBoard(i), l)
}

// Star is a star as it sits in the natal chart.
type Star struct {
	Name       string `json:"name"`
	Type       string `json:"type"`
	Brightness string `json:"brightness,omitempty"`
	Mutagen    string `json:"mutagen,omitempty"`
}

func (cc *chartCtx) star(s astro.StarID) Star {
	return Star{Name: s.Name(cc.lang), Type: s.Type().String(), Brightness: cc.chart.StarBrightness(s).Name(cc.lang), Mutagen: cc.chart.StarMutagen(s).Name(cc.lang)}
}

// stars lists the stars of palace i; adjectives only when withAdj.
func (cc *chartCtx) stars(i int, withAdj bool) []Star {
	var out []Star
	for _, s := range cc.chart.Stars(i) {
		if !withAdj && s.Group() == astro.GroupAdjective {
			continue
		}
		out = append(out, cc.star(s))
	}
	return out
}

// PalaceBrief is a palace with its major and minor stars in compact form.
type PalaceBrief struct {
	Palace string   `json:"palace"`
	Stars  []string `json:"stars"`
}

func (cc *chartCtx) brief(i int) PalaceBrief {
	b := PalaceBrief{Palace: cc.at(i), Stars: []string{}}
	for _, s := range cc.chart.Stars(i) {
		if s.Group() != astro.GroupAdjective {
			b.Stars = append(b.Stars, cc.compact(s))
		}
	}
	return b
}

// compact writes a star as 太阳旺[禄] (sun[+2][A] in en-US).
func (cc *chartCtx) compact(s astro.StarID) string {
	out := s.Name(cc.lang) + cc.chart.StarBrightness(s).Name(cc.lang)
	if m := cc.chart.StarMutagen(s); m != astro.MutagenNone {
		out += "[" + m.Name(cc.lang) + "]"
	}
	return out
}

// palace parses a palace identifier: a natal role (命宫, 财帛, wealth; 宫
// optional), 身宫/body, or a branch (子…亥, zi…).
func (cc *chartCtx) palace(field, s string) (int, error) {
	return parsePalaceFor(field, s, cc.chart.PalaceOfRole, cc.chart.BodyIndex())
}

func parsePalaceFor(field, s string, ofRole func(astro.PalaceRole) int, body int) (int, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return 0, envelope.Invalid(field, "%s is required: a palace role (命宫, 财帛, wealth…) or a branch (子…亥)", field)
	}
	if astro.IsBodyPalaceName(t) && body >= 0 {
		return body, nil
	}
	if r, ok := astro.RoleByName(t); ok {
		return ofRole(r), nil
	}
	if b, ok := astro.BranchByName(t); ok {
		return b.BoardIndex(), nil
	}
	return 0, envelope.Invalid(field, "unknown palace %q: use a role (命宫 兄弟 夫妻 子女 财帛 疾厄 迁移 仆役 官禄 田宅 福德 父母; pinyin Ming, Xiongdi, Fuqi…; English soul, siblings…) or a branch (子 丑 … 亥)", extract.Clip(s, 32))
}

// periodRoleName names a role at a period level: 大限财帛, 流年命宫, decadal wealth.
func periodRoleName(k astro.PeriodKind, r astro.PalaceRole, l astro.Lang) string {
	if l == astro.ZhCN || l == astro.ZhTW || l == astro.JaJP {
		return k.Name(l) + r.Name(l)
	}
	return k.Name(l) + " " + r.Name(l)
}

// sihua lists the four stars a stem transforms, in the order 禄 权 科 忌, each
// as "禄 太阳 财帛 丙申", with the palace's role in the period when given:
// "禄 太阳 财帛 丙申 (大限命宫)".
func (cc *chartCtx) sihua(stem astro.Stem, period *astro.Period) []string {
	out := make([]string, 0, 4)
	for k, s := range cc.chart.Mutagens(stem) {
		pos := cc.chart.StarPalace(s)
		it := astro.Mutagen(k+1).Name(cc.lang) + " " + s.Name(cc.lang) + " " + cc.at(pos)
		if period != nil {
			it += " (" + periodRoleName(period.Kind, period.PalaceRole(pos), cc.lang) + ")"
		}
		out = append(out, it)
	}
	return out
}
