package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// Exchange codes are case-insensitive: "nse" means NSE. The schemas keep the
// upper-case enums (the codes Noren uses), and every call's arguments are
// upper-cased before the schema check, so a model's "nse" or "nfo|43650"
// passes instead of failing the enum or pattern. The toolkit validates the
// raw bytes, so the normalised arguments replace them.
func caseInsensitiveExchanges(t toolkit.Tool) toolkit.Tool {
	inner := t.Handler
	t.Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := normaliseExchanges(req.GetRawArguments())
		req.Params.Arguments = args
		if m, ok := args.(map[string]any); ok {
			if b, err := json.Marshal(m); err == nil {
				req.Params.RawArguments = b
			}
		}
		return inner(ctx, req)
	}
	return t
}

// normaliseExchanges upper-cases "exchange" values and the exchange part of
// "instruments" entries (EXCHANGE|token); anything else is left as it is.
func normaliseExchanges(raw any) any {
	var args map[string]any
	switch v := raw.(type) {
	case map[string]any:
		args = v
	case json.RawMessage:
		d := json.NewDecoder(bytes.NewReader(v))
		d.UseNumber() // numbers pass through exactly as sent
		if d.Decode(&args) != nil || args == nil {
			return raw // the toolkit reports what is wrong with it
		}
	default:
		return raw
	}
	out := make(map[string]any, len(args))
	for k, v := range args {
		out[k] = v
		switch k {
		case "exchange":
			if s, ok := v.(string); ok {
				out[k] = strings.ToUpper(strings.TrimSpace(s))
			}
		case "instruments":
			if l, ok := v.([]any); ok {
				up := make([]any, len(l))
				for i, e := range l {
					up[i] = e
					if s, ok := e.(string); ok {
						if ex, tok, found := strings.Cut(s, "|"); found {
							up[i] = strings.ToUpper(strings.TrimSpace(ex)) + "|" + strings.TrimSpace(tok)
						}
					}
				}
				out[k] = up
			}
		}
	}
	return out
}
