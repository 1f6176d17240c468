package toolkit

import (
	"slices"
	"testing"
)

func TestClosestN(t *testing.T) {
	names := []string{"Relative Strength Index", "Relative Vigor Index", "Bollinger Bands", "Bollinger Bands %B", "MACD"}
	for _, c := range []struct {
		name string
		n    int
		want []string
	}{
		{"Bolinger Band", 2, []string{"Bollinger Bands", "Bollinger Bands %B"}},
		{"relative strength", 1, []string{"Relative Strength Index"}},
		{"macd", 1, []string{"MACD"}},
		{"x", 0, []string{}},
	} {
		if got := ClosestN(c.name, names, c.n); !slices.Equal(got, c.want) {
			t.Errorf("ClosestN(%q, %d) = %q, want %q", c.name, c.n, got, c.want)
		}
	}
}
