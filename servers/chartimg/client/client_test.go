package client

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/fake"
)

func code(err error) envelope.Code {
	var e *envelope.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestDailyLimitFailsFastWithRetryAfter(t *testing.T) {
	f := fake.New(fake.Options{NoRateLimit: true})
	base, stop := f.Start()
	defer stop()
	c := New(Config{APIURL: base, APIKey: "test-key", Retries: -1,
		Plan: chart.Plan{Name: "TINY", PerSecond: 100, Burst: 100, DailyMax: 2, MaxWidth: 800, MaxHeight: 600, MaxParameters: 3}})
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		if _, err := c.Exchanges(ctx); err != nil {
			t.Fatal(err)
		}
	}
	_, err := c.Exchanges(ctx)
	var e *envelope.Error
	if !errors.As(err, &e) || e.Code != envelope.RateLimited || e.RetryAfter < 23*time.Hour || !strings.Contains(e.Message, "daily maximum of 2") {
		t.Fatalf("third call: %v", err)
	}
	if n := f.Count(fake.RouteList); n != 2 {
		t.Errorf("the limited call reached chart-img (%d requests)", n)
	}
}

func TestPerSecondLimitRespectsDeadline(t *testing.T) {
	f := fake.New(fake.Options{NoRateLimit: true})
	base, stop := f.Start()
	defer stop()
	c := New(Config{APIURL: base, APIKey: "test-key", Plan: chart.Plans[0]}) // BASIC: 1/s, burst 3
	for i := 0; i < 3; i++ {
		if _, err := c.Exchanges(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := c.Exchanges(ctx)
	if code(err) != envelope.RateLimited && code(err) != envelope.Timeout {
		t.Fatalf("fourth call inside 200ms: %v", err)
	}
}

func TestDetectNamesThePlan(t *testing.T) {
	c := New(Config{Plan: chart.Plans[1]}) // PRO configured
	for _, tc := range []struct {
		body, want, plan string
	}{
		{`{"message":"Exceed Max Usage Resolution Limit (800x600)"}`, "PRO allows 1920x1080", "BASIC"},
		{`{"message":"Exceed Max Usage Parameter Limit (5)"}`, "MEGA allows 10", "PRO"},
		{`{"message":"Exceed Max Usage Parameter Limit (50)"}`, "allows 50 combined", "ENTERPRISE"},
	} {
		e := c.detect(403, []byte(tc.body))
		if e == nil || e.Code != envelope.PermissionDenied || !strings.Contains(e.Message, tc.want) || e.Details["plan"] != tc.plan {
			t.Errorf("%s → %+v", tc.body, e)
		}
	}
	if e := c.detect(403, []byte(`{"message":"Forbidden"}`)); e == nil || e.Code != envelope.Unauthenticated {
		t.Errorf("Forbidden → %+v", e)
	}
	if e := c.detect(200, []byte(`{}`)); e != nil {
		t.Errorf("200 → %+v", e)
	}
}

func tinyPNG() []byte {
	var b bytes.Buffer
	_ = png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 4, 3)))
	return b.Bytes()
}

func TestParseImage(t *testing.T) {
	img, err := ParseImage("image/png", tinyPNG())
	if err != nil || img.Width != 4 || img.Height != 3 {
		t.Fatalf("png: %+v %v", img, err)
	}
	for _, tc := range []struct{ ct, body string }{
		{"application/json", `{"message":"Invalid Request"}`},
		{"image/png", "not a png"},
		{"image/jpeg", string(tinyPNG())},
		{"text/html", "<html>"},
	} {
		if _, err := ParseImage(tc.ct, []byte(tc.body)); code(err) != envelope.UpstreamError {
			t.Errorf("%s %q: %v", tc.ct, tc.body, err)
		}
	}
}

func FuzzParseImage(f *testing.F) {
	f.Add("image/png", tinyPNG())
	f.Add("image/jpeg", []byte("\xff\xd8\xff\xe0garbage"))
	f.Add("application/json", []byte(`[{"msg":"x"}]`))
	f.Fuzz(func(t *testing.T, ct string, body []byte) {
		img, err := ParseImage(ct, body)
		if err == nil && (img.Width <= 0 || len(img.Bytes) != len(body)) {
			t.Fatalf("accepted %q as a %dx%d image", ct, img.Width, img.Height)
		}
	})
}

