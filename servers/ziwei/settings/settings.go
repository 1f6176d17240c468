// Package settings reads and writes iztro's configuration surface
// (astro.config in iztro 2.6.1: algorithm, yearDivide, horoscopeDivide,
// ageDivide, dayDivide, mutagens, brightness) as JSON with iztro's names and
// values, validates it, and packs it into the compact form a chart_id carries.
package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

// Settings is the JSON shape, iztro's names; every field optional.
type Settings struct {
	Algorithm       string              `json:"algorithm,omitempty" mcp:"enum=default|zhongzhou"`
	YearDivide      string              `json:"yearDivide,omitempty" mcp:"enum=normal|exact"`
	HoroscopeDivide string              `json:"horoscopeDivide,omitempty" mcp:"enum=normal|exact"`
	AgeDivide       string              `json:"ageDivide,omitempty" mcp:"enum=normal|birthday"`
	DayDivide       string              `json:"dayDivide,omitempty" mcp:"enum=forward|current"`
	Mutagens        map[string][]string `json:"mutagens,omitempty" jsonschema:"stem: [禄,权,科,忌 stars]"`
	Brightness      map[string][]string `json:"brightness,omitempty" jsonschema:"star: 12 from 寅"`
	AstroType       string              `json:"astroType,omitempty" jsonschema:"天盘 地盘(身宫) 人盘(福德)" mcp:"enum=heaven|earth|human"`
}

// ParseAstroType reads iztro's astroType (heaven 天盘, earth 地盘, human 人盘;
// "" is heaven).
func ParseAstroType(s string) (astro.AstroType, bool) {
	switch s {
	case "", "heaven":
		return astro.AstroHeaven, true
	case "earth":
		return astro.AstroEarth, true
	case "human":
		return astro.AstroHuman, true
	}
	return 0, false
}

// Error is an invalid setting; Message names the fix.
type Error struct {
	Path    string // e.g. "settings.mutagens.庚[2]"
	Message string
}

func (e *Error) Error() string { return e.Path + ": " + e.Message }

func errf(path, format string, args ...any) *Error {
	return &Error{Path: path, Message: fmt.Sprintf(format, args...)}
}

// Unsupported lists the settings values this engine does not compute yet;
// they are refused rather than silently charted with the defaults.
var Unsupported = map[string]string{}

func pick(path, v string, opts ...string) (uint8, error) {
	if v == "" {
		return 0, nil
	}
	for i, o := range opts {
		if v == o {
			if why, ok := Unsupported[path+"="+v]; ok {
				return 0, errf(path, "%s %q is not supported by this server yet (%s): use %q", path, v, why, opts[0])
			}
			return uint8(i), nil
		}
	}
	return 0, errf(path, "unknown value %q: use %s", extract.Clip(v, 24), strings.Join(opts, " or "))
}

// Config validates s and returns the engine's config. Star and stem names are
// accepted in any of iztro's six locales (and pinyin); brightness values as 庙 旺 得 利 平 不 陷
// (or [+3]…[-3]), "" for none.
func (s Settings) Config() (astro.Config, error) {
	var c astro.Config
	var err error
	var v uint8
	if v, err = pick("algorithm", s.Algorithm, "default", "zhongzhou"); err != nil {
		return c, err
	}
	c.Algorithm = astro.Algorithm(v)
	if v, err = pick("yearDivide", s.YearDivide, "normal", "exact"); err != nil {
		return c, err
	}
	c.YearDivide = astro.Divide(v)
	if v, err = pick("horoscopeDivide", s.HoroscopeDivide, "normal", "exact"); err != nil {
		return c, err
	}
	c.HoroscopeDivide = astro.Divide(v)
	if v, err = pick("ageDivide", s.AgeDivide, "normal", "birthday"); err != nil {
		return c, err
	}
	c.AgeDivide = astro.AgeDivide(v)
	if v, err = pick("dayDivide", s.DayDivide, "forward", "current"); err != nil {
		return c, err
	}
	c.DayDivide = astro.DayDivide(v)
	if v, err = pick("astroType", s.AstroType, "heaven", "earth", "human"); err != nil {
		return c, err
	}
	c.AstroType = astro.AstroType(v)
	for _, k := range sortedKeys(s.Mutagens) {
		path := "mutagens." + extract.Clip(k, 24)
		stem, ok := astro.StemByName(k)
		if !ok {
			return c, errf(path, "unknown heavenly stem %q: use 甲 乙 丙 丁 戊 己 庚 辛 壬 癸 (or jia, yi…)", extract.Clip(k, 24))
		}
		if c.HasMutagens&(1<<stem) != 0 {
			return c, errf(path, "stem %s is given twice (in different languages): give it once", stem.Name(astro.ZhCN))
		}
		list := s.Mutagens[k]
		if len(list) != 4 {
			return c, errf(path, "%d stars given: give exactly 4, the stars taking 禄 权 科 忌 in that order", len(list))
		}
		for i, name := range list {
			id, ok := astro.StarByName(name)
			if !ok || id.Group() == astro.GroupAdjective {
				return c, errf(fmt.Sprintf("%s[%d]", path, i), "unknown star %q: use a major or minor star (紫微, 太阳, 文昌, 左辅…, in any of iztro's six languages)", extract.Clip(name, 24))
			}
			for j := 0; j < i; j++ {
				if c.Mutagens[stem][j] == id {
					return c, errf(fmt.Sprintf("%s[%d]", path, i), "star %s appears twice: each of 禄 权 科 忌 needs a different star", id.Name(astro.ZhCN))
				}
			}
			c.Mutagens[stem][i] = id
		}
		c.HasMutagens |= 1 << stem
	}
	for _, k := range sortedKeys(s.Brightness) {
		path := "brightness." + extract.Clip(k, 24)
		id, ok := astro.StarByName(k)
		if !ok || !astro.HasBrightness(id) && id.Group() == astro.GroupAdjective {
			return c, errf(path, "unknown star %q: use a major or minor star (紫微, 太阳, 擎羊…, in any of iztro's six languages)", extract.Clip(k, 24))
		}
		if _, dup := c.Brightness[id]; dup {
			return c, errf(path, "star %s is given twice (in different languages): give it once", id.Name(astro.ZhCN))
		}
		list := s.Brightness[k]
		if len(list) != 12 {
			return c, errf(path, "%d values given: give exactly 12, in palace order from 寅 (寅 卯 辰 … 子 丑)", len(list))
		}
		var row [12]astro.Brightness
		for i, b := range list {
			v, ok := brightnessByName(b)
			if !ok {
				return c, errf(fmt.Sprintf("%s[%d]", path, i), "unknown brightness %q: use 庙 旺 得 利 平 不 陷 ([+3]…[-3]) or \"\"", extract.Clip(b, 24))
			}
			row[i] = v
		}
		if c.Brightness == nil {
			c.Brightness = map[astro.StarID][12]astro.Brightness{}
		}
		c.Brightness[id] = row
	}
	return c, nil
}

