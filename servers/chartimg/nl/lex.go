package nl

import (
	"strconv"
	"strings"
	"sync"
)

type tokKind uint8

const (
	tWord tokKind = iota
	tNum
	tSep   // , ; / & and plus
	tOpen  // (
	tClose // )
)

// token is one lexed unit. Words are lower-cased and normalised (plurals,
// abbreviations); upper says the original was all capitals (a ticker hint).
type token struct {
	kind    tokKind
	word    string
	orig    string
	num     float64
	isInt   bool
	compact bool // a unit glued to a number: 4h, 15m, 1M
	upper   bool
}

// unitWords maps spellings to the canonical unit; compact-only letters are separate.
var unitWords = map[string]string{
	"min": "minute", "mins": "minute", "minute": "minute", "minutes": "minute", "minut": "minute",
	"h": "", "hr": "hour", "hrs": "hour", "hour": "hour", "hours": "hour",
	"day": "day", "days": "day",
	"wk": "week", "wks": "week", "week": "week", "weeks": "week",
	"mo": "month", "mos": "month", "mon": "month", "mth": "month", "mths": "month", "month": "month", "months": "month",
	"yr": "year", "yrs": "year", "year": "year", "years": "year",
	"quarter": "quarter", "quarters": "quarter", "qtr": "quarter", "decade": "decade", "decades": "decade", "fortnight": "fortnight", "fortnights": "fortnight",
	"sec": "second", "secs": "second", "second": "second", "seconds": "second",
}

// mtUnits are MetaTrader-style interval prefixes (H4 = 4 hours).
var mtUnits = map[string]string{"M": "minute", "H": "hour", "D": "day", "W": "week", "MN": "month"}

// compactUnits are single letters after a number ("4h", "1D"); M is month, m minute.
func compactUnit(orig string) (string, bool) {
	switch orig {
	case "m", "min":
		return "minute", true
	case "M":
		return "month", true
	case "h", "H", "hr", "hrs":
		return "hour", true
	case "d", "D":
		return "day", true
	case "w", "W", "wk":
		return "week", true
	case "y", "Y", "yr":
		return "year", true
	case "mo", "mos":
		return "month", true
	case "s", "S":
		return "second", true
	}
	return "", false
}

var synonyms = map[string]string{
	"candlestick": "candle", "candlesticks": "candle", "candles": "candle", "kline": "candle", "klines": "candle",
	"bars": "bar", "averages": "average", "avg": "average", "mas": "ma", "emas": "ema", "smas": "sma", "wmas": "wma",
	"stdev": "std", "stddev": "std", "sd": "std", "stdevs": "std", "devs": "deviation", "dev": "deviation",
	"colour": "color", "grey": "gray", "yearly": "annual", "annually": "annual",
	"lengths": "length", "periods": "period", "per": "per", "vs": "versus", "w/": "with", "w": "with",
	"plz": "please", "pls": "please", "thru": "through", "till": "until", "til": "until",
	"timeframes": "timeframe", "tf": "timeframe", "intervals": "interval", "hilo": "hilo",
	"bollinger's": "bollinger", "bollingers": "bollinger", "ichimoku's": "ichimoku", "elder's": "elder", "elders": "elder",
	"williams": "williams", "stochastics": "stochastic", "oscillators": "oscillator", "indicators": "indicator",
	"indices": "index", "analyses": "analysis",
}

// noStrip are words whose trailing s is not a plural.
var noStrip = map[string]bool{
	"williams": true, "has": true, "was": true, "is": true, "this": true, "plus": true, "previous": true,
	"bonus": true, "focus": true, "versus": true, "analysis": true, "us": true, "status": true, "bps": true,
	"news": true, "its": true, "ths": true, "ms": true, "as": true, "vs": true, "chaikin's": true, "keltner's": true,
	"hours": false, "tsx": true, "nas": true, "sats": true, "mass": true, "less": true, "across": true, "gas": true,
	"class": true, "cross": true, "ichimoku's": true, "bonds": false, "series": true, "axis": true, "bias": true,
	"process": true, "does": true, "alias": true, "minus": true, "glass": true, "dis": true, "tesla's": false,
	"oils": false, "sys": true, "chaos": true, "apples": false, "lots": false, "futures": true, "atlas": true,
}

// wordNorm is what synonyms, unitWords and noStrip say of one word, so a
// word is looked up once instead of in each of them.
type wordNorm struct {
	direct    string // the synonym, else the unit: what the word becomes as it is
	hasDirect bool
	syn       string // the synonym
	hasSyn    bool
	noStrip   bool
}

// words merges the three tables, and numberFirst marks the first letters of
// the number words (most words need no look-up there); built on first use.
var (
	wordsOnce   sync.Once
	words       map[string]wordNorm
	numberFirst [256]bool
)

