package tools_test

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// TestLoginErrorsLeadSomewhere: logins that can never work are answered as
// not retryable, sent once, and name the fix. The texts are the broker's:
//   - legacy QuickAuth answers 502 since 2026-04-01 (Shoonya-Dev/ShoonyaApi-py#218);
//   - "Access Restricted for API Only Users" on the new login (ShoonyaApi-py#218, #224);
//   - "Invalid Input :  Invalid App Key" (Rahulghuge94/finshoonya#2);
//   - "Invalid Input : User Blocked due to multiple wrong attempts" (assumed:
//     the wording of Noren's lock-out; no public sample was found).
func TestLoginErrorsLeadSomewhere(t *testing.T) {
	cases := []struct {
		name  string
		era   noren.Era
		route string
		fault fake.Fault
		code  envelope.Code
		fix   []string // the message names these
	}{
		{"legacy 502", noren.Legacy, "QuickAuth", fake.Fault{Kind: fake.FaultStatus, Status: 502}, envelope.Unauthenticated,
			[]string{"legacy login", "gone", "will not help", "SHOONYA_AUTH", "oauth", "SHOONYA_CLIENT_ID", "authorize_url"}},
		{"legacy access restricted", noren.Legacy, "QuickAuth", fake.Fault{Kind: fake.FaultRefuse, Body: "Access Restricted for API Only Users"}, envelope.PermissionDenied,
			[]string{"OAuth", "legacy QuickAuth login is gone", "SHOONYA_AUTH=oauth", "static IP"}},
		{"oauth access restricted", noren.OAuth, "GenAcsTok", fake.Fault{Kind: fake.FaultRefuse, Body: "Access Restricted for API Only Users"}, envelope.PermissionDenied,
			[]string{"OAuth", "static IP", "authorize_url"}},
		{"legacy invalid app key", noren.Legacy, "QuickAuth", fake.Fault{Kind: fake.FaultRefuse, Body: "Invalid Input :  Invalid App Key"}, envelope.Unauthenticated,
			[]string{"app key", "SHOONYA_API_SECRET", "regenerate"}},
		{"oauth invalid app key", noren.OAuth, "GenAcsTok", fake.Fault{Kind: fake.FaultRefuse, Body: "Invalid Input :  Invalid App Key"}, envelope.Unauthenticated,
			[]string{"app key", "SHOONYA_API_SECRET"}},
		{"legacy user blocked", noren.Legacy, "QuickAuth", fake.Fault{Kind: fake.FaultRefuse, Body: "Invalid Input : User Blocked due to multiple wrong attempts"}, envelope.PermissionDenied,
			[]string{"blocked", "trade.shoonya.com", "will not help"}},
		{"oauth user blocked", noren.OAuth, "GenAcsTok", fake.Fault{Kind: fake.FaultRefuse, Body: "Invalid Input : User Blocked due to multiple wrong attempts"}, envelope.PermissionDenied,
			[]string{"blocked", "trade.shoonya.com"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			proxy := newCountingProxy(t)
			rest := proxy.url + fake.PathOAuthREST
			if tc.era == noren.Legacy {
				rest = proxy.url + fake.PathLegacyREST
			}
			e := newEnv(t, tc.era, envOpt{extra: map[string]string{"SHOONYA_REST_URL": rest, "SHOONYA_TIMEOUT": "2s"}})
			h := e.fake.Handler()
			proxy.target.Store(&h)
			e.fake.SetFault(tc.route, tc.fault)
			args := map[string]any{}
			if tc.era == noren.OAuth {
				code, err := e.fake.IssueAuthCode(e.uid)
				if err != nil {
					t.Fatal(err)
				}
				args["auth_code"] = code
			}
			for try := range 2 { // the model's retry gets the same answer
				body := servetest.ErrorBody(t, e.call("connect_shoonya_broker", args))
				if body.Code != tc.code || body.Retryable || body.RetryAfterS != nil {
					t.Fatalf("try %d: want %s, not retryable; got %+v", try, tc.code, body)
				}
				for _, w := range tc.fix {
					if !strings.Contains(body.Message, w) {
						t.Errorf("message does not say %q: %s", w, body.Message)
					}
				}
				if strings.Contains(strings.ToLower(body.Message), "call again") || strings.Contains(body.Message, "SHOONYA_AUTH=legacy") {
					t.Errorf("message points the wrong way: %s", body.Message)
				}
			}
			if n := proxy.count(tc.route); n != 2 {
				t.Errorf("%s requests %d for two calls: a login that cannot work must not be retried", tc.route, n)
			}
		})
	}
}
