// Package docsparse reads the chart-img documentation site (a Slate single page:
// h1/h2 headers with ids, "Parameter input" tables, JSON request examples) into
// the facts the tools need: indicators with their inputs, drawings, the v2 body's
// value sets, per-plan limits, the symbol tables and examples.
//
// snapshot.html is an embedded copy so the server works offline on first start;
// it is rendered by gensnapshot.go from the documented structure.
package docsparse

//go:generate go run gensnapshot.go

import (
	"bytes"
	_ "embed"
	"sort"
	"strings"
	"sync"
)

// Input is one row of an indicator's or drawing's "Parameter input" table.
type Input struct {
	Key         string   `json:"key"`
	Type        string   `json:"type" jsonschema:"Integer, Float, String, Boolean or DateTime (ISO8601)"`
	Default     any      `json:"default,omitempty" mcp:"type=string|number|boolean"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	Options     []string `json:"options,omitempty" jsonschema:"allowed values for String inputs"`
	Required    bool     `json:"required,omitempty" jsonschema:"drawings only"`
	Description string   `json:"description,omitempty"`
}

// Indicator is one study as documented: use Name verbatim in studies[].name.
type Indicator struct {
	Name     string  `json:"name"`
	Category string  `json:"category" jsonschema:"trend, momentum, volume, volatility or other (our table; the docs list indicators alphabetically)"`
	Inputs   []Input `json:"inputs"`
	// Overrides is the study's "Parameter override" table: styles, and the
	// values of its own levels (UpperLimit.value, LowerLimit.value, …).
	Overrides []Input `json:"overrides,omitempty"`
}

// Levels are the overrides that sets one of the study's own horizontal levels
// ("UpperLimit.value"), in the docs' order.
func (in *Indicator) Levels() []Input {
	var out []Input
	for _, o := range in.Overrides {
		if strings.HasSuffix(o.Key, ".value") {
			out = append(out, o)
		}
	}
	return out
}

// Drawing is one documented drawing.
type Drawing struct {
	Name   string  `json:"name"`
	Inputs []Input `json:"inputs"`
}

// PlanLimit merges the four request-limit tables for one plan.
type PlanLimit struct {
	Plan          string `json:"plan"`
	PerSecond     int    `json:"requestsPerSecond"`
	Burst         int    `json:"burst,omitempty"`
	DailyMax      int    `json:"dailyMax"`
	AtLeast       bool   `json:"atLeast,omitempty" jsonschema:"rate figures are minimums (35+)"`
	MaxWidth      int    `json:"maxWidth"`
	MaxHeight     int    `json:"maxHeight"`
	Watermark     bool   `json:"watermark"`
	CustomMark    bool   `json:"customWatermark"`
	StorageDays   int    `json:"storageDays"`
	MaxParameters int    `json:"maxStudiesPlusDrawings"`
}

// Field is one row of the v2 advanced-chart request body table.
type Field struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Default     string   `json:"default,omitempty"`
	Options     []string `json:"options,omitempty"`
	Min         *float64 `json:"min,omitempty"`
	Max         *float64 `json:"max,omitempty"`
	Description string   `json:"description"`
}

// Parameters are the v2 body's documented value sets.
type Parameters struct {
	Intervals []string `json:"intervals"`
	Ranges    []string `json:"ranges"`
	Themes    []string `json:"themes"`
	Styles    []string `json:"styles"`
	Formats   []string `json:"formats"`
	Scales    []string `json:"scales"`
	Sessions  []string `json:"sessions"`
	Fields    []Field  `json:"fields"`
	// Timezones is the closed "Supported Timezone" list of the v2 body's
	// timezone field (its default, Etc/UTC, is not on it); empty when the
	// page has no such table (older captures).
	Timezones []Timezone `json:"timezones,omitempty"`
}

// Timezone is one row of the "Supported Timezone" table.
type Timezone struct {
	Name    string `json:"name" jsonschema:"the value to send, e.g. America/New_York"`
	Country string `json:"country,omitempty"`
	Offset  string `json:"offset,omitempty" jsonschema:"as the docs write it, e.g. UTC -05:00"`
}

// SymbolExchange is one row of a "TradingView Symbols" table.
type SymbolExchange struct {
	Category string `json:"category"`
	Name     string `json:"name"`
	ID       string `json:"id" jsonschema:"the EXCHANGE part of the example symbol"`
	Country  string `json:"country,omitempty"`
	V2       string `json:"v2,omitempty" jsonschema:"✔️, Delayed, Limited or ❌"`
	Example  string `json:"example"`
}

// Example is a documented request body.
type Example struct {
	Title string `json:"title"`
	Body  string `json:"body" jsonschema:"JSON request body"`
}

// Docs is everything parsed from the page.
type Docs struct {
	Indicators []Indicator      `json:"indicators"`
	Drawings   []Drawing        `json:"drawings"`
	Parameters Parameters       `json:"parameters"`
	Limits     []PlanLimit      `json:"limits"`
	Exchanges  []SymbolExchange `json:"exchanges"`
	Examples   []Example        `json:"examples"`
	LastChange string           `json:"lastChange,omitempty" jsonschema:"date of the newest Recent Changes entry"`

	once   sync.Once
	byName map[string]*Indicator
	byFold map[string]*Indicator
	draws  map[string]*Drawing
}

func (d *Docs) index() {
	d.once.Do(func() {
		d.byName = make(map[string]*Indicator, len(d.Indicators))
		d.byFold = make(map[string]*Indicator, len(d.Indicators))
		d.draws = make(map[string]*Drawing, len(d.Drawings))
		for i := range d.Indicators {
			in := &d.Indicators[i]
			d.byName[in.Name] = in
			d.byFold[strings.ToLower(in.Name)] = in
		}
		for i := range d.Drawings {
			d.draws[d.Drawings[i].Name] = &d.Drawings[i]
		}
	})
}

// Indicator finds an indicator by its exact display name.
func (d *Docs) Indicator(name string) (*Indicator, bool) {
	d.index()
	in, ok := d.byName[name]
	return in, ok
}

// IndicatorFold finds an indicator ignoring case.
func (d *Docs) IndicatorFold(name string) (*Indicator, bool) {
	d.index()
	in, ok := d.byFold[strings.ToLower(strings.TrimSpace(name))]
	return in, ok
}

// Drawing finds a drawing by exact name.
func (d *Docs) Drawing(name string) (*Drawing, bool) {
	d.index()
	dr, ok := d.draws[name]
	return dr, ok
}

// Limit returns the plan's limits.
func (d *Docs) Limit(plan string) (PlanLimit, bool) {
	for _, l := range d.Limits {
		if strings.EqualFold(l.Plan, plan) {
			return l, true
		}
	}
	return PlanLimit{}, false
}

// IndicatorNames lists the display names, sorted.
func (d *Docs) IndicatorNames() []string {
	out := make([]string, len(d.Indicators))
	for i, in := range d.Indicators {
		out[i] = in.Name
	}
	sort.Strings(out)
	return out
}

//go:embed snapshot.html
var snapshotHTML []byte

var (
	snapOnce sync.Once
	snap     *Docs
)

// SnapshotHTML is the embedded docs page (the fake serves it too).
func SnapshotHTML() []byte { return snapshotHTML }

// Snapshot is the parsed embedded page; it never fails (a test guards it).
func Snapshot() *Docs {
	snapOnce.Do(func() {
		d, err := Parse(bytes.NewReader(snapshotHTML))
		if err != nil {
			panic("docsparse: embedded snapshot does not parse: " + err.Error())
		}
		snap = d
	})
	return snap
}
