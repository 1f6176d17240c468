package envelope

import (
	"encoding/json"
	"testing"
)

func TestCoverageWire(t *testing.T) {
	type out struct {
		Coverage
		Items []int `json:"items"`
	}
	cases := []struct {
		name string
		c    Coverage
		want string
	}{
		{"whole", Whole(), `{"complete":true,"items":[]}`},
		{"empty", Nothing("no data"), `{"complete":true,"empty":"no data","items":[]}`},
		{"page", Page("c2", "rows 51-312 of 312", "call again with cursor"),
			`{"complete":false,"incomplete":{"reason":"paged","missing":"rows 51-312 of 312","next":"call again with cursor","cursor":"c2"},"items":[]}`},
		{"cut", Cut(Capped, "items past Google's 100", "split the window with before:/after:"),
			`{"complete":false,"incomplete":{"reason":"capped","missing":"items past Google's 100","next":"split the window with before:/after:"},"items":[]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(out{Coverage: tc.c, Items: []int{}})
			if err != nil || string(b) != tc.want {
				t.Fatalf("got %s (%v), want %s", b, err, tc.want)
			}
		})
	}
}

func TestCleanThirdParty(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text, kept\nwith lines\tand tabs", "plain text, kept\nwith lines\tand tabs"},
		{"zero\u200bwidth", "zerowidth"},
		{"bidi \u202eoverride\u202c", "bidi override"},
		{"tags \U000E0069\U000E0067\U000E006Eignore", "tags ignore"},
		{"bell\x07 and del\x7f", "bell and del"},
		{"नमस्ते 東京 café", "नमस्ते 東京 café"},
	}
	for _, tc := range cases {
		if got := CleanThirdParty(tc.in); got != tc.want {
			t.Errorf("CleanThirdParty(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
