package servetest

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

// SwapProxy stands in front of a fake upstream: requests that match are
// answered with the body a fuzz target hands it (status 200), everything else
// (logins, other routes) reaches the fake. The server's whole path — client
// decode, tool shaping, result encode — then meets answers the fake would never
// send, and its output fuzz target checks each success against the published
// output schema (production does not validate results per call).
//
// Until Set is called, matching requests reach the fake too and the last
// answer is recorded (Recorded): the seed of the corpus is a real answer.
type SwapProxy struct {
	URL         string
	match       func(*http.Request) bool
	contentType string
	mu          sync.Mutex
	body        []byte
	swapping    bool
	recorded    []byte
}

// NewSwapProxy proxies to upstream (a base URL) and swaps the answers of
// requests for which match is true, sending contentType with them.
func NewSwapProxy(t testing.TB, upstream string, match func(*http.Request) bool, contentType string) *SwapProxy {
	t.Helper()
	target, err := url.Parse(upstream)
	if err != nil {
		t.Fatalf("swap proxy: %v", err)
	}
	p := &SwapProxy{match: match, contentType: contentType}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ModifyResponse = func(res *http.Response) error {
		if !p.match(res.Request) {
			return nil
		}
		b, err := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if err != nil {
			return err
		}
		p.mu.Lock()
		p.recorded = b
		p.mu.Unlock()
		res.Body = io.NopCloser(bytes.NewReader(b))
		return nil
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		swap, body := p.swapping && p.match(r), p.body
		p.mu.Unlock()
		if swap {
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", p.contentType)
			_, _ = w.Write(body)
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// Set makes every matching request answer body from now on.
func (p *SwapProxy) Set(body []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.body, p.swapping = append([]byte(nil), body...), true
}

// Recorded is the fake's last answer to a matching request (before Set).
func (p *SwapProxy) Recorded() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]byte(nil), p.recorded...)
}

// Seed makes the tool's call once through the fake (it must succeed) and adds
// the fake's real answer, and broken forms of it, to the fuzz corpus; it
// returns the real answer, for Check.
func (p *SwapProxy) Seed(f *testing.F, call func(t testing.TB) *mcp.CallToolResult) []byte {
	f.Helper()
	if res := call(f); res.IsError {
		f.Fatalf("seed call: %+v", res.Content)
	}
	real := p.Recorded()
	SeedAnswers(f, real)
	return real
}

// Check is one output-fuzz input: the upstream answers body, the tool is
// called, and its answer is either an error or conforms to def's published
// output schema; the upstream's real answer must not be an error.
func (p *SwapProxy) Check(t *testing.T, def mcp.Tool, real, body []byte, call func(t testing.TB) *mcp.CallToolResult) {
	t.Helper()
	p.Set(body)
	res := call(t)
	if res.IsError {
		if bytes.Equal(body, real) {
			t.Fatalf("the upstream's real answer failed: %+v", res.Content)
		}
		return
	}
	if err := CheckOutput(def, res); err != nil {
		t.Fatalf("answer breaks the published output schema: %v\nbody: %q", err, body)
	}
}

// SeedAnswers adds a real answer and a few broken forms of it to a fuzz
// corpus: truncated, emptied, another JSON type.
func SeedAnswers(f *testing.F, real []byte) {
	f.Add(real)
	if len(real) > 2 {
		f.Add(real[:len(real)/2])
	}
	for _, s := range []string{"", "{}", "[]", "null", `{"data":null}`, "<html>502</html>"} {
		f.Add([]byte(s))
	}
}
