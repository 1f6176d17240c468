package main

// Replicas behind a load balancer, for every server: two real
// server binaries share a real redis-server (MCPFLEET_REDIS_URL, a database
// per server and phase) behind a round-robin reverse proxy written here, each
// server in front of its fake upstream (the fake's own binary). Legacy
// (2025-11-25) sessions work on either replica, terminate for both and count
// against the caps in total; modern (2026-07-28) clients are stateless; each
// server's own shared limit admits its budget in total; an issued token
// (`mcpfleet token`) revoked is refused by both replicas at once; killing a
// replica loses no call the client retries, and an order is never sent twice.

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

const (
	replicaTokenA = "replica-alice-0123456789abcdef"
	replicaTokenB = "replica-bob-0123456789abcdef01"
	modernMeta    = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"r","version":"1"}}`
)

// toolCall is one tool and its arguments (JSON).
type toolCall struct{ tool, args string }

// replicaCase is one server's part: a read any replica answers (safe for a
// client to repeat) and, where the server has one, its own shared limit.
type replicaCase struct {
	name   string
	read   toolCall
	limits []*sharedLimit
	// killReads is how many reads each of 4 workers sends around the kill
	// (default 10): fewer where every read spends a per-user limit.
	killReads int
}

// sharedLimit is a server's Redis-backed limit, configured small on a fresh
// pair of replicas: calls alternate replicas and budget of them are admitted
// in total, the rest refused.
type sharedLimit struct {
	what          string
	env           []string
	budget, calls int
	// prepare runs first (e.g. a login); its value is passed to call.
	prepare func(t *testing.T, do func(toolCall) toolAnswer) string
	call    func(i int, prepared string) toolCall
	// judge says whether a result was admitted, or is the limit's refusal;
	// nil: admitted is a success, refused is the envelope's rate_limited.
	judge func(r toolAnswer) (admitted, refused bool)
	// sent is how many requests of the kind the limit guards reached the
	// fake (nil: the fake's request count, where it has one).
	sent func(t *testing.T, up upstream) int
}

func replicaCases() []replicaCase {
	return []replicaCase{
		{name: "ziwei", read: toolCall{"query_star_combination_meaning", `{}`}}, // no limit of its own: the session caps
		{name: "shoonya", read: toolCall{"get_order_book", `{}`}, limits: []*sharedLimit{{
			what: "broker request budget per account (SHOONYA_REQUESTS_PER_MINUTE)",
			env:  []string{"SHOONYA_REQUESTS_PER_MINUTE=3", "SHOONYA_REQUESTS_PER_SECOND=0"}, budget: 3, calls: 6,
			prepare: func(t *testing.T, do func(toolCall) toolAnswer) string {
				connectShoonya(t, do(toolCall{"connect_shoonya_broker", `{}`}))
				return ""
			},
			call: func(int, string) toolCall { return toolCall{"get_limits", `{}`} },
			sent: func(_ *testing.T, up upstream) int { return up.route("Limits") }}, {
			what: "pre-trade orders per user per minute (SHOONYA_MAX_ORDERS_PER_MINUTE)",
			env:  []string{"SHOONYA_MAX_ORDERS_PER_MINUTE=2"}, budget: 2, calls: 4,
			prepare: func(t *testing.T, do func(toolCall) toolAnswer) string {
				connectShoonya(t, do(toolCall{"connect_shoonya_broker", `{}`}))
				return ""
			},
			call: func(i int, _ string) toolCall { return placeOrder(fmt.Sprintf("replica-pace-%d", i)) },
			sent: func(_ *testing.T, up upstream) int { return up.route("PlaceOrder") },
			// a pre-trade limit refuses as permission_denied naming itself (servers/shoonya/orders/limits.go)
			judge: func(r toolAnswer) (bool, bool) {
				msg, _ := r.sc["message"].(string)
				return !r.isError && r.sc["outcome"] == "placed",
					r.isError && r.sc["code"] == "permission_denied" && strings.Contains(msg, "SHOONYA_MAX_ORDERS_PER_MINUTE") && r.sc["retry_after_s"] != nil
			}}}},
		{name: "chartimg", read: toolCall{"get_exchanges", `{}`}, limits: []*sharedLimit{{
			what: "plan daily maximum (CHART_IMG_DAILY_MAX under CHART_IMG_PLAN)",
			env:  []string{"CHART_IMG_PLAN=PRO", "CHART_IMG_DAILY_MAX=3"}, budget: 3, calls: 6,
			call: func(i int, _ string) toolCall { // another exchange each time: no cache answers
				ex := []string{"BINANCE", "COINBASE", "KRAKEN", "NASDAQ", "NYSE", "FX"}[i%6]
				return toolCall{"get_symbols", `{"exchange":"` + ex + `"}`}
			}}}},
		{name: "ktrdr", read: toolCall{"list_operations", `{}`}}, // no limit of its own: the session caps
		// a polymarket read that reaches Polymarket spends one of the user's 30 public calls a minute (cache hits do not)
		{name: "polymarket", read: toolCall{"list_markets", `{}`}, killReads: 4, limits: []*sharedLimit{{
			what: "user-data calls per user per minute (10, as the original polymarket-read allowed)", budget: 10, calls: 13,
			call: func(i int, _ string) toolCall {
				return toolCall{"get_user_positions", fmt.Sprintf(`{"user":"0x%040x"}`, i+1)}
			},
			// one positions read per admitted call (each also reads the wallet's total from /value)
			sent: func(t *testing.T, up upstream) int { return up.route("data_positions") }}}},
		{name: "google-news-rss", read: toolCall{"build_search_feed", `{"terms":["shipping"]}`}, limits: []*sharedLimit{{
			what: "one Google poll per query_key per 3-hour window (the others are served the cache)", budget: 1, calls: 4,
			prepare: func(t *testing.T, do func(toolCall) toolAnswer) string {
				r := do(toolCall{"build_search_feed", `{"terms":["cotton"],"site":["reuters.com"]}`})
				k, _ := r.sc["query_key"].(string)
				if r.isError || k == "" {
					t.Fatalf("build_search_feed: %v", r.sc)
				}
				return k
			},
			call: func(_ int, key string) toolCall { return toolCall{"fetch_search_feed", `{"query_key":"` + key + `"}`} },
			judge: func(r toolAnswer) (bool, bool) {
				return !r.isError && r.sc["status"] == "fresh", !r.isError && r.sc["status"] == "cached"
			}}}},
		{name: "web-search", read: toolCall{"get_search_capabilities", `{}`}, limits: []*sharedLimit{{
			what: "searches per user per window (WEB_SEARCH_LIMIT)", env: []string{"WEB_SEARCH_LIMIT=3"}, budget: 3, calls: 6,
			call: func(i int, _ string) toolCall {
				return toolCall{"search_web", fmt.Sprintf(`{"query":"distinct replica query %d"}`, i)}
			}}}},
	}
}

// placeOrder is one shoonya limit order; its key makes a retry safe.
func placeOrder(key string) toolCall {
	return toolCall{"place_order", `{"exchange":"NSE","trading_symbol":"RELIANCE-EQ","side":"BUY","quantity":1,` +
		`"order_type":"LIMIT","price":1300,"product":"CNC","idempotency_key":"` + key + `"}`}
}

func connectShoonya(t *testing.T, r toolAnswer) {
	t.Helper()
	if r.isError || r.sc["status"] != "connected" {
		t.Fatalf("connect_shoonya_broker: %v", r.sc)
	}
}

// upstream is what a server's replicas talk to: their environment and, for
// shoonya, how many times the broker received an order.
type upstream struct {
	env    []string
	orders func(key string) int
	// holdAnswer makes the broker's answer to the order with key wait: the
	// order is placed, arrived closes, and the answer goes back to the
	// replica only after release.
	holdAnswer func(key string) (arrived <-chan struct{}, release func())
	// requests is how many requests the fake received (nil: it does not
	// say); route, for shoonya, how many went to one Noren route.
	requests func(t *testing.T) int
	route    func(name string) int
}

// fakeRequests counts a fake's requests from its control route: a list
// (web-search's /_fake/requests) or counts per route (/_fake/stats).
func fakeRequests(base, control string) func(t *testing.T) int {
	return func(t *testing.T) int {
		t.Helper()
		resp, err := http.Get(base + control)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		var list []json.RawMessage
		if json.Unmarshal(b, &list) == nil {
			return len(list)
		}
		var per map[string]int
		if err := json.Unmarshal(b, &per); err != nil {
			t.Fatalf("%s%s: %v: %.200s", base, control, err, b)
		}
		n := 0
		for _, c := range per {
			n += c
		}
		return n
	}
}

// fakeRouteCount is how many requests a fake's /_fake/stats counts for route.
func fakeRouteCount(t *testing.T, base, route string) int {
	t.Helper()
	resp, err := http.Get(base + "/_fake/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var per map[string]int
	if err := json.NewDecoder(resp.Body).Decode(&per); err != nil {
		t.Fatalf("%s/_fake/stats: %v", base, err)
	}
	n, ok := per[route]
	if !ok {
		t.Fatalf("%s/_fake/stats counts no route %q: %v", base, route, per)
	}
	return n
}

// envValue is the last value of name in env.
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, _ := strings.Cut(kv, "="); k == name {
			v = val
		}
	}
	return v
}

// replicaUpstream starts a server's fake and returns the environment both
// replicas share (one fake, like one real upstream behind a fleet).
func replicaUpstream(t *testing.T, bins, name string) upstream {
	t.Helper()
	if name != "shoonya" {
		env := serverEnv(t, bins, name)
		switch name {
		case "polymarket":
			addr := "http://" + startFake(t, filepath.Join(bins, "fake-polymarket"))
			for _, v := range []string{"GAMMA", "CLOB", "DATA", "BTC", "BTC_FALLBACK"} {
				env = append(env, "POLYMARKET_"+v+"_URL="+addr)
			}
		}
		up := upstream{env: env}
		if name == "google-news-rss" { // its fake keeps no count: count polls on the way
			target, _ := url.Parse("http://" + startFake(t, filepath.Join(bins, "fake-google-news-rss")))
			rp := httputil.NewSingleHostReverseProxy(target)
			var polls atomic.Int64
			counter := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				polls.Add(1)
				rp.ServeHTTP(w, r)
			}))
			t.Cleanup(counter.Close)
			up.env = append(up.env, "GOOGLE_NEWS_BASE_URL="+counter.URL)
			up.requests = func(*testing.T) int { return int(polls.Load()) }
		}
		switch name {
		case "web-search":
			up.requests = fakeRequests(strings.TrimSuffix(envValue(env, "OPENAI_BASE_URL"), "/v1"), "/_fake/requests")
		case "chartimg":
			up.requests = fakeRequests(envValue(env, "CHART_IMG_API_URL"), "/_fake/stats")
		case "polymarket":
			up.requests = fakeRequests(envValue(env, "POLYMARKET_GAMMA_URL"), "/_fake/stats")
			up.route = func(name string) int { return fakeRouteCount(t, envValue(env, "POLYMARKET_GAMMA_URL"), name) }
		}
		return up
	}
	// shoonya logs in with the fake's demo account, which the fake prints.
	addr, banner := startFakeLogged(t, filepath.Join(bins, "fake-shoonya"), "totp_secret=", "--no-rate-limit")
	m := regexp.MustCompile(`uid=(\S+) password=(\S+) vc=(\S+) api_secret=(\S+)\s+totp_secret=(\S+)`).FindStringSubmatch(banner)
	if m == nil {
		t.Fatalf("fake-shoonya printed no demo account: %s", banner)
	}
	// REST goes through a counter: an order is the broker's PlaceOrder with
	// the idempotency key in its remarks.
	var mu sync.Mutex
	placed := map[string]int{}
	routes := map[string]int{}
	type hold struct{ arrived, release chan struct{} }
	holds := map[string]hold{}
	keyRE := regexp.MustCompile(`remarks%22%3A%22([A-Za-z0-9_.:-]+)|"remarks":"([A-Za-z0-9_.:-]+)`)
	target, _ := url.Parse("http://" + addr)
	rp := httputil.NewSingleHostReverseProxy(target)
	counter := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		routes[r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:]]++
		mu.Unlock()
		if strings.HasSuffix(r.URL.Path, "/PlaceOrder") {
			b, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(strings.NewReader(string(b)))
			if k := keyRE.FindStringSubmatch(string(b)); k != nil {
				mu.Lock()
				placed[k[1]+k[2]]++
				h, held := holds[k[1]+k[2]]
				delete(holds, k[1]+k[2])
				mu.Unlock()
				if held { // the broker places it; its answer waits
					rec := httptest.NewRecorder()
					rp.ServeHTTP(rec, r)
					close(h.arrived)
					<-h.release
					for k, v := range rec.Header() {
						w.Header()[k] = v
					}
					w.WriteHeader(rec.Code)
					_, _ = w.Write(rec.Body.Bytes())
					return
				}
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(counter.Close)
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	return upstream{
		env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "SHOONYA_AUTH=legacy",
			"SHOONYA_REST_URL=" + counter.URL + "/NorenWClientTP/", "SHOONYA_WS_URL=ws://" + addr + "/NorenWSTP/",
			"SHOONYA_USER_ID=" + m[1], "SHOONYA_PASSWORD=" + m[2], "SHOONYA_VENDOR_CODE=" + m[3], "SHOONYA_API_SECRET=" + m[4],
			"SHOONYA_TOTP_SECRET=" + m[5], "SHOONYA_IMEI=abc1234", "SHOONYA_CONFIRM_ORDERS=off",
			// the same order under new keys, on purpose: the duplicate window's own tests are the shoonya server's
			"SHOONYA_DUPLICATE_WINDOW=0",
			"MCPFLEET_STATE_KEY=" + base64.StdEncoding.EncodeToString(key)}, // Redis holds the broker session, encrypted
		orders: func(k string) int { mu.Lock(); defer mu.Unlock(); return placed[k] },
		route:  func(name string) int { mu.Lock(); defer mu.Unlock(); return routes[name] },
		holdAnswer: func(k string) (<-chan struct{}, func()) {
			h := hold{make(chan struct{}), make(chan struct{})}
			mu.Lock()
			holds[k] = h
			mu.Unlock()
			var once sync.Once
			release := func() { once.Do(func() { close(h.release) }) }
			t.Cleanup(release)
			return h.arrived, release
		},
	}
}

