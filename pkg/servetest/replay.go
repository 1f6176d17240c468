package servetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// Exchange is one recorded request/response pair from a public source
// (documented example, SDK fixture), as contract tests keep them in testdata.
type Exchange struct {
	Request struct {
		Method  string            `json:"method"`
		Path    string            `json:"path"`
		Query   map[string]string `json:"query"`   // nil: not checked
		Headers map[string]string `json:"headers"` // compared up to the first ';'
		Body    json.RawMessage   `json:"body"`    // empty: none may be sent
	} `json:"request"`
	Response struct {
		Status int             `json:"status"`
		Body   json.RawMessage `json:"body"`
		// BodyFile is a recorded body kept as its own file (a capture, or
		// not JSON), relative to Replay.Dir; it replaces Body.
		BodyFile string `json:"body_file"`
		// Headers are sent with the answer; Content-Type defaults to JSON.
		Headers map[string]string `json:"headers"`
	} `json:"response"`
}

// Replay answers recorded exchanges in order and fails the test for every
// request that differs from the recording: a contract test of a client
// against the real service's documented behaviour, with no fake in between.
type Replay struct {
	T         testing.TB
	Exchanges []Exchange
	// NullIsNoBody accepts a JSON null where the recording has no body (a
	// client that always sends a body for body-less routes).
	NullIsNoBody bool
	// Repeat answers every request past the recording with its last
	// exchange (a client that retries a recorded failure).
	Repeat bool
	// AnyBody leaves request bodies uncompared (a client whose bodies a
	// test of its own checks).
	AnyBody bool
	// DecodeBody turns a sent body that is not JSON (a form, say) into the
	// JSON value the recording holds; nil compares the body as sent.
	DecodeBody func(sent []byte) ([]byte, error)
	// Dir is where response body files are.
	Dir string

	mu sync.Mutex
	n  int
}

// Answer replays one recorded answer (status, body) to every request for
// method and path: a client that retries gets it again. Bodies are not
// compared; set the exchange's Request fields to check more.
func Answer(t testing.TB, method, path string, status int, body []byte) *Replay {
	var ex Exchange
	ex.Request.Method, ex.Request.Path = method, path
	ex.Response.Status, ex.Response.Body = status, body
	return &Replay{T: t, Exchanges: []Exchange{ex}, Repeat: true, AnyBody: true}
}

// Served is how many exchanges were answered.
func (rp *Replay) Served() int {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	return rp.n
}

func (rp *Replay) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.n >= len(rp.Exchanges) && !(rp.Repeat && len(rp.Exchanges) > 0) {
		rp.T.Errorf("unexpected extra request %s %s", r.Method, r.URL)
		w.WriteHeader(599)
		return
	}
	ex := rp.Exchanges[min(rp.n, len(rp.Exchanges)-1)]
	rp.n++
	want := ex.Request
	if r.Method != want.Method || r.URL.Path != want.Path {
		rp.T.Errorf("request %d: got %s %s, want %s %s", rp.n, r.Method, r.URL.Path, want.Method, want.Path)
	}
	if want.Query != nil {
		got := map[string]string{}
		for k, v := range r.URL.Query() {
			got[k] = strings.Join(v, ",")
		}
		if !reflect.DeepEqual(got, want.Query) {
			rp.T.Errorf("request %d query: got %v, want %v", rp.n, got, want.Query)
		}
	}
	for k, v := range want.Headers {
		if got := strings.Split(r.Header.Get(k), ";")[0]; got != v {
			rp.T.Errorf("request %d header %s: %q, want %q", rp.n, k, got, v)
		}
	}
	body, _ := io.ReadAll(r.Body)
	var decodeErr error
	if rp.DecodeBody != nil && len(body) > 0 {
		var decoded []byte
		if decoded, decodeErr = rp.DecodeBody(body); decodeErr != nil {
			rp.T.Errorf("request %d body %q: %v", rp.n, body, decodeErr)
		}
		body = decoded
	}
	if err := rp.sameBody(body, want.Body); err != nil && !rp.AnyBody && decodeErr == nil {
		rp.T.Errorf("request %d body: %v", rp.n, err)
	}
	answer := []byte(ex.Response.Body)
	if f := ex.Response.BodyFile; f != "" {
		var err error
		if answer, err = os.ReadFile(filepath.Join(rp.Dir, f)); err != nil {
			rp.T.Errorf("request %d: %v", rp.n, err)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	for k, v := range ex.Response.Headers {
		w.Header().Set(k, v)
	}
	w.WriteHeader(ex.Response.Status)
	_, _ = w.Write(answer)
}

// sameBody compares a sent body with the recorded one as JSON values.
func (rp *Replay) sameBody(got []byte, want json.RawMessage) error {
	if len(want) == 0 {
		g := bytes.TrimSpace(got)
		if len(g) != 0 && !(rp.NullIsNoBody && string(g) == "null") {
			return fmt.Errorf("sent %s, want no body", got)
		}
		return nil
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		return fmt.Errorf("sent %q: %v", got, err)
	}
	_ = json.Unmarshal(want, &w)
	if !reflect.DeepEqual(g, w) {
		return fmt.Errorf("sent %s, want %s", got, want)
	}
	return nil
}
