package noren

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

func TestBodyEncoding(t *testing.T) {
	b, err := Body(map[string]any{"uid": "FA12345", "tsym": "M&M-EQ"}, "tok123")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b, `jData={`) || !strings.HasSuffix(b, `}&jKey=tok123`) || strings.Count(b, "&") != 1 {
		t.Fatalf("legacy body %q", b)
	}
	if !strings.Contains(b, `M\u0026M-EQ`) {
		t.Fatalf("& must be escaped inside the JSON: %q", b)
	}
	b, _ = Body(map[string]any{"uid": "FA12345"}, "")
	if strings.Contains(b, "jKey") {
		t.Fatalf("oauth/login body has jKey: %q", b)
	}
	if QuoteSymbol("M&M-EQ") != "M%26M-EQ" {
		t.Fatalf("quote_plus: %s", QuoteSymbol("M&M-EQ"))
	}
	// Known SHA-256 of "abc".
	if SHA256Hex("abc") != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Fatal("sha256")
	}
	if AppKey("FA1", "s") != SHA256Hex("FA1|s") || OAuthChecksum("c", "s", "x") != SHA256Hex("csx") {
		t.Fatal("derived hashes")
	}
}

func TestTOTP(t *testing.T) {
	// RFC 6238 test vector (SHA1, 8 digits "94287082" at t=59) → 6 digits "287082".
	code, err := TOTP("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", time.Unix(59, 0))
	if err != nil || code != "287082" {
		t.Fatalf("totp %q %v", code, err)
	}
	if _, err := TOTP("not base32 !!", time.Now()); err == nil || strings.Contains(err.Error(), "not base32") {
		t.Fatalf("bad secret: %v", err)
	}
}

func TestDecodeList(t *testing.T) {
	cases := []struct {
		name    string
		body    string
		n       int
		code    envelope.Code
		wantErr bool
	}{
		{"array", `[{"stat":"Ok","norenordno":"1","qty":"5","prc":"10.50"},{"stat":"Ok","norenordno":"2"}]`, 2, "", false},
		{"no data", `{"stat":"Not_Ok","emsg":"Error Occurred : 5 \"no data\""}`, 0, "", false},
		{"search no data", `{"stat":"Not_Ok","emsg":"No Data :  "}`, 0, "", false},
		{"empty array", `[]`, 0, "", false},
		{"refused element", `[{"stat":"Not_Ok"},{"stat":"Ok","norenordno":"3"}]`, 0, envelope.UpstreamError, true},
		{"session expired", `{"stat":"Not_Ok","emsg":"Session Expired : Invalid Session Key"}`, 0, envelope.Unauthenticated, true},
		{"malformed", `[{"stat":"Ok",`, 0, envelope.UpstreamError, true},
		{"html", `<html>502</html>`, 0, envelope.UpstreamError, true},
		{"bad number", `[{"stat":"Ok","qty":"five"}]`, 0, envelope.UpstreamError, true},
		{"values wrapper", `{"stat":"Ok","values":[{"norenordno":"9"}]}`, 1, "", false},
		// Only "no data" is empty: any other Not_Ok is a refusal, never "no rows".
		{"unpublished emsg", `{"stat":"Not_Ok","emsg":"Error Occurred : 7 \"whatever\""}`, 0, envelope.UpstreamError, true},
		{"no stat text", `{"stat":"Not_Ok"}`, 0, envelope.UpstreamError, true},
		{"holdings sample", `{"stat":"Not_Ok","emsg":"Invalid Input : Missing uid or actid or prd."}`, 0, envelope.InvalidArgument, true},
		{"openalgo jData", `{"stat":"Not_Ok","emsg":"Invalid Input : jData is not valid json object"}`, 0, envelope.InvalidArgument, true},
		{"server timeout", `{"stat":"Not_Ok","emsg":"Server Timeout :  "}`, 0, envelope.UpstreamUnavailable, true},
		{"api not enabled", `{"stat":"Not_Ok","emsg":"Invalid Input : User Not enabled on : API"}`, 0, envelope.PermissionDenied, true},
		{"rate limited", `{"stat":"Not_Ok","emsg":"Too Many Requests"}`, 0, envelope.RateLimited, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := DecodeList[Order]("OrderBook", []byte(c.body))
			if (err != nil) != c.wantErr {
				t.Fatalf("err %v", err)
			}
			if err != nil {
				if e := envelope.From(err); e.Code != c.code {
					t.Fatalf("code %s want %s", e.Code, c.code)
				}
				return
			}
			if len(got) != c.n || got == nil {
				t.Fatalf("got %d (%v)", len(got), got)
			}
		})
	}
	if _, err := DecodeList[Order]("OrderBook", []byte(`[{"stat":"Ok","remarks":{"a":1}}]`)); err == nil || err.Error() == "" {
		t.Fatal("object in a text field accepted")
	}
	o, _ := DecodeList[Order]("OrderBook", []byte(`[{"stat":"Ok","qty":"5","prc":"10.50","remarks":null,"trgprc":"None"}]`))
	if o[0].Qty != 5 || o[0].Price != 10.5 || o[0].Remarks != "" || o[0].Trigger != 0 {
		t.Fatalf("numbers as strings: %+v", o[0])
	}
}