func loadWords() {
	wordsOnce.Do(func() {
		words = make(map[string]wordNorm, len(synonyms)+len(unitWords)+len(noStrip))
		for w, s := range synonyms {
			e := words[w]
			e.direct, e.hasDirect, e.syn, e.hasSyn = s, true, s, true
			words[w] = e
		}
		for w, u := range unitWords {
			if e := words[w]; !e.hasDirect && u != "" {
				e.direct, e.hasDirect = u, true
				words[w] = e
			}
		}
		for w, no := range noStrip {
			e := words[w]
			e.noStrip = no
			words[w] = e
		}
		for w := range numberWords {
			numberFirst[w[0]] = true
		}
	})
}

// normLower normalises one lower-cased word: a synonym, a unit, else the
// word without a plural s (a synonym of that), as the tables say.
func normLower(w string) string {
	e, ok := words[w]
	if ok && e.hasDirect {
		return e.direct
	}
	if strings.HasSuffix(w, "'s") {
		w = w[:len(w)-2]
		e, ok = words[w]
	}
	if len(w) > 3 && w[len(w)-1] == 's' && w[len(w)-2] != 's' && !(ok && e.noStrip) {
		w = w[:len(w)-1]
		if e, ok := words[w]; ok && e.hasSyn {
			return e.syn
		}
	}
	return w
}

// numberWord is numberWords[w], without hashing words that cannot be one.
func numberWord(w string) (int, bool) {
	if len(w) < 3 || !numberFirst[w[0]] {
		return 0, false
	}
	n, ok := numberWords[w]
	return n, ok
}

var numberWords = map[string]int{
	"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
	"sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
	"fourty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
}

// ordinal words used for "first/second..." are not numbers; "couple" is deliberately absent.

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// lex splits text into tokens. Hyphens split words ("fifty-day" → fifty day);
// a number glued to letters splits ("4h" → 4 hour, "50d" → 50 day).
func lex(s string, out []token) []token {
	loadWords()
	var low lowerText
	low.s = s
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ',' || c == ';' || c == '/' || c == '&' || c == '+' || c == '|':
			out = append(out, token{kind: tSep, word: s[i : i+1]})
			i++
		case c == '(' || c == '[':
			out = append(out, token{kind: tOpen})
			i++
		case c == ')' || c == ']':
			out = append(out, token{kind: tClose})
			i++
		case isDigit(c) || (c == '.' && i+1 < len(s) && isDigit(s[i+1])):
			j := i
			for j < len(s) && (isDigit(s[j]) || s[j] == '.' && j+1 < len(s) && isDigit(s[j+1]) || s[j] == ',' && j+3 < len(s) && isDigit(s[j+1]) && isDigit(s[j+2]) && isDigit(s[j+3]) && (j+4 >= len(s) || !isDigit(s[j+4]))) {
				j++
			}
			lit := strings.ReplaceAll(s[i:j], ",", "")
			f, err := parseNumber(lit)
			if err != nil {
				i = j
				continue
			}
			out = append(out, token{kind: tNum, num: f, isInt: !strings.Contains(lit, "."), orig: s[i:j]})
			i = j
			// Letters glued to the number: a unit ("4h", "1M") or a suffix ("1080p", "70k").
			k := j
			for k < len(s) && isLetter(s[k]) {
				k++
			}
			if k > j {
				suffix := s[j:k]
				switch suffix {
				case "k", "K": // 70k (or a 4K screen: see screenK)
					out[len(out)-1].num *= 1000
					out[len(out)-1].orig += suffix
					i = k
					continue
				case "x", "X": // 2x std
					i = k
					continue
				}
				if u, ok := compactUnit(suffix); ok {
					out = append(out, token{kind: tWord, word: u, orig: suffix, compact: true})
				} else {
					out = append(out, token{kind: tWord, word: normLower(low.of(j, k)), orig: suffix, compact: true})
				}
				i = k
			}
		case isLetter(c) || c == '%' || c >= 0x80:
			j := i
			for j < len(s) && (isLetter(s[j]) || s[j] == '%' || s[j] == '\'' || s[j] == '.' && j+1 < len(s) && isLetter(s[j+1]) && j > i && s[j-1] != '.' || s[j] >= 0x80) {
				j++
			}
			w := trimQuoteDot(s[i:j])
			if w == "" {
				i = j + 1
				continue
			}
			// MetaTrader interval names: M15, H4, D1, W1, MN1 → a number and its unit
			if unit, ok := mtUnit(w); ok && j < len(s) && isDigit(s[j]) && (i == 0 || !isLetter(s[i-1])) {
				k := j
				for k < len(s) && isDigit(s[k]) {
					k++
				}
				if k == len(s) || !isLetter(s[k]) {
					n, _ := strconv.Atoi(s[j:k])
					out = append(out, token{kind: tNum, num: float64(n), isInt: true, orig: s[j:k]},
						token{kind: tWord, word: unit, orig: w, compact: true})
					i = k
					continue
				}
			}
			out = append(out, token{kind: tWord, word: normLower(low.of(i, i+len(w))), orig: w, upper: len(w) > 1 && isUpper(w)})
			i = j
			// Letters glued to a number: rsi14, ema20, sma200.
			if j < len(s) && isDigit(s[j]) && glueable[out[len(out)-1].word] {
				continue
			}
		default:
			i++
		}
	}
	return mergeNumberWords(out)
}

