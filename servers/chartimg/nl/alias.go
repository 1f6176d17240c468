package nl

import "strings"

// IndicatorAlias maps a common short or wrong name ("RSI", "BB",
// "BollingerBands@tv-basicstudies", "EMA") to the documented display name.
func (b *Builder) IndicatorAlias(name string) (string, bool) {
	name = strings.TrimSpace(name)
	if i := strings.Index(name, "@"); i > 0 { // TradingView widget naming
		name = name[:i]
	}
	name = splitCamel(name)
	var toks [8]token
	ts := lex(name, toks[:0])
	if len(ts) == 0 {
		return "", false
	}
	for _, p := range b.dict.phrases(ts[0]) {
		if p.e.kind != kIndicator || len(p.words) != len(ts) {
			continue
		}
		ok := true
		for j := 1; j < len(ts); j++ {
			ok = ok && keyIs(ts[j], p.words[j])
		}
		if ok {
			return p.e.value, true
		}
	}
	return "", false
}

// splitCamel turns "BollingerBands" into "Bollinger Bands".
func splitCamel(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if i > 0 && c >= 'A' && c <= 'Z' && s[i-1] >= 'a' && s[i-1] <= 'z' {
			b.WriteByte(' ')
		}
		b.WriteByte(c)
	}
	return b.String()
}
