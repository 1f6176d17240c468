package fake

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"
)

func dial(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v", url, err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

func send(t *testing.T, c *websocket.Conn, m map[string]string) {
	t.Helper()
	b, _ := json.Marshal(m)
	if err := c.Write(context.Background(), websocket.MessageText, b); err != nil {
		t.Fatal(err)
	}
}

func recv(t *testing.T, c *websocket.Conn) map[string]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("frame %s: %v", b, err)
	}
	return m
}

// recvType reads until a frame of type typ arrives.
func recvType(t *testing.T, c *websocket.Conn, typ string) map[string]string {
	t.Helper()
	for i := 0; i < 200; i++ {
		if m := recv(t, c); m["t"] == typ {
			return m
		}
	}
	t.Fatalf("no %s frame", typ)
	return nil
}

func TestWebsocketConnect(t *testing.T) {
	s, u := newTestServer(t, Config{})
	legacy := legacyLogin(t, u)
	oauth := oauthLogin(t, s, u)
	for _, tc := range []struct {
		name, url string
		hello     map[string]string
		ack, s    string
	}{
		{"legacy", u.LegacyWS, map[string]string{"t": "c", "uid": "FA12345", "actid": "FA12345", "susertoken": legacy, "source": "API"}, "ck", "OK"},
		{"oauth", u.OAuthWS, map[string]string{"t": "a", "uid": "FA12345", "actid": "FA12345", "accesstoken": oauth, "source": "API"}, "ak", "OK"},
		{"bad token", u.OAuthWS, map[string]string{"t": "a", "uid": "FA12345", "accesstoken": "nope"}, "ak", "Not_Ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, tc.url)
			send(t, c, tc.hello)
			m := recv(t, c)
			if m["t"] != tc.ack || m["s"] != tc.s {
				t.Fatalf("ack %v", m)
			}
		})
	}
}

func TestWebsocketFeed(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := legacyLogin(t, u)
	c := dial(t, u.LegacyWS+"?x=1")
	// Subscribes right after connect, before the ack (as the Python SDK does).
	send(t, c, map[string]string{"t": "c", "uid": "FA12345", "actid": "FA12345", "susertoken": tok, "source": "API"})
	send(t, c, map[string]string{"t": "t", "k": "NSE|2885#NSE|1594"})
	send(t, c, map[string]string{"t": "d", "k": "NSE|22"})
	if m := recv(t, c); m["t"] != "ck" {
		t.Fatalf("first frame %v", m)
	}
	got := map[string]map[string]string{}
	for i := 0; i < 3; i++ {
		m := recv(t, c)
		got[m["t"]+m["tk"]] = m
	}
	tk := got["tk2885"]
	for _, k := range []string{"e", "tk", "ts", "lp", "pc", "v", "o", "h", "l", "c", "ap", "bp1", "sp1", "bq1", "sq1", "ls", "ti", "pp"} {
		if tk[k] == "" {
			t.Fatalf("tk missing %s: %v", k, tk)
		}
	}
	if got["tk1594"] == nil || got["dk22"]["sq5"] == "" || got["dk22"]["tbq"] == "" {
		t.Fatalf("snapshots %v", got)
	}

	// A pushed tick gives a partial update with only changed fields.
	lp, _ := s.LastPrice("NSE", "2885")
	if err := s.PushTick(Tick{Exch: "NSE", Token: "2885", LP: lp + 1, Qty: 7}); err != nil {
		t.Fatal(err)
	}
	tf := recvType(t, c, "tf")
	if tf["tk"] != "2885" || tf["e"] != "NSE" || tf["lp"] != fmtPx(lp+1, 2) || tf["ts"] != "" || tf["ls"] != "" {
		t.Fatalf("tf %v", tf)
	}

	// Heartbeats (text and PING with the SDK payload) keep the socket alive.
	send(t, c, map[string]string{"t": "h"})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	go func() { _, _, _ = c.Read(ctx) }() // Ping needs a concurrent reader
	if err := c.Ping(ctx); err != nil {
		t.Fatalf("ping: %v", err)
	}
}

