package fake

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Scenario names. Success scenarios answer 200 with a response object; error
// scenarios answer the status and body of OpenAI's error-code guide
// (help.openai.com/en/articles/6891839-api-error-code-guidance) with the
// headers of platform.openai.com/docs/guides/rate-limits.
const (
	Completed      = "completed"       // reasoning + searches + message, non-ASCII before citations, utm URLs, a duplicate, 9 sources (testdata/contract/gpt-5-mini-2025-12.json)
	Plain          = "plain"           // gpt-4o shape: no reasoning items, utm_source=chatgpt.com (testdata/contract/gpt-4o-2025-03.json)
	NoAction       = "no_action"       // web_search_call items with no action and with action:null (a vercel/ai test of a call without action)
	NoCitations    = "no_citations"    // an answer without annotations or searches (tool_choice auto: the tools-web-search guide)
	Astral         = "astral"          // emoji before citations, offsets in code points (assumed: same unit as the recorded BMP text)
	AstralUTF16    = "astral_utf16"    // the same, offsets in UTF-16 units (assumed: a unit the API might use; tests the parser's fallback)
	Incomplete     = "incomplete"      // status incomplete, max_output_tokens, partial text (openai-go responses/response.go)
	Failed         = "failed"          // 200 with status failed, error server_error (openai-go responses/response.go)
	InvalidKey     = "invalid_api_key" // 401 (OpenAI's error-code guide)
	RateLimited    = "rate_limited"    // 429 rate_limit_exceeded (requests), retry-after: 2, x-ratelimit-* (error-code guide; rate-limits guide)
	TokenLimited   = "tokens_limited"  // 429 rate_limit_exceeded (tokens), only x-ratelimit-reset-tokens (rate-limits guide)
	NoQuota        = "insufficient_quota"
	BadRequest     = "bad_request"     // 400 minimal effort with web_search, as recorded in openai/codex#3559
	Forbidden      = "forbidden"       // 403 unsupported_country_region_territory (error-code guide)
	ModelNotFound  = "model_not_found" // 404 (testdata/contract/error-model-not-found.json)
	RequestTimeout = "request_timeout" // 408 (retried by openai-go internal/requestconfig/requestconfig.go)
	Conflict       = "conflict"        // 409 (retried by openai-go internal/requestconfig/requestconfig.go)
	ServerError    = "server_error"    // 500 (error-code guide)
	BadGateway     = "bad_gateway"     // 502
	Overloaded     = "overloaded"      // 503 (error-code guide)
	GatewayTimeout = "gateway_timeout" // 504
	Malformed      = "malformed"       // 200 with a cut JSON body (assumed: a proxy or a bug)
	Truncated      = "truncated"       // 200 announcing more bytes than sent (assumed: a dropped connection)
	HTMLError      = "html_502"        // 502 with an HTML page, as a load balancer sends (assumed)
)

var scenarios = []string{Completed, Plain, NoAction, NoCitations, Astral, AstralUTF16, Incomplete, Failed,
	InvalidKey, RateLimited, TokenLimited, NoQuota, BadRequest, Forbidden, ModelNotFound, RequestTimeout, Conflict,
	ServerError, BadGateway, Overloaded, GatewayTimeout, Malformed, Truncated, HTMLError}

// Scenarios lists every scenario name.
func Scenarios() []string { return slices.Clone(scenarios) }

// Known reports whether name is a scenario.
func Known(name string) bool { return slices.Contains(scenarios, name) }

