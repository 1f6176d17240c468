package tools_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"html"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// Both transports: "stdio" is the in-process server whose confirmation page
// opens its own loopback listener; "http" is the streamable HTTP transport
// with the page served beside /mcp on the server's own address.
var transports = []string{"stdio", "http"}

// confirmEnv is one shoonya server with SHOONYA_CONFIRM_ORDERS=require in
// front of the fake, its REST calls counted per route, on one transport.
type confirmEnv struct {
	*env
	proxy *countingProxy
	mcp   string // the /mcp URL on the http transport
}

func newConfirmEnv(t *testing.T, era noren.Era, tr string, extra map[string]string) *confirmEnv {
	t.Helper()
	vars := map[string]string{"SHOONYA_CONFIRM_ORDERS": "require"}
	for k, v := range extra {
		vars[k] = v
	}
	var args []string
	var ln net.Listener
	if tr == "http" {
		var err error
		if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		args = []string{"--transport", "http", "--addr", ln.Addr().String()}
	}
	rep, proxy := newReplicas(t, era, 1, "", vars, args...)
	ce := &confirmEnv{env: rep[0], proxy: proxy}
	if ln != nil {
		srv := &http.Server{Handler: serve.HTTPHandler(ce.conn.Built), ReadHeaderTimeout: 5 * time.Second}
		go func() { _ = srv.Serve(ln) }()
		t.Cleanup(func() { _ = srv.Close() })
		ce.mcp = "http://" + ln.Addr().String() + "/mcp"
	}
	return ce
}

// client connects a client of protocol version v on the env's transport;
// with h it declares elicitation and answers through h. wrap, when set,
// sits between the client and the transport (to tamper with requests).
func (ce *confirmEnv) client(t *testing.T, v string, h client.ElicitationHandler, wrap func(transport.Interface) transport.Interface) *client.Client {
	t.Helper()
	var tr transport.Interface
	if ce.mcp != "" {
		st, err := transport.NewStreamableHTTP(ce.mcp)
		if err != nil {
			t.Fatal(err)
		}
		tr = st
	} else {
		var opts []transport.InProcessOption
		if h != nil {
			opts = append(opts, transport.WithElicitationHandler(inProcessElicit{h}))
		}
		tr = transport.NewInProcessTransportWithOptions(ce.conn.Built.Server, opts...)
	}
	if wrap != nil {
		tr = wrap(tr)
	}
	copts := []client.ClientOption{client.WithProtocolVersion(v)}
	if h != nil {
		copts = append(copts, client.WithElicitationHandler(h))
	}
	c := client.NewClient(tr, copts...)
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = v
	init.Params.ClientInfo = mcp.Implementation{Name: "confirm-test", Version: "1"}
	if h != nil {
		init.Params.Capabilities.Elicitation = &mcp.ElicitationCapability{}
	}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize %s over %s: %v", v, ce.transport(), err)
	}
	return c
}

func (ce *confirmEnv) transport() string {
	if ce.mcp != "" {
		return "http"
	}
	return "stdio"
}

// inProcessElicit lets the in-process transport (pre-2026-07-28 sessions)
// deliver elicitation/create to a client handler.
type inProcessElicit struct{ h client.ElicitationHandler }

func (a inProcessElicit) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return a.h.Elicit(ctx, req)
}

func placeCall(c *client.Client, args map[string]any) (*mcp.CallToolResult, error) {
	var req mcp.CallToolRequest
	req.Params.Name = "place_order"
	req.Params.Arguments = args
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return c.CallTool(ctx, req)
}

func sbinLimit(key string) map[string]any {
	return map[string]any{"exchange": "NSE", "trading_symbol": "SBIN-EQ", "side": "BUY", "quantity": 1,
		"order_type": "LIMIT", "price": 700, "product": "CNC", "idempotency_key": key}
}

