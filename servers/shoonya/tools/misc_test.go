package tools_test

import (
	"context"
	"fmt"
	"html"
	"io"
	"net/http"
	neturl "net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

func TestToolSchemasAndLint(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{})
	ts := e.conn.Built.Registry.Tools()
	if len(ts) != 32 {
		t.Fatalf("want 32 tools, got %d", len(ts))
	}
	servetest.Lint(t, ts)
	servetest.Snapshot(t, ts, "testdata/toolsnaps")
}

func TestReadOnlyDropsOrderTools(t *testing.T) {
	e := newEnv(t, noren.OAuth, envOpt{args: []string{"--read-only"}})
	names := map[string]bool{}
	for _, tl := range e.conn.Tools(t) {
		names[tl.Name] = true
	}
	for _, w := range []string{"place_order", "modify_order", "cancel_order"} {
		if names[w] {
			t.Errorf("%s served in read-only mode", w)
		}
	}
	for _, r := range []string{"connect_shoonya_broker", "get_order_book", "subscribe_market_feeds"} {
		if !names[r] {
			t.Errorf("%s missing in read-only mode", r)
		}
	}
}

func TestPreTradeLimits(t *testing.T) {
	e := newEnv(t, noren.Legacy, envOpt{extra: map[string]string{
		"SHOONYA_MAX_ORDER_QTY": "10", "SHOONYA_MAX_ORDER_VALUE": "20000", "SHOONYA_ALLOWED_EXCHANGES": "NSE",
		"SHOONYA_ALLOWED_PRODUCTS": "CNC,INTRADAY", "SHOONYA_MAX_ORDERS_PER_MINUTE": "2",
	}})
	e.connect()
	base := func(over map[string]any) map[string]any {
		m := map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 1, "order_type": "LIMIT", "price": 700}
		for k, v := range over {
			m[k] = v
		}
		return m
	}
	cases := []struct {
		name, limit string
		args        map[string]any
	}{
		{"quantity", "max_order_quantity", base(map[string]any{"quantity": 11})},
		{"value", "max_order_value", base(map[string]any{"quantity": 10, "price": 2500})},
		{"market value from LTP", "max_order_value", base(map[string]any{"trading_symbol": "TCS-EQ", "quantity": 10, "order_type": "MARKET", "price": nil})},
		{"exchange", "allowed_exchanges", base(map[string]any{"exchange": "BSE", "trading_symbol": "SBIN"})},
		{"product", "allowed_products", base(map[string]any{"product": "NORMAL"})},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.args {
				if v == nil {
					delete(c.args, k)
				}
			}
			body := servetest.ErrorBody(t, e.call("place_order", c.args))
			if body.Code != envelope.PermissionDenied || body.Details["limit"] != c.limit || !strings.Contains(body.Message, c.limit) {
				t.Fatalf("want permission_denied naming %s, got %+v", c.limit, body)
			}
		})
	}
	for i := range 2 {
		servetest.Decode[tools.PlaceOut](t, e.call("place_order", base(map[string]any{"idempotency_key": fmt.Sprintf("pace-%d", i)})))
	}
	body := servetest.ErrorBody(t, e.call("place_order", base(map[string]any{"idempotency_key": "pace-3"})))
	if body.Code != envelope.PermissionDenied || body.Details["limit"] != "max_orders_per_minute" || body.RetryAfterS == nil {
		t.Fatalf("pacing: %+v", body)
	}
	if n := len(e.fake.Ledger()); n != 2 {
		t.Fatalf("refused orders reached the broker: ledger has %d", n)
	}
}

type elicit struct{ accept bool }

func (h elicit) Elicit(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	if !strings.Contains(req.Params.Message, "SBIN-EQ") {
		return nil, fmt.Errorf("summary lacks the symbol: %s", req.Params.Message)
	}
	if !h.accept {
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
	}
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true}}}, nil
}

// TestOrderConfirmation: where the client supports elicitation, place_order
// asks first, in both protocol eras; a decline sends nothing.
func TestOrderConfirmation(t *testing.T) {
	versions := []string{mcp.LATEST_PROTOCOL_VERSION, mcp.ProtocolVersion20251125}
	for _, v := range versions {
		for _, accept := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/accept=%t", v, accept), func(t *testing.T) {
				e := newEnv(t, noren.OAuth, envOpt{extra: map[string]string{"SHOONYA_CONFIRM_ORDERS": "require"}})
				e.connect()
				c, err := client.NewInProcessClientWithOptions(e.conn.Built.Server, client.WithElicitationHandler(elicit{accept}), client.WithProtocolVersion(v))
				if err != nil {
					t.Fatal(err)
				}
				ctx := context.Background()
				if err := c.Start(ctx); err != nil {
					t.Fatal(err)
				}
				defer c.Close()
				var init mcp.InitializeRequest
				init.Params.ProtocolVersion = v
				init.Params.ClientInfo = mcp.Implementation{Name: "confirm-test", Version: "1"}
				init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{}
				if _, err := c.Initialize(ctx, init); err != nil {
					t.Fatal(err)
				}
				key := fmt.Sprintf("confirm-%t-%s", accept, v)
				var req mcp.CallToolRequest
				req.Params.Name = "place_order"
				req.Params.Arguments = map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 1,
					"order_type": "LIMIT", "price": 700, "idempotency_key": key}
				res, err := c.CallTool(ctx, req)
				if err != nil {
					t.Fatalf("protocol error: %v", err)
				}
				if accept {
					if out := servetest.Decode[tools.PlaceOut](t, res); out.Outcome != "placed" {
						t.Fatalf("accepted: %+v", out)
					}
				} else if body := servetest.ErrorBody(t, res); body.Code != envelope.PermissionDenied {
					t.Fatalf("declined: %+v", body)
				}
				want := 0
				if accept {
					want = 1
				}
				if n := e.fake.OrdersWithRemarks(key); n != want {
					t.Fatalf("ledger has %d orders, want %d", n, want)
				}
			})
		}
	}
}

