package upstream

import (
	"errors"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

func TestPath(t *testing.T) {
	for _, tc := range []struct {
		name string
		segs []Segment
		want string // "" when refused
	}{
		{"id", []Segment{Lit("/operations"), Arg("operation_id", "op_1.2:3")}, "/operations/op_1.2:3"},
		{"id and suffix", []Segment{Lit("/trainings"), Arg("operation_id", "t1"), Lit("/performance")}, "/trainings/t1/performance"},
		{"two args", []Segment{Lit("/data"), Arg("symbol", "EURUSD"), Arg("timeframe", "1h")}, "/data/EURUSD/1h"},
		{"literal with slash", []Segment{Lit("/v3/tradingview/exchange/"), Arg("exchange", "NASDAQ")}, "/v3/tradingview/exchange/NASDAQ"},
		{"slash escaped", []Segment{Lit("/data"), Arg("symbol", "BTC/USD")}, "/data/BTC%2FUSD"},
		{"query chars escaped", []Segment{Lit("/x"), Arg("id", "a?b#c d%2e")}, "/x/a%3Fb%23c%20d%252e"},
		{"dots inside a name", []Segment{Lit("/x"), Arg("id", "a..b")}, "/x/a..b"},
		{"leading dot", []Segment{Lit("/x"), Arg("id", ".hidden")}, "/x/.hidden"},
		{"unicode", []Segment{Lit("/x"), Arg("id", "紫微")}, "/x/%E7%B4%AB%E5%BE%AE"},
		{"empty", []Segment{Lit("/x"), Arg("id", "")}, ""},
		{"dot", []Segment{Lit("/x"), Arg("id", ".")}, ""},
		{"dotdot", []Segment{Lit("/x"), Arg("id", "..")}, ""},
		{"dotdot then more", []Segment{Lit("/x"), Arg("id", "../performance")}, ""},
		{"dotdot after slash", []Segment{Lit("/x"), Arg("id", "a/..")}, ""},
		{"dot between slashes", []Segment{Lit("/x"), Arg("id", "a/./b")}, ""},
		{"backslash dotdot", []Segment{Lit("/x"), Arg("id", `..\a`)}, ""},
		{"only slashes", []Segment{Lit("/x"), Arg("id", "//")}, ""},
	} {
		got, err := Path(tc.segs...)
		if tc.want != "" {
			if err != nil || got != tc.want {
				t.Errorf("%s: Path = %q, %v; want %q", tc.name, got, err, tc.want)
			}
			continue
		}
		var e *envelope.Error
		if !errors.As(err, &e) || e.Code != envelope.InvalidArgument || e.Details["field"] != "id" || !strings.Contains(e.Message, "id") || got != "" {
			t.Errorf("%s: Path = %q, %v; want an invalid_argument error naming id", tc.name, got, err)
		}
	}
}

func FuzzPath(f *testing.F) {
	for _, s := range []string{"op_1", "..", ".", "", "a/../b", "BTC/USD", "%2e%2e", `..\x`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		p, err := Path(Lit("/base"), Arg("id", v), Lit("/tail"))
		if err != nil {
			return
		}
		seg := strings.TrimSuffix(strings.TrimPrefix(p, "/base/"), "/tail")
		if strings.ContainsAny(seg, "/?#") || seg == "." || seg == ".." || seg == "" {
			t.Fatalf("Path(%q) = %q: segment %q", v, p, seg)
		}
	})
}
