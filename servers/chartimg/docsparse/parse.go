package docsparse

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// MaxPageBytes bounds the page we are willing to parse (the real one is ~220 KB of text).
const MaxPageBytes = 8 << 20

// ErrStructure means the page parsed as HTML but not as the chart-img docs.
var ErrStructure = errors.New("docs page structure not recognised")

var (
	boundsRE   = regexp.MustCompile(`\(Min:\s*(-?[\d.]+)(?:,\s*Max:\s*(-?[\d.]+))?\)`)
	optionsRE  = regexp.MustCompile(`\[([^\[\]]+)\]`)
	changeIvRE = regexp.MustCompile(`(?i)intervals?\s+([0-9A-Za-z ,]+?)\s+support`)
	ivTokenRE  = regexp.MustCompile(`^\d+[mhDWMY]$`)
)

// Parse reads the docs HTML. It tolerates older layouts (no Burst column, fewer
// plans) and fails with ErrStructure when no indicators or intervals are found,
// so a broken page never replaces a good cached copy.
func Parse(r io.Reader) (*Docs, error) {
	doc, err := goquery.NewDocumentFromReader(io.LimitReader(r, MaxPageBytes))
	if err != nil {
		return nil, fmt.Errorf("docs page is not HTML: %w", err)
	}
	p := &parser{d: &Docs{}, limits: map[string]*PlanLimit{}}
	root := doc.Find(".content").First()
	if root.Length() == 0 {
		root = doc.Find("body")
	}
	root.Find("h1, h2, h3, h4, h5, p, li, table, pre").Each(func(_ int, s *goquery.Selection) {
		p.node(s)
	})
	p.finish()
	if len(p.d.Indicators) == 0 || len(p.d.Parameters.Intervals) == 0 {
		return nil, ErrStructure
	}
	return p.d, nil
}

type parser struct {
	d         *Docs
	section   string // normalised h1 text
	sub       string // h2 text
	label     string // the last h3/h4/p label, e.g. "parameter input"
	limits    map[string]*PlanLimit
	planOrder []string
	changeIvs []string
	curInd    *Indicator
	curDraw   *Drawing
}

// clean drops emoji, &nbsp; and extra spaces from header text.
func clean(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\u00a0':
			return ' '
		case r > 0x2000 && !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '–':
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

func (p *parser) node(s *goquery.Selection) {
	tag := goquery.NodeName(s)
	switch tag {
	case "h1":
		p.section = strings.ToLower(clean(s.Text()))
		p.sub, p.label, p.curInd, p.curDraw = "", "", nil, nil
	case "h2":
		p.sub = clean(s.Text())
		p.label, p.curInd, p.curDraw = "", nil, nil
		switch {
		case p.is("tradingview chart indicators"):
			p.d.Indicators = append(p.d.Indicators, Indicator{Name: p.sub, Inputs: []Input{}})
			p.curInd = &p.d.Indicators[len(p.d.Indicators)-1]
		case p.is("tradingview chart drawings"):
			p.d.Drawings = append(p.d.Drawings, Drawing{Name: p.sub, Inputs: []Input{}})
			p.curDraw = &p.d.Drawings[len(p.d.Drawings)-1]
		case p.is("recent changes") && p.d.LastChange == "":
			p.d.LastChange = p.sub
		}
	case "h3", "h4", "h5":
		p.label = strings.ToLower(clean(s.Text()))
	case "p", "li":
		t := clean(s.Text())
		if p.is("recent changes") {
			if m := changeIvRE.FindStringSubmatch(t); m != nil && strings.Contains(t, "v2") {
				for _, f := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ',' || r == ' ' }) {
					if ivTokenRE.MatchString(f) {
						p.changeIvs = append(p.changeIvs, f)
					}
				}
			}
			return
		}
		if tag == "p" && strings.HasPrefix(strings.ToLower(t), "parameter ") && len(t) < 40 {
			p.label = strings.ToLower(t)
		}
	case "pre":
		p.example(s)
	case "table":
		p.table(s)
	}
}

// is reports whether the current h1 starts with prefix.
func (p *parser) is(prefix string) bool { return strings.HasPrefix(p.section, prefix) }

func (p *parser) example(s *goquery.Selection) {
	body := strings.TrimSpace(s.Text())
	if !json.Valid([]byte(body)) {
		return
	}
	switch {
	case p.curInd != nil, p.curDraw != nil:
		// Indicator examples are long and repetitive; the inputs table carries the facts.
	case p.is("tradingview snapshot v2"):
		p.d.Examples = append(p.d.Examples, Example{Title: p.sub, Body: compact(body)})
	}
}

func compact(s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		return s
	}
	return b.String()
}

