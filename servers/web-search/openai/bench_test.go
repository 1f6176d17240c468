package openai

import (
	"encoding/json"
	"testing"
)

// BenchmarkParseRecorded decodes, parses and renders a real 12 KB answer
// (gpt-5-mini, 4 reasoning items, 3 search actions, 10 citations).
func BenchmarkParseRecorded(b *testing.B) {
	body := contract.Recording(b, "gpt-5-mini-2025-12.json")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := Decode(body)
		if err != nil {
			b.Fatal(err)
		}
		if out := Parse(r).Render(5); len(out.Citations) != 5 {
			b.Fatal(len(out.Citations))
		}
	}
}

// BenchmarkAnchorUnmarshalMap is the anchor: encoding/json into a generic
// map, the least any reader of this body pays.
func BenchmarkAnchorUnmarshalMap(b *testing.B) {
	body := contract.Recording(b, "gpt-5-mini-2025-12.json")
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCitedSpan converts the last annotation of the recording (offset
// ~2,800 code points, non-ASCII before it).
func BenchmarkCitedSpan(b *testing.B) {
	r, _ := Decode(contract.Recording(b, "gpt-5-mini-2025-12.json"))
	p := r.Output[len(r.Output)-1].Content[0]
	a := p.Annotations[len(p.Annotations)-1]
	b.ReportAllocs()
	for b.Loop() {
		if _, _, ok := CitedSpan(p.Text, a.StartIndex, a.EndIndex, a.URL); !ok {
			b.Fatal("no span")
		}
	}
}