func TestEmsgMapping(t *testing.T) {
	cases := map[string]envelope.Code{
		"Invalid Input : Wrong Password":            envelope.Unauthenticated,
		"Invalid Input : Invalid OTP":               envelope.Unauthenticated,
		"Invalid Input :  Invalid Vendor code":      envelope.Unauthenticated,
		"Invalid Input : User Not enabled on : API": envelope.PermissionDenied,
		"Invalid Input : INVALID_VERIFIER":          envelope.Unauthenticated,
		"Rejected : ORA:Order not found":            envelope.NotFound,
		"Rejected : ORA:Order not found to Cancel":  envelope.NotFound,
		"Server Timeout :  ":                        envelope.UpstreamUnavailable,
		`Error Occurred : 2 "invalid input"`:        envelope.InvalidArgument,
		"Session Expired : Invalid Session Key":     envelope.Unauthenticated,
		"Access Restricted for API Only Users":      envelope.PermissionDenied,
		"something new":                             envelope.UpstreamError,
	}
	for emsg, want := range cases {
		e := EmsgError("Op", emsg)
		if e.Code != want || e.Details["broker_message"] != extract.Clip(emsg, extract.MaxUpstreamText) {
			t.Errorf("%q → %s %v, want %s", emsg, e.Code, e.Details, want)
		}
	}
	if !IsSessionExpired(EmsgError("Op", "Session Expired : Invalid Session Key")) {
		t.Error("session expiry sentinel")
	}
}

func TestEODStrings(t *testing.T) {
	body := `["{\"time\":\"21-SEP-2022\",\"into\":\"2496.75\",\"inth\":\"2533.00\",\"intl\":\"2495.00\",\"intc\":\"2509.75\",\"ssboe\":\"1663718400\",\"intv\":\"4249172.00\"}"]`
	got, err := DecodeJSONStrings[Candle]("EODChartData", []byte(body))
	if err != nil || len(got) != 1 || got[0].Close != 2509.75 || got[0].SSBoE != "1663718400" {
		t.Fatalf("%+v %v", got, err)
	}
	if _, err := DecodeJSONStrings[Candle]("EODChartData", []byte(`["{not json"]`)); err == nil {
		t.Fatal("broken element accepted")
	}
}

// TestTransportNeverRetriesOrders: a 502 on PlaceOrder is sent once and
// reported as outcome_unknown; a read is retried.
func TestTransportNeverRetriesOrders(t *testing.T) {
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		hits[r.URL.Path]++
		if r.Header.Get("Authorization") != "Bearer tok" || strings.Contains(string(b), "jKey") {
			t.Errorf("oauth request without Bearer or with jKey: %q", b)
		}
		w.WriteHeader(502)
	}))
	defer srv.Close()
	c := New(Config{Era: OAuth, RESTURL: srv.URL + "/NorenWClientAPI/", Timeout: 3 * time.Second})
	a := &Auth{Era: OAuth, UID: "U", ActID: "U", Token: "tok"}
	_, err := c.PlaceOrder(context.Background(), a, OrderRequest{TranType: "B", Product: "C", Exch: "NSE", TSym: "X-EQ", Qty: 1, PriceType: "LMT", Price: 1, Retention: "DAY", Remarks: "k1"})
	if e := envelope.From(err); e.Code != envelope.OutcomeUnknown {
		t.Fatalf("place: %v", err)
	}
	if hits["/NorenWClientAPI/PlaceOrder"] != 1 {
		t.Fatalf("PlaceOrder sent %d times", hits["/NorenWClientAPI/PlaceOrder"])
	}
	_, err = c.OrderBook(context.Background(), a)
	if e := envelope.From(err); e.Code != envelope.UpstreamUnavailable || hits["/NorenWClientAPI/OrderBook"] != 3 {
		t.Fatalf("order book: %v after %d attempts", err, hits["/NorenWClientAPI/OrderBook"])
	}
}

func FuzzDecodeList(f *testing.F) {
	for _, s := range []string{`[{"stat":"Ok","qty":"5"}]`, `{"stat":"Not_Ok","emsg":"x"}`, `{"stat":"Ok","values":[]}`, `[`, `"s"`, `[1,"a",null]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, err := range []error{second(DecodeList[Order]("OrderBook", b)), second(DecodeList[Holding]("Holdings", b)), second(DecodeList[Scrip]("SearchScrip", b))} {
			if err != nil && err.Error() == "" { // printing must not panic either
				t.Fatal("empty error text")
			}
		}
	})
}

func FuzzDecodeObject(f *testing.F) {
	for _, s := range []string{`{"stat":"Ok","lp":"1.5","bp1":2}`, `{"stat":"Not_Ok","emsg":"Session Expired : Invalid Session Key"}`, `{}`, `{"stat":"Ok","lp":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var q Quote
		var l LoginResult
		var lim Limits
		for _, err := range []error{DecodeObject("GetQuotes", b, &q), DecodeObject("QuickAuth", b, &l), DecodeObject("Limits", b, &lim)} {
			if err != nil && err.Error() == "" {
				t.Fatal("empty error text")
			}
		}
	})
}

