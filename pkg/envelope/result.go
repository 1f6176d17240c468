package envelope

import (
	"encoding/json"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
)

// Texter lets a result choose its own text rendering; otherwise the text content
// is the compact JSON of the structured content.
type Texter interface{ Text() string }

// ExtraContenter lets a result add content blocks (an image, a resource link)
// after the text rendering.
type ExtraContenter interface{ ExtraContent() []mcp.Content }

// OK is the success result: structured content (which must match the tool's
// output schema) plus a text rendering for clients that only read text. One
// encoding serves both: the structured bytes are embedded as they are
// (RawStructuredContent) and, without a Texter, are also the text.
func OK(v any) *mcp.CallToolResult {
	b, err := json.Marshal(v)
	if err != nil {
		return Fail(New(Internal, "result could not be encoded").WithCause(err))
	}
	text := string(b)
	if t, ok := v.(Texter); ok {
		text = t.Text()
	}
	return withExtra(v, &mcp.CallToolResult{
		Content:              []mcp.Content{mcp.TextContent{Type: "text", Text: text}},
		RawStructuredContent: b,
	})
}

func withExtra(v any, res *mcp.CallToolResult) *mcp.CallToolResult {
	if x, ok := v.(ExtraContenter); ok {
		res.Content = append(res.Content, x.ExtraContent()...)
	}
	return res
}

// Fail is the error result for any error (see From).
func Fail(err error) *mcp.CallToolResult {
	body := From(err).Body()
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.TextContent{Type: "text", Text: body.text()}},
		StructuredContent: body,
		IsError:           true,
	}
}

// text renders the error for text-only clients: code, message and the retry hint
// on one line, then the details as JSON if any.
func (b Body) text() string {
	s := string(b.Code) + ": " + b.Message
	switch {
	case b.RetryAfterS != nil:
		s += " (retryable after " + strconv.FormatFloat(*b.RetryAfterS, 'f', -1, 64) + "s)"
	case b.Retryable:
		s += " (retryable)"
	}
	if d := textDetails(b.Details); len(d) > 0 {
		if j, err := json.Marshal(d); err == nil {
			s += " details=" + string(j)
		}
	}
	return s
}

// Result is the one call handlers' wrappers make: OK(v) or Fail(err).
func Result(v any, err error) *mcp.CallToolResult {
	if err != nil {
		return Fail(err)
	}
	return OK(v)
}

// textDetails is what the text block repeats of details: not "fields", whose
// sentences the message already carries (the model would read them twice).
func textDetails(d map[string]any) map[string]any {
	if _, ok := d["fields"]; !ok {
		return d
	}
	if len(d) == 1 {
		return nil
	}
	out := make(map[string]any, len(d)-1)
	for k, v := range d {
		if k != "fields" {
			out[k] = v
		}
	}
	return out
}
