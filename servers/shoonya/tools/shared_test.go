package tools_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// countingProxy forwards REST calls to a fake (set after it starts) and
// counts them per Noren route, so a test sees what reached the broker.
type countingProxy struct {
	url    string
	target atomic.Pointer[http.Handler]
	mu     sync.Mutex
	counts map[string]int
}

func newCountingProxy(t *testing.T) *countingProxy {
	p := &countingProxy{counts: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.counts[path.Base(r.URL.Path)]++
		p.mu.Unlock()
		(*p.target.Load()).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p.url = srv.URL
	return p
}

// sent is how many requests reached the broker, logins excluded.
func (p *countingProxy) sent() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for route, c := range p.counts {
		if route != "QuickAuth" && route != "GenAcsTok" {
			n += c
		}
	}
	return n
}

func (p *countingProxy) count(route string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts[route]
}

// newReplicas builds n independently configured shoonya servers in front of
// one fake Noren (REST through a counting proxy), logged in to one account,
// sharing Redis when redisURL is set; args are the servers' command line.
func newReplicas(t *testing.T, era noren.Era, n int, redisURL string, extra map[string]string, args ...string) ([]*env, *countingProxy) {
	t.Helper()
	proxy := newCountingProxy(t)
	rest := proxy.url + fake.PathOAuthREST
	if era == noren.Legacy {
		rest = proxy.url + fake.PathLegacyREST
	}
	vars := map[string]string{"SHOONYA_REST_URL": rest, "MCPFLEET_REDIS_URL": redisURL,
		"SHOONYA_MAX_ORDERS_PER_MINUTE": "0", "SHOONYA_TIMEOUT": "2s", "SHOONYA_ORDER_TIMEOUT": "3s",
		"MCPFLEET_STATE_KEY": stateKey(t)} // Redis holds the broker sessions too, encrypted
	for k, v := range extra {
		vars[k] = v
	}
	first := newEnv(t, era, envOpt{extra: vars, args: args})
	h := first.fake.Handler()
	proxy.target.Store(&h)
	out := []*env{first}
	for i := 1; i < n; i++ { // the environment newEnv set is still in force
		out = append(out, &env{t: t, fake: first.fake, urls: first.urls, era: era, uid: first.uid, conn: servetest.New(t, app(), args...)})
	}
	for _, e := range out {
		e.connect()
	}
	return out, proxy
}

func redisURLOf(srv *redistest.Server) string { return "redis://" + srv.Addr() + "/0" }

// Reads alternate between two replicas of one account: with Redis the
// account's budget is spent once, as the broker counts it; without, each
// replica spends it again.
func TestReplicasShareAccountBudget(t *testing.T) {
	srv := redistest.StartServer(t)
	cases := []struct {
		name      string
		era       noren.Era
		shared    bool
		perMinute string
		calls     int
		admitted  int
	}{
		{"legacy, shared", noren.Legacy, true, "4", 7, 4},
		{"oauth, shared", noren.OAuth, true, "4", 7, 4},
		{"memory: each replica its own budget", noren.Legacy, false, "2", 7, 4},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			url := ""
			if tc.shared {
				url = redisURLOf(srv)
				if err := srv.NewClient(t).FlushAll(context.Background()).Err(); err != nil { // one account across cases
					t.Fatal(err)
				}
			}
			rs, proxy := newReplicas(t, tc.era, 2, url, map[string]string{
				"SHOONYA_REQUESTS_PER_MINUTE": tc.perMinute, "SHOONYA_REQUESTS_PER_SECOND": "0"})
			admitted := 0
			for i := 0; i < tc.calls; i++ {
				res := rs[i%2].call("get_limits", nil)
				if !res.IsError {
					admitted++
					continue
				}
				b := servetest.ErrorBody(t, res)
				if b.Code != envelope.RateLimited || !b.Retryable || b.RetryAfterS == nil || *b.RetryAfterS < 50 || !strings.Contains(b.Message, "nothing was sent") {
					t.Fatalf("call %d (replica %d): %+v", i, i%2, b)
				}
			}
			if admitted != tc.admitted || proxy.count("Limits") != tc.admitted {
				t.Errorf("admitted %d, broker received %d Limits calls; want %d", admitted, proxy.count("Limits"), tc.admitted)
			}
		})
	}
}

