package tools_test

import (
	"context"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/apps"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// app is main.go's wiring: the tools, then the MCP Apps views.
func app() serve.App {
	return serve.App{Name: "shoonya", DefaultPort: 8702, Instructions: tools.Instructions,
		Register: func(ctx context.Context, r *serve.Registry) error {
			if err := tools.Register(ctx, r); err != nil {
				return err
			}
			return mcpapps.Install(r.Server, apps.Config())
		}}
}

// env is one fake Noren plus a connected MCP client in one era.
type env struct {
	t    testing.TB
	fake *fake.Server
	urls fake.URLs
	era  noren.Era
	conn *servetest.Conn
	uid  string
}

type envOpt struct {
	cfg     fake.Config
	args    []string
	clients []client.ClientOption
	extra   map[string]string
	account *fake.Account // default fake.DemoAccount()
}

// newEnv starts a fake, points SHOONYA_* at it, builds the server and connects.
func newEnv(t testing.TB, era noren.Era, o envOpt) *env {
	t.Helper()
	if o.cfg.TickInterval == 0 {
		o.cfg.TickInterval = 50 * time.Millisecond
	}
	acct := fake.DemoAccount()
	if o.account != nil {
		acct = *o.account
		o.cfg.Accounts = []fake.Account{acct}
	}
	f := fake.New(o.cfg)
	urls, err := f.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.Close)
	t.Setenv("SHOONYA_AUTH", string(era))
	t.Setenv("SHOONYA_USER_ID", acct.UID)
	t.Setenv("SHOONYA_PASSWORD", acct.Password)
	t.Setenv("SHOONYA_TOTP_SECRET", acct.TOTPSecret)
	t.Setenv("SHOONYA_VENDOR_CODE", acct.VendorCode)
	t.Setenv("SHOONYA_API_SECRET", acct.APISecret)
	t.Setenv("SHOONYA_IMEI", acct.IMEI)
	t.Setenv("SHOONYA_CLIENT_ID", acct.ClientID)
	t.Setenv("SHOONYA_CLIENT_SECRET", acct.ClientSecret)
	t.Setenv("SHOONYA_AUTHORIZE_URL", urls.Authorize)
	t.Setenv("SHOONYA_CONFIRM_ORDERS", "off") // confirmation and the account guards have their own tests
	t.Setenv("SHOONYA_DUPLICATE_WINDOW", "0")
	t.Setenv("SHOONYA_MAX_ORDERS_PER_DAY", "0")
	t.Setenv("SHOONYA_MAX_DAY_VALUE", "0")
	if era == noren.Legacy {
		t.Setenv("SHOONYA_REST_URL", urls.LegacyREST)
		t.Setenv("SHOONYA_WS_URL", urls.LegacyWS)
	} else {
		t.Setenv("SHOONYA_REST_URL", urls.OAuthREST)
		t.Setenv("SHOONYA_WS_URL", urls.OAuthWS)
	}
	for k, v := range o.extra {
		t.Setenv(k, v)
	}
	c := servetest.NewWithOptions(t, app(), o.clients, o.args...)
	return &env{t: t, fake: f, urls: urls, era: era, conn: c, uid: acct.UID}
}

// connect logs in through the tool (OAuth: authorize URL, then a fake-issued code).
func (e *env) connect() {
	e.t.Helper()
	res := e.call("connect_shoonya_broker", map[string]any{})
	out := servetest.Decode[tools.ConnectOut](e.t, res)
	if e.era == noren.OAuth && out.Status != "connected" {
		if out.Status != "authorization_required" || out.AuthorizeURL == "" {
			e.t.Fatalf("oauth connect: %+v", out)
		}
		code, err := e.fake.IssueAuthCode(e.uid)
		if err != nil {
			e.t.Fatal(err)
		}
		out = servetest.Decode[tools.ConnectOut](e.t, e.call("connect_shoonya_broker", map[string]any{"auth_code": code}))
	}
	if out.Status != "connected" {
		e.t.Fatalf("connect: %+v", out)
	}
}

func (e *env) call(tool string, args map[string]any) *mcp.CallToolResult {
	e.t.Helper()
	return e.conn.Call(e.t, tool, args)
}

// callWithin calls and fails if the answer takes longer than d.
func (e *env) callWithin(d time.Duration, tool string, args map[string]any) *mcp.CallToolResult {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d+5*time.Second)
	defer cancel()
	start := time.Now()
	res, err := e.conn.CallCtx(ctx, tool, args)
	if err != nil {
		e.t.Fatalf("%s: protocol error: %v", tool, err)
	}
	if took := time.Since(start); took > d {
		e.t.Errorf("%s answered after %v, deadline %v", tool, took, d)
	}
	return res
}

var eras = []noren.Era{noren.Legacy, noren.OAuth}
