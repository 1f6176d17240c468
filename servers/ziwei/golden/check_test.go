package golden

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// firstExtraLines returns the first n records of the committed extra set, uncompressed.
func firstExtraLines(t *testing.T, n int) []string {
	t.Helper()
	sc := goldenLines(t, "extra-iztro.jsonl.gz")
	var out []string
	for sc.Scan() && len(out) < n {
		out = append(out, sc.Text())
	}
	return out
}

// mutate rewrites one record through f.
func mutate(t *testing.T, line string, f func(m map[string]any)) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	b, _ := json.Marshal(m)
	return string(b)
}

func TestCheck(t *testing.T) {
	lines := firstExtraLines(t, 2)
	good := lines[0]
	id := func(l string) string {
		var c Case
		_ = json.Unmarshal([]byte(l), &c)
		return c.ID
	}
	palace0 := func(m map[string]any) map[string]any {
		return m["chart"].(map[string]any)["palaces"].([]any)[0].(map[string]any)
	}
	for _, tc := range []struct {
		name           string
		input          string
		gzip           bool
		passed, failed int
		wantLines      []string // substrings expected in the output
	}{
		{"plain", good + "\n" + lines[1] + "\n", false, 2, 0, nil},
		{"gzip", good + "\n", true, 1, 0, nil},
		{"blank lines", "\n" + good + "\n\n", false, 1, 0, nil},
		{"wrong star name", mutate(t, good, func(m map[string]any) {
			palace0(m)["changsheng12"] = "X"
		}), false, 0, 1, []string{id(good) + " chart.palaces[0].changsheng12: want \"X\", got "}},
		{"extra field in got", mutate(t, good, func(m map[string]any) {
			delete(m["chart"].(map[string]any), "zodiac")
		}), false, 0, 1, []string{"chart.zodiac: want (absent), got "}},
		{"solarDate compared as date", mutate(t, good, func(m map[string]any) {
			h := m["horoscope"].([]any)[0].(map[string]any)
			zh := h["zh"].(map[string]any)
			d := h["date"].(string) // padded form of the same date
			zh["solarDate"] = d
		}), false, 1, 0, nil},
		{"wrong date", mutate(t, good, func(m map[string]any) {
			m["chart"].(map[string]any)["solarDate"] = "1800-1-1"
		}), false, 0, 1, []string{"chart.solarDate: want \"1800-1-1\""}},
		{"list length", mutate(t, good, func(m map[string]any) {
			p := palace0(m)
			p["ages"] = p["ages"].([]any)[:9]
		}), false, 0, 1, []string{"chart.palaces[0].ages: want"}},
		{"iztro error reproduced", `{"id":"e1","input":{"date":"2023-02-30","isLunar":false,"isLeapMonth":false,"fixLeap":true,"timeIndex":0,"gender":"男"},"error":"invalid"}`, false, 1, 0, nil},
		{"iztro error not reproduced", `{"id":"e2","input":{"date":"2023-02-03","isLunar":false,"isLeapMonth":false,"fixLeap":true,"timeIndex":0,"gender":"男"},"error":"invalid"}`, false, 0, 1, []string{"e2 error: want \"invalid\", got a chart"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var in io.Reader = strings.NewReader(tc.input)
			if tc.gzip {
				var buf bytes.Buffer
				zw := gzip.NewWriter(&buf)
				zw.Write([]byte(tc.input))
				zw.Close()
				in = &buf
			}
			var out strings.Builder
			passed, failed, err := Check(in, &out)
			if err != nil {
				t.Fatal(err)
			}
			if passed != tc.passed || failed != tc.failed {
				t.Fatalf("%d passed, %d failed; want %d, %d\n%s", passed, failed, tc.passed, tc.failed, out.String())
			}
			text := out.String()
			last := strings.Split(strings.TrimSpace(text), "\n")
			if want := strings.TrimSpace(strings.Join([]string{itoa(tc.passed), "passed,", itoa(tc.failed), "failed"}, " ")); last[len(last)-1] != want {
				t.Fatalf("last line %q, want %q", last[len(last)-1], want)
			}
			for _, w := range tc.wantLines {
				if !strings.Contains(text, w) {
					t.Fatalf("output lacks %q:\n%s", w, text)
				}
			}
		})
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func TestCheckMalformed(t *testing.T) {
	var out strings.Builder
	_, _, err := Check(strings.NewReader("{not json}\n"), &out)
	if err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Fatalf("error %v", err)
	}
	if !strings.HasSuffix(out.String(), "0 passed, 0 failed\n") {
		t.Fatalf("output %q", out.String())
	}
	if _, _, err := Check(bytes.NewReader([]byte{0x1f, 0x8b, 0, 0}), &out); err == nil {
		t.Fatal("bad gzip accepted")
	}
}