// parseNumber is strconv.ParseFloat(lit, 64) for the digits lex finds: up to
// 15 plain digits are read directly (exact below 2^53, as ParseFloat's).
func parseNumber(lit string) (float64, error) {
	if len(lit) == 0 || len(lit) > 15 {
		return strconv.ParseFloat(lit, 64)
	}
	n := uint64(0)
	for i := 0; i < len(lit); i++ {
		if !isDigit(lit[i]) {
			return strconv.ParseFloat(lit, 64)
		}
		n = n*10 + uint64(lit[i]-'0')
	}
	return float64(n), nil
}

// trimQuoteDot is strings.TrimRight(w, "'.").
func trimQuoteDot(w string) string {
	for len(w) > 0 && (w[len(w)-1] == '\'' || w[len(w)-1] == '.') {
		w = w[:len(w)-1]
	}
	return w
}

// mtUnit is mtUnits[w], without hashing words that cannot be one.
func mtUnit(w string) (string, bool) {
	// one lower-case letter too ("m5", "h4"), as traders type MetaTrader's names
	if len(w) == 1 && (w[0] == 'm' || w[0] == 'h' || w[0] == 'd' || w[0] == 'w') {
		w = string(w[0] - 'a' + 'A')
	}
	if len(w) > 2 || w[0] < 'A' || w[0] > 'Z' {
		return "", false
	}
	u, ok := mtUnits[w]
	return u, ok
}

// isUpper is strings.ToUpper(w) == w && strings.ToLower(w) != w: written in
// capitals, with at least one cased letter.
func isUpper(w string) bool {
	cased := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 0x80:
			return strings.ToUpper(w) == w && strings.ToLower(w) != w
		case c >= 'a' && c <= 'z':
			return false
		case c >= 'A' && c <= 'Z':
			cased = true
		}
	}
	return cased
}

// lowerText lower-cases the words of one text without an allocation per
// word: ASCII letters are lowered once for the whole text (only if it has
// capitals), and a word with other bytes goes through strings.ToLower, which
// may change its length.
type lowerText struct {
	s, lower string
	done     bool
}

// of is strings.ToLower(s[i:j]).
func (l *lowerText) of(i, j int) string {
	w := l.s[i:j]
	for k := 0; k < len(w); k++ {
		if w[k] >= 0x80 {
			return strings.ToLower(w)
		}
	}
	if !l.done {
		l.done = true
		l.lower = asciiLower(l.s)
	}
	return l.lower[i:j]
}

// asciiLower lowers the ASCII capitals of s, leaving every other byte as it is.
func asciiLower(s string) string {
	k := 0
	for k < len(s) && (s[k] < 'A' || s[k] > 'Z') {
		k++
	}
	if k == len(s) {
		return s
	}
	b := []byte(s)
	for ; k < len(b); k++ {
		if c := b[k]; c >= 'A' && c <= 'Z' {
			b[k] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// glueable are words that may carry a length without a space (rsi14, ema200).
var glueable = map[string]bool{"rsi": true, "ema": true, "sma": true, "ma": true, "wma": true, "bb": true,
	"atr": true, "cci": true, "mfi": true, "roc": true, "vwma": true, "hma": true, "dema": true, "tema": true,
	"adx": true, "willr": true, "mom": true, "trix": true, "cmf": true, "stoch": true, "macd": true}

// mergeNumberWords turns "twenty one" → 21, "two hundred" → 200, "fifty" → 50.
func mergeNumberWords(in []token) []token {
	out := in[:0]
	for i := 0; i < len(in); i++ {
		t := in[i]
		if t.kind != tWord && t.kind != tNum {
			out = append(out, t)
			continue
		}
		if t.kind == tNum && i+1 < len(in) && (in[i+1].word == "hundred" || in[i+1].word == "thousand") && in[i+1].kind == tWord {
			if in[i+1].word == "hundred" { // "2 hundred"
				t.num *= 100
			} else {
				t.num *= 1000
			}
			out = append(out, t)
			i++
			continue
		}
		v, ok := numberWord(t.word)
		if t.kind != tWord || !ok {
			out = append(out, t)
			continue
		}
		total, cur := 0, v
		j := i + 1
		for ; j < len(in) && in[j].kind == tWord; j++ {
			w := in[j].word
			if n, ok := numberWord(w); ok && n < 10 && cur >= 20 && cur%10 == 0 && cur < 100 {
				cur += n
			} else if w == "hundred" {
				cur *= 100
			} else if w == "thousand" {
				total += cur * 1000
				cur = 0
			} else if n, ok := numberWord(w); ok && cur >= 100 && cur%100 == 0 {
				cur += n
			} else if w == "and" && j+1 < len(in) && cur >= 100 {
				if _, ok := numberWord(in[j+1].word); !ok {
					break
				}
			} else {
				break
			}
		}
		out = append(out, token{kind: tNum, num: float64(total + cur), isInt: true, orig: t.orig})
		i = j - 1
	}
	return out
}
