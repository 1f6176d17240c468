package nl

// The structured way in: a model that knows exactly which studies, drawings
// and timezone it wants names them beside (or instead of) the text, and they
// are resolved against the same docs tables the parser reads — the
// indicators' display names, their "Parameter input" and "Parameter
// override" tables (key, type, bounds, options), the drawings' input tables
// and the "Supported Timezone" list (doc.chart-img.com, "TradingView Chart
// Indicators", "TradingView Chart Drawings", "Supported Timezone"; newest
// public text capture: johnpaul-aquino/charttalk
// .docs/chart-img-raw-documentation). What cannot be resolved is refused with
// the closest valid names, never guessed; structured fields win over the
// text and every difference is a warning.

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

// StudySpec is one study of the structured input.
type StudySpec struct {
	Name         string
	Inputs       map[string]any // by documented input key
	Overrides    map[string]any // by documented override key
	ForceOverlay *bool
}

// DrawingSpec is one drawing of the structured input.
type DrawingSpec struct {
	Name     string
	Input    map[string]any
	Override map[string]any
	ZOrder   string
}

// FieldError is a structured field that cannot be sent.
type FieldError struct {
	Field   string   `json:"field"`
	Message string   `json:"message"`
	Closest []string `json:"closest,omitempty"`
}

// HasStructured reports whether the request names studies, drawings or a timezone.
func (r Request) HasStructured() bool {
	return r.Studies != nil || r.Drawings != nil || r.Timezone != ""
}

// structured applies the request's structured fields over what the text gave.
func (s *state) structured(req Request) {
	if req.Timezone != "" {
		s.structuredZone(req.Timezone)
	}
	if req.Studies != nil {
		var out []chart.Study
		for i, sp := range req.Studies {
			if st, ok := s.structuredStudy(fmt.Sprintf("studies[%d]", i), sp); ok {
				out = append(out, st)
			}
		}
		s.replaceStudies(out)
	}
	if req.Drawings != nil {
		var out []chart.Drawing
		for i, sp := range req.Drawings {
			if d, ok := s.structuredDrawing(fmt.Sprintf("drawings[%d]", i), sp); ok {
				out = append(out, d)
			}
		}
		s.replaceDrawings(out)
	}
}

func (s *state) refuse(field string, closest []string, f string, a ...any) {
	s.res.Errors = append(s.res.Errors, FieldError{Field: field, Message: fmt.Sprintf(f, a...), Closest: closest})
}

func (s *state) structuredZone(tz string) {
	tz = strings.TrimSpace(tz)
	zone, note := "", ""
	switch {
	case tz == chart.DefaultTimezone || slices.Contains(s.b.zones, tz):
		zone = tz
	default:
		for _, z := range append([]string{chart.DefaultTimezone}, s.b.zones...) {
			if strings.EqualFold(z, tz) {
				zone, note = z, "as the docs spell it"
			}
		}
		if zone == "" {
			if z, ok := chart.ZoneAbbreviations[strings.ToLower(tz)]; ok {
				zone, note = z, "the listed zone on that clock"
			} else if z, ok := chart.ZoneNames[strings.ToLower(tz)]; ok {
				zone, note = z, "the listed zone on that clock"
			}
		}
		if zone == "" {
			near, exact, ok := chart.NearestTimezone(s.b.zones, tz)
			switch {
			case ok && exact:
				zone = near
				s.warn("timezone %s is not on chart-img's list of supported timezones; %s, on the same clock all year, is used", tz, near)
			case ok:
				s.refuse("timezone", []string{near}, "timezone %s is not on chart-img's list of supported timezones and no listed zone keeps its clock all year; the nearest is %s (fetch_chart_documentation section parameters lists all %d)", tz, near, len(s.b.zones))
				return
			default:
				s.refuse("timezone", toolkit.ClosestN(tz, s.b.zones, 3), "timezone %q is not a zone on chart-img's list of supported timezones (fetch_chart_documentation section parameters lists all %d)", tz, len(s.b.zones))
				return
			}
		}
	}
	if s.timezone != "" && s.timezone != zone {
		s.warn("timezone: %s from the timezone argument overrides %s read from the text", zone, s.timezone)
	}
	s.timezone = zone
	if note != "" {
		s.reason("timezone: %q → %s (%s)", tz, zone, note)
	} else {
		s.reason("timezone: %s as given", zone)
	}
}