// answer writes scenario sc.
func (s *Server) answer(w http.ResponseWriter, hr *http.Request, sc string, f *Fault, req map[string]any) {
	stream, _ := req["stream"].(bool)
	var pace time.Duration
	stall := ""
	if f != nil {
		pace, stall = time.Duration(f.StreamMs)*time.Millisecond, f.StallAfter
	}
	done := hr.Context().Done()
	extra := http.Header{}
	retry := func(def string) {
		v := def
		if f != nil && f.RetryAfter != "" {
			v = f.RetryAfter
		}
		if v != "-" && v != "" {
			extra.Set("retry-after", v)
		}
		if f != nil && f.RetryAfterMs != "" && f.RetryAfterMs != "-" {
			extra.Set("retry-after-ms", f.RetryAfterMs)
		}
	}
	switch sc {
	case InvalidKey:
		s.writeError(w, 401, nil, "Incorrect API key provided: sk-te********t123. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "", "invalid_api_key")
	case RateLimited:
		retry("2")
		extra.Set("x-ratelimit-remaining-requests", "0")
		extra.Set("x-ratelimit-reset-requests", "2s")
		s.writeError(w, 429, extra, "Rate limit reached for gpt-5-nano in organization org-fake on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in 2s. Visit https://platform.openai.com/account/rate-limits to learn more.", "requests", "", "rate_limit_exceeded")
	case TokenLimited:
		retry("-")
		extra.Set("x-ratelimit-remaining-tokens", "0")
		extra.Set("x-ratelimit-reset-tokens", "1.5s")
		s.writeError(w, 429, extra, "Rate limit reached for gpt-5-nano in organization org-fake on tokens per min (TPM): Limit 200000, Used 199800, Requested 1500. Please try again in 1.5s.", "tokens", "", "rate_limit_exceeded")
	case NoQuota:
		// Body as recorded (openai/testdata/contract/error-insufficient-quota.json).
		s.writeError(w, 429, nil, "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.", "insufficient_quota", "", "insufficient_quota")
	case BadRequest:
		// Recorded: openai/codex#3559 (param "tools", code null).
		s.writeError(w, 400, nil, "The following tools cannot be used with reasoning.effort 'minimal': web_search.", "invalid_request_error", "tools", "")
	case Forbidden:
		s.writeError(w, 403, nil, "Country, region, or territory not supported", "request_forbidden", "", "unsupported_country_region_territory")
	case ModelNotFound:
		s.writeError(w, 404, nil, "The model `"+str(req["model"])+"` does not exist or you do not have access to it.", "invalid_request_error", "", "model_not_found")
	case RequestTimeout:
		s.writeError(w, 408, nil, "Request timed out.", "invalid_request_error", "", "")
	case Conflict:
		s.writeError(w, 409, nil, "The request conflicted with another request; please retry.", "invalid_request_error", "", "")
	case ServerError:
		s.writeError(w, 500, nil, "The server had an error while processing your request. Sorry about that!", "server_error", "", "server_error")
	case BadGateway:
		s.writeError(w, 502, nil, "Bad gateway.", "server_error", "", "")
	case Overloaded:
		retry("-")
		s.writeError(w, 503, extra, "The engine is currently overloaded, please try again later.", "server_error", "", "")
	case GatewayTimeout:
		s.writeError(w, 504, nil, "Gateway timeout.", "server_error", "", "")
	case HTMLError:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(502)
		_, _ = io.WriteString(w, "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>cloudflare</center></body></html>")
	case Malformed:
		if stream {
			streamResponse(w, completedResponse(req), pace, done, 0, true, stall)
			return
		}
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"id":"resp_fake","object":"response","status":"completed","output":[{"type":"message","content":[{"type":"output_te`)
	case Truncated:
		if stream {
			r := completedResponse(req)
			streamResponse(w, r, pace, done, eventCount(r)/2, false, stall)
			return
		}
		b := responseJSON(completedResponse(req))
		w.Header().Set("Content-Length", strconv.Itoa(len(b)+1000))
		w.WriteHeader(200)
		_, _ = w.Write(b[:len(b)/2])
	default:
		if stream {
			streamResponse(w, build(sc, req), pace, done, 0, false, stall)
			return
		}
		writeRaw(w, responseJSON(build(sc, req)))
	}
}

func writeRaw(w http.ResponseWriter, b []byte) {
	w.WriteHeader(200)
	_, _ = w.Write(b)
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// textBuilder writes an answer and its url_citation annotations, counting
// offsets in code points as the recorded answers do (or UTF-16 units).
type textBuilder struct {
	b     strings.Builder
	n     int
	utf16 bool
	anns  []map[string]any
}

func (t *textBuilder) text(s string) {
	t.b.WriteString(s)
	for _, r := range s {
		t.n++
		if t.utf16 && r >= 0x10000 {
			t.n++
		}
	}
}

// cite appends " ([domain](url))" annotated as the recorded answers do:
// the span covers the parenthesised markdown link (source: testdata/contract recordings).
func (t *textBuilder) cite(url, title string) {
	domain := hostOfURL(url)
	t.text(" ")
	start := t.n
	t.text("([" + domain + "](" + url + "))")
	t.anns = append(t.anns, map[string]any{"type": "url_citation", "start_index": start, "end_index": t.n, "url": url, "title": title})
}

func hostOfURL(u string) string {
	h := strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	if i := strings.IndexAny(h, "/?#"); i >= 0 {
		h = h[:i]
	}
	return strings.TrimPrefix(h, "www.")
}
