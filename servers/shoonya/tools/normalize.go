package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
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
		if _, err := d.Token(); err != io.EOF {
			return raw // trailing bytes: not one object, so not ours to rewrite
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
				out[k] = upperIfExchange(s)
			}
		case "instruments":
			if l, ok := v.([]any); ok {
				up := make([]any, len(l))
				for i, e := range l {
					up[i] = e
					if s, ok := e.(string); ok {
						if ex, tok, found := strings.Cut(s, "|"); found {
							up[i] = upperIfExchange(ex) + "|" + strings.TrimSpace(tok)
						}
					}
				}
				out[k] = up
			}
		}
	}
	return out
}

// upperIfExchange is s upper-cased when that is an exchange code Noren
// knows; anything else stays as the caller sent it, so the schema's error
// quotes the caller's own text.
func upperIfExchange(s string) string {
	switch u := strings.ToUpper(strings.TrimSpace(s)); u {
	case "NSE", "BSE", "NFO", "BFO", "CDS", "BCD", "MCX", "NCX":
		return u
	}
	return s
}