// studyName finds the documented display name: exact, any case, or an alias
// the parser knows ("RSI"); else nothing, with the closest names.
func (s *state) studyName(field, name string) (*docsparse.Indicator, bool) {
	d := s.b.docs
	if ind, ok := d.Indicator(name); ok {
		return ind, true
	}
	if ind, ok := d.IndicatorFold(name); ok {
		s.warn("%s.name %q is spelled %q in the docs; that is sent", field, name, ind.Name)
		return ind, true
	}
	if real, ok := s.b.IndicatorAlias(name); ok {
		if ind, ok := d.Indicator(real); ok {
			s.warn("%s.name %q is not a display name; %q is sent", field, name, real)
			return ind, true
		}
	}
	near := toolkit.ClosestN(name, d.IndicatorNames(), 3)
	s.refuse(field+".name", near, "study %q is not in the documented indicator list; closest: %s (fetch_chart_documentation section indicators lists all %d)", name, quoteAll(near), len(d.Indicators))
	return nil, false
}

func (s *state) structuredStudy(field string, sp StudySpec) (chart.Study, bool) {
	ind, ok := s.studyName(field, strings.TrimSpace(sp.Name))
	if !ok {
		return chart.Study{}, false
	}
	st := chart.Study{Name: ind.Name, ForceOverlay: sp.ForceOverlay}
	okAll := true
	if len(sp.Inputs) > 0 {
		st.Input, ok = s.resolveValues(field+".inputs", ind.Name, "input", ind.Inputs, sp.Inputs, true)
		okAll = okAll && ok
	}
	if len(sp.Overrides) > 0 {
		st.Override, ok = s.resolveValues(field+".overrides", ind.Name, "override", ind.Overrides, sp.Overrides, false)
		okAll = okAll && ok
	}
	if !okAll {
		return chart.Study{}, false
	}
	line := "study: " + ind.Name + " as given"
	if len(st.Input) > 0 {
		line += " " + printMap(st.Input)
	}
	if len(st.Override) > 0 {
		line += ", override " + printMap(st.Override)
	}
	s.addReason(line)
	return st, true
}

// resolveValues maps each given key to its documented row — the key itself,
// the key in any case, or (inputs only) the one row whose description is the
// given word ("length" for Bollinger Bands' in_0) — and checks the value
// against the row's type, bounds and options.
func (s *state) resolveValues(field, owner, what string, rows []docsparse.Input, given map[string]any, byDesc bool) (map[string]any, bool) {
	out := make(map[string]any, len(given))
	ok := true
	for _, k := range slices.Sorted(maps.Keys(given)) {
		row, found := findRow(rows, k, byDesc)
		if !found {
			keys := make([]string, len(rows))
			for i, r := range rows {
				keys[i] = r.Key
			}
			near := toolkit.ClosestN(k, keys, 3)
			if len(rows) == 0 {
				s.refuse(field+"."+k, nil, "%s has no documented %ss", owner, what)
			} else {
				s.refuse(field+"."+k, near, "%s has no %s %q; closest: %s (its %ss: %s)", owner, what, k, quoteAll(near), what, describeRows(rows))
			}
			ok = false
			continue
		}
		if row.Key != k {
			s.warn("%s.%s is documented as %s %q; that key is sent", field, k, what, row.Key)
		}
		v := given[k]
		if str, isStr := v.(string); isStr && len(row.Options) > 0 {
			for _, o := range row.Options {
				if strings.EqualFold(o, str) {
					v = o // "ema" is the documented "EMA"
				}
			}
		}
		if p := row.Check(owner, v); p != "" {
			s.refuse(field+"."+k, row.Options, "%s", p)
			ok = false
			continue
		}
		if row.Type == "Integer" {
			v, _ = asInt(v)
		}
		out[row.Key] = v
	}
	return out, ok
}

