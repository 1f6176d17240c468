package chartid

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/birth"
)

func TestRoundTrip(t *testing.T) {
	cases := []birth.Spec{
		{Year: 1990, Month: 5, Day: 17, FixLeap: true, TimeIndex: 6, Clock: -1},
		{Year: 1900, Month: 1, Day: 1, TimeIndex: 0, Clock: -1, Gender: astro.Female},
		{Year: 2100, Month: 12, Day: 31, TimeIndex: 12, Clock: -1, FixLeap: true},
		{Year: 2017, Month: 6, Day: 30, Lunar: true, LeapMonth: true, TimeIndex: 5, Clock: -1},
		{Year: 1985, Month: 2, Day: 3, Clock: 23*60 + 59, FixLeap: true},
		{Year: 1985, Month: 2, Day: 3, Clock: 0, HasLongitude: true, LonCenti: -18000},
		{Year: 1985, Month: 2, Day: 3, Clock: 754, HasLongitude: true, LonCenti: 18000, Gender: astro.Female},
		{Year: 1985, Month: 2, Day: 3, Clock: 754, HasLongitude: true, LonCenti: 0},
	}
	seen := map[string]bool{}
	for _, s := range cases {
		id, err := Encode(s)
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		if len(id) != Len || !strings.HasPrefix(id, Prefix) {
			t.Errorf("%+v: id %q has the wrong shape", s, id)
		}
		if seen[id] {
			t.Errorf("duplicate id %s", id)
		}
		seen[id] = true
		got, err := Decode(id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if got != s {
			t.Errorf("%s: round trip\n got %+v\nwant %+v", id, got, s)
		}
		if up, err := Decode(" " + strings.ToUpper(id) + " "); err != nil || up != s {
			t.Errorf("%s: upper-case form does not decode the same: %v", id, err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	good, _ := Encode(birth.Spec{Year: 1990, Month: 5, Day: 17, TimeIndex: 6, Clock: -1})
	flip := []byte(good)
	if flip[5] == 'a' {
		flip[5] = 'b'
	} else {
		flip[5] = 'a'
	}
	for _, tc := range []struct{ id, want string }{
		{"", "start with zw1"},
		{"abc", "start with zw1"},
		{"zw9abcdefghjkmn", "unknown version"},
		{good[:10], "characters after zw1"},
		{good + "x", "characters after zw1"},
		{"zw1!!!!!!!!!!!!", "not base32"},
		{string(flip), "checksum"},
	} {
		_, err := Decode(tc.id)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "initialize_chart") {
			t.Errorf("Decode(%q) = %v, want an error mentioning %q and the fix", tc.id, err, tc.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{"zw10000000000000", "zw1zzzzzzzzzzzz", "", "zw1", "ZW1ABCDEFGHJKMN"} {
		f.Add(s)
	}
	id, _ := Encode(birth.Spec{Year: 1990, Month: 5, Day: 17, TimeIndex: 6, Clock: -1})
	f.Add(id)
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := Decode(s)
		if err != nil {
			return
		}
		again, err := Encode(spec)
		if err != nil {
			t.Fatalf("decoded spec does not encode: %v", err)
		}
		back, err := Decode(again)
		if err != nil || back != spec {
			t.Fatalf("re-encoding is not stable: %v", err)
		}
		// A decodable id must give a chart or a clean input error, never a panic.
		_, _, _ = spec.Chart()
	})
}