// TestConfirmPageTable: on both transports and both broker eras the page's
// GET shows the order and sends nothing; the POST places it exactly once; a
// replayed, an expired or an altered POST (any field of the order changed)
// sends nothing to PlaceOrder.
func TestConfirmPageTable(t *testing.T) {
	alterations := []struct{ field, from, to string }{
		{"quantity", `"quantity":1,`, `"quantity":2,`},
		{"price", `"price":700`, `"price":701`},
		{"side", `"side":"BUY"`, `"side":"SELL"`},
		{"trading_symbol", `"trading_symbol":"SBIN-EQ"`, `"trading_symbol":"TCS-EQ"`},
		{"exchange", `"exchange":"NSE"`, `"exchange":"BSE"`},
		{"order_type", `"order_type":"LIMIT"`, `"order_type":"MARKET"`},
		{"product", `"product":"CNC"`, `"product":"INTRADAY"`},
		{"idempotency_key", `"idempotency_key":"page-`, `"idempotency_key":"pagf-`},
		{"added field", `"side":"BUY"`, `"side":"BUY","after_market":true`},
	}
	for _, tr := range transports {
		for _, era := range eras {
			t.Run(tr+"/"+string(era), func(t *testing.T) {
				ce := newConfirmEnv(t, era, tr, nil)
				offer := func(key string) tools.PlaceOut {
					t.Helper()
					out := servetest.Decode[tools.PlaceOut](t, ce.call("place_order", sbinLimit(key)))
					if out.Outcome != "confirmation_required" || out.ConfirmURL == "" || out.OrderID != "" {
						t.Fatalf("offer: %+v", out)
					}
					if tr == "http" && !strings.HasPrefix(out.ConfirmURL, strings.TrimSuffix(ce.mcp, "/mcp")+"/shoonya/confirm/") {
						t.Fatalf("on HTTP the page is beside /mcp (%s), got %s", ce.mcp, out.ConfirmURL)
					}
					return out
				}
				placed := func() int { return ce.proxy.count("PlaceOrder") }

				// Altered: each field changed, nothing sent; the untouched order still places.
				out := offer("page-alter")
				page := html.UnescapeString(confirmPage(t, out.ConfirmURL))
				for _, a := range alterations {
					if !strings.Contains(page, a.from) {
						t.Fatalf("%s: the page's order lacks %s: %s", a.field, a.from, page)
					}
					got := postConfirm(t, out.ConfirmURL, html.EscapeString(strings.Replace(page, a.from, a.to, 1)), nil)
					if got.status != http.StatusConflict || placed() != 0 {
						t.Fatalf("%s altered: %d %s; PlaceOrder requests %d", a.field, got.status, got.body, placed())
					}
				}

				// GET shows the order (and sends nothing); POST places it once.
				res, err := http.Get(out.ConfirmURL)
				if err != nil {
					t.Fatal(err)
				}
				body := bodyOf(t, res)
				if res.StatusCode != 200 || !strings.Contains(body, "BUY 1 SBIN-EQ on NSE") || !strings.Contains(body, "limit 700") || placed() != 0 {
					t.Fatalf("GET: %d %s; PlaceOrder %d", res.StatusCode, body, placed())
				}
				if got := postConfirm(t, out.ConfirmURL, html.EscapeString(page), nil); got.status != 200 || !strings.Contains(got.body, "Placed: order") {
					t.Fatalf("POST: %d %s", got.status, got.body)
				}
				if placed() != 1 || ce.fake.OrdersWithRemarks("page-alter") != 1 {
					t.Fatalf("after the yes: PlaceOrder %d, want 1", placed())
				}
				// Replayed: the same POST again, and concurrently, sends nothing more.
				var wg sync.WaitGroup
				statuses := make([]int, 4)
				for i := range statuses {
					wg.Add(1)
					go func() {
						defer wg.Done()
						statuses[i] = postConfirm(t, out.ConfirmURL, html.EscapeString(page), nil).status
					}()
				}
				wg.Wait()
				for i, s := range statuses {
					if s != http.StatusGone {
						t.Errorf("replay %d: status %d, want 410", i, s)
					}
				}
				if placed() != 1 {
					t.Fatalf("after replays: PlaceOrder %d, want 1", placed())
				}
				// GET after use says so and offers no button.
				res, err = http.Get(out.ConfirmURL)
				if err != nil {
					t.Fatal(err)
				}
				if body := bodyOf(t, res); !strings.Contains(body, "Already used") || strings.Contains(body, `value="place"`) {
					t.Fatalf("GET after use: %s", body)
				}

				// A fresh page raced by concurrent POSTs places once.
				race := offer("page-race")
				rpage := confirmPage(t, race.ConfirmURL)
				oks := make([]bool, 6)
				for i := range oks {
					wg.Add(1)
					go func() {
						defer wg.Done()
						oks[i] = strings.Contains(postConfirm(t, race.ConfirmURL, rpage, nil).body, "Placed: order")
					}()
				}
				wg.Wait()
				n := 0
				for _, ok := range oks {
					if ok {
						n++
					}
				}
				if n != 1 || placed() != 2 {
					t.Fatalf("concurrent POSTs: %d placed, PlaceOrder %d; want 1 and 2", n, placed())
				}

				// Unknown or forged ids.
				for _, id := range []string{"0123456789abcdef0123456789abcdef", "not-a-ticket", ""} {
					u := out.ConfirmURL[:strings.LastIndex(out.ConfirmURL, "/")+1] + id
					if got := postConfirm(t, u, rpage, nil); got.status != http.StatusNotFound {
						t.Errorf("forged id %q: %d", id, got.status)
					}
				}
				if placed() != 2 {
					t.Fatalf("after forged ids: PlaceOrder %d", placed())
				}
			})
		}
	}
}

