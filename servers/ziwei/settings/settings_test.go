package settings

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, wantErr string
	}{
		{`{}`, ""},
		{`{"mutagens":{"庚":["太阳","武曲","天同","太阴"],"壬":["天梁","紫微","天府","武曲"]}}`, ""},
		{`{"mutagens":{"gēng":["sun"]}}`, "unknown heavenly stem"},
		{`{"mutagens":{"geng":["sun","warrior","moon","empress","x"]}}`, "give exactly 4"},
		{`{"mutagens":{"庚":["太阳","太阳","天同","太阴"]}}`, "appears twice"},
		{`{"mutagens":{"庚":["太阳","武曲","天同","北极星"]}}`, "unknown star"},
		{`{"mutagens":{"庚":["太阳","武曲","天同","太阴"],"geng":["太阳","武曲","天同","太阴"]}}`, "given twice"},
		{`{"brightness":{"紫微":["旺","旺","得","旺","庙","庙","旺","旺","得","旺","平","庙"]}}`, ""},
		{`{"brightness":{"紫微":["旺"]}}`, "give exactly 12"},
		{`{"brightness":{"紫微":["旺","旺","得","旺","庙","庙","旺","旺","得","旺","平","好"]}}`, "unknown brightness"},
		{`{"algorithm":"nanpai"}`, "unknown value"},
		{`{"algorithm":"zhongzhou","yearDivide":"exact","horoscopeDivide":"exact","ageDivide":"birthday","dayDivide":"current"}`, ""},
		{`{"school":"nanpai"}`, "unknown field"},
		{`[1]`, "not a valid settings object"},
	} {
		_, err := Parse([]byte(tc.in))
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tc.in, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("%s: error %v, want %q", tc.in, err, tc.wantErr)
		}
	}
}

func TestPackRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{"mutagens":{"庚":["太阳","武曲","天同","太阴"],"壬":["天梁","紫微","天府","武曲"]}}`,
		`{"mutagens":{"甲":["廉贞","破军","武曲","太阳"]},"brightness":{"太阳":["旺","庙","旺","旺","旺","得","得","平","陷","陷","陷","不"],"紫微":["","","","","","","","","","","","庙"]}}`,
	} {
		c, err := Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		p := Pack(c)
		back, err := Unpack(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if Pack(back) != p {
			t.Errorf("round trip differs for %s", in)
		}
		j, _ := json.Marshal(Of(back))
		again, err := Parse(j)
		if err != nil || Pack(again) != p {
			t.Errorf("echo %s does not parse back: %v", j, err)
		}
		// a changed character is caught
		bad := []byte(p)
		bad[len(bad)/2] = map[bool]byte{true: '1', false: '0'}[bad[len(bad)/2] == '0']
		if _, err := Unpack(string(bad)); err == nil {
			t.Errorf("mistyped %s accepted", bad)
		}
	}
	if !(&astro.Config{}).IsDefault() {
		t.Error("zero config is not the default")
	}
}

// FuzzParse: the settings validator never panics, and whatever it accepts
// packs, unpacks and echoes back to the same config.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{}`, `{"mutagens":{"庚":["太阳","武曲","天同","太阴"]}}`, `{"brightness":{"sun":["[+3]","","","","","","","","","","","[-3]"]}}`, `{"algorithm":"default","dayDivide":"forward"}`, `{"mutagens":{"x":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		c, err := Parse(raw)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		if c.IsDefault() {
			return
		}
		back, err := Unpack(Pack(c))
		if err != nil || Pack(back) != Pack(c) {
			t.Fatalf("accepted %s but pack round trip fails: %v", raw, err)
		}
	})
}

// FuzzUnpack: the chart_id settings part never panics on any input.
func FuzzUnpack(f *testing.F) {
	f.Add("0000")
	f.Add(Pack(astro.Config{HasMutagens: 1, Mutagens: [10][4]astro.StarID{{0, 1, 2, 3}}}))
	f.Fuzz(func(t *testing.T, s string) {
		if c, err := Unpack(s); err == nil && Pack(c) != strings.ToLower(s) {
			t.Fatalf("%q accepted but packs to %q", s, Pack(c))
		}
	})
}
