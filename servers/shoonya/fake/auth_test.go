package fake

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

func TestQuickAuth(t *testing.T) {
	other := DemoAccount()
	other.UID, other.ClientID, other.VendorCode, other.APIDisabled = "FA99999", "", "", true
	expired := DemoAccount()
	expired.UID, expired.ClientID, expired.VendorCode, expired.PasswordExpired = "FA77777", "", "", true
	_, u := newTestServer(t, Config{Accounts: []Account{DemoAccount(), other, expired}})
	demo := DemoAccount()
	tests := []struct {
		name   string
		mutate func(m map[string]any)
		status int
		emsg   string
	}{
		{"ok", func(map[string]any) {}, 200, ""},
		{"wrong password", func(m map[string]any) { m["pwd"] = PasswordHash("nope") }, 200, EmsgWrongPassword},
		{"plain password not hashed", func(m map[string]any) { m["pwd"] = demo.Password }, 200, EmsgWrongPassword},
		{"wrong otp", func(m map[string]any) { m["factor2"] = "000000" }, 200, EmsgInvalidOTP},
		{"wrong vendor code", func(m map[string]any) { m["vc"] = "FA12345" }, 400, EmsgInvalidVendor},
		{"wrong appkey", func(m map[string]any) { m["appkey"] = AppKey("FA12345", "other") }, 400, EmsgInvalidVendor},
		{"bad access type", func(m map[string]any) { m["source"] = "XYZ" }, 200, EmsgInvalidAccess},
		{"unknown user", func(m map[string]any) { m["uid"] = "ZZ0000" }, 200, EmsgUnknownUser},
		{"api disabled", func(m map[string]any) {
			m["uid"], m["vc"], m["appkey"] = other.UID, other.UID+"_U", AppKey(other.UID, other.APISecret)
		}, 200, EmsgNotEnabledAPI},
		{"password expired", func(m map[string]any) {
			m["uid"], m["vc"], m["appkey"] = expired.UID, expired.UID+"_U", AppKey(expired.UID, expired.APISecret)
		}, 200, EmsgPasswordExpired},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			body := quickAuthBody(t, demo)
			tc.mutate(body)
			st, raw := post(t, u.LegacyREST+"/QuickAuth", body, "", "") // "//" as the SDK sends it
			m := obj(t, raw)
			if st != tc.status {
				t.Fatalf("status %d, want %d: %s", st, tc.status, raw)
			}
			if tc.emsg == "" {
				if m["stat"] != "Ok" || m["susertoken"] == "" || m["request_time"] == nil {
					t.Fatalf("want Ok with susertoken: %s", raw)
				}
				return
			}
			if m["stat"] != "Not_Ok" || m["emsg"] != tc.emsg {
				t.Fatalf("got %s, want emsg %q", raw, tc.emsg)
			}
		})
	}
}