// TestConfirmPageExpiresTable: a link used after SHOONYA_CONFIRM_TTL sends
// nothing on either transport, and its GET says it expired.
func TestConfirmPageExpiresTable(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			ce := newConfirmEnv(t, noren.OAuth, tr, map[string]string{"SHOONYA_CONFIRM_TTL": "200ms"})
			out := servetest.Decode[tools.PlaceOut](t, ce.call("place_order", sbinLimit("page-expire")))
			page := confirmPage(t, out.ConfirmURL)
			time.Sleep(400 * time.Millisecond)
			if got := postConfirm(t, out.ConfirmURL, page, nil); got.status != http.StatusGone || !strings.Contains(got.body, "expired") {
				t.Fatalf("expired POST: %d %s", got.status, got.body)
			}
			res, err := http.Get(out.ConfirmURL)
			if err != nil {
				t.Fatal(err)
			}
			if body := bodyOf(t, res); !strings.Contains(body, "expired") || strings.Contains(body, `value="place"`) {
				t.Fatalf("GET after expiry: %s", body)
			}
			if n := ce.proxy.count("PlaceOrder"); n != 0 {
				t.Fatalf("PlaceOrder %d after an expired confirmation", n)
			}
			// The model's retry gets a fresh link, which still needs the person.
			again := servetest.Decode[tools.PlaceOut](t, ce.call("place_order", sbinLimit("page-expire")))
			if again.Outcome != "confirmation_required" || again.ConfirmURL == out.ConfirmURL {
				t.Fatalf("retry after expiry: %+v", again)
			}
		})
	}
}

// answer is an elicitation handler: accept, decline, or never answer.
type answer string

func (a answer) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	switch a {
	case "accept":
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": true}}}, nil
	case "accept-false":
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"confirm": false}}}, nil
	case "decline":
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionDecline}}, nil
	case "cancel":
		return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: mcp.ElicitationResponseActionCancel}}, nil
	}
	<-ctx.Done() // a host that declares elicitation and never shows the question
	return nil, ctx.Err()
}