// The v3 bodies decode with the API's shapes: nulls, hyphenated keys, extra fields.
func FuzzDecodeV3(f *testing.F) {
	f.Add(`{"updatedAt":"2024-07-08T00:00:32.448Z","payload":[{"symbol":"BTCUSDT","description":"Bitcoin / TetherUS","type":"spot","exchange":"BINANCE","currency_code":"USDT","currency-logoid":"crypto/XTVCUSDT","base-currency-logoid":"crypto/XTVCBTC","provider_id":"binance","source2":{"id":"BINANCE"},"source_id":"BINANCE","typespecs":["crypto"]}]}`)
	f.Add(`{"updatedAt":null,"payload":null}`)
	f.Add(`{"payload":["BINANCE",1,null]}`)
	f.Fuzz(func(t *testing.T, body string) {
		// the client's own path: upstream.GetJSON decodes with extract.Into
		var sl SymbolList
		if err := extract.Into([]byte(body), &sl); err == nil {
			for _, s := range sl.Payload {
				_ = s.Exchange + ":" + s.Symbol
			}
		} else if code(err) != envelope.UpstreamError {
			t.Fatalf("decode error is %v, want upstream_error", err)
		}
		var el ExchangeList
		if err := extract.Into([]byte(body), &el); err != nil && code(err) != envelope.UpstreamError {
			t.Fatalf("decode error is %v, want upstream_error", err)
		}
		var st Stored
		_ = extract.Into([]byte(body), &st)
	})
}

func TestDecodeV3Shapes(t *testing.T) {
	f := fake.New(fake.Options{NoRateLimit: true})
	base, stop := f.Start()
	defer stop()
	c := New(Config{APIURL: base, APIKey: "test-key", NoLimiter: true})
	sl, err := c.Symbols(context.Background(), "BINANCE", "BTC", "spot")
	if err != nil || len(sl.Payload) != 1 || sl.Payload[0].CurrencyLogo != "crypto/XTVCUSDT" || sl.Payload[0].BaseLogo != "crypto/XTVCBTC" || sl.UpdatedAt == nil {
		t.Fatalf("symbols: %+v %v", sl, err)
	}
	f.SetFault(fake.Fault{Route: fake.RouteList, Status: 200, Body: `{"updatedAt":null,"payload":null}`})
	el, err := c.Exchanges(context.Background())
	if err != nil || el.UpdatedAt != nil || el.Payload != nil {
		t.Fatalf("null fields: %+v %v", el, err)
	}
}

// TestDailyLimitAnswer: chart-img's 429 "Limit Exceeded" (its daily maximum)
// is sent once even with retries allowed, and answered rate_limited, not
// retryable, with the reset time read from the server's clock; the
// per-second "Too Many Requests" is still retried.
func TestDailyLimitAnswer(t *testing.T) {
	now := time.Date(2026, 12, 7, 13, 15, 0, 0, time.UTC)
	cases := []struct {
		name     string
		plan     chart.Plan
		message  string
		attempts int
		final    bool
		msg      string
	}{
		{"daily, plan unknown", chart.Plan{}, "Limit Exceeded", 1, true, "resets at 2026-12-08T00:00:00Z (in 10h45m0s"},
		{"daily, BASIC names the larger plans", mustPlan(t, "BASIC"), "Limit Exceeded", 1, true, "(BASIC plan: 50 a day)"},
		{"per second is retried", chart.Plan{}, "Too Many Requests", 3, false, "Too Many Requests"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := fake.New(fake.Options{NoRateLimit: true})
			base, stop := f.Start()
			defer stop()
			f.SetFault(fake.Fault{Route: fake.RouteChart, Status: 429, Message: tc.message})
			c := New(Config{APIURL: base, APIKey: "test-key", Retries: 2, RetryWait: time.Millisecond, NoLimiter: true, Plan: tc.plan,
				Now: func() time.Time { return now }})
			_, err := c.Chart(context.Background(), map[string]any{"symbol": "BINANCE:BTCUSDT"})
			var e *envelope.Error
			if !errors.As(err, &e) || e.Code != envelope.RateLimited || !strings.Contains(e.Message, tc.msg) {
				t.Fatalf("err = %v, want rate_limited containing %q", err, tc.msg)
			}
			if n := f.Count(fake.RouteChart); n != tc.attempts {
				t.Errorf("requests sent = %d, want %d", n, tc.attempts)
			}
			if !tc.final {
				return
			}
			if e.Retryable || e.RetryAfter != 10*time.Hour+45*time.Minute || e.Details["resets_at"] != "2026-12-08T00:00:00Z" {
				t.Errorf("retryable=%v retryAfter=%s details=%v", e.Retryable, e.RetryAfter, e.Details)
			}
		})
	}
}

func mustPlan(t *testing.T, name string) chart.Plan {
	t.Helper()
	p, ok := chart.PlanByName(name)
	if !ok {
		t.Fatalf("no plan %s", name)
	}
	return p
}
