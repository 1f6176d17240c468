package nl

import (
	"reflect"
	"regexp"
	"testing"
)

// The expressions the scanners replace: each scanner must find exactly what
// its expression finds, groups included.
var (
	explicitRE = regexp.MustCompile(`\b([A-Za-z][A-Za-z0-9_]{1,24}):([A-Za-z0-9_.!]{1,30})`)
	pairRE     = regexp.MustCompile(`\b([A-Za-z]{3,5})(?:\s?/\s?|-)([A-Za-z]{3,5})\b`)
	sizeRE     = regexp.MustCompile(`(?i)\b(\d{3,4})\s?(?:x|×|by)\s?(\d{3,4})(?:\s?(?:px|pixels?))?\b`)
)

func scanAll(s string, n int, at func(string, int) (match, bool)) [][]int {
	var out [][]int
	for _, m := range findAll(s, n, at, nil) {
		out = append(out, m[:])
	}
	return out
}

func checkScanners(t *testing.T, s string) {
	t.Helper()
	for _, c := range []struct {
		name string
		re   *regexp.Regexp
		n    int
		at   func(string, int) (match, bool)
	}{{"explicit", explicitRE, 4, explicitAt}, {"pair", pairRE, 8, pairAt}, {"size", sizeRE, 1, sizeAt}} {
		want := c.re.FindAllStringSubmatchIndex(s, c.n)
		if got := scanAll(s, c.n, c.at); !reflect.DeepEqual(got, want) {
			t.Errorf("%s %q: scanner %v, regexp %v", c.name, s, got, want)
		}
	}
}

var scanSeeds = []string{
	"NASDAQ:AAPL", "RSI:14", "Theme:dark", "x:y", "ab:", "ab:c", "a_b:c.d!e", "ABCDEFGHIJKLMNOPQRSTUVWXYZ:X", "ABCDEFGHIJKLMNOPQRSTUVWXY:X",
	"é:AAPL", "9ab:x", "_ab:x", "AB:" + "0123456789012345678901234567890123456789", "AB:.....x", "A:B C:D E:F G:H I:J KK:L MM:N NN:O PP:Q",
	"EUR/USD", "eur / usd", "eur /usd", "eur/ usd", "eur  / usd", "btc-usd", "BTC-USDT", "abcdef/usd", "eur/usdx", "eur/usd1",
	"eur/usd_", "1eur/usd", "EUR/USD/JPY", "a/b/c/d/e/f/g/h/i/j", "usd/eur/gbp/jpy/chf/cad/aud/nzd/sek/nok/dkk/abc/def/ghi",
	"eur\t/\tusd", "eur\n/usd", "eur\v/usd", "eur-/usd", "eur/-usd", "é/usd", "euré/usd", "eur/usdé",
	"1920x1080", "1920 x 1080", "1280×720", "1280 × 720 px", "800 by 600 pixels", "800 BY 600 PIXEL", "1024X768px", "12345x678",
	"1920x10800", "640x480pixels", "1920x1080pixelſ", "1920x1080pixelſa", "1920x1080 pixelſ", "a1920x1080", "1920x1080b",
	"_1920x1080", "1920x1080_", "999x99", "100x100 and 200x200", "1920\tx\t1080", "1920x1080 px!", "1920  x 1080", "1920x 1080",
	"1920 x1080", "1920x1080 pixels2", "1920x1080pxx", "1920x1080 p", "1920x1080 pix", "1920x1080 pixelss", "1920x1080PIXELS",
	"1920x1080 PX", "1920x1080  px", "1920×", "1920\xc3", "1920 b", "1920by", "1920 by1080", "x1920x1080", "1920x1080x1080",
	"\xff1920x1080\xff", "1920x1080é", "é1920x1080", "", ":", "/", "-", "x", "00000x00000 0000x0000",
}

func TestScannersMatchRegexps(t *testing.T) {
	for _, s := range scanSeeds {
		checkScanners(t, s)
	}
	for _, s := range goldenExtra {
		checkScanners(t, s)
	}
}

func FuzzScannersMatchRegexps(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkScanners(t, s) })
}
