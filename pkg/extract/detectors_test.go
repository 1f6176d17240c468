package extract

import (
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

type detectCase struct {
	name      string
	status    int
	body      string
	code      envelope.Code // "" = no error expected
	sub       string        // substring of the message
	retryable bool
}

func runDetectCases(t *testing.T, d Detector, tests []detectCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := d(tt.status, []byte(tt.body))
			if tt.code == "" {
				if e != nil {
					t.Fatalf("unexpected error %v", e)
				}
				return
			}
			if e == nil {
				t.Fatalf("no error detected, want %s", tt.code)
			}
			if e.Code != tt.code {
				t.Errorf("code = %s, want %s (%q)", e.Code, tt.code, e.Message)
			}
			if !strings.Contains(e.Message, tt.sub) {
				t.Errorf("message %q does not contain %q", e.Message, tt.sub)
			}
			if e.Retryable != tt.retryable {
				t.Errorf("retryable = %v, want %v", e.Retryable, tt.retryable)
			}
		})
	}
}

func TestSuccessFalse(t *testing.T) {
	runDetectCases(t, SuccessFalse, []detectCase{
		{"success true", 200, `{"success":true,"data":[]}`, "", "", false},
		{"no success field", 200, `{"data":[]}`, "", "", false},
		{"array", 200, `[{"success":false}]`, "", "", false},
		{"string error in 200", 200, `{"success":false,"error":"strategy not loaded"}`, envelope.UpstreamError, "strategy not loaded", false},
		{"object error by upstream code", 200, `{"success":false,"error":{"code":"DATA_NOT_FOUND","message":"No data for AAPL 1h"}}`,
			envelope.NotFound, "No data for AAPL 1h", false},
		{"status wins", 503, `{"success":false,"error":{"code":"CONNECTION_ERROR","message":"IB gateway down"}}`,
			envelope.UpstreamUnavailable, "IB gateway down", true},
		{"data error 400", 400, `{"success":false,"error":{"code":"DATA_ERROR","message":"bad dates"}}`, envelope.InvalidArgument, "bad dates", false},
		{"HEAD validation", 422, `{"success":false,"error":{"code":"VALIDATION_ERROR","message":"Request validation failed","details":[{"field":"body -> mode","message":"Input should be 'local'","type":"literal_error"}]}}`,
			envelope.InvalidArgument, "Request validation failed: body -> mode: Input should be 'local'", false},
		{"no reason", 200, `{"success":false}`, envelope.UpstreamError, "without a reason", false},
		{"processing 500", 500, `{"success":false,"error":{"code":"PROCESSING_ERROR","message":"boom"}}`, envelope.UpstreamError, "boom", true},
	})
	e := SuccessFalse(200, []byte(`{"success":false,"error":{"code":"DATA_NOT_FOUND","message":"x"}}`))
	if e.Details["upstream_code"] != "DATA_NOT_FOUND" {
		t.Errorf("details = %v", e.Details)
	}
}

func TestFastAPI(t *testing.T) {
	runDetectCases(t, FastAPI, []detectCase{
		{"2xx ignored", 200, `{"detail":"x"}`, "", "", false},
		{"no detail", 404, `{"message":"x"}`, "", "", false},
		{"not json", 502, `<html>bad gateway</html>`, "", "", false},
		{"operation not found", 404, `{"detail":"Operation not found: op_x"}`, envelope.NotFound, "Operation not found: op_x", false},
		{"not found text on 400", 400, `{"detail":"Operation not found: op_x"}`, envelope.NotFound, "op_x", false},
		{"cannot be cancelled", 400, `{"detail":"Operation op_1 cannot be cancelled (status: completed)"}`, envelope.Conflict, "cannot be cancelled (status: completed)", false},
		{"not finished", 400, `{"detail":"Operation not finished (status: running)"}`, envelope.Conflict, "not finished", false},
		{"plain 400", 400, `{"detail":"Invalid date range"}`, envelope.InvalidArgument, "Invalid date range", false},
		{"409", 409, `{"detail":"Training already in progress"}`, envelope.Conflict, "Training already", false},
		{"503 no workers", 503, `{"detail":"No training workers available"}`, envelope.UpstreamUnavailable, "No training workers", true},
		{"500 dict detail", 500, `{"detail":{"message":"indicator registry failed","error":"x"}}`, envelope.UpstreamError, "indicator registry failed", true},
		{"422 list", 422, `{"detail":[{"type":"literal_error","loc":["body","mode"],"msg":"Input should be 'local', 'tail', 'backfill' or 'full'","input":"ib"},{"type":"missing","loc":["body","symbols",0],"msg":"Field required"}]}`,
			envelope.InvalidArgument, "invalid arguments: body.mode: Input should be 'local', 'tail', 'backfill' or 'full'; body.symbols.0: Field required", false},
		{"422 empty list", 422, `{"detail":[]}`, envelope.InvalidArgument, "rejected", false},
	})
	e := FastAPI(422, []byte(`{"detail":[{"loc":["query","limit"],"msg":"too big","type":"less_than_equal","input":"SECRET-INPUT"}]}`))
	fields, _ := e.Details["fields"].([]map[string]any)
	if len(fields) != 1 || fields[0]["field"] != "query.limit" || fields[0]["type"] != "less_than_equal" || e.Details["field"] != "query.limit" {
		t.Errorf("details = %#v", e.Details)
	}
	if strings.Contains(e.Message, "SECRET-INPUT") {
		t.Error("input values must not be copied into messages")
	}
}