func TestMissingJData(t *testing.T) {
	_, u := newTestServer(t, Config{})
	res, err := http.Post(u.LegacyREST+"UserDetails", "text/plain", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if m := obj(t, string(b)); m["emsg"] != EmsgJDataMissing {
		t.Fatalf("got %s", b)
	}
}

func TestGenAcsTok(t *testing.T) {
	s, u := newTestServer(t, Config{})
	a := DemoAccount()
	tests := []struct {
		name string
		body func(code string) map[string]any
		ok   bool
	}{
		{"ok", func(c string) map[string]any {
			return map[string]any{"code": c, "checksum": OAuthChecksum(a.ClientID, a.ClientSecret, c), "uid": a.UID}
		}, true},
		{"missing uid", func(c string) map[string]any {
			return map[string]any{"code": c, "checksum": OAuthChecksum(a.ClientID, a.ClientSecret, c)}
		}, false},
		{"bad checksum", func(c string) map[string]any {
			return map[string]any{"code": c, "checksum": OAuthChecksum(a.ClientID, "wrong", c), "uid": a.UID}
		}, false},
		{"unknown code", func(string) map[string]any {
			return map[string]any{"code": "x", "checksum": OAuthChecksum(a.ClientID, a.ClientSecret, "x"), "uid": a.UID}
		}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _ := s.IssueAuthCode(a.UID)
			_, raw := post(t, u.OAuthREST+"GenAcsTok", tc.body(code), "", "")
			m := obj(t, raw)
			if tc.ok {
				for _, k := range []string{"access_token", "USERID", "expires_in", "refresh_token", "susertoken", "actid"} {
					if m[k] == nil || m[k] == "" {
						t.Fatalf("missing %s: %s", k, raw)
					}
				}
				// Bearer works on later calls; jKey works too (chart endpoints per openalgo).
				tok := m["access_token"].(string)
				if r := obj(t, api(t, u, tok, "UserDetails", map[string]any{})); r["stat"] != "Ok" {
					t.Fatalf("UserDetails via Bearer: %v", r)
				}
				_, raw2 := post(t, u.OAuthREST+"UserDetails", map[string]any{"uid": a.UID}, tok, "")
				if obj(t, raw2)["stat"] != "Ok" {
					t.Fatalf("UserDetails via jKey: %s", raw2)
				}
				return
			}
			if m["emsg"] != EmsgInvalidVerifier {
				t.Fatalf("got %s", raw)
			}
		})
	}
	t.Run("code is single use", func(t *testing.T) {
		code, _ := s.IssueAuthCode(a.UID)
		b := map[string]any{"code": code, "checksum": OAuthChecksum(a.ClientID, a.ClientSecret, code), "uid": a.UID}
		post(t, u.OAuthREST+"GenAcsTok", b, "", "")
		if _, raw := post(t, u.OAuthREST+"GenAcsTok", b, "", ""); obj(t, raw)["emsg"] != EmsgInvalidVerifier {
			t.Fatalf("reuse: %s", raw)
		}
	})
}

func TestAuthorizePage(t *testing.T) {
	_, u := newTestServer(t, Config{})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	redirect := "http://127.0.0.1:1/callback"
	q := "?client_id=FA12345_U&redirect_uri=" + url.QueryEscape(redirect) + "&state=xyz"

	res, err := noRedirect.Get(u.Authorize + q)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("login page: %d", res.StatusCode)
	}
	for _, tc := range []struct {
		name   string
		do     func() (*http.Response, error)
		status int
	}{
		{"auto approve", func() (*http.Response, error) { return noRedirect.Get(u.Authorize + q + "&auto=1") }, 302},
		{"form login", func() (*http.Response, error) {
			return noRedirect.PostForm(u.Authorize, url.Values{"client_id": {"FA12345_U"}, "redirect_uri": {redirect},
				"state": {"xyz"}, "uid": {"FA12345"}, "password": {DemoAccount().Password},
				"totp": {totpNow(t, DemoAccount().TOTPSecret)}})
		}, 302},
		{"form wrong password", func() (*http.Response, error) {
			return noRedirect.PostForm(u.Authorize, url.Values{"client_id": {"FA12345_U"}, "redirect_uri": {redirect},
				"uid": {"FA12345"}, "password": {"x"}, "totp": {"1"}})
		}, 401},
		{"foreign redirect", func() (*http.Response, error) {
			return noRedirect.Get(u.Authorize + "?client_id=FA12345_U&auto=1&redirect_uri=https://example.com/cb")
		}, 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := tc.do()
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != tc.status {
				t.Fatalf("status %d want %d", res.StatusCode, tc.status)
			}
			if tc.status == 302 {
				loc, _ := url.Parse(res.Header.Get("Location"))
				// The real redirect carries only ?code= (kambalatech 0.0.33; auto_login.py).
				if loc.Query().Get("code") == "" || loc.Query().Has("state") {
					t.Fatalf("redirect %s", loc)
				}
			}
		})
	}
}

// TestAuthorizeEchoState: state comes back only when asked for.
func TestAuthorizeEchoState(t *testing.T) {
	_, u := newTestServer(t, Config{OAuthEchoState: true})
	noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noRedirect.Get(u.Authorize + "?client_id=FA12345_U&auto=1&state=xyz&redirect_uri=" + url.QueryEscape("http://127.0.0.1:1/cb"))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc, _ := url.Parse(res.Header.Get("Location")); loc.Query().Get("state") != "xyz" {
		t.Fatalf("redirect %s", loc)
	}
}

