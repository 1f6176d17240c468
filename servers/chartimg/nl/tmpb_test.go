package nl

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/docsparse"
)

const tmpText = "Tesla daily candles with the 20 and 50 EMA and RSI 14 over the past 6 months, dark"

func BenchmarkTmpLex(b *testing.B) {
	var toks [48]token
	for b.Loop() {
		lex(tmpText, toks[:0])
	}
}

func BenchmarkTmpExtract(b *testing.B) {
	s := &state{}
	for b.Loop() {
		s.extract(tmpText)
	}
}

func BenchmarkTmpMatch(b *testing.B) {
	bl := New(docsparse.Snapshot())
	s := &state{b: bl}
	var toks [48]token
	ts := lex(tmpText, toks[:0])
	var cp [48]token
	for b.Loop() {
		c := append(cp[:0], ts...)
		s.match(c)
	}
}
