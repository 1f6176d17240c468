// Package fake is a faithful fake of the OpenAI Responses API's
// POST /v1/responses with the hosted web_search tool, for tests and demos.
// It checks the Bearer key and the request body, answers scripted responses
// built from recorded real answers (source: the recordings in
// servers/web-search/openai/testdata/contract and their SOURCES.md), and
// injects every error of OpenAI's error-code guide with its headers
// (help.openai.com/en/articles/6891839-api-error-code-guidance), failed and
// incomplete 200s, malformed and truncated bodies, and slow answers.
// Loopback only.
package fake

import (
	"encoding/json"
	"fmt"
	"github.com/mcpfleet/mcpfleet/pkg/clock"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/servers/web-search/openai"
)

// Options configure a Server.
type Options struct {
	// Keys are the accepted API keys; default {"sk-test"}.
	Keys []string
}

// Server is the fake. Safe for concurrent use.
type Server struct {
	keys map[string]bool

	mu       sync.Mutex
	faults   fakeupstream.Queue[Fault]
	requests []Recorded
	seq      int
	models   map[string]string
	now      func() time.Time
	// modelReads counts GET /v1/models/{id}.
	modelReads int
	drift      fakeupstream.Drifter
}

// Drift is the switch that makes this fake drift from the real API
// (deprecation headers, a renamed field, a new enum value, a new error
// body) and counts requests by method and path; Start serves through it.
func (s *Server) Drift() *fakeupstream.Drifter { return &s.drift }

// Recorded is one request as the fake received it.
type Recorded struct {
	Authorized bool           `json:"authorized"`
	Body       map[string]any `json:"body"`
	Raw        string         `json:"-"`
}

// New makes a fake.
func New(o Options) *Server {
	if len(o.Keys) == 0 {
		o.Keys = []string{"sk-test"}
	}
	s := &Server{keys: map[string]bool{}, models: map[string]string{}, now: clock.MustFromEnv().Now}
	for id, d := range catalog {
		s.models[id] = d
	}
	for _, k := range o.Keys {
		s.keys[k] = true
	}
	return s
}

// Start listens on a free loopback port; base is "http://127.0.0.1:port" (the
// client's base URL is base + "/v1").
func (s *Server) Start() (base string, stop func()) { return s.StartAt("127.0.0.1:0") }

// StartAt listens on addr, which must be a loopback address.
func (s *Server) StartAt(addr string) (base string, stop func()) {
	base, stop, err := fakeupstream.Listen(addr, s.drift.Wrap(s))
	if err != nil {
		panic("fake web-search: " + err.Error())
	}
	return base, stop
}

// Requests returns the requests received so far.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.requests...)
}

// Count is the number of POST /v1/responses requests received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// LastBody is the last request's body (nil before any).
func (s *Server) LastBody() map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.requests) == 0 {
		return nil
	}
	return s.requests[len(s.requests)-1].Body
}

// ServeHTTP routes the API and the control routes.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasPrefix(r.URL.Path, "/_fake/"):
		s.control(w, r)
	case r.URL.Path == "/v1/responses" && r.Method == http.MethodPost:
		s.responses(w, r)
	case strings.HasPrefix(r.URL.Path, "/v1/models/") && r.Method == http.MethodGet:
		s.retrieveModel(w, r)
	case r.URL.Path == "/v1/responses":
		// source: openai-go internal/apierror/apierror.go: every error is {"error":{message,type,param,code}}.  // assumed: wording
		s.writeError(w, http.StatusMethodNotAllowed, nil, "Method Not Allowed: use POST.", "invalid_request_error", "", "")
	default:
		s.writeError(w, http.StatusNotFound, nil, "Invalid URL ("+r.Method+" "+r.URL.Path+")", "invalid_request_error", "", "")
	}
}