// Orders placed through both replicas under a shared budget of 5 requests a
// minute: the budget runs out part-way (each order costs an order-book check
// and the order), yet no order is sent twice and the broker never sees more
// than the budget.
func TestReplicasSharedBudgetNeverDoubleSends(t *testing.T) {
	srv := redistest.StartServer(t)
	rs, proxy := newReplicas(t, noren.Legacy, 2, redisURLOf(srv), map[string]string{
		"SHOONYA_REQUESTS_PER_MINUTE": "5", "SHOONYA_REQUESTS_PER_SECOND": "0"})
	placed, limited := 0, 0
	for i := 0; i < 8; i++ {
		key := fmt.Sprintf("shared-%d", i/2) // each key tried once on each replica
		res := rs[i%2].call("place_order", map[string]any{"exchange": "NSE", "trading_symbol": "INFY-EQ", "side": "BUY", "quantity": 1,
			"order_type": "LIMIT", "price": 1400, "idempotency_key": key})
		if res.IsError {
			b := servetest.ErrorBody(t, res)
			if b.Code != envelope.RateLimited {
				t.Fatalf("order %d: %+v", i, b)
			}
			limited++
			continue
		}
		if out := servetest.Decode[tools.PlaceOut](t, res); out.Outcome == "placed" {
			placed++
		}
	}
	for k := 0; k < 4; k++ {
		if n := rs[0].fake.OrdersWithRemarks(fmt.Sprintf("shared-%d", k)); n > 1 {
			t.Errorf("key shared-%d sent %d times", k, n)
		}
	}
	if got := len(rs[0].fake.Ledger()); got != placed || placed == 0 || limited == 0 {
		t.Errorf("ledger %d orders, %d placed, %d rate-limited", got, placed, limited)
	}
	if n := proxy.sent(); n > 5 {
		t.Errorf("the broker received %d requests under a shared budget of 5", n)
	}
}

// Redis going away after start-up fails closed: a clear retryable error and
// nothing sent to the broker.
func TestRedisGoneFailsClosed(t *testing.T) {
	srv := redistest.StartServer(t)
	rs, proxy := newReplicas(t, noren.Legacy, 1, redisURLOf(srv), nil)
	_ = srv.NewClient(t).ShutdownNoSave(context.Background()).Err() // the connection drops: no answer expected
	before := proxy.sent()
	cases := []struct {
		tool string
		args map[string]any
	}{
		{"get_limits", nil},
		{"get_quotes", map[string]any{"exchange": "NSE", "token": "1594"}},
		{"place_order", map[string]any{"exchange": "NSE", "trading_symbol": "INFY-EQ", "side": "BUY", "quantity": 1,
			"order_type": "LIMIT", "price": 1400, "idempotency_key": "redis-gone"}},
	}
	for _, tc := range cases {
		t.Run(tc.tool, func(t *testing.T) {
			res := rs[0].callWithin(10*time.Second, tc.tool, tc.args)
			b := servetest.ErrorBody(t, res)
			if b.Code != envelope.UpstreamUnavailable || !b.Retryable || !strings.Contains(b.Message, "nothing was sent") || !strings.Contains(b.Message, "MCPFLEET_REDIS_URL") {
				t.Fatalf("%+v", b)
			}
		})
	}
	if n := proxy.sent() - before; n != 0 || len(rs[0].fake.Ledger()) != 0 {
		t.Errorf("without the shared budget %d requests reached the broker (%d orders)", n, len(rs[0].fake.Ledger()))
	}
}
