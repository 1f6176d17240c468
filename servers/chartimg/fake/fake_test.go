package fake

import (
	"bytes"
	"encoding/json"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"image"
	_ "image/jpeg"
	_ "image/png"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

type resp struct {
	status int
	ct     string
	body   []byte
	err    error
}

func do(base, method, path, key, body string) resp {
	req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
	if key != "" {
		req.Header.Set("x-api-key", key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		return resp{err: err}
	}
	defer r.Body.Close()
	b, err := io.ReadAll(r.Body)
	return resp{r.StatusCode, r.Header.Get("Content-Type"), b, err}
}

func TestFakeAnswers(t *testing.T) {
	f := New(Options{Keys: map[string]string{"pro": "PRO", "basic": "BASIC"}, NoRateLimit: true})
	base, stop := f.Start()
	defer stop()
	cases := []struct {
		name, method, path, key, body string
		status                        int
		want                          string // substring of body, or "png"/"jpeg" for a decodable image
	}{
		{"png", "POST", "/v2/tradingview/advanced-chart", "pro", `{"symbol":"BINANCE:BTCUSDT","interval":"4h","theme":"dark","studies":[{"name":"Relative Strength Index","input":{"length":21}}]}`, 200, "png"},
		{"jpeg", "POST", "/v2/tradingview/advanced-chart", "pro", `{"symbol":"NASDAQ:AAPL","format":"jpeg","width":1280,"height":720,"style":"line"}`, 200, "jpeg"},
		{"no body uses defaults", "POST", "/v2/tradingview/advanced-chart", "pro", ``, 200, "png"},
		{"no key", "POST", "/v2/tradingview/advanced-chart", "", `{}`, 403, `"Forbidden"`},
		{"bad key", "GET", "/v3/tradingview/exchange/list", "nope", ``, 403, `"Forbidden"`},
		{"query key on v3", "GET", "/v3/tradingview/exchange/list?key=pro", "", ``, 200, `"BINANCE"`},
		{"resolution limit", "POST", "/v2/tradingview/advanced-chart", "basic", `{"symbol":"FX:EURUSD","width":1920,"height":1080}`, 403, "Exceed Max Usage Resolution Limit (800x600)"},
		{"parameter limit", "POST", "/v2/tradingview/advanced-chart", "basic", `{"symbol":"FX:EURUSD","studies":[{"name":"Volume"},{"name":"VWAP"},{"name":"MACD"}],"drawings":[{"name":"Horizontal Line","input":{"price":1}}]}`, 403, "Exceed Max Usage Parameter Limit (3)"},
		{"422 array", "POST", "/v2/tradingview/advanced-chart", "pro", `{"symbol":"INVALID","interval":"INVALID"}`, 422, `"param":"interval"`},
		{"422 study name", "POST", "/v2/tradingview/advanced-chart", "pro", `{"studies":[{"name":"BollingerBands@tv-basicstudies"}]}`, 422, `studies[0].name`},
		{"422 invalid symbol", "POST", "/v2/tradingview/advanced-chart", "pro", `{"symbol":"NOPE:AAPL"}`, 422, `"Invalid Symbol"`},
		{"400 bad json", "POST", "/v2/tradingview/advanced-chart", "pro", `{"symbol":`, 400, `Bad Request`},
		{"storage", "POST", "/v2/tradingview/advanced-chart/storage", "basic", `{"symbol":"FX:EURUSD"}`, 200, `"expire"`},
		{"symbols", "GET", "/v3/tradingview/exchange/BINANCE?symbol=btc&type=spot", "pro", ``, 200, `"currency-logoid"`},
		{"unknown exchange", "GET", "/v3/tradingview/exchange/NOWHERE", "pro", ``, 422, `Invalid Request`},
		{"docs", "GET", "/", "", ``, 200, `TradingView Chart Indicators`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := do(base, tc.method, tc.path, tc.key, tc.body)
			if r.err != nil || r.status != tc.status {
				t.Fatalf("status %d err %v body %.200s", r.status, r.err, r.body)
			}
			switch tc.want {
			case "png", "jpeg":
				_, format, err := image.Decode(bytes.NewReader(r.body))
				if err != nil || format != tc.want || r.ct != "image/"+tc.want {
					t.Fatalf("image: %v format %s ct %s", err, format, r.ct)
				}
			default:
				if !strings.Contains(string(r.body), tc.want) {
					t.Fatalf("body %.300s lacks %s", r.body, tc.want)
				}
			}
		})
	}
	// the stored image is served at its URL
	r := do(base, "POST", "/v2/tradingview/advanced-chart/storage", "pro", `{"symbol":"FX:EURUSD","format":"jpeg"}`)
	var st struct{ URL, Etag, Expire string }
	_ = json.Unmarshal(r.body, &st)
	got, err := http.Get(st.URL)
	if err != nil || got.StatusCode != 200 || got.Header.Get("Content-Type") != "image/jpeg" {
		t.Fatalf("stored image: %v %v", err, got)
	}
	exp, _ := time.Parse(time.RFC3339, st.Expire)
	if d := exp.Sub(clock.MustFromEnv().Now()); d < 29*24*time.Hour || d > 31*24*time.Hour {
		t.Errorf("PRO storage expiry %v, want 30 days", d)
	}
	if f.Count(RouteChart) < 10 || f.Count(RouteStorage) != 2 {
		t.Errorf("counts chart=%d storage=%d", f.Count(RouteChart), f.Count(RouteStorage))
	}
}

func TestFakeRateLimits(t *testing.T) {
	now := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	f := New(Options{Keys: map[string]string{"basic": "BASIC"}, Now: func() time.Time { return now }})
	base, stop := f.Start()
	defer stop()
	statuses := []int{}
	for i := 0; i < 4; i++ {
		statuses = append(statuses, do(base, "GET", "/v3/tradingview/exchange/list", "basic", "").status)
	}
	if statuses[2] != 200 || statuses[3] != 429 { // BASIC: burst 3
		t.Fatalf("burst statuses %v", statuses)
	}
	for i := 0; i < 60; i++ {
		now = now.Add(2 * time.Second)
		do(base, "GET", "/v3/tradingview/exchange/list", "basic", "")
	}
	r := do(base, "GET", "/v3/tradingview/exchange/list", "basic", "")
	if r.status != 429 || !strings.Contains(string(r.body), "Limit Exceeded") {
		t.Fatalf("daily: %d %s", r.status, r.body)
	}
}

func TestFakeFaults(t *testing.T) {
	f := New(Options{NoRateLimit: true})
	base, stop := f.Start()
	defer stop()
	post := func(body string) {
		r, err := http.Post(base+"/_fake/faults", "application/json", strings.NewReader(body))
		if err != nil || r.StatusCode != 200 {
			t.Fatalf("faults: %v %v", err, r)
		}
		r.Body.Close()
	}
	for _, tc := range []struct {
		fault  string
		status int
		want   string
	}{
		{`{"status":500,"count":1}`, 500, "Something Went Wrong"},
		{`{"status":504,"count":1,"message":"Endpoint request timed out"}`, 504, "Endpoint request timed out"},
		{`{"status":429,"count":1,"retryAfter":2}`, 429, "Too Many Requests"},
		{`{"status":401,"count":1}`, 401, "Invalid Request"},
		{`{"status":409,"count":1}`, 409, "Session Disconnected"},
		{`{"status":422,"count":1,"body":"[{\"value\":\"X\",\"msg\":\"must be a supported interval\",\"param\":\"interval\",\"location\":\"body\"}]"}`, 422, "supported interval"},
		{`[{"route":"list","malformed":true,"count":1}]`, 200, `"payload":[{"symbol":`},
	} {
		post(tc.fault)
		r := do(base, "GET", "/v3/tradingview/exchange/list", "test-key", "")
		if r.status != tc.status || !strings.Contains(string(r.body), tc.want) {
			t.Errorf("%s: %d %s", tc.fault, r.status, r.body)
		}
	}
	if r := do(base, "GET", "/v3/tradingview/exchange/list", "test-key", ""); r.status != 200 {
		t.Errorf("faults did not expire: %d", r.status)
	}
	post(`{"route":"list","truncate":true,"count":1}`)
	if r := do(base, "GET", "/v3/tradingview/exchange/list", "test-key", ""); r.err == nil {
		t.Errorf("truncated body read without error: %d %s", r.status, r.body)
	}
	f.SetFault(Fault{Route: RouteChart, LatencyMs: 150, Count: 1})
	start := time.Now()
	do(base, "POST", "/v2/tradingview/advanced-chart", "test-key", `{}`)
	if time.Since(start) < 150*time.Millisecond {
		t.Error("latency fault not applied")
	}
	f.SetDocs([]byte("<html>broken</html>"))
	if r := do(base, "GET", "/", "", ""); string(r.body) != "<html>broken</html>" {
		t.Error("SetDocs")
	}
}

func TestLoopbackOnly(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("StartAt accepted a non-loopback address")
		}
	}()
	New(Options{}).StartAt("0.0.0.0:0")
}