func TestNoren(t *testing.T) {
	runDetectCases(t, Noren, []detectCase{
		{"ok object", 200, `{"stat":"Ok","lp":"118.55"}`, "", "", false},
		{"list", 200, `[{"stat":"Ok","norenordno":"1"}]`, "", "", false},
		{"no data", 200, `{"stat":"Not_Ok","emsg":"Error Occurred : 5 \"no data\""}`, "", "", false},
		{"No Data search", 200, `{"stat":"Not_Ok","emsg":"No Data :  "}`, "", "", false},
		{"session expired", 200, `{"stat":"Not_Ok","emsg":"Session Expired : Invalid Session Key"}`, envelope.Unauthenticated, "Session Expired : Invalid Session Key; log in again", false},
		{"wrong password", 200, `{"stat":"Not_Ok","emsg":"Invalid Input : Wrong Password"}`, envelope.Unauthenticated, "Wrong Password", false},
		{"invalid otp", 200, `{"stat":"Not_Ok","emsg":"Invalid Input : Invalid OTP"}`, envelope.Unauthenticated, "Invalid OTP", false},
		{"vendor code 400", 400, `{"stat":"Not_Ok","emsg":"Invalid Input :  Invalid Vendor code"}`, envelope.Unauthenticated, "Invalid Vendor code", false},
		{"not enabled", 200, `{"stat":"Not_Ok","emsg":"Invalid Input : User Not enabled on : API"}`, envelope.PermissionDenied, "User Not enabled", false},
		{"api only", 200, `{"stat":"Not_Ok","emsg":"Access Restricted for API Only Users"}`, envelope.PermissionDenied, "Access Restricted", false},
		{"order not found", 200, `{"stat":"Not_Ok","emsg":"Rejected : ORA:Order not found to Cancel"}`, envelope.NotFound, "Order not found to Cancel", false},
		{"invalid input", 200, `{"stat":"Not_Ok","emsg":"Error Occurred : 2 \"invalid input\""}`, envelope.InvalidArgument, "invalid input", false},
		{"missing uid", 200, `{"stat":"Not_Ok","emsg":"Invalid Input : Missing uid or actid or prd."}`, envelope.InvalidArgument, "Missing uid", false},
		{"server timeout", 200, `{"stat":"Not_Ok","emsg":"Server Timeout :  "}`, envelope.UpstreamUnavailable, "Server Timeout", true},
		{"other reject", 200, `{"stat":"Not_Ok","emsg":"Rejected : RED:Margin Shortfall"}`, envelope.UpstreamError, "Margin Shortfall", false},
		{"no emsg", 200, `{"stat":"Not_Ok"}`, envelope.UpstreamError, "without a reason", false},
		{"403 empty", 403, ``, envelope.Unauthenticated, "log in again", false},
		{"429 empty", 429, ``, envelope.RateLimited, "rate limit", true},
		{"429 json", 429, `{"stat":"Not_Ok","emsg":"Too many requests"}`, envelope.RateLimited, "Too many", true},
	})
	if !NorenNoData([]byte(`{"stat":"Not_Ok","emsg":"Error Occurred : 5 \"no data\""}`)) || NorenNoData([]byte(`[]`)) {
		t.Error("NorenNoData")
	}
}

