package nl

import (
	"errors"
	"strings"
	"time"
)

// isoDateAt matches \b\d{4}-\d{2}-\d{2}\b at p: a calendar date written as
// ISO 8601, the form the v2 range object takes ({"from","to"} are ISO 8601,
// doc.chart-img.com "Advanced Chart" parameter table).
func isoDateAt(s string, p int) (match, bool) {
	if p+10 > len(s) || !boundary(s, p) || !boundary(s, p+10) {
		return match{}, false
	}
	for i := 0; i < 10; i++ {
		c := s[p+i]
		if i == 4 || i == 7 {
			if c != '-' {
				return match{}, false
			}
		} else if !isDigit(c) {
			return match{}, false
		}
	}
	return match{p, p + 10, p, p + 10, p, p + 10}, true
}

// months are the month names and abbreviations a date may be written with.
var months = map[string]time.Month{"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3,
	"apr": 4, "april": 4, "may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
	"sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12}

// monthOf looks w up in months in any case, without allocating: this runs
// on every word of a request that has a digit.
func monthOf(w string) (time.Month, bool) {
	if len(w) < 3 || len(w) > 9 {
		return 0, false
	}
	var buf [9]byte
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	m, ok := months[string(buf[:len(w)])]
	return m, ok
}

// monthDateAt matches a date written "March 1", "Mar 1st, 2024" or
// "Jan 1 2024" at p: group 1 is the month, group 2 the day and year.
func monthDateAt(s string, p int) (match, bool) {
	if !isLetter(s[p]) || !boundary(s, p) {
		return match{}, false
	}
	l := runOf(s, p, isLetter)
	if _, ok := monthOf(s[p : p+l]); !ok {
		return match{}, false
	}
	q := p + l
	if q < len(s) && s[q] == '.' {
		q++
	}
	q += runOf(s, q, isSpaceByte)
	d := runOf(s, q, isDigit)
	if d == 0 || d > 2 {
		return match{}, false
	}
	end := q + d
	for _, suf := range []string{"st", "nd", "rd", "th"} {
		if hasFold(s, end, suf) {
			end += 2
			break
		}
	}
	if !boundary(s, end) {
		return match{}, false
	}
	y := end
	if y < len(s) && s[y] == ',' {
		y++
	}
	y += runOf(s, y, isSpaceByte)
	if runOf(s, y, isDigit) == 4 && boundary(s, y+4) {
		end = y + 4
	}
	return match{p, end, p, p + l, q, end}, true
}

// dateAt is either form.
func dateAt(s string, p int) (match, bool) {
	if m, ok := isoDateAt(s, p); ok {
		return m, true
	}
	return monthDateAt(s, p)
}

// parseDate reads a match of dateAt; a month date without a year is the
// latest such day not after now.
func parseDate(text string, m match, now time.Time) (time.Time, error) {
	if isDigit(text[m[0]]) {
		return time.Parse(time.DateOnly, text[m[0]:m[1]])
	}
	mon, _ := monthOf(text[m[2]:m[3]])
	rest := text[m[4]:m[5]]
	day := 0
	i := 0
	for ; i < len(rest) && isDigit(rest[i]); i++ {
		day = day*10 + int(rest[i]-'0')
	}
	year, explicit := now.Year(), false
	if n := len(rest); n >= 4 && isDigit(rest[n-1]) && runOf(rest, n-4, isDigit) == 4 && n-4 > i {
		year, explicit = 0, true
		for _, c := range rest[n-4:] {
			year = year*10 + int(c-'0')
		}
	}
	d := time.Date(year, mon, day, 0, 0, 0, 0, time.UTC)
	if d.Day() != day {
		return time.Time{}, errNoDay
	}
	if !explicit && d.After(now) {
		d = d.AddDate(-1, 0, 0)
	}
	return d, nil
}

var errNoDay = errors.New("no such day")

// wordBefore is the lower-cased word that ends just before i (spaces
// skipped) and where it starts.
func wordBefore(s string, i int) (string, int) {
	j := i
	for j > 0 && isSpaceByte(s[j-1]) {
		j--
	}
	k := j
	for k > 0 && (isLetter(s[k-1]) || s[k-1] == '-') {
		k--
	}
	return strings.ToLower(s[k:j]), k
}

// dates takes dates (ISO, or a month name and day) out of the text as an exact span: two dates are
// from and to ("from 2024-01-01 to 2024-03-31", "between … and …"), one is
// from that day to now ("since 2024-06-01"). The to day is included whole.
// The cue words around the dates go with them, so they match nothing else.
func (s *state) dates(text string) string {
	var buf [3]match
	ms := findAll(text, 3, dateAt, buf[:0])
	if len(ms) == 0 {
		return text
	}
	var days []time.Time
	var said []string
	bad := false
	for _, m := range ms {
		d, err := parseDate(text, m, s.b.Now().UTC())
		if err != nil {
			s.warn("%s is not a calendar date; write dates as YYYY-MM-DD", text[m[0]:m[1]])
			text = blank(text, m[:2])
			bad = true
			continue
		}
		days = append(days, d)
		said = append(said, text[m[0]:m[1]])
		end := m[1] + toNow(text[m[1]:]) // "… until today" is the open end
		if w, k := wordBefore(text, m[0]); cueWords[w] {
			text = blank(text, []int{k, end})
		} else {
			text = blank(text, []int{m[0], end})
		}
	}
	switch {
	case len(days) == 0 || bad:
		return text
	case len(days) > 2:
		s.warn("more than two dates stated; the span is %s to %s, %s ignored", said[0], said[1], strings.Join(said[2:], ", "))
	}
	h := hit{phrase: said[0], spanUnit: "dates", from: days[0]}
	if len(days) >= 2 {
		from, to := days[0], days[1]
		if to.Before(from) {
			from, to = to, from
			s.warn("the dates were stated later first; the span is sent from %s to %s", from.Format(time.DateOnly), to.Format(time.DateOnly))
		}
		h.phrase = said[0] + " to " + said[1]
		h.from, h.to = from, to.Add(24*time.Hour-time.Second)
	}
	s.rangeHits = append(s.rangeHits, h)
	return text
}

// toNow is the length of an "until today" / "to now" / "to date" that
// starts s (after spaces), or 0.
func toNow(s string) int {
	i := runOf(s, 0, isSpaceByte)
	w := runOf(s, i, isLetter)
	switch strings.ToLower(s[i : i+w]) {
	case "to", "until", "till", "through", "thru":
	default:
		return 0
	}
	j := i + w
	j += runOf(s, j, isSpaceByte)
	n := runOf(s, j, isLetter)
	switch strings.ToLower(s[j : j+n]) {
	case "today", "now", "present", "date":
		return j + n
	}
	return 0
}

// cueWords before a date belong to the span it starts or ends.
var cueWords = map[string]bool{"from": true, "since": true, "after": true, "between": true, "to": true,
	"and": true, "until": true, "till": true, "through": true, "thru": true, "-": true}