func (s *Server) responses(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	key, hasBearer := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	authorized := hasBearer && s.keys[key]
	var parsed map[string]any
	_ = json.Unmarshal(body, &parsed)
	s.mu.Lock()
	s.requests = append(s.requests, Recorded{Authorized: authorized, Body: parsed, Raw: string(body)})
	s.seq++
	seq := s.seq
	f, lat := s.nextFault()
	s.mu.Unlock()

	if lat > 0 {
		select {
		case <-time.After(lat):
		case <-r.Context().Done():
			return
		}
	}
	h := w.Header()
	setCommonHeaders(h, seq)
	if !hasBearer {
		// source: OpenAI's error-code guide (401 invalid_api_key, its wording).
		s.writeError(w, 401, nil, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", "invalid_request_error", "", "")
		return
	}
	if !authorized {
		// OpenAI echoes a masked key: the client must never repeat this text.
		s.writeError(w, 401, nil, "Incorrect API key provided: "+maskKey(key)+". You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "", "invalid_api_key")
		return
	}
	if parsed == nil {
		// assumed: wording of the unparsable-body 400.
		s.writeError(w, 400, nil, "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)", "invalid_request_error", "", "")
		return
	}
	if msg, param, code := checkBody(parsed); msg != "" {
		s.writeError(w, 400, nil, msg, "invalid_request_error", param, code)
		return
	}
	if m := str(parsed["model"]); f == nil || f.Scenario == "" {
		if served, _ := s.modelState(m); !served {
			s.modelNotFound(w, m)
			return
		}
	}
	sc := Completed
	if f != nil && f.Scenario != "" {
		sc = f.Scenario
	}
	s.answer(w, r, sc, f, parsed)
}

// checkBody rejects what the real API rejects (source: openai-go
// responses/response.go; developers.openai.com/api/docs/guides/tools-web-search;
// messages in the style of the recorded 400s in openai/testdata/contract).
func checkBody(b map[string]any) (msg, param, code string) {
	model, _ := b["model"].(string)
	if model == "" {
		return "Missing required parameter: 'model'.", "model", "missing_required_parameter"
	}
	if in, ok := b["input"].(string); !ok || strings.TrimSpace(in) == "" {
		return "Missing required parameter: 'input'.", "input", "missing_required_parameter"
	}
	if _, ok := b["temperature"]; ok && strings.HasPrefix(model, "gpt-5") {
		return "Unsupported parameter: 'temperature' is not supported with this model.", "temperature", ""
	}
	tools, _ := b["tools"].([]any)
	for i, t := range tools {
		tm, _ := t.(map[string]any)
		switch tm["type"] {
		case "web_search", "web_search_2025_08_26", "web_search_preview", "web_search_preview_2025_03_11":
		default:
			return fmt.Sprintf("Invalid value: '%v'. Supported values are: 'web_search', 'web_search_2025_08_26', 'web_search_preview' and 'web_search_preview_2025_03_11'.", tm["type"]),
				fmt.Sprintf("tools[%d].type", i), "invalid_value"
		}
		if ul, ok := tm["user_location"].(map[string]any); ok {
			if ul["type"] != "approximate" {
				return "Invalid value for 'user_location.type': expected 'approximate'.", fmt.Sprintf("tools[%d].user_location.type", i), "invalid_value"
			}
			if c, ok := ul["country"].(string); ok && len(c) != 2 {
				// assumed: the API wants ISO 3166-1 alpha-2 (openai-go responses/response.go says so; the 400 text is not recorded).
				return "Invalid 'tools[0].user_location.country': string must be a two-letter ISO country code.", fmt.Sprintf("tools[%d].user_location.country", i), "invalid_value"
			}
		}
		if fl, ok := tm["filters"].(map[string]any); ok {
			ds, _ := fl["allowed_domains"].([]any)
			// "Allow-list of up to 100 domains" (the API reference's text, as
			// mirrored in @langchain/openai's WebSearchFilters). assumed: the
			// wording of the 400.
			if len(ds) > 100 {
				return fmt.Sprintf("Invalid 'tools[%d].filters.allowed_domains': array too long. Expected an array with maximum length 100, but got an array with length %d instead.", i, len(ds)), fmt.Sprintf("tools[%d].filters.allowed_domains", i), "array_above_max_length"
			}
		}
	}
	if rs, ok := b["reasoning"].(map[string]any); ok {
		rule, known := openai.RuleFor(model)
		if known && rule.Efforts == nil {
			return "Unsupported parameter: 'reasoning.effort' is not supported with this model.", "reasoning.effort", "unsupported_parameter"
		}
		if rs["effort"] == "minimal" && len(tools) > 0 {
			// Recorded (openai/codex#3559; OpenAI's web search guide,
			// Limitations): param "tools", code null. assumed: this check
			// comes before the model's own effort list.
			return "The following tools cannot be used with reasoning.effort 'minimal': web_search.", "tools", ""
		}
		// The model table (openai/models.go, each row cited) is what the
		// API accepts; the wording is the recorded gpt-5.1 refusal
		// (anomalyco/opencode#4451). assumed: the same for every model.
		if e, set := rs["effort"]; set && e != nil && known && !slices.Contains(rule.Efforts, str(e)) {
			return fmt.Sprintf("Unsupported value: '%v' is not supported with the '%s' model. Supported values are: %s.", e, model, quotedList(rule.Efforts)), "reasoning.effort", "unsupported_value"
		}
	}
	if n, ok := b["max_tool_calls"].(float64); ok && n < 1 {
		// assumed: the wording; the API reference types it as an integer bound.
		return fmt.Sprintf("Invalid 'max_tool_calls': integer below minimum value. Expected a value >= 1, but got %v instead.", n), "max_tool_calls", "integer_below_min_value"
	}
	return "", "", ""
}

func maskKey(k string) string {
	if len(k) <= 8 {
		return "sk-***"
	}
	return k[:3] + strings.Repeat("*", 8) + k[len(k)-4:]
}

// setCommonHeaders: every answer carries a request id, the processing time
// and the rate-limit headers (source: platform.openai.com/docs/guides/rate-limits).
func setCommonHeaders(h http.Header, seq int) {
	h.Set("Content-Type", "application/json")
	h.Set("x-request-id", "req_fake"+strconv.Itoa(100000+seq))
	h.Set("openai-processing-ms", "2131")
	h.Set("openai-version", "2020-10-01")
	h.Set("x-ratelimit-limit-requests", "5000")
	h.Set("x-ratelimit-remaining-requests", "4999")
	h.Set("x-ratelimit-reset-requests", "12ms")
	h.Set("x-ratelimit-limit-tokens", "2000000")
	h.Set("x-ratelimit-remaining-tokens", "1998500")
	h.Set("x-ratelimit-reset-tokens", "45ms")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError writes the error body of openai-go internal/apierror/apierror.go.
func (s *Server) writeError(w http.ResponseWriter, status int, extra http.Header, msg, typ, param, code string) {
	for k, v := range extra {
		w.Header()[k] = v
	}
	e := map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}
	if param != "" {
		e["param"] = param
	}
	if code != "" {
		e["code"] = code
	}
	writeJSON(w, status, map[string]any{"error": e})
}

// quotedList is "'a', 'b', and 'c'" as OpenAI lists supported values.
func quotedList(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = "'" + v + "'"
	}
	if len(q) < 2 {
		return strings.Join(q, "")
	}
	return strings.Join(q[:len(q)-1], ", ") + ", and " + q[len(q)-1]
}