func asInt(v any) (any, bool) {
	if f, ok := v.(float64); ok {
		return int(f), true
	}
	return v, false
}

func findRow(rows []docsparse.Input, k string, byDesc bool) (docsparse.Input, bool) {
	for _, r := range rows {
		if r.Key == k {
			return r, true
		}
	}
	for _, r := range rows {
		if strings.EqualFold(r.Key, k) {
			return r, true
		}
	}
	if byDesc {
		var hit []docsparse.Input
		for _, r := range rows {
			if strings.EqualFold(strings.TrimSpace(r.Description), strings.TrimSpace(k)) {
				hit = append(hit, r)
			}
		}
		if len(hit) == 1 {
			return hit[0], true
		}
	}
	return docsparse.Input{}, false
}

// describeRows lists keys with their descriptions where these say more
// ("in_0 (length), in_1 (mult)"), at most 12.
func describeRows(rows []docsparse.Input) string {
	var parts []string
	for i, r := range rows {
		if i == 12 {
			parts = append(parts, "… "+strconv.Itoa(len(rows)-12)+" more")
			break
		}
		d := strings.TrimSpace(r.Description)
		if d != "" && !strings.EqualFold(d, r.Key) && !strings.HasPrefix(d, "(") && !strings.HasPrefix(d, "[") && d != "■" && d != "-" {
			parts = append(parts, r.Key+" ("+d+")")
		} else {
			parts = append(parts, r.Key)
		}
	}
	return strings.Join(parts, ", ")
}

func (s *state) structuredDrawing(field string, sp DrawingSpec) (chart.Drawing, bool) {
	name := strings.TrimSpace(sp.Name)
	dr, ok := s.b.docs.Drawing(name)
	if !ok {
		for _, d := range s.b.docs.Drawings {
			if strings.EqualFold(d.Name, name) {
				dr, ok = s.b.docs.Drawing(d.Name)
				s.warn("%s.name %q is spelled %q in the docs; that is sent", field, name, d.Name)
				break
			}
		}
	}
	if !ok {
		names := make([]string, len(s.b.docs.Drawings))
		for i, d := range s.b.docs.Drawings {
			names[i] = d.Name
		}
		near := toolkit.ClosestN(name, names, 3)
		s.refuse(field+".name", near, "drawing %q is not documented; closest: %s (documented: %s)", name, quoteAll(near), strings.Join(names, ", "))
		return chart.Drawing{}, false
	}
	d := chart.Drawing{Name: dr.Name, Override: sp.Override, ZOrder: sp.ZOrder}
	if sp.ZOrder != "" && sp.ZOrder != "top" && sp.ZOrder != "bottom" {
		s.refuse(field+".zOrder", []string{"top", "bottom"}, "zOrder must be top or bottom")
		return chart.Drawing{}, false
	}
	in, ok := s.resolveValues(field+".input", dr.Name, "input", dr.Inputs, sp.Input, false)
	for _, r := range dr.Inputs {
		if _, has := in[r.Key]; r.Required && !has && ok {
			s.refuse(field+".input."+r.Key, nil, "%s needs input %s (%s: %s)", dr.Name, r.Key, r.Type, r.Description)
			ok = false
		}
	}
	if !ok {
		return chart.Drawing{}, false
	}
	d.Input = in
	s.addReason("drawing: " + dr.Name + " as given " + printMap(in))
	return d, true
}

// replaceStudies puts the structured studies in place of the text's,
// warning about each text study the structured list does not hold as read.
func (s *state) replaceStudies(given []chart.Study) {
	for _, t := range s.res.Config.Studies {
		if !slices.ContainsFunc(given, func(g chart.Study) bool { return g.Name == t.Name && sameInput(g.Input, t.Input) }) {
			s.warn("the text asked for %s %s; the studies argument wins (add it there to keep it)", t.Name, printMap(t.Input))
		}
	}
	s.res.Config.Studies = given
}

