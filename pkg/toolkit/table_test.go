package toolkit

import (
	"encoding/json"
	"reflect"
	"testing"
)

type tableRow struct {
	ID     string   `json:"id"`
	Qty    float64  `json:"qty,omitempty"`
	Price  *float64 `json:"price,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	OK     bool     `json:"ok"`
	Hidden string   `json:"-"`
	inner  int
}

func TestTabulate(t *testing.T) {
	p := 12.5
	cases := []struct {
		name string
		in   []tableRow
		want string
	}{
		{"nil list", nil, `{"cols":["id","qty","price","tags","ok"],"rows":[]}`},
		{"zeros kept, nils null", []tableRow{{ID: "a"}}, `{"cols":["id","qty","price","tags","ok"],"rows":[["a",0,null,null,false]]}`},
		{"full row", []tableRow{{ID: "b", Qty: 3, Price: &p, Tags: []string{"x"}, OK: true, Hidden: "no", inner: 1}},
			`{"cols":["id","qty","price","tags","ok"],"rows":[["b",3,12.5,["x"],true]]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cols, rows := Tabulate(tc.in)
			b, err := json.Marshal(map[string]any{"cols": cols, "rows": rows})
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Fatalf("got  %s\nwant %s", b, tc.want)
			}
			if !reflect.DeepEqual(cols, Columns[tableRow]()) {
				t.Fatalf("cols %v differ from Columns %v", cols, Columns[tableRow]())
			}
		})
	}
}

// An embedded struct's fields are columns in its place, as encoding/json
// writes them, and round-trip.
type detailRow struct {
	tableRow
	Extra string `json:"extra"`
}

func TestTabulateEmbedded(t *testing.T) {
	in := []detailRow{{tableRow: tableRow{ID: "a", Qty: 2, OK: true}, Extra: "x"}}
	cols, rows := Tabulate(in)
	b, _ := json.Marshal(map[string]any{"cols": cols, "rows": rows})
	if want := `{"cols":["id","qty","price","tags","ok","extra"],"rows":[["a",2,null,null,true,"x"]]}`; string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	got, err := Untabulate[detailRow](cols, rows)
	if err != nil || !reflect.DeepEqual(got, in) {
		t.Fatalf("round trip: %+v %v", got, err)
	}
}

func TestUntabulateRoundTrip(t *testing.T) {
	p := 7.0
	in := []tableRow{{ID: "a", Qty: 1, Price: &p, Tags: []string{"t"}, OK: true}, {ID: "b"}}
	cols, rows := Tabulate(in)
	// Across the wire: values come back as float64, []any and so on.
	b, _ := json.Marshal(rows)
	var wire [][]any
	if err := json.Unmarshal(b, &wire); err != nil {
		t.Fatal(err)
	}
	for _, r := range [][][]any{rows, wire} {
		got, err := Untabulate[tableRow](cols, r)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, in) {
			t.Fatalf("got %+v want %+v", got, in)
		}
	}
	// Columns are matched by name: reordered or unknown columns still decode.
	got, err := Untabulate[tableRow]([]string{"ok", "extra", "id"}, [][]any{{true, 1, "z"}})
	if err != nil || len(got) != 1 || got[0].ID != "z" || !got[0].OK {
		t.Fatalf("by name: %+v %v", got, err)
	}
	if _, err := Untabulate[tableRow](cols, [][]any{{"short"}}); err == nil {
		t.Fatal("a short row decoded")
	}
	if _, err := Untabulate[tableRow]([]string{"qty"}, [][]any{{"not a number"}}); err == nil {
		t.Fatal("a mistyped value decoded")
	}
}

func TestTabulateRejectsNonStruct(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for a non-struct row")
		}
	}()
	Tabulate([]int{1})
}
