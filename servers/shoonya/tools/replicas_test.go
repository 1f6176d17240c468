package tools_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/redistest"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

func stateKey(t *testing.T) string {
	t.Helper()
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(k)
}

// Two server instances on one real redis-server are two replicas: the login
// made through A serves B's calls against the same fake broker, and an order
// placed through B shows in A's order book.
func TestReplicasShareBrokerSessions(t *testing.T) {
	rs := redistest.StartServer(t)
	key := stateKey(t)
	for i, era := range eras {
		t.Run(string(era), func(t *testing.T) {
			a := newEnv(t, era, envOpt{extra: map[string]string{
				"MCPFLEET_REDIS_URL": "redis://" + rs.Addr() + "/" + strconv.Itoa(i), "MCPFLEET_STATE_KEY": key,
			}})
			b := servetest.New(t, app()) // replica B: same environment, its own process state
			if body := servetest.ErrorBody(t, b.Call(t, "get_order_book", nil)); body.Code != "unauthenticated" {
				t.Fatalf("B before any login: %+v", body)
			}
			a.connect()
			ob := servetest.Decode[tools.OrderBookOut](t, b.Call(t, "get_order_book", nil))
			if len(ob.Rows) != 0 {
				t.Fatalf("B's order book: %+v", ob)
			}
			placed := servetest.Decode[tools.PlaceOut](t, b.Call(t, "place_order", map[string]any{
				"exchange": "NSE", "trading_symbol": "RELIANCE-EQ", "side": "BUY", "quantity": 1,
				"order_type": "LIMIT", "price": 1300, "product": "CNC", "idempotency_key": "replica-" + string(era),
			}))
			if placed.OrderID == "" {
				t.Fatalf("place on B: %+v", placed)
			}
			ob = servetest.Decode[tools.OrderBookOut](t, a.call("get_order_book", nil))
			if l := ob.List(); len(l) != 1 || l[0].OrderID != placed.OrderID {
				t.Fatalf("A's order book after B's order: %+v", ob)
			}
			if strings.Contains(a.conn.Logs()+b.Logs(), key) {
				t.Error("the state key reached the logs")
			}
		})
	}
}

// With Redis but no MCPFLEET_STATE_KEY shoonya refuses to start, and says how to fix it.
func TestRedisWithoutStateKeyRefusesToStart(t *testing.T) {
	rs := redistest.StartServer(t)
	t.Setenv("MCPFLEET_REDIS_URL", "redis://"+rs.Addr()+"/0")
	for _, tt := range []struct{ key, want string }{
		{"", "MCPFLEET_STATE_KEY is not"},
		{base64.StdEncoding.EncodeToString([]byte("short")), "32 random bytes"},
	} {
		t.Setenv("MCPFLEET_STATE_KEY", tt.key)
		o, err := serve.ParseOptions(app(), nil, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		_, err = serve.Build(ctx, app(), o, zerolog.Nop())
		cancel()
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "openssl rand -base64 32") {
			t.Errorf("key %q: %v", tt.key, err)
		}
	}
}
