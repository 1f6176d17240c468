package fake

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"slices"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"
)

// session is one issued token (susertoken or OAuth access_token).
type session struct {
	token   string
	uid     string
	era     Era
	expires time.Time
}

// authCode is an OAuth authorization code waiting for GenAcsTok.
type authCode struct {
	code    string
	uid     string
	expires time.Time
}

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// PasswordHash is what QuickAuth expects in "pwd": sha256_hex(password).
func PasswordHash(password string) string { return sha256Hex(password) }

// AppKey is what QuickAuth expects in "appkey": sha256_hex(uid|api_secret).
func AppKey(uid, apiSecret string) string { return sha256Hex(uid + "|" + apiSecret) }

// OAuthChecksum is GenAcsTok's "checksum": sha256_hex(client_id + secret + code).
func OAuthChecksum(clientID, secret, code string) string { return sha256Hex(clientID + secret + code) }

func eq(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (s *Server) newSession(uid string, era Era) *session {
	ss := &session{token: randomHex(32), uid: uid, era: era, expires: s.now().Add(s.cfg.SessionTTL)}
	s.mu.Lock()
	s.sessions[ss.token] = ss
	s.mu.Unlock()
	return ss
}

// source: ShoonyaApi-py README OrderBook/TPSeries samples (Session Expired);
// assumed: tokens last a trading day (openalgo's ws code says "3am IST daily token expiry").
func (s *Server) lookupSession(token string) *session {
	if token == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[token]
	if ss == nil || !s.now().Before(ss.expires) {
		return nil
	}
	return ss
}

// ExpireSessions invalidates every token; later calls answer
// "Session Expired : Invalid Session Key".
func (s *Server) ExpireSessions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, ss := range s.sessions {
		ss.expires = time.Time{}
	}
}

// ExpireSession invalidates one token; it reports whether it existed.
func (s *Server) ExpireSession(token string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[token]
	if ss != nil {
		ss.expires = time.Time{}
	}
	return ss != nil
}

// validTOTP checks factor2 as RFC 6238 (6 digits, 30 s, SHA1, ±skew steps).
// source: ShoonyaApi-py README (pyotp.TOTP), Shoonya-Dev on ShoonyaApi-py#131
// (30-second slot; skew per Config.TOTPSkew).
func (s *Server) validTOTP(code, secret string) bool {
	ok, err := totp.ValidateCustom(code, secret, s.cfg.TOTPNow(), totp.ValidateOpts{
		Period: 30, Skew: uint(s.cfg.TOTPSkew), Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1,
	})
	return err == nil && ok
}

// quickAuth is the legacy login (source: NorenRestApi 0.0.30 NorenApi.py login;
// ShoonyaApi-py README QuickAuth samples).
func (s *Server) quickAuth(c *call) reply {
	uid := c.str("uid")
	acct := s.accounts[uid]
	switch {
	case acct == nil:
		return s.notOk(EmsgUnknownUser)
	case c.str("vc") != acct.VendorCode, !eq(c.str("appkey"), AppKey(acct.UID, acct.APISecret)):
		// Noren answers a wrong or expired API key with the vendor-code error, HTTP 400 (Shoonya-Dev/ShoonyaApi-py issue #145).
		return s.notOkStatus(400, EmsgInvalidVendor)
	case acct.APIDisabled:
		return s.notOk(EmsgNotEnabledAPI)
	}
	access := c.str("source")
	if c.has("access_type") {
		access = c.str("access_type")
	}
	if access != "" && !slices.Contains(acct.AccessTypes, access) {
		return s.notOk(EmsgInvalidAccess)
	}
	if !eq(c.str("pwd"), PasswordHash(acct.Password)) {
		return s.notOk(EmsgWrongPassword)
	}
	if acct.PasswordExpired {
		return s.notOk(EmsgPasswordExpired)
	}
	if !s.validTOTP(c.str("factor2"), acct.TOTPSecret) {
		return s.notOk(EmsgInvalidOTP)
	}
	ss := s.newSession(uid, EraLegacy)
	s.log.Info().Str("uid", uid).Msg("QuickAuth ok")
	return s.ok(s.loginFields(acct, map[string]any{"susertoken": ss.token}))
}

