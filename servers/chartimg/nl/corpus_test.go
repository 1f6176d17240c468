package nl

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
)

// corpusCase is one line of testdata/corpus.jsonl: a request as people write
// it, the class of phrasing it stands for (testdata/README.md names where each
// class comes from) and the exact config the writer meant. want.warn, when set,
// is a warning the answer must carry (what chart-img cannot draw).
type corpusCase struct {
	Class string `json:"class"`
	Text  string `json:"text"`
	Want  struct {
		Symbol   string          `json:"symbol"`
		Interval string          `json:"interval"`
		Range    any             `json:"range"`
		Timezone string          `json:"timezone"`
		Theme    string          `json:"theme"`
		Style    string          `json:"style"`
		Scale    string          `json:"scale"`
		Session  string          `json:"session"`
		Studies  []chart.Study   `json:"studies"`
		Drawings []chart.Drawing `json:"drawings"`
		Warn     string          `json:"warn"`
	} `json:"want"`
}

// TestCorpus scores the parser on the phrasing corpus: exact (the config the
// writer meant), warned (not exact, but the answer says what it could not
// do), wrong (a different chart without a word). It fails when exact+warned
// falls below 95%; each case not exact is logged (go test -v -run Corpus).
func TestCorpus(t *testing.T) {
	f, err := os.Open("testdata/corpus.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := testBuilder()
	var exact, warned, wrong int
	perClass := map[string][3]int{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		r := b.Build(Request{Text: c.Text})
		diffs := corpusDiff(c, r)
		warnings := strings.Join(r.Warnings, "\n")
		k := perClass[c.Class]
		switch {
		case len(diffs) == 0 && (c.Want.Warn == "" || strings.Contains(warnings, c.Want.Warn)):
			exact++
			k[0]++
		case len(r.Warnings) > 0 && (c.Want.Warn == "" || strings.Contains(warnings, c.Want.Warn)):
			warned++
			k[1]++
			t.Logf("warned  %q: %s (warnings: %s)", c.Text, strings.Join(diffs, "; "), strings.Join(r.Warnings, " | "))
		default:
			wrong++
			k[2]++
			t.Logf("WRONG   %q [%s]: %s (warnings: %v)", c.Text, c.Class, strings.Join(diffs, "; "), r.Warnings)
		}
		perClass[c.Class] = k
	}
	total := exact + warned + wrong
	for cl, k := range perClass {
		t.Logf("%-26s exact %2d  warned %2d  wrong %2d", cl, k[0], k[1], k[2])
	}
	t.Logf("corpus: %d phrasings: %d exact, %d honest warnings, %d wrong", total, exact, warned, wrong)
	if total < 80 {
		t.Fatalf("corpus has %d phrasings, want at least 80", total)
	}
	if float64(exact+warned) < 0.95*float64(total) {
		t.Fatalf("exact or warned %d of %d, below 95%%", exact+warned, total)
	}
}

func corpusDiff(c corpusCase, r Result) []string {
	var d []string
	cf := r.Config
	eq := func(field, got, want string) {
		if got != want {
			d = append(d, fmt.Sprintf("%s %q, want %q", field, got, want))
		}
	}
	w := c.Want
	eq("symbol", cf.Symbol, w.Symbol)
	eq("interval", cf.Interval, w.Interval)
	eq("range", jsonString(cf.Range), jsonString(w.Range))
	eq("timezone", cf.Timezone, w.Timezone)
	eq("theme", cf.Theme, or(w.Theme, "light"))
	eq("style", cf.Style, or(w.Style, "candle"))
	eq("scale", cf.Scale, w.Scale)
	eq("session", cf.Session, w.Session)
	eq("studies", jsonString(studiesOf(cf.Studies)), jsonString(studiesOf(w.Studies)))
	eq("drawings", jsonString(drawingsOf(cf.Drawings)), jsonString(drawingsOf(w.Drawings)))
	return d
}

func or(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func jsonString(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// studiesOf drops what the corpus does not state (forceOverlay).
func studiesOf(ss []chart.Study) []chart.Study {
	out := []chart.Study{}
	for _, s := range ss {
		out = append(out, chart.Study{Name: s.Name, Input: s.Input, Override: s.Override})
	}
	return out
}

// drawingsOf keeps name and input: styling (a label's text, colours) is the
// parser's own choice.
func drawingsOf(ds []chart.Drawing) []chart.Drawing {
	out := []chart.Drawing{}
	for _, x := range ds {
		out = append(out, chart.Drawing{Name: x.Name, Input: x.Input})
	}
	return out
}
