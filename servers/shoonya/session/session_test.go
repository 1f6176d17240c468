package session

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// TestConcurrentExpiryLogsInOnce: many calls that see "Session Expired" at
// once cause one QuickAuth, and all of them succeed with the new token.
func TestConcurrentExpiryLogsInOnce(t *testing.T) {
	var logins atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		switch {
		case strings.HasSuffix(r.URL.Path, "/QuickAuth"):
			n := logins.Add(1)
			_, _ = io.WriteString(w, `{"stat":"Ok","susertoken":"tok`+string(rune('0'+n))+`","actid":"U1"}`)
		case strings.Contains(string(b), "jKey=tok0"):
			_, _ = io.WriteString(w, `{"stat":"Not_Ok","emsg":"Session Expired : Invalid Session Key"}`)
		default:
			_, _ = io.WriteString(w, `{"stat":"Ok","cash":"100"}`)
		}
	}))
	defer srv.Close()
	m := NewManager(noren.New(noren.Config{Era: noren.Legacy, RESTURL: srv.URL + "/NorenWClientTP/"}),
		noren.Credentials{UID: "U1", Password: "p", TOTPSecret: "JBSWY3DPEHPK3PXP", APISecret: "s"})
	ctx := context.Background()
	if _, err := m.LoginLegacy(ctx, m.Env, "123456"); err != nil {
		t.Fatal(err)
	}
	// Pretend the first token expired: put the dead token back.
	if err := m.set(context.Background(), "local", &noren.Auth{Era: noren.Legacy, UID: "U1", ActID: "U1", Token: "tok0"}, m.Env); err != nil {
		t.Fatal(err)
	}
	logins.Store(0)
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := Do(ctx, m, func(a *noren.Auth) (noren.Limits, error) { return m.Client.Limits(ctx, a) })
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := logins.Load(); n != 1 {
		t.Fatalf("%d re-logins, want 1", n)
	}
}

func TestMissingCredentialsNameTheVariable(t *testing.T) {
	m := NewManager(noren.New(noren.Config{Era: noren.Legacy, RESTURL: "http://127.0.0.1:1/"}), noren.Credentials{UID: "U1", Password: "p"})
	_, err := m.LoginLegacy(context.Background(), m.Env, "")
	if e := envelope.From(err); e.Code != envelope.InvalidArgument || !strings.Contains(e.Message, EnvAPISecret) {
		t.Fatalf("%v", err)
	}
}