func (s *state) replaceDrawings(given []chart.Drawing) {
	for _, t := range s.res.Config.Drawings {
		if !slices.ContainsFunc(given, func(g chart.Drawing) bool { return g.Name == t.Name && sameInput(g.Input, t.Input) }) {
			s.warn("the text asked for a %s %s; the drawings argument wins (add it there to keep it)", t.Name, printMap(t.Input))
		}
	}
	s.res.Config.Drawings = given
}

func printMap(m map[string]any) string {
	if len(m) == 0 {
		return "{}"
	}
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range slices.Sorted(maps.Keys(m)) {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s=%v", k, m[k])
	}
	b.WriteByte('}')
	return b.String()
}

func quoteAll(ss []string) string {
	if len(ss) == 0 {
		return "none near"
	}
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// StudySpecs reads the studies argument as a client sends it: objects
// {name, inputs, overrides, forceOverlay}; the v2 body's own spellings input
// and override are taken too. Anything else is an error naming the fields.
func StudySpecs(list []map[string]any) ([]StudySpec, []FieldError) {
	out := make([]StudySpec, len(list))
	errs := readObjects(list, "studies", "study", "name, inputs, overrides, forceOverlay",
		"name is a string, inputs and overrides objects, forceOverlay true/false",
		"a documented display name such as \"Relative Strength Index\" (fetch_chart_documentation section indicators)",
		func(i int, k string, v any) (known, ok bool) {
			sp := &out[i]
			switch k {
			case "name":
				sp.Name, ok = v.(string)
			case "inputs", "input":
				sp.Inputs, ok = v.(map[string]any)
			case "overrides", "override":
				sp.Overrides, ok = v.(map[string]any)
			case "forceOverlay":
				var b bool
				b, ok = v.(bool)
				sp.ForceOverlay = &b
			default:
				return false, false
			}
			return true, ok
		})
	if list == nil {
		out = nil
	}
	return out, errs
}

// DrawingSpecs reads the drawings argument: objects {name, input, override,
// zOrder} as the v2 body has them (inputs and overrides are taken too).
func DrawingSpecs(list []map[string]any) ([]DrawingSpec, []FieldError) {
	out := make([]DrawingSpec, len(list))
	errs := readObjects(list, "drawings", "drawing", "name, input, override, zOrder",
		"name and zOrder are strings, input and override objects", "a documented drawing such as \"Horizontal Line\"",
		func(i int, k string, v any) (known, ok bool) {
			sp := &out[i]
			switch k {
			case "name":
				sp.Name, ok = v.(string)
			case "input", "inputs":
				sp.Input, ok = v.(map[string]any)
			case "override", "overrides":
				sp.Override, ok = v.(map[string]any)
			case "zOrder":
				sp.ZOrder, ok = v.(string)
			default:
				return false, false
			}
			return true, ok
		})
	if list == nil {
		out = nil
	}
	return out, errs
}

// readObjects walks the objects of one structured argument (arg, e.g.
// "studies"), handing each field to set by index; unknown fields, wrong types
// and a missing name are errors naming what is allowed.
func readObjects(list []map[string]any, arg, what, fields, types, nameHelp string, set func(i int, k string, v any) (known, ok bool)) []FieldError {
	var errs []FieldError
	for i, m := range list {
		f := fmt.Sprintf("%s[%d]", arg, i)
		for _, k := range slices.Sorted(maps.Keys(m)) {
			known, ok := set(i, k, m[k])
			switch {
			case !known:
				errs = append(errs, FieldError{Field: f + "." + k, Message: fmt.Sprintf("%s.%s is not a %s field; use %s", f, k, what, fields)})
			case !ok:
				errs = append(errs, FieldError{Field: f + "." + k, Message: fmt.Sprintf("%s.%s has the wrong type: %s", f, k, types)})
			}
		}
		if name, _ := m["name"].(string); strings.TrimSpace(name) == "" {
			errs = append(errs, FieldError{Field: f + ".name", Message: f + ".name is required: " + nameHelp})
		}
	}
	return errs
}