// TestConfirmElicitationTable: both protocol eras, both transports. An
// accepted question places once; a declined (or cancelled, or "confirm":
// false) one sends nothing; a pre-2026-07-28 client that declares
// elicitation and never answers gets confirmation_required with a
// confirm_url after SHOONYA_CONFIRM_TIMEOUT; a client without elicitation
// sends nothing however often it retries.
func TestConfirmElicitationTable(t *testing.T) {
	versions := []string{mcp.ProtocolVersion20251125, mcp.LATEST_PROTOCOL_VERSION}
	cases := []struct {
		name    string
		handler client.ElicitationHandler
		tries   int
		want    string // placed, declined, page
		modern  bool   // run on 2026-07-28 too
	}{
		{"accept", answer("accept"), 1, "placed", true},
		{"decline", answer("decline"), 1, "declined", true},
		{"cancel", answer("cancel"), 1, "declined", true},
		{"accept without confirm", answer("accept-false"), 1, "declined", true},
		{"never answers", answer("hang"), 1, "page", false},
		{"no elicitation, retried", nil, 5, "page", true},
	}
	for _, tr := range transports {
		for _, v := range versions {
			for _, tc := range cases {
				if v == mcp.LATEST_PROTOCOL_VERSION && !tc.modern {
					continue
				}
				t.Run(tr+"/"+v+"/"+tc.name, func(t *testing.T) {
					e := newConfirmEnv(t, noren.OAuth, tr, map[string]string{"SHOONYA_CONFIRM_TIMEOUT": "300ms"})
					c := e.client(t, v, tc.handler, nil)
					key := "elicit-case"
					var url string
					for i := range tc.tries {
						start := time.Now()
						res, err := placeCall(c, sbinLimit(key))
						if err != nil {
							t.Fatalf("try %d: protocol error: %v", i, err)
						}
						switch tc.want {
						case "placed":
							if out := servetest.Decode[tools.PlaceOut](t, res); out.Outcome != "placed" || out.OrderID == "" {
								t.Fatalf("accepted: %+v", out)
							}
						case "declined":
							if body := servetest.ErrorBody(t, res); body.Code != envelope.PermissionDenied || body.Details["limit"] != "confirmation" || !strings.Contains(body.Message, "nothing was sent") {
								t.Fatalf("declined: %+v", body)
							}
						case "page":
							out := servetest.Decode[tools.PlaceOut](t, res)
							if out.Outcome != "confirmation_required" || out.ConfirmURL == "" || !strings.Contains(out.Next, "NOTHING WAS SENT") {
								t.Fatalf("try %d: %+v", i, out)
							}
							if tc.handler != nil && !strings.Contains(out.Next, "SHOONYA_CONFIRM_TIMEOUT") {
								t.Errorf("the timeout is not named: %s", out.Next)
							}
							if url != "" && out.ConfirmURL != url {
								t.Fatalf("retry %d got another link", i)
							}
							url = out.ConfirmURL
						}
						if took := time.Since(start); took > 5*time.Second {
							t.Fatalf("try %d took %v", i, took)
						}
					}
					want := 0
					if tc.want == "placed" {
						want = 1
					}
					if n := e.proxy.count("PlaceOrder"); n != want {
						t.Fatalf("PlaceOrder requests %d, want %d", n, want)
					}
				})
			}
		}
	}
}

// tamper rewrites the 2026-07-28 retry of tools/call (the one carrying
// inputResponses) before it leaves, and records each requestState seen.
type tamper struct {
	transport.Interface
	mu      sync.Mutex
	states  []string
	rewrite func(params map[string]any)
}

func (tp *tamper) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if req.Method == string(mcp.MethodToolsCall) {
		b, err := json.Marshal(req.Params)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		tp.mu.Lock()
		if tp.rewrite != nil {
			tp.rewrite(m)
		}
		tp.mu.Unlock()
		req.Params = m
	}
	res, err := tp.Interface.SendRequest(ctx, req)
	if err == nil && res != nil {
		var r struct {
			RequestState string `json:"requestState"`
		}
		if json.Unmarshal(res.Result, &r) == nil && r.RequestState != "" {
			tp.mu.Lock()
			tp.states = append(tp.states, r.RequestState)
			tp.mu.Unlock()
		}
	}
	return res, err
}

