// Package golden checks the astro engine against golden charts computed with
// iztro 2.6.1 (format: README.md beside this file).
package golden

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/settings"
)

// Case is one golden record.
type Case struct {
	ID        string          `json:"id"`
	Kind      string          `json:"kind"`
	Input     CaseInput       `json:"input"`
	Chart     json.RawMessage `json:"chart"`
	ChartEn   json.RawMessage `json:"chartEn"`
	ChartTw   json.RawMessage `json:"chartTw,omitempty"` // extensions: the other locales' renderings
	ChartJa   json.RawMessage `json:"chartJa,omitempty"`
	ChartKo   json.RawMessage `json:"chartKo,omitempty"`
	ChartVi   json.RawMessage `json:"chartVi,omitempty"`
	Horoscope []CaseHoroscope `json:"horoscope"`
	Error     string          `json:"error,omitempty"`
	// Errors holds, per locale code, what iztro threw when it charted the
	// input in that locale only (it then has no rendering there).
	Errors map[string]string `json:"errors,omitempty"`
	// Config is iztro's astro.config applied on top of the defaults (the
	// settings sets); absent for default-settings records.
	Config json.RawMessage `json:"config,omitempty"`
	// AstroType is astro.withOptions' astroType ("earth", "human"); absent
	// (or "heaven") for the heaven chart. It may also be given in config.
	AstroType string `json:"astroType,omitempty"`
}

// CaseInput is the birth input of a record.
type CaseInput struct {
	Date        string `json:"date"`
	IsLunar     bool   `json:"isLunar"`
	IsLeapMonth bool   `json:"isLeapMonth"`
	FixLeap     bool   `json:"fixLeap"`
	TimeIndex   int    `json:"timeIndex"`
	Gender      string `json:"gender"`
}

// CaseHoroscope is one target of a record.
type CaseHoroscope struct {
	Date      string          `json:"date"`
	TimeIndex int             `json:"timeIndex"`
	Zh        json.RawMessage `json:"zh"`
	En        json.RawMessage `json:"en"`
	Tw        json.RawMessage `json:"tw,omitempty"`
	Ja        json.RawMessage `json:"ja,omitempty"`
	Ko        json.RawMessage `json:"ko,omitempty"`
	Vi        json.RawMessage `json:"vi,omitempty"`
}

// Mismatch is one differing field.
type Mismatch struct {
	Path      string
	Want, Got string
}

// maxLine bounds one JSON line (a record is ~20 KiB).
const maxLine = 16 << 20

// Check reads golden records (JSON Lines, plain or gzip-compressed, detected
// by the magic bytes), checks every field of chart, chartEn and both
// horoscopes (zh and en; chartTw/tw too when present) and writes each
// mismatch as "case-id field.path: want X, got Y", then "N passed, M failed"
// as the last line. A case passes only when all its fields match.
func Check(r io.Reader, w io.Writer) (passed, failed int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, zerr := gzip.NewReader(br)
		if zerr != nil {
			return 0, 0, fmt.Errorf("golden: gzip: %w", zerr)
		}
		defer zr.Close()
		br = bufio.NewReaderSize(zr, 64<<10)
	}
	out := bufio.NewWriter(w)
	defer func() {
		fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
		if ferr := out.Flush(); ferr != nil && err == nil {
			err = ferr
		}
	}()
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, 256<<10), maxLine)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var c Case
		if jerr := json.Unmarshal(text, &c); jerr != nil {
			return passed, failed, fmt.Errorf("golden: line %d: %w", line, jerr)
		}
		if c.ID == "" {
			c.ID = "line-" + strconv.Itoa(line)
		}
		ms := CheckCase(&c)
		if len(ms) == 0 {
			passed++
			continue
		}
		failed++
		for _, m := range ms {
			fmt.Fprintf(out, "%s %s: want %s, got %s\n", c.ID, m.Path, m.Want, m.Got)
		}
	}
	if serr := sc.Err(); serr != nil {
		return passed, failed, fmt.Errorf("golden: line %d: %w", line+1, serr)
	}
	return passed, failed, nil
}

