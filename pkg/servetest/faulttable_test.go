package servetest

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPlant(t *testing.T) {
	fields := map[string]bool{"title": true, "body": true}
	for _, tc := range []struct {
		name, ct, in string
		want         []string // substrings of the planted body
		not          []string
	}{
		{"json key anywhere", "application/json", `{"a":{"title":"x","id":"t1"},"l":[{"body":"y"}]}`,
			[]string{`"title":"x ` + Canary, `"body":"y ` + Canary, `"id":"t1"`}, nil},
		{"json numbers kept", "application/json; charset=utf-8", `{"n":12345678901234567890,"title":"x"}`,
			[]string{`12345678901234567890`}, nil},
		{"json inside a string", "application/json", `{"values":["{\"title\":\"x\"}"]}`, []string{Canary}, nil},
		{"not json is left", "application/json", `{"title":`, []string{`{"title":`}, []string{Canary}},
		{"xml element", "application/rss+xml", `<item><title>x</title><link>l</link></item>`,
			[]string{`<title>x ` + Canary + `</title>`, `<link>l</link>`}, nil},
		{"xml with attributes", "text/xml", `<title lang="en">x</title>`, []string{`x ` + Canary}, nil},
		{"sse data lines", "text/event-stream", "event: e\ndata: {\"body\":\"d\"}\n\n", []string{`data: {"body":"d ` + Canary}, nil},
		{"other types untouched", "text/plain", `title`, []string{`title`}, []string{Canary}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(plant([]byte(tc.in), tc.ct, fields))
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s lacks %s", got, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("%s has %s", got, w)
				}
			}
		})
	}
}

func TestMarkPattern(t *testing.T) {
	for _, tc := range []struct {
		mark, path string
		match      bool
	}{
		{"items[].title", "items[3].title", true},
		{"items[].title", "items[3].snippet", false},
		{"rows[][7]", "rows[0][7]", true},
		{"rows[][7]", "rows[0][6]", false},
		{"outcomes[].rows[][1]", "outcomes[1].rows[12][1]", true},
		{"description", "description", true},
		{"description", "x.description", false},
	} {
		if got := markPattern(tc.mark).MatchString(tc.path); got != tc.match {
			t.Errorf("%s ~ %s = %v", tc.mark, tc.path, got)
		}
	}
}

// TestDroppedConnection: the proxy's dropped connection reaches a client as
// a body cut short, not as a whole shorter answer.
func TestDroppedConnection(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, strings.Repeat("<p>text</p>", 1000))
	}))
	defer up.Close()
	p, base := newFaultProxy(t, up.URL)
	p.set(truncated, Refusal{}, nil)
	res, err := http.Get(base)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("read %d bytes, err %v: want io.ErrUnexpectedEOF", len(b), err)
	}
}
