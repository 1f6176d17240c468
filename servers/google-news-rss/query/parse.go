package query

import (
	"slices"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// token is one lexical unit of a raw q.
type token struct {
	kind   byte // 'w' word, 'p' phrase, '(' or ')'
	text   string
	neg    bool // a leading '-'
	quoted bool // a phrase
}

// Parse reads a raw q into the structured Query and normalizes it, so a raw q
// is validated exactly like structured input. Rejections name the fix.
func Parse(raw string) (Query, error) {
	toks, err := lex(raw)
	if err != nil {
		return Query{}, err
	}
	var q Query
	var when, after, before []string
	toks, err = q.leadingAllIn(toks)
	if err != nil {
		return Query{}, err
	}
	// Top level: units separated by spaces; a unit is an atom or a (group);
	// consecutive units joined by OR form one alternative group.
	i := 0
	for i < len(toks) {
		chain, next, err := orChain(toks, i)
		if err != nil {
			return Query{}, err
		}
		i = next
		if len(chain) == 1 {
			if err := q.addAtom(chain[0], &when, &after, &before); err != nil {
				return Query{}, err
			}
			continue
		}
		if err := q.addGroup(chain); err != nil {
			return Query{}, err
		}
	}
	if len(when) > 1 || len(after) > 1 || len(before) > 1 {
		return Query{}, envelope.Invalid("q", "when, after and before may each appear once")
	}
	q.When, q.After, q.Before = first(when), first(after), first(before)
	return q.Normalize()
}

// leadingAllIn takes allintitle:, allintext: or allinurl: off the start of
// q (Google: "include allintitle: at the start of your search query"); a
// value attached to it (allintitle:boeing) is the first word.
func (q *Query) leadingAllIn(toks []token) ([]token, error) {
	if len(toks) == 0 {
		return toks, nil
	}
	name, val, ok := opOf(toks[0])
	mode, isAllIn := strings.CutPrefix(name, "allin")
	if !ok || !isAllIn || !slices.Contains(AllInModes, mode) || toks[0].neg {
		return toks, nil
	}
	q.AllIn = mode
	rest := toks[1:]
	if val != "" {
		rest = append([]token{{kind: 'w', text: val}}, rest...)
	}
	return rest, nil
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

// orChain reads unit (OR unit)* from toks[i:]. A parenthesized group is
// returned flattened as its members and must be the whole chain.
func orChain(toks []token, i int) ([]token, int, error) {
	var chain []token
	paren := false
	for {
		if i >= len(toks) {
			return nil, i, envelope.Invalid("q", "the query ends with OR; put an alternative after it")
		}
		t := toks[i]
		switch {
		case t.kind == ')':
			return nil, i, envelope.Invalid("q", "unbalanced ')'; parentheses only wrap an OR group like (a OR b)")
		case t.kind == '(':
			members, next, err := parenGroup(toks, i)
			if err != nil {
				return nil, i, err
			}
			chain = append(chain, members...)
			i, paren = next, true
		case t.kind == 'w' && !t.neg && t.text == "OR":
			return nil, i, envelope.Invalid("q", "OR needs an alternative on each side (a OR b)")
		default:
			chain = append(chain, t)
			i++
		}
		if i < len(toks) && toks[i].kind == 'w' && !toks[i].neg && toks[i].text == "OR" {
			if paren {
				return nil, i, envelope.Invalid("q", "a (group) cannot be ORed with more alternatives; put them all inside one pair of parentheses")
			}
			i++
			if i < len(toks) && toks[i].kind == '(' {
				return nil, i, envelope.Invalid("q", "a (group) cannot be ORed with more alternatives; put them all inside one pair of parentheses")
			}
			continue
		}
		return chain, i, nil
	}
}

// parenGroup reads "( a OR b ... )" at toks[i].
func parenGroup(toks []token, i int) ([]token, int, error) {
	var members []token
	i++ // (
	expectAlt := true
	for ; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == '(':
			return nil, i, envelope.Invalid("q", "nested parentheses are not supported; use one (a OR b) group per set of alternatives")
		case t.kind == ')':
			if expectAlt || len(members) < 2 {
				return nil, i, envelope.Invalid("q", "parentheses only wrap an OR group of 2 or more alternatives, like (a OR b)")
			}
			return members, i + 1, nil
		case t.kind == 'w' && !t.neg && t.text == "OR":
			if expectAlt {
				return nil, i, envelope.Invalid("q", "OR needs an alternative on each side (a OR b)")
			}
			expectAlt = true
		default:
			if !expectAlt {
				return nil, i, envelope.Invalid("q", "inside parentheses alternatives must be joined by OR, like (a OR b); move other words outside")
			}
			members = append(members, t)
			expectAlt = false
		}
	}
	return nil, i, envelope.Invalid("q", "unbalanced '('; close the group: (a OR b)")
}