func TestWebsocketUnsubscribeAndTicks(t *testing.T) {
	s, u := newTestServer(t, Config{TickInterval: 10 * time.Millisecond})
	tok := oauthLogin(t, s, u)
	c := dial(t, u.OAuthWS)
	send(t, c, map[string]string{"t": "a", "uid": "FA12345", "actid": "FA12345", "accesstoken": tok, "source": "API"})
	recvType(t, c, "ak")
	send(t, c, map[string]string{"t": "t", "k": "NSE|3045"})
	recvType(t, c, "tk")
	// The generator moves subscribed tokens on its own.
	tf := recvType(t, c, "tf")
	if tf["tk"] != "3045" {
		t.Fatalf("tf %v", tf)
	}
	send(t, c, map[string]string{"t": "u", "k": "NSE|3045"})
	if m := recvType(t, c, "uk"); m["k"] != "NSE|3045" {
		t.Fatalf("uk %v", m)
	}
	// After the ack no further updates for that token arrive.
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	for {
		_, b, err := c.Read(ctx)
		if err != nil {
			break
		}
		var m map[string]string
		_ = json.Unmarshal(b, &m)
		if m["t"] == "tf" {
			t.Fatalf("update after unsubscribe: %v", m)
		}
	}
}

func TestWebsocketOrderUpdates(t *testing.T) {
	s, u := newTestServer(t, Config{AllowMarketOrders: true})
	tok := oauthLogin(t, s, u)
	c := dial(t, u.OAuthWS)
	send(t, c, map[string]string{"t": "a", "uid": "FA12345", "accesstoken": tok, "source": "API"})
	recvType(t, c, "ak")
	send(t, c, map[string]string{"t": "o", "actid": "FA12345"})
	recvType(t, c, "ok")
	m := obj(t, api(t, u, tok, "PlaceOrder", placeBody("SBIN-EQ", "B", "MKT", 1, "0", "None", "ws-om")))
	for {
		om := recvType(t, c, "om")
		if om["norenordno"] != m["norenordno"] || om["remarks"] != "ws-om" {
			t.Fatalf("om %v", om)
		}
		if om["reporttype"] == "Fill" {
			if om["status"] != StatusComplete || om["flqty"] != "1" {
				t.Fatalf("fill om %v", om)
			}
			return
		}
	}
}

func TestWebsocketDrop(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := legacyLogin(t, u)
	hello := map[string]string{"t": "c", "uid": "FA12345", "susertoken": tok, "source": "API"}
	c := dial(t, u.LegacyWS)
	send(t, c, hello)
	recvType(t, c, "ck")

	s.SetFault("ws", Fault{Kind: FaultWSDrop, Times: 1}) // drop now, refuse one reconnect
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, _, err := c.Read(ctx); err == nil {
		t.Fatal("socket survived the drop")
	}
	_, res, err := websocket.Dial(ctx, u.LegacyWS, nil)
	if err == nil || res == nil || res.StatusCode != http.StatusBadGateway {
		t.Fatalf("first reconnect should get 502: %v %v", err, res)
	}
	// Second reconnect works; subscriptions are not restored (the client resubscribes).
	c2 := dial(t, u.LegacyWS)
	send(t, c2, hello)
	recvType(t, c2, "ck")
	send(t, c2, map[string]string{"t": "t", "k": "NSE|2885"})
	if m := recvType(t, c2, "tk"); m["tk"] != "2885" {
		t.Fatalf("resubscribe %v", m)
	}
	s.DropWebsockets()
	deadline := time.Now().Add(2 * time.Second)
	for s.WebsocketCount() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := s.WebsocketCount(); n != 0 {
		t.Fatalf("%d sockets after DropWebsockets", n)
	}
}

func TestWebsocketConfigSwitches(t *testing.T) {
	s, u := newTestServer(t, Config{WSAckStatus: "Ok", WSOrdersUnasked: true, WSAnswerHeartbeat: true,
		WSExtraPaths: []string{"/NorenWS/"}})
	tok := oauthLogin(t, s, u)
	c := dial(t, "ws"+u.Base[len("http"):]+"/NorenWS/")
	send(t, c, map[string]string{"t": "a", "uid": "FA12345", "accesstoken": tok})
	if m := recv(t, c); m["t"] != "ak" || m["s"] != "Ok" {
		t.Fatalf("ack %v", m)
	}
	send(t, c, map[string]string{"t": "h"})
	recvType(t, c, "h")
	api(t, u, tok, "PlaceOrder", placeBody("SBIN-EQ", "B", "MKT", 1, "0", "None", "unasked"))
	if om := recvType(t, c, "om"); om["remarks"] != "unasked" {
		t.Fatalf("om %v", om)
	}
}
