package toolkit

import (
	"encoding/json"
	"testing"
)

type nested struct {
	Rows  []int          `json:"rows"`
	Kids  []*nested      `json:"kids"`
	Attrs map[string]int `json:"attrs"`
}

func TestFillNils(t *testing.T) {
	in := struct {
		A []string `json:"a"`
		N nested   `json:"n"`
		P *nested  `json:"p"`
		L []nested `json:"l"`
	}{P: &nested{}, L: []nested{{}}}
	b, _ := json.Marshal(fillNils(in))
	want := `{"a":[],"n":{"rows":[],"kids":[],"attrs":{}},"p":{"rows":[],"kids":[],"attrs":{}},"l":[{"rows":[],"kids":[],"attrs":{}}]}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	if fillNils(3) != 3 {
		t.Fatal("scalars pass through")
	}
}

func BenchmarkFillNilsFlat(b *testing.B) {
	v := sampleOut{Count: 1}
	for b.Loop() {
		_ = fillNils(v)
	}
}
