package toolkit

import (
	"encoding/json"
	"reflect"
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

// fillBefore is fill as it was before the per-type plans (every exported
// field walked, every nil filled): the plans must not change what a result
// marshals to.
func fillBefore(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			fillBefore(v.Elem())
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				fillBefore(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			if v.CanSet() {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			}
			return
		}
		if k := v.Type().Elem().Kind(); k == reflect.Struct || k == reflect.Pointer || k == reflect.Slice || k == reflect.Array {
			for i := range v.Len() {
				fillBefore(v.Index(i))
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			fillBefore(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() && v.CanSet() {
			v.Set(reflect.MakeMap(v.Type()))
		}
	}
}

type fillLeaf struct {
	N    int               `json:"n"`
	Tags []string          `json:"tags,omitempty"`
	Zero []string          `json:"zero,omitzero"`
	Meta map[string]string `json:"meta,omitempty"`
	Must map[string]int    `json:"must"`
}

type FillEmbedded struct {
	Extra []int `json:"extra"`
}

type fillTree struct {
	FillEmbedded
	Name   string                `json:"name"`
	Leaves []fillLeaf            `json:"leaves"`
	Opt    []fillLeaf            `json:"opt,omitempty"`
	Ptrs   []*fillLeaf           `json:"ptrs"`
	Grid   [2][]int              `json:"grid"`
	Maps   []map[string]int      `json:"maps"`
	Skip   []int                 `json:"-"`
	Child  *fillTree             `json:"child,omitempty"`
	ByName map[string][]fillLeaf `json:"by_name"`
	flat   []int                 // unexported: never filled (marshalling cannot show it: checked directly)
}

// FuzzFillPlansMatchTheWalk: for trees whose nils are chosen by the input,
// the planned fill marshals to exactly what the full walk did.
func FuzzFillPlansMatchTheWalk(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{255, 255, 255, 255, 255, 255, 255, 255})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, choices []byte) {
		i := 0
		pick := func() bool { // true: make this one non-nil
			if i >= len(choices) {
				return false
			}
			c := choices[i/8]>>(i%8)&1 == 1
			i++
			return c && i/8 < len(choices)
		}
		mkLeaf := func() fillLeaf {
			l := fillLeaf{N: i}
			if pick() {
				l.Tags = []string{}
			}
			if pick() {
				l.Zero = []string{"z"}
			}
			if pick() {
				l.Meta = map[string]string{}
			}
			if pick() {
				l.Must = map[string]int{"a": 1}
			}
			return l
		}
		var mkTree func(depth int) *fillTree
		mkTree = func(depth int) *fillTree {
			tr := &fillTree{Name: "t"}
			if pick() {
				tr.Extra = []int{1}
			}
			if pick() {
				tr.Leaves = []fillLeaf{mkLeaf(), mkLeaf()}
			}
			if pick() {
				tr.Opt = []fillLeaf{mkLeaf()}
			}
			if pick() {
				l := mkLeaf()
				tr.Ptrs = []*fillLeaf{&l, nil}
			}
			if pick() {
				tr.Grid[1] = []int{}
			}
			if pick() {
				tr.Maps = []map[string]int{nil, {"k": 1}}
			}
			if pick() {
				tr.ByName = map[string][]fillLeaf{"x": nil}
			}
			if depth < 2 && pick() {
				tr.Child = mkTree(depth + 1)
			}
			return tr
		}
		a := mkTree(0)
		i = 0
		b := mkTree(0)
		fill(reflect.ValueOf(a).Elem())
		fillBefore(reflect.ValueOf(b).Elem())
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("planned %s\n  walk  %s", ja, jb)
		}
		for tr := a; tr != nil; tr = tr.Child {
			if tr.flat != nil {
				t.Fatal("an unexported field was filled")
			}
		}
	})
}

func BenchmarkFillNilsTree(b *testing.B) {
	l := fillLeaf{Must: map[string]int{}}
	v := fillTree{Leaves: make([]fillLeaf, 12), Ptrs: []*fillLeaf{&l}, Child: &fillTree{}}
	for i := range v.Leaves {
		v.Leaves[i].Must = map[string]int{}
	}
	b.Run("planned", func(b *testing.B) {
		for b.Loop() {
			fill(reflect.ValueOf(&v).Elem())
		}
	})
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			fillBefore(reflect.ValueOf(&v).Elem())
		}
	})
}
