package session

import (
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// TestCallbackBindsStatelessRedirect: Shoonya's real redirect carries only
// ?code= (kambalatech 0.0.33; auto_login.py). A redirect without state binds to the one pending
// login; with logins of two users pending it is refused, not guessed; a state
// that is present must match.
func TestCallbackBindsStatelessRedirect(t *testing.T) {
	f := fake.New(fake.Config{TickInterval: -1})
	urls, err := f.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	acct := fake.DemoAccount()
	cr := noren.Credentials{UID: acct.UID, ClientID: acct.ClientID, ClientSecret: acct.ClientSecret}
	m := NewManager(noren.New(noren.Config{Era: noren.OAuth, RESTURL: urls.OAuthREST}), cr)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cb, err := NewCallback(ctx, m, "http://127.0.0.1:0/cb", zerolog.Nop())
	if err != nil {
		t.Fatal(err)
	}
	get := func(redirect, query string) int {
		t.Helper()
		res, err := http.Get(redirect + query)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	code := func() string {
		c, err := f.IssueAuthCode(acct.UID)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}

	// One pending login (asked twice: the second supersedes the first), no state.
	_, _, _ = cb.Begin("alice", cr)
	redirect, _, err := cb.Begin("alice", cr)
	if err != nil {
		t.Fatal(err)
	}
	if st := get(redirect, "?code="+code()); st != http.StatusOK {
		t.Fatalf("state-less redirect: %d", st)
	}
	if _, ok := m.AuthFor("alice"); !ok {
		t.Fatal("alice not logged in")
	}
	if st := get(redirect, "?code="+code()); st != http.StatusBadRequest {
		t.Fatalf("nothing pending: %d", st)
	}

	// Two users pending: a state-less redirect cannot be told apart.
	_, _, _ = cb.Begin("bob", cr)
	_, stateCarol, _ := cb.Begin("carol", cr)
	if st := get(redirect, "?code="+code()); st != http.StatusConflict {
		t.Fatalf("ambiguous: %d", st)
	}
	// A state, when present, must match; a matching one wins.
	if st := get(redirect, "?state=nope&code="+code()); st != http.StatusBadRequest {
		t.Fatalf("wrong state: %d", st)
	}
	if st := get(redirect, "?state="+stateCarol+"&code="+code()); st != http.StatusOK {
		t.Fatalf("carol's state: %d", st)
	}
	if _, ok := m.AuthFor("carol"); !ok {
		t.Fatal("carol not logged in")
	}
	if _, ok := m.AuthFor("bob"); ok {
		t.Fatal("bob logged in by someone else's redirect")
	}
	if st := get(redirect, ""); st != http.StatusBadRequest {
		t.Fatalf("no code: %d", st)
	}
}