// startFakeLogged is startFake keeping the fake's stderr, returned once it
// holds ready.
func startFakeLogged(t *testing.T, bin, ready string, args ...string) (string, string) {
	t.Helper()
	addr := freePort(t)
	cmd := exec.Command(bin, append([]string{"--addr", addr}, args...)...)
	out := &servetest.Buffer{}
	cmd.Stdout, cmd.Stderr = io.Discard, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for i := 0; i < 400; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			if strings.Contains(out.String(), ready) {
				return addr, out.String()
			}
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("%s did not start on %s: %s", bin, addr, out.String())
	return "", ""
}

type replica struct {
	url    *url.URL
	cmd    *exec.Cmd
	stderr *servetest.Buffer
}

func startReplica(t *testing.T, bin string, env []string) *replica {
	t.Helper()
	addr := freePort(t)
	cmd := exec.Command(bin, "--transport", "http", "--addr", addr)
	cmd.Env = env // a later duplicate of a variable wins (os/exec)
	r := &replica{url: &url.URL{Scheme: "http", Host: addr}, cmd: cmd, stderr: &servetest.Buffer{}}
	cmd.Stderr = r.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for i := 0; i < 800; i++ {
		if resp, err := http.Get(r.url.String() + "/healthz"); err == nil {
			resp.Body.Close()
			return r
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("%s did not serve HTTP: %s", bin, r.stderr.String())
	return nil
}

// roundRobin sends request n to backend n mod len(backends) and names the
// backend in the X-Replica response header. Like a load balancer's passive
// health check, a backend that failed a request answers 502 for it and, if
// it no longer accepts connections, leaves the rotation, so the client's
// retry reaches a live one.
func roundRobin(t *testing.T, backends []*replica, lastOrder *atomic.Int64) *httptest.Server {
	var n atomic.Int64
	down := make([]atomic.Bool, len(backends))
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			i := int((n.Add(1) - 1) % int64(len(backends)))
			for k := 0; k < len(backends) && down[i].Load(); k++ {
				i = (i + 1) % len(backends)
			}
			pr.SetURL(backends[i].url)
			pr.Out.Host = backends[i].url.Host // mcp-go checks Host against loopback
			pr.Out.Header.Set("X-Replica", strconv.Itoa(i))
			if pr.In.Header.Get("Mcp-Name") == "place_order" {
				lastOrder.Store(int64(i))
			}
		},
		ModifyResponse: func(resp *http.Response) error {
			resp.Header.Set("X-Replica", resp.Request.Header.Get("X-Replica"))
			return nil
		},
		FlushInterval: -1,
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			// A pooled connection the backend closed fails one request only;
			// a backend that no longer accepts connections is down.
			if i, err := strconv.Atoi(r.Header.Get("X-Replica")); err == nil {
				if c, err := net.DialTimeout("tcp", backends[i].url.Host, 2*time.Second); err == nil {
					c.Close()
				} else {
					down[i].Store(true)
				}
			}
			w.Header().Set("X-Replica", r.Header.Get("X-Replica"))
			http.Error(w, "backend down", http.StatusBadGateway)
		},
	}
	srv := httptest.NewServer(proxy)
	t.Cleanup(srv.Close)
	return srv
}

