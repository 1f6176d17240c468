package fake

import (
	"html/template"
	"net"
	"net/http"
	"net/url"
)

// serveAuthorize is the OAuth login page (trade.shoonya.com/OAuthlogin/...).
// GET shows a form (uid, password, TOTP); POST checks it and redirects to
// the redirect URL with ?code=. With Config.OAuthAutoApprove or auto=1 the
// GET redirects at once (uid from route_to/uid, else the client's account).
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	_ = r.ParseForm()
	clientID := firstOf(r.Form.Get("client_id"), r.Form.Get("api_key"))
	acct := s.byClientID[clientID]
	if acct == nil {
		http.Error(w, "invalid client_id", http.StatusBadRequest)
		return
	}
	redirect := firstOf(r.Form.Get("redirect_uri"), acct.RedirectURL)
	if !allowedRedirect(redirect, acct.RedirectURL) {
		http.Error(w, "invalid redirect_uri", http.StatusBadRequest)
		return
	}
	if acct.APIOnly {
		http.Error(w, EmsgAPIOnlyUsers, http.StatusForbidden)
		return
	}
	auto := s.cfg.OAuthAutoApprove || r.Form.Get("auto") == "1"
	if r.Method == http.MethodGet && !auto {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = loginPage.Execute(w, map[string]string{
			"ClientID": clientID, "Redirect": redirect, "State": r.Form.Get("state"),
			"UID": firstOf(r.Form.Get("route_to"), r.Form.Get("uid")),
		})
		return
	}
	if r.Method == http.MethodPost && !auto {
		if r.Form.Get("uid") != acct.UID || r.Form.Get("password") != acct.Password {
			http.Error(w, EmsgWrongPassword, http.StatusUnauthorized)
			return
		}
		if !s.validTOTP(r.Form.Get("totp"), acct.TOTPSecret) {
			http.Error(w, EmsgInvalidOTP, http.StatusUnauthorized)
			return
		}
	}
	code, _ := s.IssueAuthCode(acct.UID)
	u, _ := url.Parse(redirect)
	q := u.Query()
	q.Set("code", code)
	if st := r.Form.Get("state"); st != "" && s.cfg.OAuthEchoState {
		q.Set("state", st) // not by default: the real redirect carries only ?code= (kambalatech 0.0.33)
	}
	u.RawQuery = q.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

func firstOf(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// allowedRedirect accepts the registered URL, or any loopback http(s) URL
// when none is registered (the fake never sends users off the machine).
func allowedRedirect(redirect, registered string) bool {
	if redirect == "" {
		return false
	}
	if registered != "" {
		return redirect == registered
	}
	u, err := url.Parse(redirect)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

var loginPage = template.Must(template.New("login").Parse(`<!doctype html>
<html><head><title>Shoonya OAuth login (FAKE)</title></head><body>
<h1>Fake Shoonya login</h1><p>This is a test double; credentials here are fake.</p>
<form method="post">
<input type="hidden" name="client_id" value="{{.ClientID}}">
<input type="hidden" name="redirect_uri" value="{{.Redirect}}">
<input type="hidden" name="state" value="{{.State}}">
<label>User ID <input name="uid" value="{{.UID}}"></label>
<label>Password <input name="password" type="password"></label>
<label>TOTP <input name="totp"></label>
<button type="submit">Login</button>
</form></body></html>
`))
