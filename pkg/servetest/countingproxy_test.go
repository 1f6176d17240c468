package servetest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestCountingProxyCountsUpstreamBytes(t *testing.T) {
	body := strings.Repeat("x", 1234)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, body) }))
	defer up.Close()
	proxyURL, n := CountingProxy(t, up.URL)
	for want := int64(1234); want <= 2468; want += 1234 {
		resp, err := http.Get(proxyURL + "/any")
		if err != nil {
			t.Fatal(err)
		}
		got, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(got) != body || n.Load() != want {
			t.Fatalf("proxied %d B, counted %d, want %d", len(got), n.Load(), want)
		}
	}
}

// ratioTB counts failures instead of failing the test.
type ratioTB struct {
	testing.TB
	errs, fatals int
}

func (r *ratioTB) Helper()                        {}
func (r *ratioTB) Logf(string, ...any)            {}
func (r *ratioTB) Log(...any)                     {}
func (r *ratioTB) Errorf(string, ...any)          { r.errs++ }
func (r *ratioTB) Fatalf(format string, a ...any) { r.fatals++ }

func TestListRatioFailsOverTheCeilingAndOnThinPayloads(t *testing.T) {
	res := mcp.NewToolResultText(strings.Repeat("y", 300))
	for _, c := range []struct {
		raw, minRaw  int64
		ceiling      float64
		errs, fatals int
	}{
		{1000, 500, 0.30, 0, 0}, // 30%: within
		{999, 500, 0.30, 1, 0},  // 30.03%: over
		{400, 500, 0.90, 0, 1},  // a thin payload proves nothing
	} {
		r := &ratioTB{TB: t}
		ListRatio(r, "tool", res, c.raw, c.minRaw, c.ceiling)
		if r.errs != c.errs || r.fatals != c.fatals {
			t.Errorf("raw %d ceiling %.2f: %d errors, %d fatals; want %d, %d", c.raw, c.ceiling, r.errs, r.fatals, c.errs, c.fatals)
		}
	}
}