type answer struct {
	code    int
	replica string
	sid     string
	body    string
}

func mcpDo(t *testing.T, base, method, token, sid, body string, modern bool) answer {
	t.Helper()
	a, err := mcpTry(base, method, token, sid, body, modern)
	// A connection the proxy pooled can be closed under it by a backend that
	// just refused a request (refusals close the connection), on each replica
	// in turn; every request sent this way is a read, so a client may send it
	// again, once per replica.
	for try := 0; try < 2 && err != nil && method == http.MethodPost && !strings.Contains(body, `"initialize"`); try++ {
		a, err = mcpTry(base, method, token, sid, body, modern)
	}
	if err != nil {
		t.Fatalf("%s %.200s: %v", method, body, err)
	}
	return a
}

// mcpTry is one request through the proxy; safe to call from any goroutine.
func mcpTry(base, method, token, sid, body string, modern bool) (answer, error) {
	req, _ := http.NewRequest(method, base+"/mcp", strings.NewReader(body))
	hdr := map[string]string{"Authorization": "Bearer " + token}
	if modern {
		var head struct {
			Method string
			Params struct{ Name string }
		}
		_ = json.Unmarshal([]byte(body), &head)
		hdr["Mcp-Protocol-Version"] = "2026-07-28"
		hdr["Mcp-Method"] = head.Method
		if head.Method == "tools/call" {
			hdr["Mcp-Name"] = head.Params.Name
		}
	} else if sid != "" {
		hdr["Mcp-Session-Id"] = sid
		hdr["Mcp-Protocol-Version"] = "2025-11-25"
	}
	setHeaders(req, hdr)
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		return answer{}, err
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return answer{resp.StatusCode, resp.Header.Get("X-Replica"), resp.Header.Get("Mcp-Session-Id"), string(b)}, err
}

