package noren

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// TestProbeRefusesWhatIsNotARead: the probe's sender refuses, before
// anything is sent, every route that is not a read in Routes (orders,
// logins, routes the client does not know) and a read sent to another
// path; drift.Run reports such a probe failing; every probe Probes builds
// is a read.
func TestProbeRefusesWhatIsNotARead(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{"stat":"Ok","cash":"1"}`))
	}))
	defer srv.Close()
	c := New(Config{Era: Legacy, RESTURL: srv.URL + "/NorenWClientTP/", Timeout: 2 * time.Second})
	s := &ProbeSession{Auth: &Auth{Era: Legacy, UID: "U", ActID: "U", Token: "tok"}}
	send := c.probeSender(s)
	for _, call := range []drift.Call{
		{Route: "PlaceOrder", Method: "POST", Path: "/PlaceOrder"},
		{Route: "ModifyOrder", Method: "POST", Path: "/ModifyOrder"},
		{Route: "CancelOrder", Method: "POST", Path: "/CancelOrder"},
		{Route: "ExitSNOOrder", Method: "POST", Path: "/ExitSNOOrder"},
		{Route: "QuickAuth", Method: "POST", Path: "/QuickAuth"},
		{Route: "GenAcsTok", Method: "POST", Path: "/GenAcsTok"},
		{Route: "Limits", Method: "POST", Path: "/PlaceOrder"},
		{Route: "Limits", Method: "GET", Path: "/Limits"},
	} {
		if _, err := send(context.Background(), call); err == nil {
			t.Errorf("%s %s was not refused", call.Method, call.Path)
		}
	}
	if _, err := c.LoginProbe(s, Credentials{UID: "U"}, time.Now).Send(context.Background(), drift.Call{Route: "PlaceOrder", Method: "POST", Path: "/PlaceOrder"}); err == nil {
		t.Error("the login probe's sender sent an order route")
	}
	rs := drift.Run(context.Background(), []drift.Probe{{Route: "PlaceOrder", Method: "POST", Path: "/PlaceOrder",
		ReadOnly: "claimed", Send: send}}, Shapes, drift.Options{})
	if rs[0].Status != drift.StatusFailed {
		t.Errorf("an order probe: %+v", rs[0])
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("%d requests reached the server", n)
	}
	for _, p := range c.Probes(s, time.Now(), "") {
		if Routes[p.Route] != Reads || p.Path != "/"+p.Route {
			t.Errorf("probe %s %s", p.Route, p.Path)
		}
	}
	if _, err := send(context.Background(), drift.Call{Route: "Limits", Method: "POST", Path: "/Limits", JSON: map[string]any{"uid": "U"}}); err != nil || hits.Load() != 1 {
		t.Errorf("a read was not sent: %v", err)
	}
}

// TestProbeSessionEnded: Noren refusing the session skips that route and
// every read after it (no answer to judge; a cron job is not paged each
// night the day's session ends).
func TestProbeSessionEnded(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = w.Write([]byte(`{"stat":"Not_Ok","emsg":"Session Expired :  Invalid Session Key"}`))
	}))
	defer srv.Close()
	c := New(Config{Era: Legacy, RESTURL: srv.URL + "/NorenWClientTP/", Timeout: 2 * time.Second})
	s := &ProbeSession{Auth: &Auth{Era: Legacy, UID: "U", ActID: "U", Token: "tok"}}
	rs := drift.Run(context.Background(), c.Probes(s, time.Now(), ""), Shapes, drift.Options{})
	for _, r := range rs {
		if r.Status != drift.StatusSkip {
			t.Errorf("%s: %s %s", r.Route, r.Status, r.Error)
		}
	}
	if hits.Load() != 1 || drift.Worst(rs) != drift.StatusSkip {
		t.Errorf("%d requests, worst %s", hits.Load(), drift.Worst(rs))
	}
}