func (s *Server) loginFields(a *Account, extra map[string]any) map[string]any {
	m := map[string]any{
		"lastaccesstime": fmt.Sprint(s.now().Unix()),
		"spasswordreset": "N",
		"exarr":          a.Exchanges,
		"uname":          a.Name,
		"prarr":          productList(a.Exchanges),
		"actid":          a.UID,
		"uid":            a.UID,
		"email":          a.Email,
		"brkname":        s.cfg.BrokerName,
		"brnchid":        "HO",
		"orarr":          orderTypes,
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

var orderTypes = []string{"MKT", "LMT", "SL-LMT", "SL-MKT", "DS", "2L", "3L", "4L"}

func productList(exch []string) []map[string]any {
	prods := []struct{ prd, alias string }{
		{"C", "Delivery"}, {"M", "NRML"}, {"I", "Intraday"}, {"H", "High Leverage"}, {"B", "Bracket Order"},
	}
	out := make([]map[string]any, 0, len(prods))
	for _, p := range prods {
		out = append(out, map[string]any{"prd": p.prd, "s_prdt_ali": p.alias, "exch": exch})
	}
	return out
}

// IssueAuthCode mints an OAuth code for uid as if the user had approved the
// login page; tests use it to skip the browser step.
func (s *Server) IssueAuthCode(uid string) (string, error) {
	if s.accounts[uid] == nil {
		return "", fmt.Errorf("fake: unknown uid %q", uid)
	}
	ac := &authCode{code: randomHex(16), uid: uid, expires: s.now().Add(s.cfg.OAuthCodeTTL)}
	s.mu.Lock()
	s.codes[ac.code] = ac
	s.mu.Unlock()
	return ac.code, nil
}

// genAcsTok exchanges an auth code for an access token (source:
// kambalatech/NorenRestApiWrapper-Py 0.0.33 getAccessToken; profitmart's Noren
// GenAcsTok doc page; INVALID_VERIFIER: docs.infinn.in, openalgo#1508).
// Every failure is INVALID_VERIFIER, as Noren reports it.
func (s *Server) genAcsTok(c *call) reply {
	code, uid := c.str("code"), c.str("uid")
	s.mu.Lock()
	ac := s.codes[code]
	if ac != nil {
		delete(s.codes, code) // single use
	}
	s.mu.Unlock()
	acct := s.accounts[uid]
	if uid == "" || ac == nil || acct == nil || ac.uid != uid || !s.now().Before(ac.expires) ||
		!eq(c.str("checksum"), OAuthChecksum(acct.ClientID, acct.ClientSecret, code)) {
		return s.notOk(EmsgInvalidVerifier)
	}
	ss := s.newSession(uid, EraOAuth)
	s.log.Info().Str("uid", uid).Msg("GenAcsTok ok")
	return s.ok(s.loginFields(acct, map[string]any{
		"USERID":        uid,
		"access_token":  ss.token,
		"susertoken":    ss.token,
		"expires_in":    fmt.Sprint(ss.expires.Unix()),
		"refresh_token": randomHex(16),
		"scope":         "API",
		"lastpwdtime":   fmt.Sprint(s.now().Add(-30 * 24 * time.Hour).Unix()),
		"mws":           map[string]any{},
		"values":        []any{},
	}))
}

// logout drops the session; like Noren, the websocket stays up
// (source: ShoonyaApi-py README Logout sample; ShoonyaApi-py#23).
func (s *Server) logout(c *call) reply {
	s.mu.Lock()
	delete(s.sessions, c.sess.token)
	s.mu.Unlock()
	return s.ok(nil)
}