var rpcID atomic.Int64

func callBody(c toolCall, modern bool) string {
	meta := ""
	if modern {
		meta = "," + modernMeta
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s%s}}`,
		rpcID.Add(1), c.tool, c.args, meta)
}

func listBody(modern bool) string {
	if modern {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":{%s}}`, rpcID.Add(1), modernMeta)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, rpcID.Add(1))
}

// toolAnswer is a tools/call result: whether it is an error and its
// structured content (the envelope's body for errors).
type toolAnswer struct {
	ok      bool // a JSON-RPC result was found
	isError bool
	sc      map[string]any
}

// parseTool reads a tools/call answer sent as JSON or as SSE events.
func parseTool(body string) toolAnswer {
	payloads := []string{body}
	if !strings.HasPrefix(strings.TrimSpace(body), "{") {
		payloads = nil
		for _, line := range strings.Split(body, "\n") {
			if d, ok := strings.CutPrefix(line, "data:"); ok {
				payloads = append(payloads, strings.TrimSpace(d))
			}
		}
	}
	for _, p := range payloads {
		var msg struct {
			Result *struct {
				IsError           bool           `json:"isError"`
				StructuredContent map[string]any `json:"structuredContent"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(p), &msg) == nil && msg.Result != nil {
			return toolAnswer{true, msg.Result.IsError, msg.Result.StructuredContent}
		}
	}
	return toolAnswer{}
}

func legacyInit(t *testing.T, base, token string) answer {
	t.Helper()
	a := mcpDo(t, base, http.MethodPost, token, "", httpInit, false)
	if a.code == 200 && a.sid == "" {
		t.Fatalf("initialize on replica %s answered no session id: %.300s", a.replica, a.body)
	}
	return a
}

func wantOK(t *testing.T, what string, a answer, mustContain string) {
	t.Helper()
	if a.code != 200 || !strings.Contains(a.body, mustContain) || strings.Contains(a.body, `"isError":true`) {
		t.Fatalf("%s on replica %s: %d %.400s", what, a.replica, a.code, a.body)
	}
}

// pair is two replicas of one server on one Redis database behind the proxy.
type pair struct {
	backends  []*replica
	base      string
	lastOrder *atomic.Int64 // the replica the last modern place_order went to
}

func startPair(t *testing.T, bin string, env []string) pair {
	t.Helper()
	backends := []*replica{startReplica(t, bin, env), startReplica(t, bin, env)}
	var last atomic.Int64
	return pair{backends, roundRobin(t, backends, &last).URL, &last}
}

func TestReplicasOfEveryServer(t *testing.T) {
	if testing.Short() {
		t.Skip("replicas: e2e (builds the fleet, starts redis-server, fakes and two replicas of every server)")
	}
	cases := replicaCases()
	if len(cases) != len(servers) {
		t.Fatalf("%d replica cases for %d servers: every server needs one", len(cases), len(servers))
	}
	bins := buildFleet(t)
	rs := redistest.StartServer(t)
	db := -1
	nextDB := func() int { // a Redis database per pair of replicas (16 by default)
		if db++; db > 15 {
			t.Fatal("more pairs of replicas than Redis databases")
		}
		return db
	}
	for _, tc := range cases {
		if _, ok := findServer(tc.name); !ok {
			t.Fatalf("no server %q", tc.name)
		}
		t.Run(tc.name, func(t *testing.T) {
			up := replicaUpstream(t, bins, tc.name)
			env := func(db int, extra ...string) []string {
				e := append(append([]string{}, up.env...), "MCPFLEET_LOG_LEVEL=warn",
					fmt.Sprintf("MCPFLEET_REDIS_URL=redis://%s/%d", rs.Addr(), db), // a database per server and phase
					"MCPFLEET_AUTH_TOKENS=alice="+replicaTokenA+",bob="+replicaTokenB, "MCPFLEET_AUTH_ISSUED=1",
					"MCPFLEET_HTTP_MAX_SESSIONS=6", "MCPFLEET_HTTP_MAX_SESSIONS_PER_USER=4")
				return append(e, extra...)
			}
			bin := filepath.Join(bins, tc.name)
			for _, l := range tc.limits {
				db := nextDB()
				t.Run("shared limit "+strings.Fields(l.what)[0], func(t *testing.T) { sharedLimitAdmitsBudget(t, bin, env(db, l.env...), l, up) })
			}
			replicasServe(t, tc, startPair(t, bin, env(nextDB())), up)
		})
	}
}

// sharedLimitAdmitsBudget: stateless calls alternate a fresh pair of
// replicas; the limit admits its budget in total, refusing the rest.
func sharedLimitAdmitsBudget(t *testing.T, bin string, env []string, l *sharedLimit, up upstream) {
	p := startPair(t, bin, env)
	var served sync.Map
	do := func(c toolCall) toolAnswer {
		t.Helper()
		a := mcpDo(t, p.base, http.MethodPost, replicaTokenA, "", callBody(c, true), true)
		r := parseTool(a.body)
		if a.code != 200 || !r.ok {
			t.Fatalf("%s on replica %s: %d %.400s", c.tool, a.replica, a.code, a.body)
		}
		served.Store(a.replica, true)
		return r
	}
	prepared := ""
	if l.prepare != nil {
		prepared = l.prepare(t, do)
	}
	judge := l.judge
	if judge == nil {
		judge = func(r toolAnswer) (bool, bool) {
			return !r.isError, r.isError && r.sc["code"] == "rate_limited" && r.sc["retryable"] == true && r.sc["retry_after_s"] != nil
		}
	}
	sent := l.sent
	if sent == nil && up.requests != nil {
		sent = func(t *testing.T, up upstream) int { return up.requests(t) }
	}
	before := 0
	if sent != nil {
		before = sent(t, up)
	}
	admitted := map[string]int{}
	total := 0
	for i := 0; i < l.calls; i++ {
		c := l.call(i, prepared)
		a := mcpDo(t, p.base, http.MethodPost, replicaTokenA, "", callBody(c, true), true)
		r := parseTool(a.body)
		served.Store(a.replica, true)
		ok, refused := judge(r)
		switch {
		case a.code == 200 && ok:
			admitted[a.replica]++
			total++
		case a.code != 200 || !refused:
			t.Fatalf("%s call %d on replica %s: neither admitted nor refused by the limit: %d %.400s", c.tool, i, a.replica, a.code, a.body)
		}
	}
	n := 0
	served.Range(func(any, any) bool { n++; return true })
	if total != l.budget || n != 2 {
		t.Fatalf("%s: %d of %d calls admitted (per replica %v, %d replicas answered), want %d in total over both", l.what, total, l.calls, admitted, n, l.budget)
	}
	upstreamNote := "the fake does not count"
	if sent != nil { // refused calls sent nothing upstream
		if n := sent(t, up) - before; n != l.budget {
			t.Fatalf("%s: the upstream received %d requests for %d admitted calls", l.what, n, l.budget)
		}
		upstreamNote = fmt.Sprintf("the upstream received %d", l.budget)
	}
	t.Logf("%s: %d of %d calls admitted over both replicas %v, the rest refused; %s", l.what, total, l.calls, admitted, upstreamNote)
}

func replicasServe(t *testing.T, tc replicaCase, p pair, up upstream) {
	base := p.base
	read := func(modern bool) string { return callBody(tc.read, modern) }

	// A legacy session initialized on one replica works on both.
	init := legacyInit(t, base, replicaTokenA)
	wantOK(t, "initialize", init, `"protocolVersion"`)
	sid := init.sid
	if a := mcpDo(t, base, http.MethodPost, replicaTokenA, sid, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, false); a.code != 202 {
		t.Fatalf("notifications/initialized on replica %s: %d %.300s", a.replica, a.code, a.body)
	}
	loginOn := ""
	if tc.name == "shoonya" { // the broker login lands on one replica...
		a := mcpDo(t, base, http.MethodPost, replicaTokenA, sid, callBody(toolCall{"connect_shoonya_broker", `{}`}, false), false)
		connectShoonya(t, parseTool(a.body))
		loginOn = a.replica
	}
	served := map[string]bool{}
	readOnOther := false
	// list, list, call, call alternates replicas; a request the client had
	// to resend (mcpDo) shifts the rotation, so the pattern repeats until
	// both replicas answered both, within a bound.
	for i := 0; i < 12 && len(served) < 4; i++ {
		name, body := "list", listBody(false)
		if i%4 >= 2 {
			name, body = "call", read(false)
		}
		c := struct{ name, body string }{name, body}
		a := mcpDo(t, base, http.MethodPost, replicaTokenA, sid, c.body, false)
		wantOK(t, "legacy "+c.name, a, `"result"`)
		served[c.name+"@"+a.replica] = true
		readOnOther = readOnOther || c.name == "call" && a.replica != loginOn
	}
	if len(served) != 4 {
		t.Fatalf("legacy calls did not reach both replicas: %v", served)
	}
	if loginOn != "" && !readOnOther { // ...and serves the read on the other
		t.Fatalf("the login on replica %s served no %s on the other replica", loginOn, tc.read.tool)
	}
	if up.orders != nil {
		brokerSessionPerUser(t, base, sid, up)
	}

	// Another user's bearer cannot use the session on any replica.
	for i := 0; i < 2; i++ {
		if a := mcpDo(t, base, http.MethodPost, replicaTokenB, sid, listBody(false), false); a.code != 404 {
			t.Fatalf("bob used alice's session on replica %s: %d %.200s", a.replica, a.code, a.body)
		}
	}

	// DELETE on one replica: 404 on both afterwards.
	if a := mcpDo(t, base, http.MethodDelete, replicaTokenA, sid, "", false); a.code != 200 {
		t.Fatalf("DELETE on replica %s: %d %.200s", a.replica, a.code, a.body)
	}
	gone := map[string]bool{}
	for i := 0; i < 2; i++ {
		a := mcpDo(t, base, http.MethodPost, replicaTokenA, sid, listBody(false), false)
		if a.code != 404 {
			t.Fatalf("terminated session on replica %s: %d %.200s", a.replica, a.code, a.body)
		}
		gone[a.replica] = true
	}
	if len(gone) != 2 {
		t.Fatalf("terminated session not checked on both replicas: %v", gone)
	}

	// A modern client is stateless: its calls alternate replicas and work.
	modern := map[string]bool{}
	for _, body := range []string{listBody(true), listBody(true), read(true), read(true)} {
		a := mcpDo(t, base, http.MethodPost, replicaTokenA, "", body, true)
		wantOK(t, "modern call", a, `"result"`)
		if a.sid != "" {
			t.Fatalf("modern call minted a session id on replica %s", a.replica)
		}
		modern[a.replica] = true
	}
	if len(modern) != 2 {
		t.Fatalf("modern calls did not alternate replicas: %v", modern)
	}

	// A token from `mcpfleet token issue` works on both; revoked, the next
	// request and a replay are 401 on both.
	revokedOnEveryReplica(t, tc.name, p, p.backends[0].cmd.Env, tc.read)

	// Session caps hold in total: 4 per user, 6 in all, whichever replica is asked.
	var alice []answer
	for i := 0; i < 4; i++ {
		a := legacyInit(t, base, replicaTokenA)
		wantOK(t, fmt.Sprintf("alice session %d", i+1), a, `"protocolVersion"`)
		alice = append(alice, a)
	}
	for i := 0; i < 2; i++ { // refused by both replicas
		if a := legacyInit(t, base, replicaTokenA); a.code != 429 {
			t.Fatalf("alice's 5th session on replica %s: %d, want 429 (4 per user in total)", a.replica, a.code)
		}
	}
	for i := 0; i < 2; i++ {
		wantOK(t, fmt.Sprintf("bob session %d", i+1), legacyInit(t, base, replicaTokenB), `"protocolVersion"`)
	}
	for i := 0; i < 2; i++ {
		if a := legacyInit(t, base, replicaTokenB); a.code != 503 {
			t.Fatalf("7th session on replica %s: %d, want 503 (6 in total)", a.replica, a.code)
		}
	}
	if a := mcpDo(t, base, http.MethodDelete, replicaTokenA, alice[0].sid, "", false); a.code != 200 {
		t.Fatalf("DELETE: %d", a.code)
	}
	wantOK(t, "a session after one ended", legacyInit(t, base, replicaTokenB), `"protocolVersion"`)

	killMidRun(t, tc, p, alice[1], up)
}

// brokerSessionPerUser: alice's broker login (on one replica) is hers alone
// on both, and an order she places through one replica is in the book both
// replicas read, sent to the broker once.
func brokerSessionPerUser(t *testing.T, base, sid string, up upstream) {
	t.Helper()
	for i := 0; i < 2; i++ {
		a := mcpDo(t, base, http.MethodPost, replicaTokenB, "", callBody(toolCall{"get_order_book", `{}`}, true), true)
		if r := parseTool(a.body); a.code != 200 || !r.isError || r.sc["code"] != "unauthenticated" {
			t.Fatalf("bob's order book on replica %s, without a login of his own: %d %.300s", a.replica, a.code, a.body)
		}
	}
	a := mcpDo(t, base, http.MethodPost, replicaTokenA, sid, callBody(placeOrder("replica-lb-1"), false), false)
	placed := parseTool(a.body)
	id, _ := placed.sc["order_id"].(string)
	if a.code != 200 || placed.isError || placed.sc["outcome"] != "placed" || id == "" {
		t.Fatalf("place_order on replica %s: %d %.300s", a.replica, a.code, a.body)
	}
	seen := map[string]bool{}
	for i := 0; i < 2; i++ {
		a := mcpDo(t, base, http.MethodPost, replicaTokenA, "", callBody(toolCall{"get_order_book", `{}`}, true), true)
		book := parseTool(a.body)
		cols, _ := book.sc["cols"].([]any) // the book is a table: cols once, rows of values
		rows, _ := book.sc["rows"].([]any)
		found := false
		for c, name := range cols {
			for _, r := range rows {
				if cells, _ := r.([]any); name == "order_id" && c < len(cells) && cells[c] == id {
					found = true
				}
			}
		}
		if a.code != 200 || book.isError || !found {
			t.Fatalf("order %s not in the book on replica %s: %d %.300s", id, a.replica, a.code, a.body)
		}
		seen[a.replica] = true
	}
	if len(seen) != 2 || up.orders("replica-lb-1") != 1 {
		t.Fatalf("order book read on replicas %v; the broker received the order %d times, want once", seen, up.orders("replica-lb-1"))
	}
}

// attemptOrder places a modern order, resending the same idempotency_key on
// a failed attempt (the proxy sends the resend to a live replica).
func attemptOrder(p pair, key string, retries *atomic.Int64) (answer, error) {
	var a answer
	var err error
	for try := 0; try < 4; try++ {
		if a, err = mcpTry(p.base, http.MethodPost, replicaTokenA, "", callBody(placeOrder(key), true), true); err == nil && a.code == 200 {
			break
		}
		retries.Add(1)
	}
	return a, err
}

// killMidRun kills the replica that initialized a live session while calls
// are in flight: every read is answered, the client retrying a failed one on
// the next replica. Where the server places orders, orders placed around the
// kill (retried with the same idempotency_key) reach the broker once each.
func killMidRun(t *testing.T, tc replicaCase, p pair, session answer, up upstream) {
	live := session.sid
	kill, _ := strconv.Atoi(session.replica)
	const workers, killAfter = 4, 8
	perWorker := 10
	if tc.killReads > 0 {
		perWorker = tc.killReads
	}
	var done, retries atomic.Int64
	killed := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan string, workers*perWorker+8)
	var keys []string
	if up.orders != nil { // an order before the kill; the others wait for it
		keys = append(keys, "replica-kill-0")
		if a, err := attemptOrder(p, "replica-kill-0", &retries); err != nil || a.code != 200 || parseTool(a.body).sc["outcome"] != "placed" {
			t.Fatalf("order before the kill: %v %d %.300s", err, a.code, a.body)
		}
	}
	go func() {
		defer close(killed)
		for done.Load() < killAfter {
			time.Sleep(2 * time.Millisecond)
		}
		if up.holdAnswer != nil {
			// An order whose answer dies with its replica: the broker
			// placed it, the client sees a failure and retries the same
			// idempotency_key on the survivor, which must not send it again.
			arrived, release := up.holdAnswer("replica-kill-held")
			wg.Add(1)
			go func() {
				defer wg.Done()
				a, err := attemptOrder(p, "replica-kill-held", &retries)
				if r := parseTool(a.body); err != nil || a.code != 200 || r.isError || r.sc["outcome"] != "already_placed" {
					errs <- fmt.Sprintf("the order whose answer was lost: %v %d %.300s (want already_placed on the retry)", err, a.code, a.body)
				}
			}()
			select {
			case <-arrived:
				kill = int(p.lastOrder.Load())
			case <-time.After(60 * time.Second):
				errs <- "the held order never reached the broker"
			}
			defer release()
		}
		_ = p.backends[kill].cmd.Process.Kill()
	}()
	attempt := func(sess, body string, isModern bool) (answer, error) {
		var a answer
		var err error
		for try := 0; try < 4; try++ {
			if a, err = mcpTry(p.base, http.MethodPost, replicaTokenA, sess, body, isModern); err == nil && a.code == 200 {
				break
			}
			retries.Add(1)
		}
		return a, err
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < perWorker; i++ {
				if i == perWorker/2 {
					<-killed // half of each worker's calls come after the kill
				}
				sess, isModern := live, false
				if (w+i)%2 == 1 {
					sess, isModern = "", true
				}
				a, err := attempt(sess, callBody(tc.read, isModern), isModern)
				if err != nil || a.code != 200 || !strings.Contains(a.body, `"result"`) || strings.Contains(a.body, `"isError":true`) {
					errs <- fmt.Sprintf("worker %d call %d (modern %v): %v %d %.200s", w, i, isModern, err, a.code, a.body)
				}
				done.Add(1)
			}
		}(w)
	}
	if up.orders != nil {
		wg.Add(1)
		go func() { // orders after the kill, on the survivor
			defer wg.Done()
			<-killed
			for i := 1; i < 3; i++ {
				key := fmt.Sprintf("replica-kill-%d", i)
				keys = append(keys, key)
				a, err := attemptOrder(p, key, &retries)
				r := parseTool(a.body)
				if err != nil || a.code != 200 || r.isError || r.sc["outcome"] != "placed" && r.sc["outcome"] != "already_placed" {
					errs <- fmt.Sprintf("order %s: %v %d %.300s", key, err, a.code, a.body)
				}
			}
		}()
	}
	<-killed // the kill goroutine may add to wg: wait for it first
	wg.Wait()
	close(errs)
	if up.holdAnswer != nil {
		keys = append(keys, "replica-kill-held")
	}
	for e := range errs {
		t.Error(e)
	}
	for _, k := range keys {
		if n := up.orders(k); n != 1 {
			t.Errorf("order %s reached the broker %d times, want once", k, n)
		}
	}
	if retries.Load() == 0 {
		t.Fatalf("no call met the dead replica: the kill did not happen mid-run")
	}
	t.Logf("%d calls (+%d orders) answered across a replica kill, %d attempts retried on the surviving replica", workers*perWorker, len(keys), retries.Load())
}
