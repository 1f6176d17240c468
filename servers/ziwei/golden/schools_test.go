package golden

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/servers/ziwei/settings"
)

// TestGoldenSchools checks the 400 public iztro 2.6.1 charts computed under
// other settings (four groups of 100, each record with its `config`).
// Every group whose settings this server accepts must match completely;
// groups it refuses (settings.Unsupported) are listed, and at least the
// custom 四化 group must be accepted.
func TestGoldenSchools(t *testing.T) {
	checkSettingsFile(t, filepath.Join("testdata", "golden-schools-public.jsonl.gz"), 400, `{"mutagens"`, `{"ageDivide"`, `{"yearDivide"`, `{"algorithm"`)
}

func checkSettingsFile(t *testing.T, path string, want int, mustRun ...string) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 0, 256<<10), maxLine)
	type group struct{ passed, failed, refused int }
	groups := map[string]*group{}
	n := 0
	for sc.Scan() {
		var c Case
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		n++
		key := string(c.Config)
		g := groups[key]
		if g == nil {
			g = &group{}
			groups[key] = g
		}
		if _, err := settings.Parse(c.Config); err != nil {
			g.refused++
			continue
		}
		if ms := CheckCase(&c); len(ms) > 0 {
			g.failed++
			if g.failed <= 3 {
				for i, m := range ms {
					if i == 5 {
						break
					}
					t.Errorf("%s %s: want %s, got %s", c.ID, m.Path, m.Want, m.Got)
				}
			}
			continue
		}
		g.passed++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Errorf("%d records, want %d", n, want)
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := groups[k]
		t.Logf("config %s: %d passed, %d failed, %d refused as unsupported", k, g.passed, g.failed, g.refused)
		if g.failed > 0 {
			t.Errorf("config %s: %d of %d charts differ from iztro", k, g.failed, g.passed+g.failed)
		}
		for _, m := range mustRun {
			if strings.HasPrefix(k, m) && g.refused > 0 {
				t.Errorf("config %s is refused; it must be supported", k)
			}
		}
	}
}

// TestGoldenSchoolsOwn checks 100 charts generated here with
// testdata/gen-iztro.js --config (iztro 2.6.1): a 戊 四化 variant (太阳 as 化科
// instead of 右弼) together with custom brightness rows for 太阳 and 七杀.
func TestGoldenSchoolsOwn(t *testing.T) {
	checkSettingsFile(t, filepath.Join("testdata", "schools-own-iztro.jsonl.gz"), 100, `{"mutagens"`)
}

// TestGoldenYearDivideExact checks 100 charts generated here with
// gen-iztro.js --config '{"yearDivide":"exact"}' (seed 41, iztro 2.6.1).
func TestGoldenYearDivideExact(t *testing.T) {
	checkSettingsFile(t, filepath.Join("testdata", "schools-yeardivide-iztro.jsonl.gz"), 100, `{"yearDivide"`)
}
