package tools

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// CapsIn is get_search_capabilities' input (none).
type CapsIn struct{}

// CapsOut is what search_web can do for this user now: the budget fields an
// agent decides on, typed; the server's fixed facts as one plain object.
type CapsOut struct {
	// The user's budget: Remaining of PerWindow in any WindowS seconds.
	Remaining int `json:"remaining"`
	PerWindow int `json:"calls_per_window"`
	WindowS   int `json:"window_s"`
	// NextFreeAt is when the oldest counted search leaves the window.
	NextFreeAt  string  `json:"next_free_at,omitempty"`
	NextFreeInS float64 `json:"next_free_in_s"`
	Note        string  `json:"note,omitempty"`
	// Warnings need an operator: the model shuts down within 30 days or is
	// gone (with the setting and value to change), or OpenAI drifted from
	// what this server reads ("upstream drift: …", newest first).
	Warnings []string    `json:"warnings,omitempty"`
	Server   ServerFacts `json:"server" mcp:"type=object"`
}

// ServerFacts are the same for every user until the server restarts.
type ServerFacts struct {
	// APIKeyConfigured is false when OPENAI_API_KEY is unset: every search
	// answers unauthenticated.
	APIKeyConfigured bool   `json:"api_key_configured"`
	Model            string `json:"model"`
	// ModelShutdown is OpenAI's announced shutdown date of Model
	// (GET /v1/models/{id}, checked daily), "none announced" or "unknown".
	ModelShutdown string `json:"model_shutdown_date"`
	// Effort is the reasoning.effort sent ("model default" when none is).
	Effort    string  `json:"reasoning_effort"`
	Shared    bool    `json:"shared_limit"`
	DeadlineS float64 `json:"deadline_s"`
	Retries   string  `json:"retries"`
	CacheTTLS int     `json:"cache_ttl_s"`
	// MaxToolCalls is max_tool_calls as sent: every built-in tool call counts.
	MaxToolCalls int               `json:"max_tool_calls"`
	Billing      string            `json:"billing"`
	Parameters   map[string]string `json:"parameters"`
}

// parameters say honestly what each search_web argument does.
var parameters = map[string]string{
	"maxResults":     "citations kept, 1-8 (default 5); enforced here by cutting citations and the claims only they support (the API has no result count)",
	"freshnessHours": "best effort: a wish in the instructions; no API recency filter, citations carry no dates",
	"region":         "ISO 3166 alpha-2 country sent as approximate user location (ranking hint, not a filter); omitted = no location, not the API's US default",
	"allowedDomains": "allow-list of up to 100 hosts, subdomains included; no block-list exists",
	"includeAnswers": "false sends a cheaper sources-only request (shorter output, smaller max_output_tokens): citations with snippets, no narrative",
}

// billing says what the budget counts and why.
const billing = "a search counts once sent, as OpenAI bills it: each web search call ($10 per 1,000) and the tokens written, also for an answer cut at the deadline or one that fails after it started; cache hits, refused searches and bad arguments cost nothing"

const capsDescription = `search_web's budget (searches left, next free) and facts (model, effort, deadline, billing, what each parameter does); free.`

// lifecycleWait bounds how long get_search_capabilities waits for the
// start-up lifecycle check (only right after start).
const lifecycleWait = 3 * time.Second

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func (s *Service) capsTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "get_search_capabilities", Title: "Search budget", Toolset: "search",
		Description: capsDescription, Hints: toolkit.LocalRead}, s.caps)
}

func (s *Service) caps(ctx context.Context, _ CapsIn) (CapsOut, error) {
	cfg := s.c.Config()
	out := CapsOut{PerWindow: s.q.Limit(), WindowS: int(s.q.Window().Seconds())}
	out.Server = ServerFacts{APIKeyConfigured: s.c.HasKey(), Model: cfg.Model, DeadlineS: cfg.Timeout.Seconds(), Shared: s.q.Shared(),
		Retries: fmt.Sprintf("up to %d attempts within the deadline on 429 rate_limit_exceeded (honouring retry-after), 408, 409, 5xx, connection errors; never on insufficient_quota, 400, 401, 403, 404",
			cfg.MaxAttempts),
		CacheTTLS: int(s.ttl.Seconds()), Parameters: parameters, ModelShutdown: "unknown", MaxToolCalls: cfg.MaxToolCalls,
		Billing: billing}
	effort, note := s.c.EffortSent()
	out.Server.Effort = orDefault(effort, "model default")
	if note != "" {
		out.Server.Effort += " (" + note + ")"
	}
	if s.life != nil {
		// Waits only for the start-up check, if it has not answered yet.
		l := s.life.Status(ctx, lifecycleWait)
		switch {
		case l.Gone:
			out.Server.ModelShutdown = "shut down"
		case l.ShutdownDate != "":
			out.Server.ModelShutdown = l.ShutdownDate
		case l.Checked:
			out.Server.ModelShutdown = "none announced"
		}
		if w := l.Warning(); w != "" {
			out.Warnings = append(out.Warnings, w)
		}
	}
	// The latest drift seen on OpenAI's answers (deprecation headers,
	// unknown values, missing fields) needs an operator too.
	for _, d := range drift.Default().RecentText(maxDriftShown) {
		out.Warnings = append(out.Warnings, "upstream drift: "+d)
	}
	st, err := s.q.Peek(ctx, serve.UserID(ctx))
	if err != nil {
		out.Note = "the shared limit store (Redis, " + EnvRedisURL + ") did not answer: searches are refused until it does"
		return out, nil
	}
	out.Remaining = st.Remaining
	if !st.NextFree.IsZero() {
		out.NextFreeAt = st.NextFree.UTC().Format(time.RFC3339)
		if st.Remaining == 0 {
			out.NextFreeInS = max(st.NextFree.Sub(st.Now).Seconds(), 0)
		}
	}
	return out, nil
}
