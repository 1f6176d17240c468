package fake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// rawPost returns the transport error too, for faults that break HTTP.
func rawPost(url, body, bearer string, timeout time.Duration) (int, string, error) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	c := &http.Client{Timeout: timeout}
	res, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, string(b), err
}

func TestFaults(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	order := func(remarks string) string {
		b, _ := json.Marshal(placeBody("SBIN-EQ", "B", "MKT", 1, "0", "None", remarks))
		return "jData=" + string(b)
	}
	tests := []struct {
		name    string
		fault   Fault
		check   func(t *testing.T, status int, body string, err error)
		booked  bool // order reached the OMS
		timeout time.Duration
	}{
		{"latency", Fault{Kind: FaultLatency, Latency: 200 * time.Millisecond}, func(t *testing.T, st int, body string, err error) {
			if err != nil || obj(t, body)["stat"] != "Ok" {
				t.Fatalf("%v %s", err, body)
			}
		}, true, 5 * time.Second},
		{"timeout after accept", Fault{Kind: FaultTimeout}, func(t *testing.T, st int, body string, err error) {
			if err == nil {
				t.Fatalf("want client timeout, got %d %s", st, body)
			}
		}, true, 300 * time.Millisecond},
		{"timeout with hang then close", Fault{Kind: FaultTimeout, Hang: 100 * time.Millisecond}, func(t *testing.T, st int, body string, err error) {
			if err == nil {
				t.Fatalf("want connection error, got %d %s", st, body)
			}
		}, true, 5 * time.Second},
		{"close without response", Fault{Kind: FaultCloseConn}, func(t *testing.T, st int, body string, err error) {
			if err == nil {
				t.Fatalf("want EOF, got %d %s", st, body)
			}
		}, true, 5 * time.Second},
		{"502", Fault{Kind: FaultStatus, Status: 502}, func(t *testing.T, st int, body string, err error) {
			if st != 502 || !strings.Contains(body, "502") {
				t.Fatalf("%d %s", st, body)
			}
		}, false, 5 * time.Second},
		{"malformed json", Fault{Kind: FaultMalformed}, func(t *testing.T, st int, body string, err error) {
			var v any
			if st != 200 || json.Unmarshal([]byte(body), &v) == nil {
				t.Fatalf("want broken JSON: %d %s", st, body)
			}
		}, true, 5 * time.Second},
		{"truncated body", Fault{Kind: FaultTruncated}, func(t *testing.T, st int, body string, err error) {
			if !errors.Is(err, io.ErrUnexpectedEOF) {
				t.Fatalf("want unexpected EOF, got %v %q", err, body)
			}
		}, true, 5 * time.Second},
		{"session expired", Fault{Kind: FaultSessionExpired}, func(t *testing.T, st int, body string, err error) {
			if obj(t, body)["emsg"] != EmsgSessionExpired {
				t.Fatal(body)
			}
		}, false, 5 * time.Second},
		{"rate limit", Fault{Kind: FaultRateLimit}, func(t *testing.T, st int, body string, err error) {
			if st != 429 {
				t.Fatal(st)
			}
		}, false, 5 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s.SetFault("PlaceOrder", tc.fault)
			defer s.ClearFaults()
			remarks := "fault-" + tc.name
			st, body, err := rawPost(u.OAuthREST+"PlaceOrder", order(remarks), tok, tc.timeout)
			tc.check(t, st, body, err)
			want := 0
			if tc.booked {
				want = 1
			}
			if got := s.OrdersWithRemarks(remarks); got != want {
				t.Fatalf("ledger count %d, want %d", got, want)
			}
			if tc.booked { // the order is in the book even though the reply was lost
				book := arr(t, api(t, u, tok, "OrderBook", map[string]any{}))
				if book[0]["remarks"] != remarks {
					t.Fatalf("book head %v", book[0])
				}
			}
		})
	}
}

func TestFaultTimesAndScope(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	s.SetFault("*", Fault{Kind: FaultStatus, Status: 503, Times: 2})
	for i, want := range []int{503, 503, 200} {
		st, _, _ := rawPost(u.OAuthREST+"UserDetails", `jData={"uid":"FA12345"}`, tok, 5*time.Second)
		if st != want {
			t.Fatalf("call %d: %d want %d", i, st, want)
		}
	}
	s.SetFault("Limits", Fault{Kind: FaultStatus, Status: 500})
	if st, _, _ := rawPost(u.OAuthREST+"UserDetails", `jData={"uid":"FA12345"}`, tok, 5*time.Second); st != 200 {
		t.Fatalf("other route affected: %d", st)
	}
	s.SetFault("Limits", Fault{}) // zero kind clears
	if len(s.Faults()) != 0 {
		t.Fatalf("faults left: %v", s.Faults())
	}
}

func TestFaultControlHTTP(t *testing.T) {
	s, u := newTestServer(t, Config{})
	tok := oauthLogin(t, s, u)
	res, err := http.Post(u.Control+"faults", "application/json",
		bytes.NewBufferString(`{"route":"OrderBook","kind":"status","status":504,"latency":"10ms"}`))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("set fault: %v %v", err, res)
	}
	res.Body.Close()
	if st, _, _ := rawPost(u.OAuthREST+"OrderBook", `jData={"uid":"FA12345"}`, tok, 5*time.Second); st != 504 {
		t.Fatalf("status %d", st)
	}
	for _, bad := range []string{`{"kind":"nope"}`, `{"kind":"latency","latency":"x"}`, `{}`} {
		res, _ := http.Post(u.Control+"faults", "application/json", strings.NewReader(bad))
		res.Body.Close()
		if res.StatusCode != 400 {
			t.Fatalf("%s: %d", bad, res.StatusCode)
		}
	}
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodDelete, u.Control+"faults", nil)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if st, _, _ := rawPost(u.OAuthREST+"OrderBook", `jData={"uid":"FA12345"}`, tok, 5*time.Second); st != 200 {
		t.Fatalf("after delete %d", st)
	}
	res, _ = http.Post(u.Control+"sessions/expire", "", nil)
	res.Body.Close()
	if _, body, _ := rawPost(u.OAuthREST+"OrderBook", `jData={"uid":"FA12345"}`, tok, 5*time.Second); !strings.Contains(body, EmsgSessionExpired) {
		t.Fatalf("after expire: %s", body)
	}
}
