// Package openai calls the OpenAI Responses API (POST /v1/responses, streamed)
// with the hosted web_search tool through OpenAI's official Go SDK
// (github.com/openai/openai-go/v3), and turns its answers into cleaned,
// cited results. This package decides what the SDK cannot know: which
// failures are worth a retry within our deadline (never insufficient_quota),
// what each error tells the user to change, and what a cut answer still holds.
package openai

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	"github.com/rs/zerolog"
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
	EnvTimeout         = "WEB_SEARCH_TIMEOUT"

	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultModel is OpenAI's recommended replacement for gpt-5-nano, which
	// shuts down on 2026-12-11 (models.go cites the row). It takes
	// web_search and reasoning efforts none … max.
	DefaultModel       = "gpt-6-luna"
	DefaultEffort      = "low"
	DefaultContextSize = "low"
	// DefaultMaxToolCalls is max_tool_calls as the API counts it: every
	// built-in tool call, not only searches ("The maximum number of total
	// calls to built-in tools … across all built-in tool calls, not per
	// individual tool"; openai-go responses/response.go, openai-python
	// Response.max_tool_calls), so each open_page and find_in_page counts.
	// The recorded real gpt-5-mini search (testdata/contract
	// gpt-5-mini-stream-2025-12.sse) made 6: 2 searches, 1 open_page and 3
	// find_in_page; a cap of 2 stops after one search and one page read.
	DefaultMaxToolCalls = 6
	// Reasoning tokens count against max_output_tokens: a recorded gpt-5-mini
	// search at medium effort used 3,136 of its 3,773 output tokens on
	// reasoning (testdata/contract/gpt-5-mini-2025-12.json). 8,000 leaves a
	// normal answer room at low or medium effort; only tokens used are paid.
	DefaultMaxOutputTokens = 8000
	// RetryOutputTokens caps the one retry after an answer ran out of room.
	RetryOutputTokens = 32000
	// DefaultTimeout fits real searches: the recorded real gpt-5.1 answer
	// (testdata/contract/gpt-5.1-2026-02.json, medium effort, 3 searches)
	// took 59 s from created_at to completed_at, and at gpt-6-luna's
	// published ~135 output tokens/s (2.3 s to the first token) the default
	// 8,000 output tokens alone take ~62 s. 90 s keeps such an answer with
	// room for its searches; an answer cut at the deadline returns what came.
	DefaultTimeout     = 90 * time.Second
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
	// ProgressEvery is the least time between two "writing" progress
	// messages while the answer streams (default 3 s).
	ProgressEvery time.Duration
	Logger        zerolog.Logger
}

// Client is safe for concurrent use.
type Client struct {
	cfg Config
	sdk sdk.Client
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
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = 3 * time.Second
	}
	c := &Client{cfg: cfg}
	c.effort, c.effortNote = settleEffort(cfg.Model, cfg.Effort)
	c.sdk = sdk.NewClient(option.WithAPIKey(cfg.APIKey), option.WithBaseURL(cfg.BaseURL+"/"),
		option.WithMaxRetries(cfg.MaxAttempts-1), option.WithHeader("User-Agent", "mcpfleet-web-search"),
		option.WithHTTPClient(&http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}),
		option.WithMiddleware(c.watch))
	return c
}

// settleEffort is the reasoning.effort sent for the configured one, by the
// model table (models.go):
//   - "minimal" never goes out with web_search: the API answers 400 "The
//     following tools cannot be used with reasoning.effort 'minimal':
//     web_search." (param "tools"; OpenAI's web search guide, Limitations;
//     openai/codex#3559);
//   - an effort the model does not take (none on gpt-6.1-sol, max on gpt-5)
//     is sent as the nearest it takes, and the note says so: a refused
//     effort would fail every search with a 400;
//   - models without reasoning (gpt-4o, gpt-4.1) refuse a reasoning object,
//     so nothing is sent for them.
func settleEffort(model, effort string) (sent, note string) {
	e := strings.ToLower(strings.TrimSpace(effort))
	switch {
	case e == "" || e == "default":
		return "", ""
	case !Reasons(model):
		return "", model + " has no reasoning: " + EnvEffort + "=" + e + " is not sent"
	case Accepts(model, e):
		return e, ""
	}
	n := Nearest(model, e)
	why := model + " does not take " + e
	if e == "minimal" {
		why = "OpenAI refuses web_search with reasoning.effort minimal (400, param tools)"
	}
	return n, fmt.Sprintf("%s=%s is sent as %s: %s (it takes %s)", EnvEffort, e, n, why, strings.Join(acceptedEfforts(model), ", "))
}

func acceptedEfforts(model string) []string {
	r, _ := RuleFor(model)
	out := make([]string, 0, len(r.Efforts))
	for _, e := range r.Efforts {
		if e != "minimal" {
			out = append(out, e)
		}
	}
	return out
}

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

// IncludeSources asks for every URL the search consulted (the tools-web-search guide).
const IncludeSources = "web_search_call.action.sources"

// BuildRequest is the body sent for q (openai-go responses.ResponseNewParams;
// the tools-web-search guide): freshness and the number of sources can only
// be asked for in the instructions, since the API has no parameter for
// either. The SDK adds "stream": true when it streams.
func (c *Client) BuildRequest(q Query) responses.ResponseNewParams {
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
	// An empty approximate location stops the API assuming the US
	// (developers.openai.com/api/docs/guides/tools-web-search).
	loc := responses.WebSearchToolUserLocationParam{Type: "approximate"}
	if q.Country != "" {
		loc.Country = sdk.String(q.Country)
	}
	tool := responses.WebSearchToolParam{Type: responses.WebSearchToolTypeWebSearch,
		SearchContextSize: responses.WebSearchToolSearchContextSize(c.cfg.ContextSize), UserLocation: loc}
	if len(q.AllowedDomains) > 0 {
		tool.Filters = responses.WebSearchToolFiltersParam{AllowedDomains: q.AllowedDomains}
	}
	r := responses.ResponseNewParams{Model: c.cfg.Model, Instructions: sdk.String(in.String()),
		Input:      responses.ResponseNewParamsInputUnion{OfString: sdk.String(q.Text)},
		Tools:      []responses.ToolUnionParam{{OfWebSearch: &tool}},
		ToolChoice: responses.ResponseNewParamsToolChoiceUnion{OfToolChoiceMode: sdk.Opt(responses.ToolChoiceOptionsAuto)},
		Include:    []responses.ResponseIncludable{IncludeSources}, MaxToolCalls: sdk.Int(int64(c.cfg.MaxToolCalls)),
		MaxOutputTokens: sdk.Int(int64(tokens)), Store: sdk.Bool(false)}
	if c.effort != "" {
		r.Reasoning = shared.ReasoningParam{Effort: shared.ReasoningEffort(c.effort)}
	}
	return r
}
