package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/auth"
)

// fakeIssuer serves discovery, an empty JWKS and an introspection endpoint
// answering whatever body holds: the issuer's answers are outside input.
func fakeIssuer(t testing.TB, body *atomic.Value) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/.well-known/openid-configuration":
			_ = json.NewEncoder(w).Encode(map[string]string{"issuer": srv.URL, "jwks_uri": srv.URL + "/jwks", "introspection_endpoint": srv.URL + "/introspect"})
		case "/jwks":
			_, _ = w.Write([]byte(`{"keys":[]}`))
		case "/introspect":
			_, _ = w.Write(body.Load().([]byte))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// FuzzVerify: no token and no introspection answer makes Verify panic; a
// token is accepted only through an introspection answer that is active,
// unexpired, for this resource and with a subject, and never when it is a
// JWT (the key set is empty).
func FuzzVerify(f *testing.F) {
	f.Add("a.b.c", []byte(`{"active":true}`))
	f.Add("opaque-token", []byte(`{"active":true,"sub":"u","aud":"`+resource+`","exp":9999999999,"scope":"srv:read"}`))
	f.Add("opaque-token", []byte(`{"active":true,"sub":"u","aud":["x","`+resource+`"],"exp":1}`))
	f.Add("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1In0.", []byte(`{"active":false}`))
	f.Add("opaque", []byte(`{"active":"yes","scp":["a"],"exp":"soon"}`))
	f.Add("opaque", []byte(`{`))
	var body atomic.Value
	body.Store([]byte(`{}`))
	srv := fakeIssuer(f, &body)
	v, err := auth.New(auth.Config{Issuer: srv.URL, Resource: resource, ClientID: "rs", ClientSecret: "s"})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, token string, answer []byte) {
		body.Store(answer)
		p, err := v.Verify(context.Background(), token)
		if err != nil {
			var ae *auth.Error
			if !errors.As(err, &ae) {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		var in struct {
			Active bool `json:"active"`
		}
		if json.Unmarshal(answer, &in) != nil || !in.Active || p.Subject == "" || p.Issuer != srv.URL {
			t.Fatalf("accepted %q with answer %s as %+v", token, answer, p)
		}
	})
}
