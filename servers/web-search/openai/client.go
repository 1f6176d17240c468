// Package openai calls the OpenAI Responses API (POST /v1/responses) with the
// hosted web_search tool, and turns its answers into cleaned, cited results.
// It is a small hand-written client on pkg/upstream rather than the SDK: one
// endpoint, a small subset of the response, one deadline we own (openai-go
// v3 would add ~27 MB to the binary and retries on its own schedule).
package openai

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// Settings, their environment variables and defaults.
const (
	EnvAPIKey          = "OPENAI_API_KEY"
	EnvBaseURL         = "OPENAI_BASE_URL"
	EnvModel           = "WEB_SEARCH_MODEL"
	EnvEffort          = "WEB_SEARCH_REASONING_EFFORT"
	EnvContextSize     = "WEB_SEARCH_CONTEXT_SIZE"
	EnvMaxToolCalls    = "WEB_SEARCH_MAX_TOOL_CALLS"
	EnvMaxOutputTokens = "WEB_SEARCH_MAX_OUTPUT_TOKENS"

	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultModel is OpenAI's recommended replacement for gpt-5-nano, which
	// shuts down on 2026-12-11 (see lifecycle.go for the sources). It takes
	// web_search and reasoning efforts none … max.
	DefaultModel        = "gpt-6-luna"
	DefaultEffort       = "low" // the 15 s limit is tight for a searching reasoning model
	DefaultContextSize  = "low"
	DefaultMaxToolCalls = 2
	// Reasoning tokens count against max_output_tokens: a recorded gpt-5-mini
	// search at medium effort used 3,136 of its 3,773 output tokens on
	// reasoning (testdata/contract/gpt-5-mini-2025-12.json). 8,000 leaves a
	// normal answer room at low or medium effort; only tokens used are paid.
	DefaultMaxOutputTokens = 8000
	// RetryOutputTokens caps the one retry after an answer ran out of room.
	RetryOutputTokens  = 32000
	DefaultTimeout     = 15 * time.Second
	DefaultMaxAttempts = 3 // the SDK's default: 1 + 2 retries (openai-go MaxRetries: 2)
	DefaultRetryWait   = 500 * time.Millisecond
)

// Config configures a Client.
type Config struct {
	APIKey, BaseURL, Model string
	// Effort is reasoning.effort as configured; "" sends no reasoning object
	// (the model's own default). New settles what is sent (EffortSent).
	Effort          string
	ContextSize     string
	MaxToolCalls    int
	MaxOutputTokens int
	// Timeout is the hard deadline of a whole search, retries included.
	Timeout     time.Duration
	MaxAttempts int
	RetryWait   time.Duration
	Logger      zerolog.Logger
	// Transport replaces the HTTP transport (tests).
	Transport http.RoundTripper
}

// Client is safe for concurrent use.
type Client struct {
	cfg Config
	api *upstream.Client
	// effort is what goes in reasoning.effort ("": no reasoning object);
	// effortNote says why it differs from the configured one.
	effort, effortNote string
}

