package feed

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// wsStub is a loopback Noren websocket: it acks the login and writes whatever
// frames the test queues.
type wsStub struct {
	srv    *httptest.Server
	frames chan []byte
}

func newWSStub(t testing.TB) *wsStub {
	s := &wsStub{frames: make(chan []byte, 1<<16)}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		ctx := r.Context()
		if _, _, err := c.Read(ctx); err != nil { // login
			return
		}
		_ = c.Write(ctx, websocket.MessageText, []byte(`{"t":"ck","s":"OK","uid":"U"}`))
		go func() {
			for {
				if _, _, err := c.Read(ctx); err != nil {
					return
				}
			}
		}()
		for {
			select {
			case <-ctx.Done():
				return
			case f := <-s.frames:
				if err := c.Write(ctx, websocket.MessageText, f); err != nil {
					return
				}
			}
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *wsStub) url() string { return "ws" + strings.TrimPrefix(s.srv.URL, "http") }

type latencyRig struct {
	stub    *wsStub
	mu      sync.Mutex
	waiters map[string]chan time.Time
}

// newLatencyRig wires stub websocket → Conn → Store → Notifier → mcp-go
// server → in-process 2025-11-25 client subscribed to n instrument URIs.
func newLatencyRig(t testing.TB, n int) *latencyRig {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	rig := &latencyRig{stub: newWSStub(t), waiters: map[string]chan time.Time{}}
	srv := server.NewMCPServer("bench", "1", server.WithResourceCapabilities(true, true))
	notifier := NewNotifier(nil)
	auth := &noren.Auth{Era: noren.Legacy, UID: "U", ActID: "U", Token: "t"}
	hub := NewHub(ctx, Options{URL: rig.stub.url()}, func(string) (*noren.Auth, bool) { return auth, true }, notifier)
	Register(&serve.Registry{Server: srv}, hub, notifier)
	go notifier.Run(ctx)

	c, err := client.NewInProcessClientWithOptions(srv, client.WithProtocolVersion(mcp.ProtocolVersion20251125))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	if err := servetest.Initialize(ctx, c, mcp.ProtocolVersion20251125); err != nil {
		t.Fatal(err)
	}
	c.OnNotification(func(note mcp.JSONRPCNotification) {
		if note.Method != string(mcp.MethodNotificationResourceUpdated) {
			return
		}
		uri, _ := note.Params.AdditionalFields["uri"].(string)
		rig.mu.Lock()
		ch := rig.waiters[uri]
		rig.mu.Unlock()
		if ch != nil {
			select {
			case ch <- time.Now():
			default:
			}
		}
	})
	conn := hub.Conn("local")
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf("NSE|%d", 1000+i)
	}
	if err := conn.Subscribe(ctx, keys, false); err != nil {
		t.Fatal(err)
	}
	for i := range keys {
		var sr mcp.SubscribeRequest
		sr.Params.URI = InstrumentURI("NSE", fmt.Sprint(1000+i))
		//lint:ignore SA1019 legacy-era clients subscribe with resources/subscribe: the path measured here
		if err := c.Subscribe(ctx, sr); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for !conn.Status().Connected {
		if time.Now().After(deadline) {
			t.Fatal("feed did not connect")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if got := notifier.Subscriptions(); got != n {
		t.Fatalf("notifier recorded %d subscriptions, want %d", got, n)
	}
	return rig
}

func (r *latencyRig) wait(uri string) chan time.Time {
	ch := make(chan time.Time, 1)
	r.mu.Lock()
	r.waiters[uri] = ch
	r.mu.Unlock()
	return ch
}

// BenchmarkTickToResourceUpdate measures, with 1,000 instruments subscribed
// and background ticks on all of them (~10k ticks/s), the time from a tick
// frame leaving the broker socket to notifications/resources/updated reaching
// the MCP client for that instrument. Goal: p99 ≤ 5 ms.
func BenchmarkTickToResourceUpdate(b *testing.B) {
	const n = 1000
	rig := newLatencyRig(b, n)
	stop := make(chan struct{})
	var bg sync.WaitGroup
	bg.Add(1)
	go func() { // background load on instruments 1..n-1
		defer bg.Done()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		i := 0
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				for range 10 {
					i = i%(n-1) + 1
					select {
					case rig.stub.frames <- fmt.Appendf(nil, `{"t":"tf","e":"NSE","tk":"%d","lp":"%d.05","v":"%d"}`, 1000+i, 100+i%7, i):
					default:
					}
				}
			}
		}
	}()
	probe := InstrumentURI("NSE", "1000")
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ch := rig.wait(probe)
		start := time.Now()
		rig.stub.frames <- fmt.Appendf(nil, `{"t":"tf","e":"NSE","tk":"1000","lp":"%d.10"}`, 200+i%50)
		select {
		case got := <-ch:
			lat = append(lat, got.Sub(start))
		case <-time.After(2 * time.Second):
			b.Fatal("no resources/updated within 2s")
		}
	}
	b.StopTimer()
	close(stop)
	bg.Wait()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	q := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.50), "p50-ms")
	b.ReportMetric(q(0.99), "p99-ms")
}

// TestTickReachesSubscriber is the benchmark's rig as a plain test: a tick on
// a subscribed instrument produces resources/updated.
func TestTickReachesSubscriber(t *testing.T) {
	rig := newLatencyRig(t, 50)
	ch := rig.wait(InstrumentURI("NSE", "1001"))
	rig.stub.frames <- []byte(`{"t":"tf","e":"NSE","tk":"1001","lp":"10.5"}`)
	select {
	case <-ch:
	case <-time.After(5 * time.Second):
		t.Fatal("no resources/updated")
	}
}