// CheckCase compares one record with the engine's output.
func CheckCase(c *Case) []Mismatch {
	var ms []Mismatch
	g, err := astro.ParseGender(c.Input.Gender)
	if err != nil {
		return []Mismatch{{Path: "input.gender", Want: quote(c.Input.Gender), Got: quote(err.Error())}}
	}
	in := astro.Input{Date: c.Input.Date, IsLunar: c.Input.IsLunar, IsLeapMonth: c.Input.IsLeapMonth,
		FixLeap: c.Input.FixLeap, TimeIndex: c.Input.TimeIndex, Gender: g}
	var cfg astro.Config
	if len(c.Config) > 0 {
		if cfg, err = settings.Parse(c.Config); err != nil {
			return []Mismatch{{Path: "config", Want: compact(json.RawMessage(c.Config)), Got: quote(err.Error())}}
		}
	}
	if c.AstroType != "" {
		at, ok := settings.ParseAstroType(c.AstroType)
		if !ok {
			return []Mismatch{{Path: "astroType", Want: quote(c.AstroType), Got: quote("unknown astroType: use heaven, earth or human")}}
		}
		cfg.AstroType = at
	}
	chart, err := astro.NewChartWith(in, &cfg)
	if c.Error != "" {
		if err == nil {
			return []Mismatch{{Path: "error", Want: quote(c.Error), Got: "a chart"}}
		}
		return nil
	}
	if err != nil {
		return []Mismatch{{Path: "chart", Want: "a chart", Got: quote("error: " + err.Error())}}
	}
	cmpJSON := func(path string, want json.RawMessage, got any) {
		if len(want) == 0 {
			return
		}
		var w, gv any
		if err := json.Unmarshal(want, &w); err != nil {
			ms = append(ms, Mismatch{Path: path, Want: "valid JSON", Got: quote(err.Error())})
			return
		}
		b, _ := json.Marshal(got)
		_ = json.Unmarshal(b, &gv)
		compare(path, w, gv, &ms)
	}
	charts := [...]json.RawMessage{c.Chart, c.ChartEn, c.ChartTw, c.ChartJa, c.ChartKo, c.ChartVi}
	for k, l := range caseLangs {
		cmpJSON(l.chart, charts[k], chart.Render(l.lang))
	}
	for k, h := range c.Horoscope {
		prefix := "horoscope[" + strconv.Itoa(k) + "]"
		hs, err := chart.Horoscope(h.Date, h.TimeIndex)
		if err != nil {
			ms = append(ms, Mismatch{Path: prefix, Want: "a horoscope", Got: quote("error: " + err.Error())})
			continue
		}
		renders := [...]json.RawMessage{h.Zh, h.En, h.Tw, h.Ja, h.Ko, h.Vi}
		for j, l := range caseLangs {
			cmpJSON(prefix+"."+l.horoscope, renders[j], hs.Render(l.lang))
		}
	}
	return ms
}

// caseLangs are a record's renderings: the chart field and horoscope key of each locale.
var caseLangs = [...]struct {
	lang             astro.Lang
	chart, horoscope string
}{
	{astro.ZhCN, "chart", "zh"}, {astro.EnUS, "chartEn", "en"}, {astro.ZhTW, "chartTw", "tw"},
	{astro.JaJP, "chartJa", "ja"}, {astro.KoKR, "chartKo", "ko"}, {astro.ViVN, "chartVi", "vi"},
}

// compare walks want and got; solarDate fields compare as dates.
func compare(path string, want, got any, ms *[]Mismatch) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*ms = append(*ms, Mismatch{path, compact(want), compact(got)})
			return
		}
		for k, wv := range w {
			gv, present := g[k]
			p := path + "." + k
			if !present {
				*ms = append(*ms, Mismatch{p, compact(wv), "(missing)"})
				continue
			}
			if k == "solarDate" {
				if ws, ok := wv.(string); ok {
					if gs, ok := gv.(string); ok && sameDate(ws, gs) {
						continue
					}
				}
			}
			compare(p, wv, gv, ms)
		}
		for k, gv := range g {
			// rawDates is language-free and the sets leave it out of chartEn
			// (and other sets may leave it out elsewhere): compare it where given.
			if _, present := w[k]; !present && k != "rawDates" {
				*ms = append(*ms, Mismatch{path + "." + k, "(absent)", compact(gv)})
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*ms = append(*ms, Mismatch{path, compact(want), compact(got)})
			return
		}
		for i := range w {
			compare(path+"["+strconv.Itoa(i)+"]", w[i], g[i], ms)
		}
	default:
		if want != got {
			*ms = append(*ms, Mismatch{path, compact(want), compact(got)})
		}
	}
}

// sameDate compares two Y-M-D strings numerically (zero padding may differ).
func sameDate(a, b string) bool {
	pa, ea := dateNums(a)
	pb, eb := dateNums(b)
	return ea == nil && eb == nil && pa == pb
}

func dateNums(s string) ([3]int, error) {
	var out [3]int
	parts := strings.Split(strings.TrimSpace(s), "-")
	if len(parts) != 3 {
		return out, errors.New("not a date")
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil {
			return out, err
		}
		out[i] = n
	}
	return out, nil
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func quote(s string) string { return strconv.Quote(s) }