// addGroup files an OR chain: all words/phrases → any_of; all site: → site.
func (q *Query) addGroup(chain []token) error {
	var alts, sites []string
	for _, t := range chain {
		if t.neg {
			return envelope.Invalid("q", "an excluded word cannot be an OR alternative; move -%s out of the group", extract.Clip(t.text, 60))
		}
		if name, val, ok := opOf(t); ok {
			if name != "site" {
				return envelope.Invalid("q", "only words, phrases or site: filters can be ORed, not %s:", name)
			}
			sites = append(sites, val)
			continue
		}
		alts = append(alts, altText(t))
	}
	if len(alts) > 0 && len(sites) > 0 {
		return envelope.Invalid("q", "do not mix site: filters and words in one OR group; write (a OR b) (site:x OR site:y)")
	}
	if len(sites) > 0 {
		if len(q.Sites) > 0 {
			return envelope.Invalid("site", "give all site: filters in one OR group; several separate site: filters would all have to match")
		}
		q.Sites = sites
		return nil
	}
	q.AnyOf = append(q.AnyOf, alts)
	return nil
}

func altText(t token) string {
	if t.quoted {
		return `"` + t.text + `"`
	}
	return t.text
}

// addAtom files one stand-alone atom.
func (q *Query) addAtom(t token, when, after, before *[]string) error {
	name, val, isOp := opOf(t)
	if !isOp {
		switch {
		case t.neg:
			q.Exclude = append(q.Exclude, altText(t))
		case t.quoted:
			q.Phrases = append(q.Phrases, t.text)
		case t.text == "or":
			return envelope.Invalid("q", "write OR in uppercase for alternatives (a lowercase or is searched as a word)")
		case t.text == "AND":
			return envelope.Invalid("q", "AND is implicit: separate words with spaces and remove AND")
		default:
			q.Terms = append(q.Terms, t.text)
		}
		return nil
	}
	if t.neg {
		return envelope.Invalid("q", "-%s: excludes only words and phrases, not operators", name)
	}
	if err := checkOperator(name); err != nil {
		return err
	}
	if val == "" {
		return envelope.Invalid("q", "%s: needs a value right after the colon, like %s", name, exampleOf(name))
	}
	switch name {
	case "intitle":
		q.InTitle = append(q.InTitle, val)
	case "inurl":
		q.InURL = append(q.InURL, val)
	case "allintitle", "allintext", "allinurl":
		return envelope.Invalid("q", "%s: must come first: it applies to every word of the query (%s); or use intitle:/inurl: per word", name, exampleOf(name))
	case "site":
		if len(q.Sites) > 0 {
			return envelope.Invalid("site", "several site: filters must be ORed (site:a.com OR site:b.com); separate ones would all have to match")
		}
		q.Sites = []string{val}
	case "when":
		*when = append(*when, val)
	case "after":
		*after = append(*after, val)
	case "before":
		*before = append(*before, val)
	}
	return nil
}

// opOf splits "name:value" when name looks like an operator name. Phrase
// tokens are never operators.
func opOf(t token) (name, val string, ok bool) {
	if t.quoted {
		return "", "", false
	}
	if strings.HasPrefix(strings.ToLower(t.text), "as_") {
		return strings.ToLower(t.text), "", true
	}
	n, v, found := strings.Cut(t.text, ":")
	if !found || !opNameRe.MatchString(n) {
		return "", "", false
	}
	return strings.ToLower(n), v, true
}

// checkOperator accepts the operators the structure holds and rejects the
// rest with the reason from the operator table.
func checkOperator(name string) error {
	if strings.HasPrefix(name, "as_") {
		return envelope.Invalid("q", "as_* parameters (as_epq, as_qdr, …) do not work with the RSS feed; use phrases for as_epq and when for as_qdr")
	}
	op, ok := operatorByName(name)
	if !ok {
		return envelope.Invalid("q", "%s: is not a Google News operator this server knows; see explain_operators, or quote the text (\"%s:…\") to search it", name, name)
	}
	if op.Status == StatusRejected {
		return envelope.Invalid("q", "%s: is rejected (%s; source: %s); %s", name, op.Note, op.Source, op.Fix)
	}
	return nil
}

// lex splits a raw q into words, phrases and parentheses.
func lex(raw string) ([]token, error) {
	var toks []token
	s := strings.Join(strings.Fields(raw), " ") // every Unicode space is a separator, as in Normalize
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '(' || c == ')':
			toks = append(toks, token{kind: c, text: string(c)})
			i++
		default:
			neg := false
			if c == '-' || c == '+' {
				neg = c == '-'
				i++
				if i >= len(s) || s[i] == ' ' || s[i] == '(' || s[i] == ')' {
					return nil, envelope.Invalid("q", "a lone %q: attach it to a word or phrase (-word, -\"a phrase\")", string(c))
				}
			}
			if s[i] == '"' {
				end := strings.IndexByte(s[i+1:], '"')
				if end < 0 {
					return nil, envelope.Invalid("q", "unbalanced quote; close the phrase with \"")
				}
				text := strings.Join(strings.Fields(s[i+1:i+1+end]), " ")
				if text == "" {
					return nil, envelope.Invalid("q", "an empty phrase \"\"; remove it")
				}
				toks = append(toks, token{kind: 'p', text: text, neg: neg, quoted: true})
				i += end + 2
				continue
			}
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\r()", rune(s[j])) {
				if s[j] == '"' {
					// intitle:"a b" and word"word: a quote inside a word
					return nil, envelope.Invalid("q", "a quote inside a word (%q); quote whole phrases only, and operators take single words", extract.Clip(s[i:], 60))
				}
				j++
			}
			toks = append(toks, token{kind: 'w', text: s[i:j], neg: neg})
			i = j
		}
	}
	return toks, nil
}
