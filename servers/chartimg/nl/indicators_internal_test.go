package nl

import "testing"

func TestSameInput(t *testing.T) {
	cases := []struct {
		a, b map[string]any
		want bool
	}{
		{map[string]any{"length": 20.0}, map[string]any{"length": 20.0}, true},
		{map[string]any{"length": 20.0}, map[string]any{"length": 50.0}, false},
		{map[string]any{"length": 20}, map[string]any{"length": 20.0}, true}, // as printed
		{map[string]any{"source": "close"}, map[string]any{"source": "open"}, false},
		{map[string]any{"l": []any{1.0}}, map[string]any{"l": []any{1.0}}, true}, // no panic on slices
		{map[string]any{"a": 1.0}, map[string]any{"b": 1.0}, false},
		{map[string]any{}, map[string]any{"b": 1.0}, false},
		{nil, map[string]any{}, true},
	}
	for i, tc := range cases {
		if got := sameInput(tc.a, tc.b); got != tc.want {
			t.Errorf("case %d: sameInput(%v, %v) = %v", i, tc.a, tc.b, got)
		}
	}
}
