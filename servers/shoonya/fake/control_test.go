package fake

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestControlEndpoints(t *testing.T) {
	s := New(Config{TickInterval: -1, RateLimit: RateLimit{Disabled: true}})
	ts := httptest.NewServer(s.Handler()) // Handler() served by someone else
	t.Cleanup(func() { ts.Close(); s.Close() })
	u := URLsFor(strings.TrimPrefix(ts.URL, "http://"))

	ctl := func(method, path, body string) (int, string) {
		req, _ := http.NewRequest(method, u.Control+path, strings.NewReader(body))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	st, body := ctl("POST", "oauth/code?uid=FA12345", "")
	var code struct{ Code string }
	_ = json.Unmarshal([]byte(body), &code)
	if st != 200 || code.Code == "" {
		t.Fatalf("oauth code: %d %s", st, body)
	}
	a := DemoAccount()
	_, raw := post(t, u.OAuthREST+"GenAcsTok", map[string]any{"code": code.Code,
		"checksum": OAuthChecksum(a.ClientID, a.ClientSecret, code.Code), "uid": a.UID}, "", "")
	tok := obj(t, raw)["access_token"].(string)

	m := obj(t, api(t, u, tok, "PlaceOrder", placeBody("SBIN-EQ", "B", "LMT", 1, "700.00", "None", "ctl")))
	no := m["norenordno"].(string)
	if st, body := ctl("POST", "tick", `{"exch":"NSE","token":"3045","lp":699.5}`); st != 200 {
		t.Fatalf("tick %d %s", st, body)
	}
	if s.OrderStatus(no) != StatusComplete {
		t.Fatalf("tick did not fill: %s", s.OrderStatus(no))
	}
	m = obj(t, api(t, u, tok, "PlaceOrder", placeBody("SBIN-EQ", "B", "LMT", 1, "650.00", "None", "ctl2")))
	if st, _ := ctl("POST", "fill", `{"norenordno":"`+m["norenordno"].(string)+`"}`); st != 200 {
		t.Fatal("fill")
	}
	if st, _ := ctl("POST", "fill", `{"norenordno":"nope"}`); st != 400 {
		t.Fatal("fill unknown")
	}
	m = obj(t, api(t, u, tok, "PlaceOrder", placeBody("SBIN-EQ", "B", "LMT", 1, "650.00", "None", "ctl3")))
	if err := s.RejectOrder(m["norenordno"].(string), "RMS: blocked"); err != nil {
		t.Fatal(err)
	}
	if st, body := ctl("GET", "ledger", ""); st != 200 || strings.Count(body, `"Remarks"`) != 3 {
		t.Fatalf("ledger %d %s", st, body)
	}
	if st, _ := ctl("POST", "ws/drop", ""); st != 200 {
		t.Fatal("ws drop")
	}
	if st, _ := ctl("GET", "nope", ""); st != 404 {
		t.Fatal("unknown control path")
	}
	if !s.ExpireSession(tok) || s.ExpireSession("nope") {
		t.Fatal("ExpireSession")
	}
	if m := obj(t, api(t, u, tok, "OrderBook", map[string]any{})); m["emsg"] != EmsgSessionExpired {
		t.Fatalf("after ExpireSession %v", m)
	}
	if len(Routes()) < 19 {
		t.Fatalf("routes %v", Routes())
	}
}

func TestControlFaults(t *testing.T) {
	s := New(Config{TickInterval: -1, RateLimit: RateLimit{Disabled: true}})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); s.Close() })
	u := URLsFor(strings.TrimPrefix(ts.URL, "http://"))
	steps := []struct {
		method, path, body string
		status             int
		want               map[string]Fault // the active faults after the step
	}{
		{"POST", "faults", `{"route":"PlaceOrder","kind":"timeout","hang":"2s","times":1}`, 200,
			map[string]Fault{"PlaceOrder": {Kind: FaultTimeout, Hang: 2 * time.Second, Times: 1}}},
		{"POST", "faults", `[{"route":"","kind":"latency","latency":"1.5s"},{"route":"PlaceOrder","kind":"status","status":503}]`, 200,
			map[string]Fault{"*": {Kind: FaultLatency, Latency: 1500 * time.Millisecond}, "PlaceOrder": {Kind: FaultStatus, Status: 503}}},
		{"POST", "faults", `{"route":"Limits","kind":"nope"}`, 400, nil}, // refused: nothing changes
		{"POST", "faults", `{"route":"Limits","latency":"soon","kind":"latency"}`, 400, nil},
		{"DELETE", "faults?route=PlaceOrder", "", 200, map[string]Fault{"*": {Kind: FaultLatency, Latency: 1500 * time.Millisecond}}},
		{"DELETE", "faults", "", 200, map[string]Fault{}},
	}
	var want map[string]Fault
	for i, st := range steps {
		req, _ := http.NewRequest(st.method, u.Control+st.path, strings.NewReader(st.body))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if st.want != nil {
			want = st.want
		}
		if res.StatusCode != st.status || !reflect.DeepEqual(s.Faults(), want) {
			t.Fatalf("step %d %s %s: %d %s; faults %+v, want %d %+v", i, st.method, st.path, res.StatusCode, b, s.Faults(), st.status, want)
		}
	}
}