func TestChartImg(t *testing.T) {
	runDetectCases(t, ChartImg, []detectCase{
		{"png 200", 200, "\x89PNG\r\n", "", "", false},
		{"401", 401, `{"message":"Invalid Request"}`, envelope.Unauthenticated, "set CHART_IMG_API_KEY", false},
		{"403 forbidden", 403, `{"message":"Forbidden"}`, envelope.Unauthenticated, "set CHART_IMG_API_KEY", false},
		{"403 resolution", 403, `{"message":"Exceed Max Usage Resolution Limit (800x600)"}`, envelope.PermissionDenied, "Exceed Max Usage Resolution Limit (800x600)", false},
		{"403 params", 403, `{"message":"Exceed Max Usage Parameter Limit (3)"}`, envelope.PermissionDenied, "studies+drawings", false},
		{"403 layout", 403, `{"message":"Layout Forbidden"}`, envelope.PermissionDenied, "Layout Forbidden", false},
		{"409", 409, `{"message":"Session Disconnected"}`, envelope.Conflict, "Session Disconnected", false},
		{"422 array", 422, `[{"value":"INVALID","msg":"must be a valid tradingview EXCHANGE:SYMBOL","param":"symbol","location":"body"},{"value":"INVALID","msg":"must be a supported interval","param":"interval","location":"body"}]`,
			envelope.InvalidArgument, "symbol: must be a valid tradingview EXCHANGE:SYMBOL; interval: must be a supported interval", false},
		{"422 message", 422, `{"message":"Invalid Symbol"}`, envelope.InvalidArgument, "Invalid Symbol", false},
		{"v1 errors", 422, `{"errors":[{"value":"x","msg":"bad","param":"studies","location":"query"}]}`, envelope.InvalidArgument, "studies: bad", false},
		{"v1 error", 422, `{"error":"Invalid symbol."}`, envelope.InvalidArgument, "Invalid symbol.", false},
		{"429", 429, `{"message":"Too Many Requests"}`, envelope.RateLimited, "Too Many Requests", true},
		{"429 daily", 429, `{"message":"Limit Exceeded"}`, envelope.RateLimited, "daily limit", true},
		{"500", 500, `{"message":"Something Went Wrong"}`, envelope.UpstreamError, "Something Went Wrong", true},
		{"504", 504, `{"message":"External Request Timeout"}`, envelope.UpstreamUnavailable, "External Request Timeout", true},
		{"html 502", 502, `<html></html>`, "", "", false},
	})
}

func TestGeneric(t *testing.T) {
	runDetectCases(t, Generic, []detectCase{
		{"polymarket", 400, `{"error":"Invalid token id"}`, envelope.InvalidArgument, "Invalid token id", false},
		{"openai", 401, `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error"}}`, envelope.Unauthenticated, "Incorrect API key", false},
		{"2xx", 200, `{"error":"x"}`, "", "", false},
		{"no message", 500, `{"foo":1}`, "", "", false},
	})
}

func TestDetectOrderAndPanics(t *testing.T) {
	if err := Detect(200, []byte(`{"success":true}`), SuccessFalse, FastAPI); err != nil {
		t.Fatalf("Detect on success = %v (a typed nil?)", err)
	}
	err := Detect(404, []byte(`{"detail":"Operation not found: op_1"}`), nil, SuccessFalse, FastAPI)
	wantErr(t, err, envelope.NotFound, "op_1")
	boom := func(int, []byte) *envelope.Error { panic("boom") }
	wantErr(t, Detect(200, nil, boom), envelope.UpstreamError, "could not be read")
}

func TestClipAndLongMessages(t *testing.T) {
	long := strings.Repeat("x", 5000)
	e := FastAPI(400, []byte(`{"detail":"`+long+`"}`))
	if n := len([]rune(e.Message)); n > MaxUpstreamText+1 {
		t.Errorf("message has %d runes", n)
	}
	if got := Clip("a\n\tb   c\x00d", 100); got != "a b c d" {
		t.Errorf("Clip = %q", got)
	}
	if got := Clip("héllo wörld", 5); got != "héllo…" {
		t.Errorf("Clip = %q", got)
	}
	if got := Clip("\xff\xfe ok", 10); !strings.Contains(got, "ok") {
		t.Errorf("Clip = %q", got)
	}
}

func TestErrorForStatus(t *testing.T) {
	tests := []struct {
		status int
		code   envelope.Code
		retry  bool
	}{
		{400, envelope.InvalidArgument, false}, {401, envelope.Unauthenticated, false},
		{403, envelope.PermissionDenied, false}, {404, envelope.NotFound, false},
		{409, envelope.Conflict, false}, {422, envelope.InvalidArgument, false},
		{429, envelope.RateLimited, true}, {500, envelope.UpstreamError, true},
		{501, envelope.UpstreamError, true}, {502, envelope.UpstreamUnavailable, true},
		{503, envelope.UpstreamUnavailable, true}, {504, envelope.UpstreamUnavailable, true},
		{418, envelope.UpstreamError, false}, {200, envelope.UpstreamError, false},
	}
	for _, tt := range tests {
		e := ErrorForStatus(tt.status, "m")
		if e.Code != tt.code || e.Retryable != tt.retry {
			t.Errorf("%d → %s/%v, want %s/%v", tt.status, e.Code, e.Retryable, tt.code, tt.retry)
		}
	}
}

func TestCut(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"line one\nline two", 8, "line one…"},
		{"紫微星在命宫", 2, "紫微…"},
		{"ab\ncd", 4, "ab\nc…"},
		{"", 3, ""},
	}
	for _, tc := range tests {
		if got := Cut(tc.in, tc.n); got != tc.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
