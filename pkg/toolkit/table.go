package toolkit

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// A table is a list of uniform rows written as its column names once and then
// rows of bare values, instead of objects that repeat every key per row: for
// lists of short records the keys are most of the bytes a model pays for
// (the 30% budget for list results in docs/benchmarks.md). Rows are ordinary structs with json
// tags; their json names, in field order, are the columns (an embedded
// struct's fields in its place, as encoding/json writes them).
//
// A tool's output type declares the two fields itself, so its schema can name
// its own columns:
//
//	Cols []string `json:"cols" jsonschema:"order_id,side,quantity"`
//	Rows [][]any  `json:"rows"`
//
// and fills them with Tabulate; a test compares the tag with Columns[R]().

// Columns returns R's column names: the json names of its exported fields in
// declaration order, an embedded struct's in its place ("-" fields and
// unexported fields are not columns).
func Columns[R any]() []string {
	return append([]string(nil), layoutOf(reflect.TypeFor[R]()).names...)
}

// Tabulate turns rows into (cols, rows). Every row has one value per column,
// in column order; an omitempty field's zero value is written as that zero
// ("", 0, false) and a nil pointer, slice or map as null, so a row's length
// never varies. A nil list gives empty, non-nil rows.
func Tabulate[R any](list []R) (cols []string, rows [][]any) {
	l := layoutOf(reflect.TypeFor[R]())
	rows = make([][]any, len(list))
	for i := range list {
		v := reflect.ValueOf(&list[i]).Elem()
		row := make([]any, len(l.index))
		for c, idx := range l.index {
			f := v.FieldByIndex(idx)
			switch f.Kind() {
			case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
				if f.IsNil() {
					continue // nil: null
				}
			}
			row[c] = f.Interface()
		}
		rows[i] = row
	}
	return l.names, rows
}

// Untabulate decodes a table back into rows of R, matching columns by name (a
// column R does not have is skipped, a field with no column stays zero). It is
// for Go callers and tests that read a tool's result as records; values go
// through encoding/json, so a table that crossed the wire decodes the same as
// one fresh from Tabulate.
func Untabulate[R any](cols []string, rows [][]any) ([]R, error) {
	out := make([]R, 0, len(rows))
	for i, r := range rows {
		if len(r) != len(cols) {
			return nil, fmt.Errorf("row %d has %d values for %d columns", i, len(r), len(cols))
		}
		obj := make(map[string]any, len(cols))
		for c, name := range cols {
			obj[name] = r[c]
		}
		b, err := json.Marshal(obj)
		if err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		var rec R
		if err := json.Unmarshal(b, &rec); err != nil {
			return nil, fmt.Errorf("row %d: %w", i, err)
		}
		out = append(out, rec)
	}
	return out, nil
}

// tableLayout is a row type's columns: names and the struct field index
// paths (an embedded struct's fields are its own columns, in place, as
// encoding/json promotes them).
type tableLayout struct {
	names []string
	index [][]int
}

var tableLayouts sync.Map // reflect.Type → *tableLayout

func layoutOf(t reflect.Type) *tableLayout {
	if l, ok := tableLayouts.Load(t); ok {
		return l.(*tableLayout)
	}
	if t.Kind() != reflect.Struct {
		panic("toolkit.Tabulate: a row must be a struct, not " + t.String())
	}
	l := &tableLayout{}
	l.add(t, nil)
	tableLayouts.Store(t, l)
	return l
}

// add appends t's columns, their index paths under prefix.
func (l *tableLayout) add(t reflect.Type, prefix []int) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		path := append(append([]int(nil), prefix...), i)
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			l.add(f.Type, path) // promoted fields, as encoding/json writes them
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		l.names = append(l.names, name)
		l.index = append(l.index, path)
	}
}
