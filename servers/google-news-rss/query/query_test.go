package query

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// One case per row of the operator table (operators.go, from pygooglenews,
// GNews, Outsharp and NewsCatcher): the raw q, and either its canonical form or the words the
// rejection must contain (naming the fix).
func TestOperatorTable(t *testing.T) {
	cases := []struct {
		row, raw, want, reject string
	}{
		{row: "implicit AND", raw: "boeing  strike", want: "boeing strike"},
		{row: "exact phrase", raw: `"supply  chain" boeing`, want: `boeing "supply chain"`},
		{row: "OR uppercase", raw: "boeing OR airbus", want: "airbus OR boeing"},
		{row: "OR lowercase", raw: "boeing or airbus", reject: "uppercase"},
		{row: "grouping", raw: "strike (boeing OR airbus)", want: "strike (airbus OR boeing)"},
		{row: "grouping bare chain", raw: "strike boeing OR airbus", want: "strike (airbus OR boeing)"},
		{row: "nested grouping", raw: "(a OR (b OR c))", reject: "nested"},
		{row: "-term", raw: `boeing -rumor -"press release"`, want: `boeing -"press release" -rumor`},
		{row: "+term", raw: "+boeing", want: "boeing"},
		{row: "intitle", raw: "INTITLE:boeing when:1h", want: "intitle:boeing when:1h"},
		{row: "allintitle", raw: "allintitle:boeing strike", want: "allintitle: boeing strike"},
		{row: "allintitle spaced", raw: "ALLINTITLE: strike boeing when:1d", want: "allintitle: boeing strike when:1d"},
		{row: "allintitle not first", raw: "boeing allintitle:strike", reject: "must come first"},
		{row: "allintitle alone", raw: "allintitle: site:a.com", reject: "applies to the query's words"},
		{row: "inurl", raw: "inurl:markets oil", want: "oil inurl:markets"},
		{row: "allinurl", raw: "allinurl:markets", want: "allinurl: markets"},
		{row: "intext", raw: "intext:tariff", reject: "allintext:"},
		{row: "allintext", raw: "allintext:tariff", want: "allintext: tariff"},
		{row: "site", raw: "oil site:Reuters.com", want: "oil site:reuters.com"},
		{row: "several sites", raw: "oil site:b.com OR site:a.com", want: "oil (site:a.com OR site:b.com)"},
		{row: "separate sites", raw: "oil site:a.com site:b.com", reject: "ORed"},
		{row: "when hours", raw: "oil when:12h", want: "oil when:12h"},
		{row: "when days", raw: "oil when:7D", want: "oil when:7d"},
		{row: "when hours over 101", raw: "oil when:200h", reject: "use days"},
		{row: "when months", raw: "oil when:6M", reject: "disagree on whether m means months or minutes"},
		{row: "when months over 48", raw: "oil when:49m", reject: "after/before"},
		{row: "when years", raw: "oil when:1y", reject: "after/before date pair"},
		{row: "when invalid", raw: "oil when:soon", reject: "12h or 7d"},
		{row: "after/before", raw: "oil before:2026-02-01 after:2026-01-01", want: "oil after:2026-01-01 before:2026-02-01"},
		{row: "after not before before", raw: "oil after:2026-02-01 before:2026-01-01", reject: "later than"},
		{row: "bad date", raw: "oil after:01/02/2026", reject: "YYYY-MM-DD"},
		{row: "when with after", raw: "oil when:7d after:2026-01-01", reject: "either when"},
		{row: "source", raw: "oil source:new_york_times", reject: "site:nytimes.com"},
		{row: "location", raw: "oil location:dubai", reject: "legacy"},
		{row: "related", raw: "related:reuters.com", reject: "does not work"},
		{row: "allinlinks", raw: "allinlinks:boeing", reject: "does not work"},
		{row: "as_*", raw: "oil as_qdr=d", reject: "as_*"},
		{row: "as_* colon", raw: "oil as_epq:x", reject: "as_*"},
		{row: "unknown operator", raw: "filetype:pdf oil", reject: "explain_operators"},
		{row: "empty", raw: "   ", reject: "empty"},
		{row: "only exclusions", raw: "-rumor", reject: "exclusions only"},
		{row: "only dates", raw: "when:1d", reject: "empty"},
		{row: "unbalanced quote", raw: `"oil price`, reject: "unbalanced quote"},
		{row: "unbalanced paren", raw: "(oil OR gas", reject: "unbalanced"},
		{row: "trailing OR", raw: "oil OR", reject: "ends with OR"},
		{row: "AND", raw: "oil AND gas", reject: "implicit"},
		{row: "excluded operator", raw: "oil -site:a.com", reject: "not operators"},
		{row: "over-long", raw: longQuery(), reject: "limit"},
		{row: "time is a word", raw: "10:30 meeting", want: "10:30 meeting"},
	}
	for _, tc := range cases {
		t.Run(tc.row, func(t *testing.T) {
			q, err := Parse(tc.raw)
			if tc.reject != "" {
				var e *envelope.Error
				if !errors.As(err, &e) || e.Code != envelope.InvalidArgument {
					t.Fatalf("Parse(%q) = %q, %v; want invalid_argument", tc.raw, q.Canonical(), err)
				}
				if !strings.Contains(e.Message, tc.reject) {
					t.Fatalf("message %q does not contain %q", e.Message, tc.reject)
				}
				return
			}
			if err != nil {
				t.Fatalf("Parse(%q): %v", tc.raw, err)
			}
			if got := q.Canonical(); got != tc.want {
				t.Fatalf("Parse(%q).Canonical() = %q, want %q", tc.raw, got, tc.want)
			}
			// canonical is a fixed point
			again, err := Parse(tc.want)
			if err != nil || again.Canonical() != tc.want {
				t.Fatalf("reparse %q = %q, %v", tc.want, again.Canonical(), err)
			}
		})
	}
}

