package openai

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Rendered is a Result cut to a caller's wishes.
type Rendered struct {
	// Answer is the narrative with each citation marker replaced by [n], n
	// indexing Citations (1-based). A claim whose only citations were cut
	// by maxResults is cut with them: no sentence is left without its source.
	Answer    string
	Citations []Cited
	// Consulted are the consulted URLs that are not among Citations.
	Consulted []string
	// Dropped counts the sentences cut with their citations.
	Dropped int
}

// Cited is a citation a reader can check: the page's title, its URL and
// the text of the answer it supports (the sentence before its marker, or
// the text the annotation covers). The host is not repeated as a domain
// field: the URL has it. No offsets: the [n] marker places the snippet, and
// offsets into text would need a unit every client agrees on.
type Cited struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
}

// maxSnippet bounds a snippet in code points (the end, nearest the citation,
// is kept).
const maxSnippet = 300

// maxConsultedOut bounds the consulted URLs returned.
const maxConsultedOut = 20

// Render keeps the first maxResults citations (maxResults ≤ 0: all) and the
// claims they support.
func (r *Result) Render(maxResults int) Rendered {
	if maxResults <= 0 || maxResults > len(r.Citations) {
		maxResults = len(r.Citations)
	}
	out := Rendered{Citations: make([]Cited, maxResults), Consulted: []string{}}
	for i := range out.Citations {
		c := r.Citations[i]
		title := c.Title
		if title == "" {
			title = c.Domain
		}
		out.Citations[i] = Cited{Title: title, URL: c.URL}
	}
	var b strings.Builder
	done := make([]bool, maxResults)
	for i, p := range r.Pieces {
		if p.Ref == 0 {
			b.WriteString(p.Text)
			continue
		}
		kept := p.Ref <= maxResults
		if p.Cited {
			b.WriteString(p.Text)
			if kept && !done[p.Ref-1] {
				done[p.Ref-1] = true
				out.Citations[p.Ref-1].Snippet = clipSnippet(p.Text)
			}
		}
		if !kept {
			if !keptAhead(r.Pieces[i+1:], maxResults) {
				if s, cut := cutLastClaim(b.String()); cut {
					b.Reset()
					b.WriteString(s)
					out.Dropped++
				}
			}
			continue
		}
		if !p.Cited && !done[p.Ref-1] {
			done[p.Ref-1] = true
			s := b.String()
			e := tailEnd(s)
			st := sentenceStart(s[:e])
			// A parenthetical ("(see the blog.)") leans on the sentence before
			// it on the same line, unless that one carries its own citation.
			if strings.HasPrefix(s[st:e], "(") {
				if prev := strings.TrimRight(s[:st], " \t"); prev != "" && !strings.HasSuffix(prev, "\n") && !endsWithMarker(prev) {
					st = sentenceStart(prev)
				}
			}
			out.Citations[p.Ref-1].Snippet = clipSnippet(s[st:e])
		}
		b.WriteString("[" + strconv.Itoa(p.Ref) + "]")
	}
	answer := b.String()
	if out.Dropped > 0 {
		answer = dropBareLeadIns(answer)
	}
	out.Answer = strings.TrimSpace(blankRuns.ReplaceAllString(answer, "\n\n"))
	cited := map[string]bool{}
	for _, c := range out.Citations {
		if _, _, k, ok := CleanURL(c.URL); ok {
			cited[k] = true
		}
	}
	for _, u := range r.Consulted {
		if len(out.Consulted) >= maxConsultedOut {
			break
		}
		if _, _, k, ok := CleanURL(u); ok && !cited[k] {
			out.Consulted = append(out.Consulted, u)
		}
	}
	return out
}

// blankRuns are the empty lines a cut line leaves behind.
var blankRuns = regexp.MustCompile(`\n[ \t]*\n(?:[ \t]*\n)+`)

