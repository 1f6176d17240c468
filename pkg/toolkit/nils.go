package toolkit

import (
	"reflect"
	"sync"
)

// fillNils replaces nil slices and maps inside v with empty ones, so a handler's
// "no rows" marshals as [] and matches the output schema's "type":"array"
// (a type list with "null" is flagged as unportable by strict clients).
func fillNils[T any](v T) T {
	rv := reflect.ValueOf(&v).Elem()
	if typeNeedsFill(rv.Type()) {
		fill(rv)
	}
	return v
}

// fillNilsAt is fillNils in place, for the per-call path: no copy of the
// value, and nothing at all for a type that holds no slice or map.
func fillNilsAt[T any](p *T) {
	if typeNeedsFill(reflect.TypeFor[T]()) {
		fill(reflect.ValueOf(p).Elem())
	}
}

// fillable memoises needsFill per type: the answer never changes and every
// call of every tool asks.
var fillable sync.Map // reflect.Type → bool

func typeNeedsFill(t reflect.Type) bool {
	if v, ok := fillable.Load(t); ok {
		return v.(bool)
	}
	n := needsFill(t, map[reflect.Type]bool{})
	fillable.Store(t, n)
	return n
}

// needsFill reports whether a type can hold a nil slice or map at all, so flat
// results skip the walk.
func needsFill(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Slice, reflect.Map:
		return true
	case reflect.Pointer, reflect.Array:
		return needsFill(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if t.Field(i).IsExported() && needsFill(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}

func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			fill(v.Elem())
		}
	case reflect.Struct:
		t := v.Type()
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				fill(v.Field(i))
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
				fill(v.Index(i))
			}
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() && v.CanSet() {
			v.Set(reflect.MakeMap(v.Type()))
		}
	}
}