var brightnessNames = func() map[string]astro.Brightness {
	m := map[string]astro.Brightness{"": astro.BrightnessNone}
	for b := astro.BrightMiao; b <= astro.BrightXian; b++ {
		for _, l := range astro.Langs() {
			m[b.Name(l)] = b
		}
	}
	return m
}()

func brightnessByName(s string) (astro.Brightness, bool) {
	if b, ok := brightnessNames[strings.TrimSpace(s)]; ok {
		return b, true
	}
	return astro.BrightnessByName(s)
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Parse reads settings JSON (unknown keys refused) and validates it.
func Parse(raw []byte) (astro.Config, error) {
	var s Settings
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return astro.Config{}, errf("settings", "not a valid settings object (%v): e.g. {\"algorithm\":\"zhongzhou\",\"yearDivide\":\"exact\"}", err)
	}
	if dec.More() {
		return astro.Config{}, errf("settings", "trailing data after the settings object")
	}
	return s.Config()
}

// Of writes a config back in canonical form (zh-CN names, non-default fields
// only); Of(c).Config() == c.
func Of(c astro.Config) Settings {
	var s Settings
	if c.Algorithm == astro.AlgorithmZhongzhou {
		s.Algorithm = "zhongzhou"
	}
	if c.YearDivide == astro.DivideExact {
		s.YearDivide = "exact"
	}
	if c.HoroscopeDivide == astro.DivideExact {
		s.HoroscopeDivide = "exact"
	}
	if c.AgeDivide == astro.AgeDivideBirthday {
		s.AgeDivide = "birthday"
	}
	if c.DayDivide == astro.DayDivideCurrent {
		s.DayDivide = "current"
	}
	switch c.AstroType {
	case astro.AstroEarth:
		s.AstroType = "earth"
	case astro.AstroHuman:
		s.AstroType = "human"
	}
	for st := astro.StemJia; st <= astro.StemGui; st++ {
		if c.HasMutagens&(1<<st) == 0 {
			continue
		}
		if s.Mutagens == nil {
			s.Mutagens = map[string][]string{}
		}
		var names []string
		for _, id := range c.Mutagens[st] {
			names = append(names, id.Name(astro.ZhCN))
		}
		s.Mutagens[st.Name(astro.ZhCN)] = names
	}
	for id, row := range c.Brightness {
		if s.Brightness == nil {
			s.Brightness = map[string][]string{}
		}
		var names []string
		for _, b := range row {
			names = append(names, b.Name(astro.ZhCN))
		}
		s.Brightness[id.Name(astro.ZhCN)] = names
	}
	return s
}

// School names the settings in words for get_chart_basics.
func School(c astro.Config, l astro.Lang) string {
	var parts []string
	en := !l.Chinese()
	if c.Algorithm == astro.AlgorithmZhongzhou {
		parts = append(parts, tr(en, "中州派", "Zhongzhou school"))
	} else {
		parts = append(parts, tr(en, "通行版（全书）", "common (Quanshu) school"))
	}
	if c.YearDivide == astro.DivideExact {
		parts = append(parts, tr(en, "年以立春为界", "year from Lichun"))
	}
	if c.HoroscopeDivide == astro.DivideExact {
		parts = append(parts, tr(en, "运限以节气为界", "periods by solar terms"))
	}
	if c.AgeDivide == astro.AgeDivideBirthday {
		parts = append(parts, tr(en, "虚岁以生日为界", "age from the birthday"))
	}
	if c.DayDivide == astro.DayDivideCurrent {
		parts = append(parts, tr(en, "晚子时算当日", "late Rat stays on the day"))
	}
	switch c.AstroType {
	case astro.AstroEarth:
		parts = append(parts, tr(en, "地盘（以身宫起命）", "earth chart (from the body palace)"))
	case astro.AstroHuman:
		parts = append(parts, tr(en, "人盘（以福德宫起命）", "human chart (from the 福德 palace)"))
	}
	if c.HasMutagens != 0 {
		parts = append(parts, tr(en, "自定四化", "custom 四化"))
	}
	if len(c.Brightness) > 0 {
		parts = append(parts, tr(en, "自定亮度", "custom brightness"))
	}
	sep := "，"
	if en {
		sep = ", "
	}
	return strings.Join(parts, sep)
}

func tr(en bool, zh, e string) string {
	if en {
		return e
	}
	return zh
}
