// Package query is the Google News search grammar: a structured query, its one
// canonical q string (fixed ordering, uppercase OR, lowercase operator names),
// the parser that reads a raw q back into the same structure, and the stable
// queryKey (same meaning → same key). Operator facts: operators.go.
package query

import (
	"crypto/sha256"
	"encoding/base32"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// MaxQLen bounds the canonical q. Google documents no limit for News search;
// 400 characters is what Brave's search MCP server caps at
// (// assumed; brave/brave-search-mcp-server).
const MaxQLen = 400

// Query is the structured form of a search. Every field is optional but at
// least one keyword field (terms, phrases, any_of, intitle, site) is needed.
type Query struct {
	Terms   []string   // single words, ANDed
	Phrases []string   // exact phrases, without quotes
	AnyOf   [][]string // each group: alternatives (a word, or a phrase with spaces)
	Exclude []string   // words or phrases to exclude
	InTitle []string   // words that must be in the title
	InURL   []string   // words that must be in the article URL
	Sites   []string   // domains; several are ORed
	AllIn   string     // "title", "text" or "url": allin<AllIn>: at the start, every word must be there
	When    string     // "12h" or "7d"; excludes After/Before
	After   string     // YYYY-MM-DD
	Before  string     // YYYY-MM-DD
}

var (
	whenRe   = regexp.MustCompile(`^([1-9][0-9]{0,3})([a-zA-Z])$`)
	domainRe = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$`)
	opNameRe = regexp.MustCompile(`^[A-Za-z_]+$`)
)

// Limits on when: pygooglenews saw hours work "up to 101h" (its README);
// the day cap is ours (// assumed). Months are not accepted: the README's
// "m for month" is contradicted by kotartemiy/pygooglenews#14 (when:6m
// returned nothing though results existed), and if m is minutes "the last
// 6 months" would silently become 6 minutes.
const (
	maxWhenHours = 101
	maxWhenDays  = 365
)

// whenMonthsFix is the fix offered for when:Nm and when:Ny.
const whenMonthsFix = "use an after/before date pair (after:YYYY-MM-DD before:YYYY-MM-DD) or days (up to when:365d)"

// AllInModes are the values of Query.AllIn (allintitle:, allintext:, allinurl:).
var AllInModes = []string{"title", "text", "url"}

// Normalize validates every field and returns the query with whitespace
// collapsed, terms split into words, sites lowercased, and every list sorted
// and deduplicated case-insensitively, so that the same meaning has one form.
// Errors are invalid_argument naming the field and the fix.
func (q Query) Normalize() (Query, error) {
	var out Query
	for _, t := range q.Terms {
		for _, w := range strings.Fields(t) {
			w = strings.TrimPrefix(w, "+")
			if err := checkWord("terms", w); err != nil {
				return Query{}, err
			}
			out.Terms = append(out.Terms, w)
		}
	}
	for _, p := range q.Phrases {
		p, err := cleanPhrase("phrases", p)
		if err != nil {
			return Query{}, err
		}
		out.Phrases = append(out.Phrases, p)
	}
	for _, g := range q.AnyOf {
		var alts []string
		for _, a := range g {
			a, err := cleanAlt("any_of", a)
			if err != nil {
				return Query{}, err
			}
			alts = append(alts, a)
		}
		alts = sortedUnique(alts)
		if len(alts) < 2 {
			return Query{}, envelope.Invalid("any_of", "an any_of group needs at least 2 different alternatives (a OR b); put a single word in terms")
		}
		out.AnyOf = append(out.AnyOf, alts)
	}
	for _, e := range q.Exclude {
		e, err := cleanAlt("exclude", e)
		if err != nil {
			return Query{}, err
		}
		out.Exclude = append(out.Exclude, e)
	}
	for _, w := range q.InTitle {
		w = strings.TrimSpace(w)
		if strings.ContainsAny(w, " \t\n") {
			return Query{}, envelope.Invalid("intitle", "intitle takes single words (intitle:a intitle:b), got %q", extract.Clip(w, 60))
		}
		if err := checkWord("intitle", w); err != nil {
			return Query{}, err
		}
		out.InTitle = append(out.InTitle, w)
	}
	for _, w := range q.InURL {
		w = strings.TrimSpace(w)
		if strings.ContainsAny(w, " \t\n") {
			return Query{}, envelope.Invalid("inurl", "inurl takes single words (inurl:a inurl:b), got %q", extract.Clip(w, 60))
		}
		if err := checkWord("inurl", w); err != nil {
			return Query{}, err
		}
		out.InURL = append(out.InURL, w)
	}
	switch m := strings.ToLower(strings.TrimSpace(q.AllIn)); m {
	case "", "title", "text", "url":
		out.AllIn = m
	default:
		return Query{}, envelope.Invalid("all_in", "all_in is title, text or url (allintitle:, allintext:, allinurl:), got %q", extract.Clip(q.AllIn, 60))
	}
	for _, s := range q.Sites {
		d, err := cleanSite(s)
		if err != nil {
			return Query{}, err
		}
		out.Sites = append(out.Sites, d)
	}
	out.Terms, out.Phrases, out.Exclude = sortedUnique(out.Terms), sortedUnique(out.Phrases), sortedUnique(out.Exclude)
	out.InTitle, out.InURL, out.Sites = sortedUnique(out.InTitle), sortedUnique(out.InURL), sortedUnique(out.Sites)
	out.AnyOf = uniqueGroups(out.AnyOf)
	if err := out.setDates(q.When, q.After, q.Before); err != nil {
		return Query{}, err
	}
	if len(out.Terms)+len(out.Phrases)+len(out.AnyOf)+len(out.InTitle)+len(out.InURL)+len(out.Sites) == 0 {
		if len(out.Exclude) > 0 {
			return Query{}, envelope.Invalid("q", "a query of exclusions only matches nothing useful; add terms, phrases, any_of, intitle or site")
		}
		return Query{}, envelope.Invalid("q", "the query is empty; give terms, phrases, any_of, intitle or site (or a raw q)")
	}
	if out.AllIn != "" && len(out.Terms)+len(out.Phrases)+len(out.AnyOf) == 0 {
		return Query{}, envelope.Invalid("all_in", "allin%s: applies to the query's words; give terms, phrases or any_of with it", out.AllIn)
	}
	if n := len(out.Canonical()); n > MaxQLen {
		return Query{}, envelope.Invalid("q", "the query is %d characters, over the %d limit; drop terms or split it into several feeds", n, MaxQLen)
	}
	return out, nil
}

func (out *Query) setDates(when, after, before string) error {
	when, after, before = strings.TrimSpace(when), strings.TrimSpace(after), strings.TrimSpace(before)
	if when != "" && (after != "" || before != "") {
		return envelope.Invalid("when", "when cannot be combined with after/before (Google then drops after/before); use either when (e.g. 7d) or an after/before date pair")
	}
	if when != "" {
		m := whenRe.FindStringSubmatch(when)
		if m == nil {
			return envelope.Invalid("when", "when must be N followed by h or d, e.g. 12h or 7d, got %q (Google silently ignores a bad when)", extract.Clip(when, 60))
		}
		n, _ := strconv.Atoi(m[1])
		switch strings.ToLower(m[2]) {
		case "h":
			if n > maxWhenHours {
				return envelope.Invalid("when", "when hours above %dh are not known to work; use days, e.g. when:%dd", maxWhenHours, (n+23)/24)
			}
		case "d":
			if n > maxWhenDays {
				return envelope.Invalid("when", "when days above %dd are not supported here; use an after/before date pair", maxWhenDays)
			}
		case "m":
			return envelope.Invalid("when", "when:%s is refused: the public reports disagree on whether m means months or minutes (pygooglenews README says months; pygooglenews#14 saw when:6m return nothing); %s", when, whenMonthsFix)
		case "y":
			return envelope.Invalid("when", "when:%s: years are not reported to work (Google silently ignores a bad when); %s", when, whenMonthsFix)
		default:
			return envelope.Invalid("when", "when unit must be h (hours) or d (days), got %q", extract.Clip(when, 60))
		}
		out.When = m[1] + strings.ToLower(m[2])
		return nil
	}
	var a, b time.Time
	var err error
	if after != "" {
		if a, err = time.Parse(time.DateOnly, after); err != nil {
			return envelope.Invalid("after", "after must be a date YYYY-MM-DD, got %q", extract.Clip(after, 60))
		}
		out.After = after
	}
	if before != "" {
		if b, err = time.Parse(time.DateOnly, before); err != nil {
			return envelope.Invalid("before", "before must be a date YYYY-MM-DD, got %q", extract.Clip(before, 60))
		}
		out.Before = before
	}
	if after != "" && before != "" && !a.Before(b) {
		return envelope.Invalid("before", "before (%s) must be later than after (%s)", before, after)
	}
	return nil
}

// Canonical renders the normalized query as q: allin<x>: (at the start, as
// Google documents it), terms, phrases, any_of groups, exclusions, intitle,
// inurl, site, then when or after/before; uppercase OR,
// lowercase operator names. An OR group is parenthesized unless it is the only
// keyword part (Google's own example: `boeing OR airbus`; parenthesized groups
// are used in the wild, unverified: // assumed).
func (q Query) Canonical() string {
	parts := q.keywordCount()
	var b strings.Builder
	add := func(s string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	if q.AllIn != "" {
		add("allin" + q.AllIn + ":")
	}
	for _, t := range q.Terms {
		add(t)
	}
	for _, p := range q.Phrases {
		add(`"` + p + `"`)
	}
	group := func(alts []string) {
		s := strings.Join(alts, " OR ")
		if parts > 1 {
			s = "(" + s + ")"
		}
		add(s)
	}
	for _, g := range q.AnyOf {
		r := make([]string, len(g))
		for i, a := range g {
			r[i] = quoteIfSpaced(a)
		}
		group(r)
	}
	for _, e := range q.Exclude {
		add("-" + quoteIfSpaced(e))
	}
	for _, w := range q.InTitle {
		add("intitle:" + w)
	}
	for _, w := range q.InURL {
		add("inurl:" + w)
	}
	if len(q.Sites) == 1 {
		add("site:" + q.Sites[0])
	} else if len(q.Sites) > 1 {
		r := make([]string, len(q.Sites))
		for i, s := range q.Sites {
			r[i] = "site:" + s
		}
		group(r)
	}
	if q.When != "" {
		add("when:" + q.When)
	}
	if q.After != "" {
		add("after:" + q.After)
	}
	if q.Before != "" {
		add("before:" + q.Before)
	}
	return b.String()
}

// keywordCount counts the parts that are not date filters; a multi-site
// filter counts once.
func (q Query) keywordCount() int {
	n := len(q.Terms) + len(q.Phrases) + len(q.AnyOf) + len(q.Exclude) + len(q.InTitle) + len(q.InURL)
	if len(q.Sites) > 0 {
		n++
	}
	return n
}

// Key is the stable queryKey of a normalized query on an edition: the same
// meaning (order, case, spacing and duplicates aside) gives the same key.
func Key(q Query, ceid string) string {
	folded := q.fold().Canonical()
	sum := sha256.Sum256([]byte(folded + "\x00" + ceid))
	return "gnq_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:15]))
}

// fold lowercases every word (Google search is case-insensitive; OR is
// emitted by Canonical) and re-sorts, so case alone never changes the key.
func (q Query) fold() Query {
	low := func(s []string) []string {
		r := make([]string, len(s))
		for i, v := range s {
			r[i] = strings.ToLower(v)
		}
		return sortedUnique(r)
	}
	f := Query{Terms: low(q.Terms), Phrases: low(q.Phrases), Exclude: low(q.Exclude), InTitle: low(q.InTitle), InURL: low(q.InURL),
		Sites: low(q.Sites), AllIn: q.AllIn, When: q.When, After: q.After, Before: q.Before}
	for _, g := range q.AnyOf {
		f.AnyOf = append(f.AnyOf, low(g))
	}
	f.AnyOf = uniqueGroups(f.AnyOf)
	return f
}

// KeyPattern matches a queryKey (schema pattern).
const KeyPattern = `^gnq_[a-z2-7]{24}$`

func quoteIfSpaced(s string) string {
	if strings.Contains(s, " ") {
		return `"` + s + `"`
	}
	return s
}

// sortedUnique sorts case-insensitively and drops case-insensitive duplicates
// (the first spelling in sorted order is kept).
func sortedUnique(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	s = slices.Clone(s)
	slices.SortStableFunc(s, func(a, b string) int {
		if c := strings.Compare(strings.ToLower(a), strings.ToLower(b)); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return slices.CompactFunc(s, strings.EqualFold)
}

func uniqueGroups(gs [][]string) [][]string {
	if len(gs) == 0 {
		return nil
	}
	key := func(g []string) string { return strings.ToLower(strings.Join(g, "\x00")) }
	gs = slices.Clone(gs)
	slices.SortStableFunc(gs, func(a, b []string) int { return strings.Compare(key(a), key(b)) })
	return slices.CompactFunc(gs, func(a, b []string) bool { return key(a) == key(b) })
}

// checkWord rejects what would change the query's structure if emitted as a
// bare word: quotes, parentheses, OR/AND, a leading minus, an operator prefix.
func checkWord(field, w string) error {
	switch {
	case w == "":
		return envelope.Invalid(field, "%s has an empty word", field)
	case strings.ContainsAny(w, "\"()"):
		return envelope.Invalid(field, "%s words cannot contain quotes or parentheses (%q); use phrases or any_of", field, extract.Clip(w, 60))
	case w == "OR" || w == "AND" || w == "|":
		return envelope.Invalid(field, "%q is an operator, not a word; use any_of for alternatives (AND is implicit)", w)
	case strings.HasPrefix(w, "+"):
		return envelope.Invalid(field, "%q: one leading '+' at most (it is dropped anyway)", extract.Clip(w, 60))
	case strings.HasPrefix(w, "-"):
		return envelope.Invalid(field, "%q starts with '-'; put exclusions in exclude", extract.Clip(w, 60))
	}
	if name, _, ok := strings.Cut(w, ":"); ok && opNameRe.MatchString(name) {
		return envelope.Invalid(field, "%q looks like an operator; use the site, intitle, when, after or before fields (see explain_operators)", extract.Clip(w, 60))
	}
	return nil
}

func cleanPhrase(field, p string) (string, error) {
	p = strings.Join(strings.Fields(p), " ")
	if p == "" {
		return "", envelope.Invalid(field, "%s has an empty phrase", field)
	}
	if strings.ContainsAny(p, `"`) {
		return "", envelope.Invalid(field, "phrases are given without quotes, got %q", extract.Clip(p, 60))
	}
	return p, nil
}

// cleanAlt accepts a word or a phrase (an any_of alternative or an exclusion).
func cleanAlt(field, a string) (string, error) {
	a = strings.Join(strings.Fields(a), " ")
	if strings.HasPrefix(a, `"`) && strings.HasSuffix(a, `"`) && len(a) >= 2 {
		a = strings.Join(strings.Fields(a[1:len(a)-1]), " ")
	}
	if strings.Contains(a, " ") {
		return cleanPhrase(field, a)
	}
	a = strings.TrimPrefix(a, "+")
	if err := checkWord(field, a); err != nil {
		return "", err
	}
	return a, nil
}

func cleanSite(s string) (string, error) {
	d := strings.ToLower(strings.TrimSpace(s))
	d = strings.TrimPrefix(strings.TrimPrefix(d, "https://"), "http://")
	d = strings.TrimSuffix(d, "/")
	if !domainRe.MatchString(d) {
		return "", envelope.Invalid("site", "site takes a domain like reuters.com (no path, no spaces), got %q", extract.Clip(s, 60))
	}
	return d, nil
}

var keyRe = regexp.MustCompile(KeyPattern)

// ValidKey reports whether s has the shape of a queryKey.
func ValidKey(s string) bool { return keyRe.MatchString(s) }
