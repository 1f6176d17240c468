package fake

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
)

// Publisher links. An item's link is a JavaScript interstitial, not a
// redirect (techempower-org/candela#1295); the public decoders
// (SSujitX/google-news-url-decoder googlenewsdecoder/_parse.py and its
// tests/test_parse.py captures; candela's GoogleNewsUrlDecoder) read a
// signature and a timestamp from GET /rss/articles/{id} (the
// data-n-a-sg / data-n-a-ts attributes of "c-wiz > div[jscontroller]"),
// then POST them to /_/DotsSplashUi/data/batchexecute as the Fbv4je rpc
// and read ["garturlres", url] from the "wrb.fr" row after the )]}' guard.
// The fake serves both, checks the signature it issued, and counts them.
// Assumed (no public capture): an unknown id answers 404; a wrong signature
// answers a "wrb.fr" row with a null payload and an error code in slot 5;
// the signature and timestamp values (opaque to clients).

// PublisherURL is where a fake story's id leads: its publisher's site
// (assumed: any path on the publisher's host).
func PublisherURL(home, id string) string {
	sum := sha256.Sum256([]byte(id))
	return home + "/news/" + hex.EncodeToString(sum[:6])
}

// SetArticle makes id decode to url (a test points articles at its own
// loopback site).
func (s *Server) SetArticle(id, url string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.articles == nil {
		s.articles = map[string]string{}
	}
	s.articles[id] = url
}

// DecodeRequests counts article-page GETs and batchexecute POSTs.
func (s *Server) DecodeRequests() (pages, batch int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pageHits, s.batchHits
}

// remember records the publisher URLs of the stories a feed served.
func (s *Server) remember(stories []Story) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.articles == nil {
		s.articles = map[string]string{}
	}
	for _, st := range stories {
		for _, x := range append([]Story{st}, st.Cluster...) {
			if _, ok := s.articles[x.ID]; !ok {
				s.articles[x.ID] = PublisherURL(x.Home, x.ID)
			}
		}
	}
}

func signature(id string) string {
	sum := sha256.Sum256([]byte("sig:" + id))
	return "AZ5r3e" + hex.EncodeToString(sum[:12])
}

// articlePage is GET /rss/articles/{id}.
func (s *Server) articlePage(w http.ResponseWriter, r *http.Request) {
	id := strings.TrimPrefix(r.URL.Path, "/rss/articles/")
	s.mu.Lock()
	s.pageHits++
	_, known := s.articles[id]
	f := s.take()
	sorryBase := s.o.SorryBase
	s.mu.Unlock()
	if f.applyRedirect(w, r, sorryBase) || f.applyStatus(w) {
		return
	}
	if !known {
		http.NotFound(w, r)
		return
	}
	ts := s.o.Now().Unix()
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!doctype html><html><head><title>Google News</title></head><body><c-wiz jsrenderer="ZVRtIf" class="zQTmif"><div jscontroller="aLI87" jsaction="rcuQ6b:npT2md" data-n-a-id="%s" data-n-a-ts="%d" data-n-a-sg="%s" data-n-a-b="1"></div></c-wiz><script>window.location.replace("about:blank")</script></body></html>`,
		html.EscapeString(id), ts, signature(id))
}

// batchExecute is POST /_/DotsSplashUi/data/batchexecute.
func (s *Server) batchExecute(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.batchHits++
	f := s.take()
	sorryBase := s.o.SorryBase
	s.mu.Unlock()
	if f.applyRedirect(w, r, sorryBase) || f.applyStatus(w) {
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	var envelopes [][][]any
	if err := json.Unmarshal([]byte(r.PostForm.Get("f.req")), &envelopes); err != nil || len(envelopes) == 0 {
		http.Error(w, "bad f.req", http.StatusBadRequest)
		return
	}
	var rows []any
	for _, env := range envelopes[0] {
		if len(env) < 2 || env[0] != "Fbv4je" {
			continue
		}
		reqID := "generic"
		if len(env) >= 4 {
			if v, ok := env[3].(string); ok {
				reqID = v
			}
		}
		inner, _ := env[1].(string)
		var call []any
		_ = json.Unmarshal([]byte(inner), &call)
		rows = append(rows, s.decodeRow(call, reqID))
	}
	rows = append(rows, []any{"di", 38}, []any{"af.httprm", 37, "-4372431349436405561", 9})
	b, _ := json.Marshal(rows)
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write([]byte(")]}'\n\n" + string(b)))
}

func (s *Server) decodeRow(call []any, reqID string) []any {
	bad := []any{"wrb.fr", "Fbv4je", nil, nil, nil, []any{3}, reqID}
	if len(call) < 5 || call[0] != "garturlreq" {
		return bad
	}
	id, _ := call[2].(string)
	sig, _ := call[4].(string)
	var ts string
	switch v := call[3].(type) {
	case float64:
		ts = strconv.FormatInt(int64(v), 10)
	case string:
		ts = v
	}
	s.mu.Lock()
	u, ok := s.articles[id]
	s.mu.Unlock()
	if !ok || sig != signature(id) || ts == "" {
		return bad
	}
	res, _ := json.Marshal([]any{"garturlres", u, 1})
	return []any{"wrb.fr", "Fbv4je", string(res), nil, nil, nil, reqID}
}