// dropBareLeadIns removes the lines that only introduced what a cut took
// away: a lead-in ("Further reading:") no longer followed directly by its
// text, and a heading ("## Sources", "**More**") with no text under it
// before the next heading or the end. Only answers that lost claims to
// maxResults pass here, so a model's own layout is never changed.
func dropBareLeadIns(s string) string {
	lines := strings.Split(s, "\n")
	keep := make([]bool, len(lines))
	next := -1   // index of the next kept non-blank line
	gap := false // a blank line lies between this line and next
	for i := len(lines) - 1; i >= 0; i-- {
		t := strings.TrimSpace(lines[i])
		if t == "" {
			keep[i], gap = true, true
			continue
		}
		bare := false
		switch {
		case isHeading(t):
			bare = next < 0 || isHeading(strings.TrimSpace(lines[next]))
		case strings.HasSuffix(t, ":"):
			bare = next < 0 || gap || isHeading(strings.TrimSpace(lines[next]))
		}
		if bare {
			continue
		}
		keep[i], next, gap = true, i, false
	}
	out := make([]string, 0, len(lines))
	for i, l := range lines {
		if keep[i] {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// isHeading: a Markdown heading or a line that is all bold.
func isHeading(t string) bool {
	return strings.HasPrefix(t, "#") || len(t) > 4 && strings.HasPrefix(t, "**") && strings.HasSuffix(strings.TrimSuffix(t, ":"), "**") && !strings.Contains(t[2:len(strings.TrimSuffix(t, ":"))-2], "**")
}

// keptAhead reports whether the citation references right after a cut one
// (only spaces between) include a kept one: then the claim stays.
func keptAhead(ps []Piece, maxResults int) bool {
	for _, p := range ps {
		switch {
		case p.Ref == 0 && strings.TrimSpace(p.Text) == "":
			continue
		case p.Ref != 0 && !p.Cited:
			if p.Ref <= maxResults {
				return true
			}
			continue
		}
		return false
	}
	return false
}

// cutLastClaim removes the sentence s ends with, unless a kept [n] marker
// already follows it (another citation supports it). A sentence that was a
// whole line (a list item, a paragraph) goes with its line.
func cutLastClaim(s string) (string, bool) {
	e := tailEnd(s)
	if e < len(strings.TrimRightFunc(s, unicode.IsSpace)) {
		return s, false // "claim [1]" then a cut citation: [1] supports it
	}
	st := sentenceStart(s[:e])
	if st >= e {
		return s, false
	}
	ls := strings.LastIndexByte(s[:st], '\n') + 1
	if lead := strings.TrimSpace(s[ls:st]); lead == "" || strings.Trim(lead, "-*# ") == "" {
		st = max(ls-1, 0) // the line and the break before it
	}
	return strings.TrimRight(s[:st], " \t"), true
}

// clipSnippet trims s and keeps at most maxSnippet code points of its end.
func clipSnippet(s string) string {
	s = strings.TrimSpace(s)
	if n := utf8.RuneCountInString(s); n > maxSnippet {
		cut := n - maxSnippet
		for k := range s {
			if cut == 0 {
				return s[k:]
			}
			cut--
		}
	}
	return s
}

// tailEnd is the end of s without trailing spaces and [n] markers: where the
// sentence a new marker follows ends.
func tailEnd(s string) int {
	for {
		t := strings.TrimRightFunc(s, unicode.IsSpace)
		if strings.HasSuffix(t, "]") {
			if i := strings.LastIndexByte(t, '['); i >= 0 && isDigits(t[i+1:len(t)-1]) {
				s = t[:i]
				continue
			}
		}
		return len(t)
	}
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// sentenceStart is where the last sentence of s begins: after the last line
// break, sentence end ("." "!" "?" followed by a space, or "。！？") or
// citation marker before s's own final character; leading list and heading
// markup is skipped.
func sentenceStart(s string) int {
	if s == "" {
		return 0
	}
	_, lastW := utf8.DecodeLastRuneInString(s)
	start := 0
	for i := len(s) - lastW - 1; i >= 0; i-- {
		c := s[i]
		if c == '\n' {
			start = i + 1
			break
		}
		if c == ' ' && i > 0 {
			p := s[i-1]
			if (p == '!' || p == '?' || (p == '.' && !abbreviation(s[:i-1]))) && startsSentence(s[i+1:]) || (p == ']' && endsWithMarker(s[:i])) {
				start = i + 1
				break
			}
		}
		if c >= 0x80 && utf8.RuneStart(c) {
			r, w := utf8.DecodeRuneInString(s[i:])
			if (r == '。' || r == '！' || r == '？') && i+w < len(s)-lastW+1 {
				start = i + w
				break
			}
		}
	}
	for {
		t := strings.TrimLeft(s[start:], " \t")
		switch {
		case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "):
			start = len(s) - len(t) + 2
			continue
		case strings.HasPrefix(t, "#"):
			start = len(s) - len(strings.TrimLeft(t, "#"))
			continue
		}
		return len(s) - len(t)
	}
}

// abbreviations end in a period without ending a sentence.
var abbreviations = map[string]bool{"mr": true, "mrs": true, "ms": true, "dr": true, "st": true, "jr": true, "sr": true,
	"inc": true, "ltd": true, "co": true, "corp": true, "bros": true, "vs": true, "etc": true, "no": true, "approx": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true, "sep": true, "sept": true,
	"oct": true, "nov": true, "dec": true, "gov": true, "gen": true, "sen": true, "rep": true, "prof": true, "fig": true}

// abbreviation reports whether s (text before a period) ends in an
// abbreviation or an initial ("U.S", "J").
func abbreviation(s string) bool {
	i := strings.LastIndexAny(s, " \n(\"“")
	w := s[i+1:]
	if utf8.RuneCountInString(w) == 1 {
		return true
	}
	if strings.Contains(w, ".") { // "U.S", "e.g": single letters between dots
		for _, part := range strings.Split(w, ".") {
			if r, n := utf8.DecodeRuneInString(part); utf8.RuneCountInString(part) != 1 || n == 0 || !unicode.IsLetter(r) {
				return false
			}
		}
		return true
	}
	return abbreviations[strings.ToLower(w)]
}

// startsSentence reports whether s (text after a sentence end and a space)
// can begin a sentence: not a lower-case letter.
func startsSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r != utf8.RuneError && !unicode.IsLower(r)
}

func endsWithMarker(s string) bool {
	i := strings.LastIndexByte(s, '[')
	return i >= 0 && strings.HasSuffix(s, "]") && isDigits(s[i+1:len(s)-1])
}