// httpTamper is tamper over HTTP: the client must still be able to set the
// negotiated version, which the transport mirrors in Mcp-Protocol-Version.
type httpTamper struct{ *tamper }

func (h httpTamper) SetProtocolVersion(v string) {
	h.Interface.(transport.HTTPConnection).SetProtocolVersion(v)
}

func (tp *tamper) set(f func(map[string]any)) {
	tp.mu.Lock()
	tp.rewrite = f
	tp.mu.Unlock()
}

func (tp *tamper) lastState() string {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	if len(tp.states) == 0 {
		return ""
	}
	return tp.states[len(tp.states)-1]
}

func randomHex() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// TestConfirmRequestStateTable: on 2026-07-28 the question is an
// input_required result whose requestState is a one-time ticket bound to the
// order. A forged, replayed or altered retry sends nothing, on both
// transports.
func TestConfirmRequestStateTable(t *testing.T) {
	accept := map[string]any{"confirm_order": map[string]any{"action": "accept", "content": map[string]any{"confirm": true}}}
	cases := []struct {
		name string
		// setup runs first (e.g. to use up a ticket) and returns the rewrite of the retry.
		setup func(t *testing.T, c *client.Client, tp *tamper) func(map[string]any)
		want  string // the refusal's message must say this
	}{
		{"forged state", func(*testing.T, *client.Client, *tamper) func(map[string]any) {
			return func(m map[string]any) {
				if m["requestState"] != nil {
					m["requestState"] = randomHex()
				}
			}
		}, "matches no confirmation"},
		{"answer without asking", func(*testing.T, *client.Client, *tamper) func(map[string]any) {
			return func(m map[string]any) { m["inputResponses"], m["requestState"] = accept, "" }
		}, "matches no confirmation"},
		{"state not hex", func(*testing.T, *client.Client, *tamper) func(map[string]any) {
			return func(m map[string]any) {
				if m["requestState"] != nil {
					m["requestState"] = "../../confirm:ticket:x"
				}
			}
		}, "matches no confirmation"},
		{"altered quantity", func(*testing.T, *client.Client, *tamper) func(map[string]any) {
			return func(m map[string]any) {
				if m["requestState"] != nil {
					m["arguments"].(map[string]any)["quantity"] = 50
				}
			}
		}, "differs from the one"},
		{"altered price", func(*testing.T, *client.Client, *tamper) func(map[string]any) {
			return func(m map[string]any) {
				if m["requestState"] != nil {
					m["arguments"].(map[string]any)["price"] = 650
				}
			}
		}, "differs from the one"},
		{"replayed after a decline", func(t *testing.T, c *client.Client, tp *tamper) func(map[string]any) {
			// The user declines; the ticket is spent. Replaying its state with "accept" must not place.
			tp.set(func(m map[string]any) {
				if m["requestState"] != nil {
					m["inputResponses"] = map[string]any{"confirm_order": map[string]any{"action": "decline"}}
				}
			})
			res, err := placeCall(c, sbinLimit("mrtr-case"))
			if err != nil {
				t.Fatal(err)
			}
			if body := servetest.ErrorBody(t, res); body.Code != envelope.PermissionDenied {
				t.Fatalf("decline: %+v", body)
			}
			spent := tp.lastState()
			return func(m map[string]any) { m["requestState"], m["inputResponses"] = spent, accept }
		}, "already used"},
	}
	for _, tr := range transports {
		for _, tc := range cases {
			t.Run(tr+"/"+tc.name, func(t *testing.T) {
				ce := newConfirmEnv(t, noren.OAuth, tr, nil)
				var tp *tamper
				c := ce.client(t, mcp.LATEST_PROTOCOL_VERSION, answer("accept"), func(in transport.Interface) transport.Interface {
					tp = &tamper{Interface: in}
					if _, ok := in.(transport.HTTPConnection); ok {
						return httpTamper{tp}
					}
					return tp
				})
				tp.set(tc.setup(t, c, tp))
				res, err := placeCall(c, sbinLimit("mrtr-case"))
				if err != nil {
					t.Fatalf("protocol error: %v", err)
				}
				body := servetest.ErrorBody(t, res)
				if body.Code != envelope.PermissionDenied || body.Details["limit"] != "confirmation" || !strings.Contains(body.Message, tc.want) || body.Retryable {
					t.Fatalf("want permission_denied saying %q, got %+v", tc.want, body)
				}
				if n := ce.proxy.count("PlaceOrder"); n != 0 {
					t.Fatalf("PlaceOrder requests %d, want 0", n)
				}
				// The untouched exchange still works, once.
				tp.set(nil)
				if out := servetest.Decode[tools.PlaceOut](t, mustPlace(t, c, sbinLimit("mrtr-case"))); out.Outcome != "placed" {
					t.Fatalf("honest retry: %+v", out)
				}
				if n := ce.proxy.count("PlaceOrder"); n != 1 {
					t.Fatalf("PlaceOrder requests %d after the honest retry, want 1", n)
				}
			})
		}
	}
}

