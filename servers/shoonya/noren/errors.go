package noren

import (
	"errors"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Sentinels carried as the cause of the envelope errors below, so callers can
// react (re-login, empty list) without parsing messages.
var (
	// ErrSessionExpired marks "Session Expired : Invalid Session Key".
	ErrSessionExpired = errors.New("noren: session expired")
	// ErrNoData marks Noren's "no data" answers (an empty book, an unknown quote).
	ErrNoData = errors.New("noren: no data")
	// ErrServerTimeout marks "Server Timeout :  " (HTTP 504). TPSeries answers
	// it when one request would make too many candles (marketcalls/openalgo
	// broker/shoonya/api/data.py, _get_history_chunk_seconds), so a smaller
	// window works where a retry of the same one does not.
	ErrServerTimeout = errors.New("noren: server timeout")
)

// emsgRule maps a fragment of a Noren emsg onto an envelope error.
type emsgRule struct {
	fragment string // matched case-insensitively
	code     envelope.Code
	message  string // names the fix; %s-free on purpose (emsg is appended)
	cause    error
}

// emsgRules are checked in order; texts are from the ShoonyaApi-py README
// samples and issues (#13, #47, #131, #145, #218), ShoonyaApi-js#16 and Noren
// doc pages (INVALID_VERIFIER: docs.infinn.in; INVALID_IP: nimitshah74/Shoonya_oAuthAPI-py README).
var emsgRules = []emsgRule{
	{"session expired", envelope.Unauthenticated, "the Shoonya session expired or was invalidated; call connect_shoonya_broker to log in again", ErrSessionExpired},
	{"invalid session key", envelope.Unauthenticated, "the Shoonya session expired or was invalidated; call connect_shoonya_broker to log in again", ErrSessionExpired},
	{"no data", envelope.NotFound, "Shoonya has no data for this request", ErrNoData},
	{"wrong password", envelope.Unauthenticated, "Shoonya rejected the password; check SHOONYA_PASSWORD (or the password argument)", nil},
	{"password expired", envelope.Unauthenticated, "the Shoonya password expired; change it on the Shoonya web site, then set SHOONYA_PASSWORD", nil},
	{"change password", envelope.Unauthenticated, "Shoonya requires a password change; change it on the Shoonya web site, then set SHOONYA_PASSWORD", nil},
	{"invalid otp", envelope.Unauthenticated, "Shoonya rejected the TOTP; check SHOONYA_TOTP_SECRET and the system clock, or pass a fresh 6-digit totp", nil},
	{"invalid vendor code", envelope.Unauthenticated, "Shoonya rejected the vendor code or API key; check SHOONYA_VENDOR_CODE (usually <user id>_U) and regenerate SHOONYA_API_SECRET if it expired", nil},
	{"not enabled on", envelope.PermissionDenied, "this Shoonya account is not enabled for API access; enable API access with Finvasia", nil},
	{"invalid access type", envelope.PermissionDenied, "this Shoonya account is not enabled for API access; enable API access with Finvasia", nil},
	// The legacy QuickAuth path is gone since 2026-04-01: it answers 502
	// (ShoonyaApi-py#218), and the new login page says this to accounts whose
	// static IP and API key are not set up for OAuth yet (#218, #224).
	{"access restricted for api only users", envelope.PermissionDenied, "Shoonya answered \"Access Restricted for API Only Users\": since 2026-04-01 API accounts log in only through OAuth (the legacy QuickAuth login is gone). Register this machine's static IP on trade.shoonya.com, regenerate the API key there, set SHOONYA_AUTH=oauth with SHOONYA_CLIENT_ID and SHOONYA_CLIENT_SECRET, and open connect_shoonya_broker's authorize_url again; if it persists, write to apisupport@shoonya.com", nil},
	// "Invalid Input :  Invalid App Key" (Rahulghuge94/finshoonya#2): the
	// appkey is sha256(uid|SHOONYA_API_SECRET), so the secret is what is wrong.
	{"invalid app key", envelope.Unauthenticated, "Shoonya rejected the app key: check SHOONYA_API_SECRET (the API key from the Shoonya API page; regenerate it there if it expired, ShoonyaApi-py#47) and SHOONYA_USER_ID", nil},
	// "Invalid Input : User Blocked due to multiple wrong attempts" (assumed:
	// Noren's lock-out wording; no public sample of it was found, so only
	// "user blocked" is matched): no retry here can help.
	{"user blocked", envelope.PermissionDenied, "Shoonya blocked this user after repeated wrong logins: unblock it on Shoonya's site (trade.shoonya.com, Forgot password / unblock user), then check SHOONYA_PASSWORD and SHOONYA_TOTP_SECRET before connecting again; trying again now will not help", nil},
	{"invalid_verifier", envelope.Unauthenticated, "Shoonya rejected the OAuth code (used, expired, or wrong SHOONYA_CLIENT_ID/SHOONYA_CLIENT_SECRET); call connect_shoonya_broker for a fresh authorize URL", nil},
	{"invalid_ip", envelope.PermissionDenied, "Shoonya refused this machine's IP address; register the static IP on the Shoonya API page and regenerate the API key", nil},
	{"invalid user", envelope.Unauthenticated, "Shoonya does not know this user id; check SHOONYA_USER_ID", nil},
	{"order not found", envelope.NotFound, "Shoonya has no open order with this order number; check get_order_book", nil},
	// assumed: the alert routes' text for an unknown al_id (no public sample).
	{"alert not found", envelope.NotFound, "Shoonya has no pending alert with this id (fired, cancelled or never set); list_price_alerts shows the pending ones", nil},
	{"server timeout", envelope.UpstreamUnavailable, "Shoonya timed out; try again shortly", ErrServerTimeout},
	{"too many requests", envelope.RateLimited, "Shoonya's rate limit (20 requests/s, 200/min) was hit; wait and try again", nil},
	{"trigger price", envelope.InvalidArgument, "Shoonya rejected the trigger price; send trigger_price only for SL and SL-M orders", nil},
	{"invalid input", envelope.InvalidArgument, "Shoonya refused the request as invalid input (its words are in details.broker_message); check the arguments it names, or report it if they are right", nil},
}

// EmsgError turns a Not_Ok emsg into an envelope error. The broker's own text
// is kept in details (it never contains credentials) so the model can read it.
func EmsgError(op, emsg string) *envelope.Error {
	low := strings.ToLower(emsg)
	for _, r := range emsgRules {
		if strings.Contains(low, r.fragment) {
			e := envelope.New(r.code, "%s: %s", op, r.message).WithDetail("broker_message", extract.Clip(emsg, extract.MaxUpstreamText))
			if r.cause != nil {
				e = e.WithCause(r.cause)
			}
			return e
		}
	}
	return envelope.New(envelope.UpstreamError, "%s: Shoonya refused the request", op).WithDetail("broker_message", extract.Clip(emsg, extract.MaxUpstreamText))
}

// IsNoData reports whether err is Noren's "no data" answer.
func IsNoData(err error) bool { return errors.Is(err, ErrNoData) }

// IsServerTimeout reports whether err is Noren's "Server Timeout" answer.
func IsServerTimeout(err error) bool { return errors.Is(err, ErrServerTimeout) }

// IsSessionExpired reports whether err is Noren's session-expired answer.
func IsSessionExpired(err error) bool { return errors.Is(err, ErrSessionExpired) }
