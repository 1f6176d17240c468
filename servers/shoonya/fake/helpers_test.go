package fake

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"
)

// newTestServer starts a fake with ticks off and no rate limit unless cfg says otherwise.
func newTestServer(t *testing.T, cfg Config) (*Server, URLs) {
	t.Helper()
	if cfg.TickInterval == 0 {
		cfg.TickInterval = -1
	}
	if cfg.RateLimit == (RateLimit{}) {
		cfg.RateLimit.Disabled = true
	}
	s := New(cfg)
	u, err := s.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, u
}

// post sends a Noren request the way the Python SDK does: raw body
// jData=<json>[&jKey=token], no URL encoding.
func post(t *testing.T, url string, jdata any, jkey, bearer string) (int, string) {
	t.Helper()
	b, _ := json.Marshal(jdata)
	body := "jData=" + string(b)
	if jkey != "" {
		body += "&jKey=" + jkey
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	c := &http.Client{Timeout: 5 * time.Second}
	res, err := c.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(out)
}

func obj(t *testing.T, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("not an object: %v: %s", err, body)
	}
	return m
}

func arr(t *testing.T, body string) []map[string]any {
	t.Helper()
	var a []map[string]any
	if err := json.Unmarshal([]byte(body), &a); err != nil {
		t.Fatalf("not an array: %v: %s", err, body)
	}
	return a
}

func totpNow(t *testing.T, secret string) string {
	t.Helper()
	code, err := totp.GenerateCode(secret, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return code
}

func quickAuthBody(t *testing.T, a Account) map[string]any {
	return map[string]any{
		"source": "API", "apkversion": "1.0.0", "uid": a.UID, "pwd": PasswordHash(a.Password),
		"factor2": totpNow(t, a.TOTPSecret), "vc": a.UID + "_U", "appkey": AppKey(a.UID, a.APISecret), "imei": "abc1234",
	}
}

// legacyLogin logs the demo account in with QuickAuth and returns the susertoken.
func legacyLogin(t *testing.T, u URLs) string {
	t.Helper()
	_, body := post(t, u.LegacyREST+"/QuickAuth", quickAuthBody(t, DemoAccount()), "", "")
	m := obj(t, body)
	if m["stat"] != "Ok" {
		t.Fatalf("QuickAuth: %s", body)
	}
	return m["susertoken"].(string)
}

// oauthLogin runs code → GenAcsTok and returns the access token.
func oauthLogin(t *testing.T, s *Server, u URLs) string {
	t.Helper()
	a := DemoAccount()
	code, err := s.IssueAuthCode(a.UID)
	if err != nil {
		t.Fatal(err)
	}
	_, body := post(t, u.OAuthREST+"GenAcsTok", map[string]any{
		"code": code, "checksum": OAuthChecksum(a.ClientID, a.ClientSecret, code), "uid": a.UID}, "", "")
	m := obj(t, body)
	if m["access_token"] == nil {
		t.Fatalf("GenAcsTok: %s", body)
	}
	return m["access_token"].(string)
}

// api calls an authenticated OAuth-era route with a Bearer token.
func api(t *testing.T, u URLs, tok, route string, jdata map[string]any) string {
	t.Helper()
	if _, ok := jdata["uid"]; !ok {
		jdata["uid"] = "FA12345"
	}
	_, body := post(t, u.OAuthREST+route, jdata, "", tok)
	return body
}

func placeBody(tsym, trantype, prctyp string, qty int, prc, trg string, remarks any) map[string]any {
	return map[string]any{
		"ordersource": "API", "uid": "FA12345", "actid": "FA12345", "trantype": trantype, "prd": "C",
		"exch": exchOf(tsym), "tsym": tsym, "qty": fmt.Sprint(qty), "dscqty": "0", "prctyp": prctyp,
		"prc": prc, "trgprc": trg, "ret": "DAY", "remarks": remarks,
	}
}

func exchOf(tsym string) string {
	if strings.HasPrefix(tsym, "NIFTY") || strings.HasPrefix(tsym, "BANKNIFTY") {
		return "NFO"
	}
	return "NSE"
}
