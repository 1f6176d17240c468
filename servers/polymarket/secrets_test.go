package main

import (
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/fake"
)

// Canary: credentials in an upstream URL (a proxy's user:password) and the
// bearer tokens never reach logs, results or error messages.
func TestCanarySecrets(t *testing.T) {
	const canary = "CANARY-polymarket-5f1e2d3c"
	t.Setenv("MCPFLEET_AUTH_TOKENS", "alice="+canary+"-token")
	f := fake.New(fake.Options{})
	base, stop := f.Start()
	t.Cleanup(stop)
	withCreds := "http://user:" + canary + "@" + base[len("http://"):]
	closed := "http://user:" + canary + "@127.0.0.1:9"
	conn := servetest.New(t, app(configForTest()), "--gamma-url", withCreds, "--clob-url", closed, "--data-url", withCreds,
		"--btc-url", closed, "--btc-fallback-url", closed, "--timeout", "1s", "--log-level", "debug")
	id, _, _, tok := f.Market(1)
	f.SetFault(fake.Fault{Kind: fake.Fault500, Route: fake.RoutePositions})
	var texts []string
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"get_market", map[string]any{"identifier": id}},
		{"get_order_books", map[string]any{"token_ids": []string{tok[0]}}},
		{"get_user_positions", map[string]any{"user": fake.KnownUser}},
		{"get_btc_price", nil},
	} {
		texts = append(texts, servetest.ResultJSON(conn.Call(t, c.tool, c.args)))
	}
	servetest.NoSecrets(t, append(texts, conn.Logs()), canary)
}