func TestSessionExpiry(t *testing.T) {
	s, u := newTestServer(t, Config{SessionTTL: time.Hour})
	legacy := legacyLogin(t, u)
	oauth := oauthLogin(t, s, u)
	call := func() []map[string]any {
		_, a := post(t, u.LegacyREST+"UserDetails", map[string]any{"uid": "FA12345"}, legacy, "")
		b := api(t, u, oauth, "UserDetails", map[string]any{})
		return []map[string]any{obj(t, a), obj(t, b)}
	}
	for _, m := range call() {
		if m["stat"] != "Ok" {
			t.Fatalf("before expiry: %v", m)
		}
	}
	s.ExpireSessions()
	for _, m := range call() {
		if m["stat"] != "Not_Ok" || m["emsg"] != EmsgSessionExpired {
			t.Fatalf("after expiry: %v", m)
		}
	}
	// unknown token and wrong uid look the same
	if m := obj(t, api(t, u, "nope", "OrderBook", map[string]any{})); m["emsg"] != EmsgSessionExpired {
		t.Fatalf("unknown token: %v", m)
	}
}

func TestSessionExpiredStatusAndLogout(t *testing.T) {
	_, u := newTestServer(t, Config{SessionExpiredStatus: 403})
	tok := legacyLogin(t, u)
	st, raw := post(t, u.LegacyREST+"Logout", map[string]any{"ordersource": "API", "uid": "FA12345"}, tok, "")
	if st != 200 || obj(t, raw)["stat"] != "Ok" {
		t.Fatalf("logout: %d %s", st, raw)
	}
	st, raw = post(t, u.LegacyREST+"OrderBook", map[string]any{"uid": "FA12345"}, tok, "")
	if st != 403 || obj(t, raw)["emsg"] != EmsgSessionExpired {
		t.Fatalf("after logout: %d %s", st, raw)
	}
}

func TestLegacyGone(t *testing.T) {
	_, u := newTestServer(t, Config{LegacyGone: true})
	st, _ := post(t, u.LegacyREST+"QuickAuth", quickAuthBody(t, DemoAccount()), "", "")
	if st != http.StatusBadGateway {
		t.Fatalf("status %d", st)
	}
}

func TestRateLimit(t *testing.T) {
	_, u := newTestServer(t, Config{RateLimit: RateLimit{PerSecond: 3, PerMinute: 100}})
	tok := legacyLogin(t, u)
	got429 := false
	for i := 0; i < 10; i++ {
		st, raw := post(t, u.LegacyREST+"UserDetails", map[string]any{"uid": "FA12345"}, tok, "")
		if st == http.StatusTooManyRequests {
			got429 = obj(t, raw)["stat"] == "Not_Ok"
			break
		}
	}
	if !got429 {
		t.Fatal("no 429 after 10 quick calls with 3/s")
	}
}

func TestTOTPSkew(t *testing.T) {
	base := time.Date(2026, 11, 20, 10, 0, 0, 0, IST)
	demo := DemoAccount()
	for _, tc := range []struct {
		name string
		skew int
		age  time.Duration
		ok   bool
	}{
		{"current", 0, 0, true},
		{"previous step, skew 1", 1, 30 * time.Second, true},
		{"previous step, no skew", -1, 30 * time.Second, false},
		{"three steps old", 1, 90 * time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, u := newTestServer(t, Config{Now: func() time.Time { return base }, TOTPSkew: tc.skew})
			body := quickAuthBody(t, demo)
			code, _ := totp.GenerateCode(demo.TOTPSecret, base.Add(-tc.age))
			body["factor2"] = code
			_, raw := post(t, u.LegacyREST+"QuickAuth", body, "", "")
			if got := obj(t, raw)["stat"] == "Ok"; got != tc.ok {
				t.Fatalf("ok=%v want %v: %s", got, tc.ok, raw)
			}
		})
	}
}
