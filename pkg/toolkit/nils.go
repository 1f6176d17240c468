package toolkit

import (
	"reflect"
	"strings"
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

// fieldFill is one struct field that may hold a nil to fill, directly or
// deeper down.
type fieldFill struct {
	index int
	// omitEmpty: a nil slice or map here is left as it is: encoding/json
	// omits nil and empty alike, so filling it would only allocate.
	omitEmpty bool
}

// fillPlans memoises, per struct type, the fields fill visits: fields that
// can never hold a nil slice or map (and json:"-" fields) are not walked on
// every call (the walk and its allocations showed per call).
var fillPlans sync.Map // reflect.Type → []fieldFill

func planOf(t reflect.Type) []fieldFill {
	if v, ok := fillPlans.Load(t); ok {
		return v.([]fieldFill)
	}
	var plan []fieldFill
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" || !typeNeedsFill(f.Type) {
			continue
		}
		k := f.Type.Kind()
		plan = append(plan, fieldFill{index: i, omitEmpty: (k == reflect.Slice || k == reflect.Map) && hasOmitEmpty(tag)})
	}
	fillPlans.Store(t, plan)
	return plan
}

// hasOmitEmpty reports the omitempty option of a json tag (omitzero is not
// it: an empty slice is not its zero value, so it would be written).
func hasOmitEmpty(tag string) bool {
	_, opts, _ := strings.Cut(tag, ",")
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == "omitempty" {
			return true
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
		for _, f := range planOf(v.Type()) {
			fv := v.Field(f.index)
			if f.omitEmpty && fv.IsNil() {
				continue
			}
			fill(fv)
		}
	case reflect.Slice:
		if v.IsNil() {
			if v.CanSet() {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			}
			return
		}
		et := v.Type().Elem()
		if k := et.Kind(); (k == reflect.Struct || k == reflect.Pointer || k == reflect.Slice || k == reflect.Array) && typeNeedsFill(et) {
			for i := range v.Len() {
				fill(v.Index(i))
			}
		}
	case reflect.Array:
		if typeNeedsFill(v.Type().Elem()) {
			for i := range v.Len() {
				fill(v.Index(i))
			}
		}
	case reflect.Map:
		if v.IsNil() && v.CanSet() {
			v.Set(reflect.MakeMap(v.Type()))
		}
	}
}
