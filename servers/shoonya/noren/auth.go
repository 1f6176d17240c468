package noren

import (
	"context"
	"net/url"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Credentials are what a login needs. Every field but UID is secret.
type Credentials struct {
	UID          string
	Password     string // legacy
	TOTPSecret   string // legacy: base32 RFC 6238 secret for factor2
	VendorCode   string // legacy: vc, default UID+"_U"
	APISecret    string // legacy: appkey = sha256(uid|api_secret)
	IMEI         string // legacy
	ClientID     string // OAuth: client_id, default UID+"_U"
	ClientSecret string // OAuth: secret code in the GenAcsTok checksum
}

// TOTP computes the current 6-digit code from a base32 secret.
func TOTP(secret string, now time.Time) (string, error) {
	code, err := totp.GenerateCodeCustom(secret, now, totp.ValidateOpts{Period: 30, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		// The error text of the otp package never includes the secret, but say less anyway.
		return "", envelope.New(envelope.InvalidArgument, "SHOONYA_TOTP_SECRET is not a valid base32 TOTP secret; copy it again from the Shoonya TOTP setup page")
	}
	return code, nil
}

// QuickAuth logs in the legacy way. factor2 is the TOTP (computed by the caller).
func (c *Client) QuickAuth(ctx context.Context, cr Credentials, factor2 string) (*Auth, error) {
	var res LoginResult
	if err := c.object(ctx, "QuickAuth", nil, quickAuthData(cr, factor2), false, &res); err != nil {
		return nil, loginErr(err)
	}
	if res.SUserToken == "" {
		return nil, envelope.New(envelope.UpstreamError, "QuickAuth: Shoonya answered Ok without a session token; try again")
	}
	actid := res.ActID
	if actid == "" {
		actid = cr.UID
	}
	return &Auth{Era: Legacy, UID: cr.UID, ActID: actid, Token: res.SUserToken}, nil
}

// quickAuthData is QuickAuth's jData (NorenApi.py login).
func quickAuthData(cr Credentials, factor2 string) map[string]any {
	vc := cr.VendorCode
	if vc == "" {
		vc = cr.UID + "_U"
	}
	imei := cr.IMEI
	if imei == "" {
		imei = "mcpfleet"
	}
	return map[string]any{
		"source": "API", "apkversion": "1.0.0", "uid": cr.UID,
		"pwd": PasswordHash(cr.Password), "factor2": factor2, "vc": vc,
		"appkey": AppKey(cr.UID, cr.APISecret), "imei": imei,
	}
}

// AuthorizeURL is the browser page where the user logs in for OAuth; it
// redirects to the registered URL with ?code=.
func (c *Client) AuthorizeURL(clientID, redirect, state string) string {
	q := url.Values{"client_id": {clientID}}
	if redirect != "" {
		q.Set("redirect_uri", redirect)
	}
	if state != "" {
		q.Set("state", state)
	}
	return c.cfg.AuthorizeURL + "?" + q.Encode()
}

// GenAcsTok exchanges an OAuth authorization code for an access token.
func (c *Client) GenAcsTok(ctx context.Context, cr Credentials, code string) (*Auth, error) {
	clientID := cr.ClientID
	if clientID == "" {
		clientID = cr.UID + "_U"
	}
	j := map[string]any{"code": code, "checksum": OAuthChecksum(clientID, cr.ClientSecret, code), "uid": cr.UID}
	var res LoginResult
	if err := c.object(ctx, "GenAcsTok", nil, j, false, &res); err != nil {
		return nil, loginErr(err)
	}
	if res.AccessToken == "" {
		return nil, envelope.New(envelope.UpstreamError, "GenAcsTok: Shoonya answered without an access token; call connect_shoonya_broker for a fresh authorize URL")
	}
	uid := firstNonEmpty(res.UserID, res.UID, cr.UID)
	return &Auth{Era: OAuth, UID: uid, ActID: firstNonEmpty(res.ActID, uid), Token: res.AccessToken}, nil
}

// loginErr turns a lost login answer into a plain retryable failure: a login
// creates nothing the user could duplicate.
func loginErr(err error) error {
	e := envelope.From(err)
	if e.Code == envelope.OutcomeUnknown {
		return envelope.New(envelope.UpstreamUnavailable, "login: Shoonya's answer was lost; call connect_shoonya_broker again (OAuth: without auth_code, for a fresh authorize URL; a code works once)").WithCause(err)
	}
	return err
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
