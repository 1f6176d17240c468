package envelope

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestFromMapsErrors(t *testing.T) {
	typed := New(NotFound, "no operation op_1; list_operations shows them")
	cases := []struct {
		name      string
		err       error
		code      Code
		retryable bool
		msg       string
	}{
		{"typed", typed, NotFound, false, "no operation"},
		{"wrapped typed", fmt.Errorf("client: %w", typed), NotFound, false, "no operation"},
		{"deadline", fmt.Errorf("get: %w", context.DeadlineExceeded), Timeout, true, "deadline"},
		{"cancelled", context.Canceled, Timeout, true, "cancelled"},
		{"plain", errors.New("nil map write at 0xdeadbeef"), Internal, false, "internal error"},
		{"rate", New(RateLimited, "slow down").WithRetryAfter(2 * time.Second), RateLimited, true, "slow down"},
		{"override", New(UpstreamError, "bad body").WithRetryable(true), UpstreamError, true, "bad body"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := From(tc.err)
			if e.Code != tc.code || e.Retryable != tc.retryable || !strings.Contains(e.Message, tc.msg) {
				t.Fatalf("got %+v", e)
			}
			if tc.code == Internal && strings.Contains(e.Message, "deadbeef") {
				t.Fatal("internal detail leaked into the message")
			}
		})
	}
	if From(nil) != nil {
		t.Fatal("From(nil) must be nil")
	}
}

func TestFailShape(t *testing.T) {
	res := Fail(Invalid("limit", "limit must be 1..500, got %d", 900).WithRetryAfter(1500 * time.Millisecond))
	if !res.IsError {
		t.Fatal("not an error result")
	}
	b, _ := json.Marshal(res.StructuredContent)
	var got map[string]any
	_ = json.Unmarshal(b, &got)
	if got["code"] != "invalid_argument" || got["retry_after_s"] != 1.5 || got["retryable"] != true ||
		got["details"].(map[string]any)["field"] != "limit" {
		t.Fatalf("body %s", b)
	}
	text := res.Content[0].(mcp.TextContent).Text
	if !strings.HasPrefix(text, "invalid_argument: limit must be 1..500") || !strings.Contains(text, "retryable after 1.5s") {
		t.Fatalf("text %q", text)
	}
}

type texty struct{ N int }

func (texty) Text() string { return "custom" }

type withImage struct{ N int }

func (withImage) ExtraContent() []mcp.Content {
	return []mcp.Content{mcp.NewImageContent("AAAA", "image/png")}
}

func TestOKShape(t *testing.T) {
	cases := []struct {
		name  string
		v     any
		text  string
		parts int
	}{
		{"json", map[string]int{"n": 1}, `{"n":1}`, 1},
		{"texter", texty{1}, "custom", 1},
		{"image", withImage{1}, `{"N":1}`, 2},
	}
	for _, tc := range cases {
		res := OK(tc.v)
		if res.IsError || len(res.Content) != tc.parts || res.Content[0].(mcp.TextContent).Text != tc.text {
			t.Errorf("%s: %+v", tc.name, res)
		}
	}
	if res := OK(func() {}); !res.IsError {
		t.Error("an unencodable value must become an internal error")
	}
}

// A typical result: a list of 20 rows of a few fields, as list tools return.
type row struct {
	ID       string  `json:"id"`
	Status   string  `json:"status"`
	Progress float64 `json:"progress"`
	Symbol   string  `json:"symbol"`
}

type typical struct {
	Items         []row `json:"items"`
	TotalCount    int   `json:"total_count"`
	ReturnedCount int   `json:"returned_count"`
}

func BenchmarkEnvelopeOKTypical(b *testing.B) {
	v := typical{TotalCount: 20, ReturnedCount: 20}
	for i := range 20 {
		v.Items = append(v.Items, row{ID: fmt.Sprintf("op_%d", i), Status: "running", Progress: 42.5, Symbol: "AAPL"})
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = OK(v)
	}
}

func BenchmarkEnvelopeFail(b *testing.B) {
	err := fmt.Errorf("wrap: %w", New(RateLimited, "upstream limit hit").WithRetryAfter(3*time.Second))
	b.ReportAllocs()
	for b.Loop() {
		_ = Fail(err)
	}
}

// textAnswer chooses its own text rendering.
type textAnswer struct {
	N int `json:"n"`
}

func (c textAnswer) Text() string { return fmt.Sprintf("n is %d", c.N) }

func TestOKEncoding(t *testing.T) {
	// The structured bytes are embedded as they are, the text is the Texter's.
	if res := OK(textAnswer{N: 7}); string(res.RawStructuredContent) != `{"n":7}` || res.Content[0].(mcp.TextContent).Text != "n is 7" || res.IsError {
		t.Errorf("Texter: %#v", res)
	}
	// A non-Texter's text is the very same JSON as its structured content.
	res := OK(map[string]int{"n": 1})
	if string(res.RawStructuredContent) != `{"n":1}` || res.Content[0].(mcp.TextContent).Text != `{"n":1}` {
		t.Errorf("one encoding for structured and text: %#v", res)
	}
	wire, _ := json.Marshal(res)
	if !strings.Contains(string(wire), `"structuredContent":{"n":1}`) {
		t.Errorf("the transport must embed the JSON as is: %s", wire)
	}
	// An unencodable value is an internal error, not a panic.
	if res := OK(func() {}); !res.IsError {
		t.Errorf("unencodable value: %#v", res)
	}
}