// TestConfirmRequireWithoutElicitation: a client that cannot ask the user
// sends nothing however often the model retries; it gets one confirmation
// link, and the link places the order once.
func TestConfirmRequireWithoutElicitation(t *testing.T) {
	for _, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			e := newEnv(t, era, envOpt{extra: map[string]string{"SHOONYA_CONFIRM_ORDERS": "require"}})
			e.connect()
			args := map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 1, "order_type": "LIMIT", "price": 700}
			var url string
			for i := range 3 {
				out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", args))
				if out.Outcome != "confirmation_required" || out.ConfirmURL == "" || out.OrderID != "" {
					t.Fatalf("try %d: %+v", i, out)
				}
				if url != "" && out.ConfirmURL != url {
					t.Fatalf("a retry got another link: %s then %s", url, out.ConfirmURL)
				}
				url = out.ConfirmURL
			}
			if n := len(e.fake.Ledger()); n != 0 {
				t.Fatalf("%d orders reached the broker without a person's yes", n)
			}
			page := confirmPage(t, url)
			if got := postConfirm(t, url, page, nil); !strings.Contains(got.body, "Placed: order") {
				t.Fatalf("POST: %d %s", got.status, got.body)
			}
			if n := len(e.fake.Ledger()); n != 1 {
				t.Fatalf("ledger %d after the person's yes, want 1", n)
			}
			if got := postConfirm(t, url, page, nil); got.status != http.StatusGone {
				t.Fatalf("replayed POST: %d %s", got.status, got.body)
			}
			if n := len(e.fake.Ledger()); n != 1 {
				t.Fatalf("ledger %d after a replay, want 1", n)
			}
			// The model's retry now answers already_placed and sends nothing.
			if out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", args)); out.Outcome != "already_placed" || len(e.fake.Ledger()) != 1 {
				t.Fatalf("retry after the page: %+v, ledger %d", out, len(e.fake.Ledger()))
			}
		})
	}
}

// TestConfirmPageRefusesAlteredOrder: the POST must carry the exact order shown.
func TestConfirmPageRefusesAlteredOrder(t *testing.T) {
	e := newEnv(t, noren.Legacy, envOpt{extra: map[string]string{"SHOONYA_CONFIRM_ORDERS": "require"}})
	e.connect()
	out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ",
		"side": "BUY", "quantity": 1, "order_type": "LIMIT", "price": 700, "idempotency_key": "alter-1"}))
	page := confirmPage(t, out.ConfirmURL)
	altered := strings.Replace(page, `quantity&#34;:1`, `quantity&#34;:100`, 1)
	if altered == page {
		t.Fatalf("page does not carry the order: %s", page)
	}
	if got := postConfirm(t, out.ConfirmURL, altered, nil); got.status != http.StatusConflict || len(e.fake.Ledger()) != 0 {
		t.Fatalf("altered POST: %d %s, ledger %d", got.status, got.body, len(e.fake.Ledger()))
	}
	if got := postConfirm(t, out.ConfirmURL, page, map[string]string{"Origin": "https://evil.example"}); got.status != http.StatusForbidden || len(e.fake.Ledger()) != 0 {
		t.Fatalf("cross-site POST: %d, ledger %d", got.status, len(e.fake.Ledger()))
	}
}

// TestConfirmPageExpires: a link used after SHOONYA_CONFIRM_TTL sends nothing.
func TestConfirmPageExpires(t *testing.T) {
	e := newEnv(t, noren.Legacy, envOpt{extra: map[string]string{"SHOONYA_CONFIRM_ORDERS": "require", "SHOONYA_CONFIRM_TTL": "150ms"}})
	e.connect()
	out := servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ",
		"side": "BUY", "quantity": 1, "order_type": "LIMIT", "price": 700, "idempotency_key": "expire-1"}))
	page := confirmPage(t, out.ConfirmURL)
	time.Sleep(300 * time.Millisecond)
	if got := postConfirm(t, out.ConfirmURL, page, nil); got.status != http.StatusGone || len(e.fake.Ledger()) != 0 {
		t.Fatalf("expired POST: %d %s, ledger %d", got.status, got.body, len(e.fake.Ledger()))
	}
}