func mustPlace(t *testing.T, c *client.Client, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := placeCall(c, args)
	if err != nil {
		t.Fatalf("protocol error: %v", err)
	}
	return res
}

func bodyOf(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// slowYes accepts after a delay: a person who answers after the ticket expired.
type slowYes time.Duration

func (s slowYes) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	select {
	case <-time.After(time.Duration(s)):
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return answer("accept").Elicit(ctx, req)
}

// TestConfirmRequestStateExpires: on 2026-07-28 a yes that comes after
// SHOONYA_CONFIRM_TTL sends nothing, on both transports.
func TestConfirmRequestStateExpires(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			ce := newConfirmEnv(t, noren.OAuth, tr, map[string]string{"SHOONYA_CONFIRM_TTL": "200ms"})
			c := ce.client(t, mcp.LATEST_PROTOCOL_VERSION, slowYes(400*time.Millisecond), nil)
			body := servetest.ErrorBody(t, mustPlace(t, c, sbinLimit("mrtr-late")))
			if body.Code != envelope.PermissionDenied || !strings.Contains(body.Message, "expired") || body.Retryable {
				t.Fatalf("late yes: %+v", body)
			}
			if n := ce.proxy.count("PlaceOrder"); n != 0 {
				t.Fatalf("PlaceOrder requests %d after a late yes", n)
			}
		})
	}
}

// TestConfirmURLOnPublicAddress: on the HTTP transport the link is on the
// address the person's browser reaches: SHOONYA_CONFIRM_URL when set (a
// proxy in front), else the listener's own. (MCPFLEET_PUBLIC_URL needs an
// OAuth issuer to start; pkg/serve's TestHTTPBase covers that base.)
func TestConfirmURLOnPublicAddress(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"confirm url", map[string]string{"SHOONYA_CONFIRM_URL": "https://confirm.example/"}, "https://confirm.example/shoonya/confirm/"},
		{"confirm url with a path", map[string]string{"SHOONYA_CONFIRM_URL": "https://trade.example/fleet"}, "https://trade.example/fleet/shoonya/confirm/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ce := newConfirmEnv(t, noren.OAuth, "http", tc.env)
			out := servetest.Decode[tools.PlaceOut](t, ce.call("place_order", sbinLimit("public-url")))
			if !strings.HasPrefix(out.ConfirmURL, tc.want) || len(out.ConfirmURL) != len(tc.want)+32 {
				t.Fatalf("confirm_url %q, want %s<32 hex>", out.ConfirmURL, tc.want)
			}
			// The page itself is served beside /mcp on the listener.
			local := strings.TrimSuffix(ce.mcp, "/mcp") + "/shoonya/confirm/" + out.ConfirmURL[len(tc.want):]
			if page := confirmPage(t, local); !strings.Contains(html.UnescapeString(page), `"trading_symbol":"SBIN-EQ"`) {
				t.Fatalf("page: %s", page)
			}
			if n := ce.proxy.count("PlaceOrder"); n != 0 {
				t.Fatalf("PlaceOrder %d", n)
			}
		})
	}
}
