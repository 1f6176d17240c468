package servetest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// CountingProxy starts a loopback reverse proxy in front of base (a fake
// upstream) and counts the response bytes the upstream sends through it: the
// raw side of a list tool's result-to-upstream ratio. Point the
// server under test at the returned URL; Store(0) before a call, Load after.
func CountingProxy(t testing.TB, base string) (proxyURL string, upstreamBytes *atomic.Int64) {
	t.Helper()
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rp.ServeHTTP(countingWriter{w, &n}, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

// countingWriter counts the bytes written back to the client.
type countingWriter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (w countingWriter) Write(b []byte) (int, error) {
	w.n.Add(int64(len(b)))
	return w.ResponseWriter.Write(b)
}

// ListRatio checks a list tool's result against the raw upstream bytes behind
// it: what the model reads — the text block or the structured
// content, the larger — must be at most ceiling × raw. It logs the figures
// (the text too with -v) and fails when the fake sent under minRaw bytes, as
// a ratio over a thin payload proves nothing.
func ListRatio(t testing.TB, tool string, res *mcp.CallToolResult, raw, minRaw int64, ceiling float64) {
	t.Helper()
	text := Text(res)
	sc, _ := json.Marshal(res.StructuredContent)
	ratio := float64(max(len(text), len(sc))) / float64(max(raw, 1))
	t.Logf("%s: upstream %d B, text %d B, structured %d B: %.0f%%", tool, raw, len(text), len(sc), 100*ratio)
	if testing.Verbose() {
		t.Log(text[:min(len(text), 1500)])
	}
	if raw < minRaw {
		t.Fatalf("%s: the fake answered only %d B: nothing to measure", tool, raw)
	}
	if ratio > ceiling {
		t.Errorf("%s: result is %.0f%% of the upstream answer, budget %.0f%%", tool, 100*ratio, 100*ceiling)
	}
}