var orderField = regexp.MustCompile(`name="order" value="([^"]*)"`)

// confirmPage GETs the page and returns the hidden order field as the browser would post it.
func confirmPage(t *testing.T, url string) string {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	m := orderField.FindStringSubmatch(string(b))
	if res.StatusCode != 200 || m == nil {
		t.Fatalf("GET %s: %d %s", url, res.StatusCode, b)
	}
	return m[1]
}

type posted struct {
	status int
	body   string
}

func postConfirm(t *testing.T, url, escapedOrder string, headers map[string]string) posted {
	t.Helper()
	form := neturl.Values{"action": {"place"}, "order": {html.UnescapeString(escapedOrder)}}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return posted{res.StatusCode, string(b)}
}

// TestNoSecretsAnywhere: canary credentials never reach logs, results or errors,
// in both eras, on success and on failure paths.
func TestNoSecretsAnywhere(t *testing.T) {
	acct := fake.Account{UID: "FA99999", Password: "CanaryPw-7f3e9a1c", TOTPSecret: "CANARYTOTPSECRETQWERTYZ2345ABCDE",
		APISecret: "CanaryApi-5b2d8e0f", IMEI: "canary-imei", ClientSecret: "CanaryOAuth-9d4c6b2a"}
	canaries := []string{acct.Password, acct.TOTPSecret, acct.APISecret, acct.ClientSecret,
		noren.PasswordHash(acct.Password), noren.AppKey(acct.UID, acct.APISecret)}
	for _, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			e := newEnv(t, era, envOpt{account: &acct, extra: fastTimeouts})
			var hay []string
			record := func(tool string, args map[string]any) {
				hay = append(hay, servetest.ResultJSON(e.call(tool, args)))
			}
			record("connect_shoonya_broker", map[string]any{"totp": "000000", "auth_code": "bogus-code"})
			record("connect_shoonya_broker", map[string]any{"password": "wrong-" + acct.Password})
			e.connect()
			record("get_limits", nil)
			e.fake.SetFault("Limits", fake.Fault{Kind: fake.FaultMalformed})
			record("get_limits", nil)
			e.fake.SetFault("PlaceOrder", fake.Fault{Kind: fake.FaultTimeout})
			record("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 1, "order_type": "LIMIT", "price": 700})
			e.fake.ClearFaults()
			e.fake.ExpireSessions()
			record("get_positions", nil)
			hay = append(hay, e.conn.Logs())
			servetest.NoSecrets(t, hay, canaries...)
		})
	}
}

// TestOrderConfirmationOverHTTP: the production transport, both eras.
func TestOrderConfirmationOverHTTP(t *testing.T) {
	for _, v := range []string{mcp.LATEST_PROTOCOL_VERSION, mcp.ProtocolVersion20251125} {
		t.Run(v, func(t *testing.T) {
			e := newEnv(t, noren.Legacy, envOpt{extra: map[string]string{"SHOONYA_CONFIRM_ORDERS": "require"}})
			e.connect()
			c := httpClientWith(t, e.conn.Built, v, []client.ClientOption{client.WithElicitationHandler(elicit{false})})
			var req mcp.CallToolRequest
			req.Params.Name = "place_order"
			req.Params.Arguments = map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 1,
				"order_type": "LIMIT", "price": 700, "idempotency_key": "http-decline"}
			res, err := c.CallTool(context.Background(), req)
			if err != nil {
				t.Fatalf("protocol error: %v", err)
			}
			if body := servetest.ErrorBody(t, res); body.Code != envelope.PermissionDenied || len(e.fake.Ledger()) != 0 {
				t.Fatalf("declined over HTTP: %+v, ledger %d", body, len(e.fake.Ledger()))
			}
		})
	}
}

// TestSymbolWithAmpersand: M&M-EQ travels URL-encoded in PlaceOrder (as the
// official clients send it) and comes back intact.
func TestSymbolWithAmpersand(t *testing.T) {
	e := newEnv(t, noren.Legacy, envOpt{})
	e.connect()
	servetest.Decode[tools.PlaceOut](t, e.call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "M&M-EQ", "side": "BUY",
		"quantity": 1, "order_type": "LIMIT", "price": 2900, "idempotency_key": "amp-1"}))
	ob := servetest.Decode[tools.OrderBookOut](t, e.call("get_order_book", nil))
	if l := ob.List(); len(l) != 1 || l[0].TradingSymbol != "M&M-EQ" {
		t.Fatalf("%+v", ob)
	}
	if raw := e.fake.Ledger()[0].Raw; !strings.Contains(raw, "M%26M-EQ") {
		t.Fatalf("sent %s", raw)
	}
}