// New builds a client; zero fields get the defaults.
func New(cfg Config) *Client {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	if cfg.ContextSize == "" {
		cfg.ContextSize = DefaultContextSize
	}
	if cfg.MaxToolCalls <= 0 {
		cfg.MaxToolCalls = DefaultMaxToolCalls
	}
	if cfg.MaxOutputTokens <= 0 {
		cfg.MaxOutputTokens = DefaultMaxOutputTokens
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.RetryWait <= 0 {
		cfg.RetryWait = DefaultRetryWait
	}
	secret := map[string]string{}
	if cfg.APIKey != "" {
		secret["Authorization"] = "Bearer " + cfg.APIKey
	}
	c := &Client{cfg: cfg}
	c.effort, c.effortNote = settleEffort(cfg.Model, cfg.Effort)
	c.api = upstream.New(upstream.Config{
		Name: "OpenAI", BaseURL: cfg.BaseURL, URLEnv: EnvBaseURL, Timeout: cfg.Timeout,
		Retries: -1, // this package retries: it knows which 429s are worth it
		// A Retry-After past the deadline ends the attempt with it; we decide.
		MaxRetryAfter: cfg.Timeout, MaxBodyBytes: 4 << 20, SecretHeaders: secret,
		Detectors: []extract.Detector{c.detect}, Logger: cfg.Logger, UserAgent: "mcpfleet-web-search",
		Transport: cfg.Transport,
	})
	return c
}

// settleEffort is the reasoning.effort sent for the configured one:
//   - "minimal" never goes out with web_search: the API answers 400 "The
//     following tools cannot be used with reasoning.effort 'minimal':
//     web_search." (param "tools"; OpenAI's web search guide, Limitations;
//     openai/codex#3559), so it is sent as "low" and the note says so;
//   - "none" is sent as is: models from gpt-5.1 on take it, and leaving
//     reasoning out means the model's default (medium on the gpt-5 line,
//     the slowest of the usual settings);
//   - models without reasoning (gpt-4o, gpt-4.1) reject a reasoning object
//     (testdata/contract/error-unsupported-parameter.json's kind), so
//     nothing is sent for them.
func settleEffort(model, effort string) (sent, note string) {
	e := strings.ToLower(strings.TrimSpace(effort))
	switch {
	case e == "" || e == "default":
		return "", ""
	case strings.HasPrefix(model, "gpt-4"):
		return "", model + " has no reasoning: " + EnvEffort + "=" + e + " is not sent"
	case e == "minimal":
		return "low", "minimal is sent as low: OpenAI refuses web_search with reasoning.effort minimal (400, param tools)"
	case e == "none" && noNone.MatchString(model):
		return "low", model + " does not take none (models from gpt-5.1 on do) and web_search refuses minimal: sent as low"
	}
	return e, ""
}

// noNone are the reasoning models without effort "none": gpt-5, -mini, -nano
// and their snapshots (minimal … high) and the o-series.
var noNone = regexp.MustCompile(`^(gpt-5(-mini|-nano)?(-\d{4}-\d{2}-\d{2})?|o\d.*)$`)

// EffortSent is the reasoning.effort sent ("" for none) and, when it differs
// from the configured one, why.
func (c *Client) EffortSent() (effort, note string) { return c.effort, c.effortNote }

// Config returns the effective configuration (defaults applied); the key
// is not part of it.
func (c *Client) Config() Config {
	cfg := c.cfg
	cfg.APIKey = ""
	return cfg
}

// HasKey reports whether an API key is configured.
func (c *Client) HasKey() bool { return c.cfg.APIKey != "" }

// Query is one search as the tool asks it.
type Query struct {
	Text           string
	MaxResults     int
	FreshnessHours int
	Country        string // ISO 3166 alpha-2, "" for none
	AllowedDomains []string
	// SourcesOnly asks for a list of cited sources instead of an answer:
	// shorter instructions for a shorter output, and a smaller
	// max_output_tokens, so a caller who drops the answer pays less.
	SourcesOnly bool `json:",omitempty"`
}

// sourcesOnlyTokens is max_output_tokens of a sources-only request: the
// reasoning still counts, the prose does not.
func (c *Client) sourcesOnlyTokens() int { return max(c.cfg.MaxOutputTokens/2, 1000) }

// BuildRequest is the body sent for q (source: openai-go responses/response.go;
// the tools-web-search guide): freshness and the number of
// sources can only be asked for in the instructions, since the API has no
// parameter for either.
func (c *Client) BuildRequest(q Query) Request {
	var in strings.Builder
	tokens := c.cfg.MaxOutputTokens
	if q.SourcesOnly {
		// One line per source, each cited: the citations are the result.
		in.WriteString("Search the web and list only the sources that answer the question: one short line per source saying what it states, each line citing its source inline. No introduction, no summary.")
		tokens = c.sourcesOnlyTokens()
	} else {
		in.WriteString("Search the web and answer concisely in plain prose, citing sources inline.")
	}
	if q.MaxResults > 0 {
		fmt.Fprintf(&in, " Cite at most %d distinct sources.", q.MaxResults)
	}
	if q.FreshnessHours > 0 {
		fmt.Fprintf(&in, " Prefer sources published in the last %d hours and say so if none are that recent.", q.FreshnessHours)
	}
	tool := Tool{Type: "web_search", SearchContextSize: c.cfg.ContextSize,
		// An empty approximate location stops the API assuming the US
		// (developers.openai.com/api/docs/guides/tools-web-search).
		UserLocation: &UserLocation{Type: "approximate", Country: q.Country}}
	if len(q.AllowedDomains) > 0 {
		tool.Filters = &Filters{AllowedDomains: q.AllowedDomains}
	}
	r := Request{Model: c.cfg.Model, Instructions: in.String(), Input: q.Text, Tools: []Tool{tool},
		ToolChoice: "auto", Include: []string{IncludeSources}, MaxToolCalls: c.cfg.MaxToolCalls,
		MaxOutputTokens: tokens, Store: false}
	if c.effort != "" {
		r.Reasoning = &Reasoning{Effort: c.effort}
	}
	return r
}

// Search runs one search within the deadline (Config.Timeout, or ctx's if
// sooner), retrying only what OpenAI says is worth retrying.
func (c *Client) Search(ctx context.Context, q Query) (*Result, error) {
	if c.cfg.APIKey == "" {
		return nil, envelope.New(envelope.Unauthenticated, "no OpenAI API key: set %s (platform.openai.com/api-keys); get_search_capabilities works without it", EnvAPIKey)
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	body := c.BuildRequest(q)
	res, err := c.send(ctx, body)
	if err != nil || res.Incomplete != "max_output_tokens" {
		return res, err
	}
	// Out of room (reasoning counts against max_output_tokens): once more
	// with more room, then a clear error rather than a cut answer.
	first := body.MaxOutputTokens
	if more := min(first*3, RetryOutputTokens); more > first {
		body.MaxOutputTokens = more
		c.cfg.Logger.Debug().Int("max_output_tokens", more).Msg("OpenAI search: answer ran out of output tokens; retrying with more room")
		res2, err2 := c.send(ctx, body)
		if err2 != nil {
			return nil, err2
		}
		// Both requests were billed: the cost is the sum.
		res2.Retried = true
		res2.Usage.Input += res.Usage.Input
		res2.Usage.Output += res.Usage.Output
		res2.Usage.Reasoning += res.Usage.Reasoning
		res2.Usage.Total += res.Usage.Total
		res2.BilledSearches += res.BilledSearches
		res2.PageOpens += res.PageOpens
		res2.FindInPage += res.FindInPage
		if res2.Incomplete != "max_output_tokens" {
			return res2, nil
		}
	}
	return nil, envelope.New(envelope.UpstreamError, "OpenAI ran out of output tokens before finishing the answer (incomplete: max_output_tokens, reasoning counts against it), also after a retry with %d; raise %s (now %d), lower %s (now %s), or narrow the query",
		body.MaxOutputTokens, EnvMaxOutputTokens, c.cfg.MaxOutputTokens, EnvEffort, orWord(c.effort, "model default")).
		WithRetryable(false).WithDetail("openai_status", "incomplete").WithDetail("reason", "max_output_tokens").WithDetail("max_output_tokens", body.MaxOutputTokens)
}

// send posts body, retrying what OpenAI says is worth retrying.
func (c *Client) send(ctx context.Context, body Request) (*Result, error) {
	for attempt := 1; ; attempt++ {
		resp, err := c.api.Do(ctx, upstream.Request{Op: "search", Method: http.MethodPost, Path: "/responses", JSON: body, Idempotent: true})
		if err == nil {
			return c.result(resp.Body)
		}
		e := envelope.From(err)
		again := e.Retryable && e.Code != envelope.Timeout // connection errors, truncated bodies
		if resp.Status != 0 {
			again = retryable(resp.Status, resp.Header, resp.Body)
		}
		wait, told := serverWait(resp.Status, resp.Header, resp.Body, time.Now())
		if told && e.Code == envelope.RateLimited {
			e = e.WithRetryAfter(wait)
		}
		if !again || attempt >= c.cfg.MaxAttempts || ctx.Err() != nil {
			return nil, withAttempts(e, attempt)
		}
		if !told {
			wait = backoff(c.cfg.RetryWait, attempt)
		}
		if dl, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(dl) {
			return nil, withAttempts(e, attempt) // the wait would pass the deadline: report the real failure
		}
		c.cfg.Logger.Debug().Int("attempt", attempt).Int("status", resp.Status).Dur("wait", wait).Str("code", string(e.Code)).Msg("OpenAI search: retrying")
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return nil, withAttempts(e, attempt)
		}
	}
}

func withAttempts(e *envelope.Error, n int) *envelope.Error {
	if n > 1 {
		e = e.WithDetail("attempts", n)
	}
	return e
}

// backoff is exponential with equal jitter: 0.5 s, 1 s, 2 s … halves fixed.
func backoff(base time.Duration, attempt int) time.Duration {
	step := base << (attempt - 1)
	if step > 4*time.Second || step <= 0 {
		step = 4 * time.Second
	}
	half := step / 2
	return half + rand.N(half+1)
}

// result reads a 200: completed and incomplete answers are results; a
// failed one is an error (a 200 can carry a failure: openai-go responses/response.go).
func (c *Client) result(body []byte) (*Result, error) {
	r, err := Decode(body)
	if err != nil {
		return nil, err
	}
	switch r.Status {
	case "completed", "incomplete", "":
		return Parse(r), nil
	case "failed":
		code, msg := "", ""
		if r.Error != nil {
			code, msg = r.Error.Code, extract.Clip(r.Error.Message, 200)
		}
		e := envelope.New(envelope.UpstreamError, "OpenAI could not finish the search (status failed, %s): %s; try again later", orWord(code, "no code"), orWord(msg, "no message"))
		switch code {
		case "rate_limit_exceeded":
			e.Code, e.Retryable = envelope.RateLimited, true
		case "server_error":
			e.Retryable = true
		}
		if code != "" {
			e = e.WithDetail("openai_code", extract.Clip(code, 60))
		}
		return nil, e
	default:
		return nil, envelope.New(envelope.UpstreamError, "OpenAI answered with status %q instead of a finished search; try again", extract.Clip(r.Status, 40)).WithRetryable(true)
	}
}