// rows returns the table's header (lower-cased) and body cells.
func rows(s *goquery.Selection) ([]string, [][]string) {
	var head []string
	s.Find("thead th, thead td").Each(func(_ int, c *goquery.Selection) {
		head = append(head, strings.ToLower(clean(c.Text())))
	})
	var body [][]string
	trs := s.Find("tbody tr")
	if len(head) == 0 { // tables without thead: first row is the header
		trs = s.Find("tr")
	}
	trs.Each(func(i int, tr *goquery.Selection) {
		var cells []string
		tr.Find("td, th").Each(func(_ int, c *goquery.Selection) {
			cells = append(cells, strings.TrimSpace(strings.ReplaceAll(textOf(c), "\u00a0", " ")))
		})
		if len(head) == 0 && i == 0 {
			for _, c := range cells {
				head = append(head, strings.ToLower(c))
			}
			return
		}
		if len(cells) > 0 {
			body = append(body, cells)
		}
	})
	return head, body
}

// textOf is Selection.Text without the emoji-stripping of headers (cells keep ✔️).
func textOf(s *goquery.Selection) string {
	var b strings.Builder
	for _, n := range s.Nodes {
		var walk func(*html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.TextNode {
				b.WriteString(n.Data)
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(n)
	}
	return b.String()
}

func col(head []string, names ...string) int {
	for i, h := range head {
		for _, n := range names {
			if strings.HasPrefix(h, n) {
				return i
			}
		}
	}
	return -1
}

func cell(r []string, i int) string {
	if i < 0 || i >= len(r) {
		return ""
	}
	return r[i]
}

func (p *parser) table(s *goquery.Selection) {
	head, body := rows(s)
	switch {
	case p.is("request limit"):
		p.limitTable(head, body)
	case p.is("tradingview symbols"):
		p.symbolTable(head, body)
	case p.is("tradingview snapshot v2") && col(head, "timezone") == 0 && col(head, "utc offset") > 0:
		p.timezoneTable(head, body)
	case p.is("tradingview snapshot v2") && strings.HasPrefix(p.sub, "Advanced Chart") && !strings.Contains(p.sub, "Storage") &&
		strings.HasPrefix(p.label, "request body"):
		p.bodyTable(head, body)
	case p.curInd != nil && strings.HasPrefix(p.label, "parameter input"):
		p.curInd.Inputs = append(p.curInd.Inputs, inputs(head, body)...)
	case p.curInd != nil && strings.HasPrefix(p.label, "parameter override"):
		p.curInd.Overrides = append(p.curInd.Overrides, inputs(head, body)...)
	case p.curDraw != nil && strings.HasPrefix(p.label, "parameter input"):
		p.curDraw.Inputs = append(p.curDraw.Inputs, inputs(head, body)...)
	}
}

// timezoneTable reads the advanced-chart "Supported Timezone" table
// (Timezone, Country, UTC Offset); rows without an Area/City name are skipped.
func (p *parser) timezoneTable(head []string, body [][]string) {
	ci, oi := col(head, "country"), col(head, "utc offset")
	for _, r := range body {
		name := strings.TrimSpace(cell(r, 0))
		if !strings.Contains(name, "/") || strings.ContainsAny(name, " \t") {
			continue
		}
		p.d.Parameters.Timezones = append(p.d.Parameters.Timezones, Timezone{Name: name, Country: cell(r, ci), Offset: cell(r, oi)})
	}
}

func (p *parser) plan(name string) *PlanLimit {
	name = strings.ToUpper(strings.TrimSpace(name))
	if l, ok := p.limits[name]; ok {
		return l
	}
	l := &PlanLimit{Plan: name}
	p.limits[name] = l
	p.planOrder = append(p.planOrder, name)
	return l
}

// num reads "5,000+" as 5000 (and reports the plus).
func num(s string) (int, bool) {
	plus := strings.HasSuffix(strings.TrimSpace(s), "+")
	s = strings.NewReplacer(",", "", "+", "", " ", "").Replace(s)
	n, _ := strconv.Atoi(s)
	return n, plus
}

func (p *parser) limitTable(head []string, body [][]string) {
	pc := col(head, "plan")
	if pc < 0 {
		return
	}
	rps, burst, daily := col(head, "req/sec"), col(head, "burst"), col(head, "daily")
	mw, mh, wm, cwm := col(head, "max width"), col(head, "max height"), col(head, "watermark"), col(head, "custom watermark")
	exp, par := col(head, "expire"), col(head, "max studies")
	for _, r := range body {
		l := p.plan(cell(r, pc))
		if rps >= 0 {
			var plus bool
			l.PerSecond, plus = num(cell(r, rps))
			l.AtLeast = l.AtLeast || plus
		}
		if burst >= 0 {
			l.Burst, _ = num(cell(r, burst))
		}
		if daily >= 0 {
			l.DailyMax, _ = num(cell(r, daily))
		}
		if mw >= 0 {
			l.MaxWidth, _ = num(cell(r, mw))
		}
		if mh >= 0 {
			l.MaxHeight, _ = num(cell(r, mh))
		}
		if wm >= 0 && wm != cwm {
			l.Watermark = strings.EqualFold(cell(r, wm), "yes")
		}
		if cwm >= 0 {
			l.CustomMark = strings.EqualFold(cell(r, cwm), "yes")
		}
		if exp >= 0 {
			l.StorageDays, _ = num(cell(r, exp))
		}
		if par >= 0 {
			l.MaxParameters, _ = num(cell(r, par))
		}
	}
}

func (p *parser) symbolTable(head []string, body [][]string) {
	nc, ec := col(head, "name"), col(head, "example")
	if nc < 0 || ec < 0 {
		return
	}
	cc, v2 := col(head, "country"), col(head, "api v2", "api v1/v2")
	for _, r := range body {
		ex := cell(r, ec)
		id, _, ok := strings.Cut(ex, ":")
		if !ok {
			continue
		}
		p.d.Exchanges = append(p.d.Exchanges, SymbolExchange{Category: p.sub, Name: cell(r, nc), ID: id,
			Country: cell(r, cc), V2: cell(r, v2), Example: ex})
	}
}

func options(desc string) []string {
	m := optionsRE.FindStringSubmatch(desc)
	if m == nil {
		return nil
	}
	var out []string
	for _, o := range strings.Split(m[1], ",") {
		if o = strings.TrimSpace(o); o != "" {
			out = append(out, o)
		}
	}
	return out
}

func bounds(desc string) (lo, hi *float64) {
	m := boundsRE.FindStringSubmatch(desc)
	if m == nil {
		return nil, nil
	}
	if f, err := strconv.ParseFloat(m[1], 64); err == nil {
		lo = &f
	}
	if m[2] != "" {
		if f, err := strconv.ParseFloat(m[2], 64); err == nil {
			hi = &f
		}
	}
	return lo, hi
}

func (p *parser) bodyTable(head []string, body [][]string) {
	pc, tc, dc, desc := col(head, "parameter"), col(head, "type"), col(head, "default"), col(head, "description")
	if pc < 0 {
		return
	}
	pm := &p.d.Parameters
	for _, r := range body {
		f := Field{Name: cell(r, pc), Type: cell(r, tc), Default: cell(r, dc), Description: cell(r, desc)}
		if f.Default == "-" {
			f.Default = ""
		}
		f.Options = options(f.Description)
		f.Min, f.Max = bounds(f.Description)
		pm.Fields = append(pm.Fields, f)
		switch f.Name {
		case "interval":
			pm.Intervals = f.Options
		case "range":
			pm.Ranges = f.Options
		case "theme":
			pm.Themes = f.Options
		case "style":
			pm.Styles = f.Options
		case "format":
			pm.Formats = f.Options
		case "scale":
			pm.Scales = f.Options
		case "session":
			pm.Sessions = f.Options
		}
	}
}

func inputs(head []string, body [][]string) []Input {
	pc, tc, dc, rc, desc := col(head, "parameter"), col(head, "type"), col(head, "default"), col(head, "required"), col(head, "description")
	var out []Input
	for _, r := range body {
		in := Input{Key: cell(r, pc), Type: cell(r, tc), Description: cell(r, desc)}
		if in.Key == "" {
			continue
		}
		in.Min, in.Max = bounds(in.Description)
		if in.Type == "String" {
			in.Options = options(in.Description)
		}
		if rc >= 0 {
			in.Required = strings.EqualFold(cell(r, rc), "yes")
		}
		if dc >= 0 {
			in.Default = typedDefault(in.Type, cell(r, dc))
		}
		// Descriptions read "length (Min: 1, Max: 2000)"; keep the words only.
		if i := strings.IndexAny(in.Description, "(["); i > 0 {
			in.Description = strings.TrimSpace(in.Description[:i])
		}
		out = append(out, in)
	}
	return out
}

func typedDefault(typ, v string) any {
	if v == "" || v == "-" {
		return nil
	}
	switch typ {
	case "Integer":
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	case "Float":
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	case "Boolean":
		return v == "true"
	}
	return v
}

func (p *parser) finish() {
	for _, name := range p.planOrder {
		if l := p.limits[name]; l.Plan != "" {
			p.d.Limits = append(p.d.Limits, *l)
		}
	}
	pm := &p.d.Parameters
	for _, iv := range p.changeIvs {
		if !contains(pm.Intervals, iv) && len(pm.Intervals) > 0 {
			pm.Intervals = insertInterval(pm.Intervals, iv)
		}
	}
	for i := range p.d.Indicators {
		p.d.Indicators[i].Category = categoryOf(p.d.Indicators[i].Name)
	}
}

func contains(set []string, v string) bool {
	for _, s := range set {
		if s == v {
			return true
		}
	}
	return false
}

// insertInterval keeps the list ordered by duration (the changelog adds 2m).
func insertInterval(list []string, iv string) []string {
	key := func(s string) int {
		n, _ := strconv.Atoi(s[:len(s)-1])
		mult := map[byte]int{'m': 1, 'h': 60, 'D': 1440, 'W': 10080, 'M': 43200, 'Y': 525600}[s[len(s)-1]]
		return n * mult
	}
	k := key(iv)
	out := make([]string, 0, len(list)+1)
	done := false
	for _, s := range list {
		if !done && ivTokenRE.MatchString(s) && key(s) > k {
			out = append(out, iv)
			done = true
		}
		out = append(out, s)
	}
	if !done {
		out = append(out, iv)
	}
	return out
}