func FuzzDecodeJSONStrings(f *testing.F) {
	f.Add([]byte(`["{\"time\":\"21-SEP-2022\",\"into\":\"1\"}"]`))
	f.Add([]byte(`[{"time":"x"}]`))
	f.Add([]byte(`{"stat":"Not_Ok","emsg":"no data"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := DecodeJSONStrings[Candle]("EODChartData", b); err != nil && err.Error() == "" {
			t.Fatal("empty error text")
		}
	})
}

func FuzzNum(f *testing.F) {
	for _, s := range []string{`"1.5"`, `2`, `null`, `""`, `"None"`, `"x"`, `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var n Num
		if n.UnmarshalJSON(b) == nil {
			_, _ = json.Marshal(float64(n))
		}
		var s Str
		_ = s.UnmarshalJSON(b)
	})
}

// TestLimiterRefusesBeforeSending: when the account's budget cannot be had
// within the deadline, nothing is sent and the answer is rate_limited.
func TestLimiterRefusesBeforeSending(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = io.WriteString(w, `[]`)
	}))
	defer srv.Close()
	c := New(Config{Era: Legacy, RESTURL: srv.URL + "/NorenWClientTP/", Timeout: 300 * time.Millisecond, OrderTimeout: 300 * time.Millisecond, Limiter: Limiter(1, 0)})
	a := &Auth{Era: Legacy, UID: "U", ActID: "U", Token: "tok"}
	if _, err := c.OrderBook(context.Background(), a); err != nil {
		t.Fatal(err)
	}
	_, err := c.PlaceOrder(context.Background(), a, OrderRequest{TranType: "B", Product: "C", Exch: "NSE", TSym: "X-EQ", Qty: 1, PriceType: "LMT", Price: 1, Retention: "DAY", Remarks: "k"})
	if e := envelope.From(err); e.Code != envelope.RateLimited || e.RetryAfter <= 0 || hits.Load() != 1 {
		t.Fatalf("err %v after %d requests", err, hits.Load())
	}
}

func second[T any](_ T, err error) error { return err }

// TestAmpersandSymbolsEveryRoute: a trading symbol with '&' goes out the same
// way on every route that carries one (quote_plus'd, as NorenApi.py does for
// tsym and stext), and never as a raw '&' that would cut the body at &jKey.
func TestAmpersandSymbolsEveryRoute(t *testing.T) {
	bodies := map[string]string{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies[r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]] = string(b)
		_, _ = io.WriteString(w, `{"stat":"Ok","norenordno":"1","result":"1","values":[]}`)
	}))
	defer srv.Close()
	c := New(Config{Era: Legacy, RESTURL: srv.URL + "/NorenWClientTP/"})
	a := &Auth{Era: Legacy, UID: "U", ActID: "U", Token: "tok"}
	ctx := context.Background()
	_, _ = c.PlaceOrder(ctx, a, OrderRequest{TranType: "B", Product: "C", Exch: "NSE", TSym: "M&M-EQ", Qty: 1, PriceType: "LMT", Price: 3000, Retention: "DAY"})
	_, _ = c.ModifyOrder(ctx, a, ModifyRequest{OrderNo: "1", Exch: "NSE", TSym: "M&M-EQ", Qty: 1, PriceType: "LMT", Price: 3000})
	_, _ = c.SearchScrip(ctx, a, "NSE", "M&M")
	_, _ = c.GetOptionChain(ctx, a, "NFO", "M&M25NOV26F", 3000, 2)
	_, _ = c.EODChartData(ctx, a, "NSE:M&M-EQ", 1, 2)
	for route, want := range map[string]string{"PlaceOrder": `"tsym":"M%26M-EQ"`, "ModifyOrder": `"tsym":"M%26M-EQ"`,
		"SearchScrip": `"stext":"M%26M"`, "GetOptionChain": `"tsym":"M%26M25NOV26F"`, "EODChartData": `"sym":"NSE:M\u0026M-EQ"`} {
		b := bodies[route]
		if !strings.Contains(b, want) || strings.Count(b, "&") != 1 {
			t.Errorf("%s: want %s and one '&' (before jKey): %s", route, want, b)
		}
	}
}

// TestPriceFormatting: prices go out with the instrument's decimals, and the
// zero value never rounds a price away.
func TestPriceFormatting(t *testing.T) {
	for _, c := range []struct {
		p    float64
		d    int
		want string
	}{{800.1, 2, "800.10"}, {800.1, 0, "800.1"}, {1505, 2, "1505.00"}, {0.0025, 4, "0.0025"}, {76.1234, 4, "76.1234"}} {
		if got := FormatPrice(c.p, c.d); got != c.want {
			t.Errorf("FormatPrice(%v, %d) = %s, want %s", c.p, c.d, got, c.want)
		}
	}
}
