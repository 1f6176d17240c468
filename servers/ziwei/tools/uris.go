package tools

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/astro"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/chartid"
)

// Resource URIs come raw (ziwei://stars/紫微, as the template's description
// and people write them: an IRI, RFC 3987) or percent-encoded
// (ziwei://stars/%E7%B4%AB%E5%BE%AE, the URI form of the same IRI, RFC 3987
// §3.1). mcp-go matches templates against the text as sent, and its
// template expressions take only unreserved and percent-encoded characters
// (RFC 6570 §3.2.1), so a raw name matched nothing ("resource not found").
// encodeIRI turns the raw form into the encoded one before matching; the
// handlers decode either, and answer with the URI as it was asked
// (askedURI): a client matches the contents to its request by that text.
func encodeIRI(_ context.Context, _ any, req *mcp.ReadResourceRequest) {
	enc := iriToURI(req.Params.URI)
	if enc == req.Params.URI {
		return
	}
	if req.Params.Meta == nil {
		req.Params.Meta = &mcp.Meta{}
	}
	if req.Params.Meta.AdditionalFields == nil {
		req.Params.Meta.AdditionalFields = map[string]any{}
	}
	req.Params.Meta.AdditionalFields[askedURIKey] = req.Params.URI
	req.Params.URI = enc
}

// askedURIKey holds, in the request's _meta, the URI before encodeIRI
// encoded it (a key of this server's own: nothing else reads it).
const askedURIKey = "mcpfleet/asked-uri"

// askedURI is the URI of req as the client sent it.
func askedURI(req mcp.ReadResourceRequest) string {
	if m := req.Params.Meta; m != nil {
		if s, ok := m.AdditionalFields[askedURIKey].(string); ok {
			return s
		}
	}
	return req.Params.URI
}

// iriToURI percent-encodes every byte outside ASCII (and spaces), leaving
// what is already encoded as it is.
func iriToURI(s string) string {
	i := 0
	for i < len(s) && s[i] < 0x80 && s[i] != ' ' {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) * 2)
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || c == ' ' {
			fmt.Fprintf(&b, "%%%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

const (
	chartPrefix = "ziwei://chart/"
	starsPrefix = "ziwei://stars/"
)

// chartURI reads ziwei://chart/{chart_id}{?language}.
func chartURI(uri string) (id, lang string) {
	rest := strings.TrimPrefix(uri, chartPrefix)
	rest, query, _ := strings.Cut(rest, "?")
	id, _ = url.PathUnescape(rest)
	if q, err := url.ParseQuery(query); err == nil {
		lang = q.Get("language")
	}
	return id, lang
}

// starURI reads the name of ziwei://stars/{name}, raw or encoded.
func starURI(uri string) string {
	name := strings.TrimPrefix(uri, starsPrefix)
	if un, err := url.PathUnescape(name); err == nil {
		name = un
	}
	return name
}

// checkResourceURI refuses what no read of it can answer — a malformed or
// mistyped chart_id, an unknown language, an unknown star — so that the
// client hears invalid params (-32602), not an internal error.
func checkResourceURI(uri string) error {
	uri = iriToURI(uri)
	switch {
	case strings.HasPrefix(uri, chartPrefix):
		id, lang := chartURI(uri)
		if strings.TrimSpace(id) == "" {
			return fmt.Errorf("chart_id is missing from %s: use ziwei://chart/{chart_id} with the chart_id initialize_chart returned", extract.Clip(uri, 32))
		}
		if _, _, err := chartid.DecodeWith(id); err != nil {
			return fmt.Errorf("chart_id %q: %v: use the chart_id initialize_chart returned", extract.Clip(id, 32), err)
		}
		if _, err := parseLang(lang); err != nil {
			return fmt.Errorf("language %q: use one of %s", extract.Clip(lang, 32), astro.LangCodes)
		}
	case strings.HasPrefix(uri, starsPrefix):
		if name := starURI(uri); name != "" {
			if _, ok := astro.StarByName(name); !ok {
				return fmt.Errorf("unknown star %q: read ziwei://stars for the 70 names (Chinese, English or pinyin)", extract.Clip(name, 32))
			}
		}
	}
	return nil
}