// The parser accepts every documented and reported row of the cheat-sheet and
// refuses every rejected one; each row names its source.
func TestCheatSheetRowsMatchParser(t *testing.T) {
	for _, o := range Operators {
		_, err := Parse(o.Example)
		if (o.Status != StatusRejected) != (err == nil) {
			t.Errorf("%s (%s): Parse(%q) err = %v", o.Operator, o.Status, o.Example, err)
		}
		if o.Source == "" || (o.Status != StatusDocumented && o.Status != StatusReported && o.Status != StatusRejected) {
			t.Errorf("%s: status %q, source %q", o.Operator, o.Status, o.Source)
		}
	}
}

func TestStructuredAllInAndInURL(t *testing.T) {
	q, err := Query{Terms: []string{"strike", "boeing"}, InURL: []string{"markets"}, AllIn: "Title"}.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	if got := q.Canonical(); got != "allintitle: boeing strike inurl:markets" {
		t.Fatalf("canonical %q", got)
	}
	p, err := Parse(q.Canonical())
	if err != nil || Key(p, "US:en") != Key(q, "US:en") {
		t.Fatalf("reparse: %v", err)
	}
	plain, _ := Query{Terms: []string{"strike", "boeing"}, InURL: []string{"markets"}}.Normalize()
	if Key(plain, "US:en") == Key(q, "US:en") {
		t.Fatal("all_in must change the key")
	}
	if _, err := (Query{Terms: []string{"x"}, AllIn: "links"}).Normalize(); err == nil || !strings.Contains(err.Error(), "title, text or url") {
		t.Fatalf("bad all_in: %v", err)
	}
}

func TestStructuredCanonicalOrder(t *testing.T) {
	q := Query{
		Sites: []string{"https://www.Reuters.com/"}, When: "1d", Exclude: []string{"rumor"},
		InTitle: []string{"jet"}, AnyOf: [][]string{{"embraer", "airbus"}}, Phrases: []string{"supply chain"},
		Terms: []string{"Boeing deliveries"},
	}
	n, err := q.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	want := `Boeing deliveries "supply chain" (airbus OR embraer) -rumor intitle:jet site:www.reuters.com when:1d`
	if got := n.Canonical(); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	p, err := Parse(want)
	if err != nil || p.Canonical() != want {
		t.Fatalf("raw parse: %q, %v", p.Canonical(), err)
	}
}

func TestKeySameMeaningSameKey(t *testing.T) {
	a, _ := Parse(`boeing airbus -rumor "Supply Chain" when:1d`)
	b, _ := Parse(`  Airbus   BOEING "supply chain"  -Rumor when:1D  +boeing`)
	c, _ := Parse(`boeing airbus "supply chain" when:1d`)
	if Key(a, "US:en") != Key(b, "US:en") {
		t.Fatalf("same meaning, different keys: %s %s", a.Canonical(), b.Canonical())
	}
	if Key(a, "US:en") == Key(a, "GB:en") || Key(a, "US:en") == Key(c, "US:en") {
		t.Fatal("different meaning, same key")
	}
	if k := Key(a, "US:en"); !keyRe.MatchString(k) {
		t.Fatalf("key %q does not match %s", k, KeyPattern)
	}
}

func TestEditions(t *testing.T) {
	if len(Editions) != 24 {
		t.Fatalf("%d editions, want 24", len(Editions))
	}
	for _, tc := range []struct{ in, ceid, reject string }{
		{"", "US:en", ""}, {"gb", "GB:en", ""}, {"IN:en", "IN:en", ""}, {"lv:EN", "LV:en", ""},
		{"AE:en", "", "no English UAE edition"}, {"AE", "", "uae_focus"}, {"ID:id", "", "use ID:en"},
		{"FR", "", "list_editions"}, {"SA:en", "", "list_editions"},
	} {
		e, err := ResolveEdition(tc.in)
		if tc.reject != "" {
			if err == nil || !strings.Contains(err.Error(), tc.reject) {
				t.Errorf("ResolveEdition(%q) = %v, %v; want %q", tc.in, e, err, tc.reject)
			}
			continue
		}
		if err != nil || e.CEID != tc.ceid {
			t.Errorf("ResolveEdition(%q) = %v, %v", tc.in, e.CEID, err)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, o := range Operators {
		f.Add(o.Example)
	}
	f.Add(`a "b c" (d OR "e f") -g intitle:h (site:i.com OR site:j.org) after:2026-01-01 before:2026-02-01`)
	f.Add(`allintext: a "b c" inurl:d when:3m`)
	f.Add(`((((`)
	f.Add(`"`)
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := Parse(raw)
		if err != nil {
			var e *envelope.Error
			if !errors.As(err, &e) || e.Code != envelope.InvalidArgument || e.Message == "" {
				t.Fatalf("Parse(%q): non-envelope error %v", raw, err)
			}
			return
		}
		c := q.Canonical()
		if len(c) > MaxQLen {
			t.Fatalf("canonical over the limit: %d", len(c))
		}
		again, err := Parse(c)
		if err != nil {
			t.Fatalf("canonical %q of %q does not parse: %v", c, raw, err)
		}
		if again.Canonical() != c || Key(again, "US:en") != Key(q, "US:en") {
			t.Fatalf("not a fixed point: %q → %q", c, again.Canonical())
		}
	})
}

func longQuery() string {
	var b strings.Builder
	for i := 0; i < 60; i++ {
		b.WriteString("word" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + string(rune('a'+i/26)) + " ")
	}
	return b.String()
}
