package main

import "github.com/mcpfleet/mcpfleet/pkg/serve"

// envVars is what the web-search server reads from its environment (--help lists it).
var envVars = []serve.EnvVar{
	{Name: "OPENAI_API_KEY", Help: "OpenAI API key (Bearer); never logged or echoed", Secret: true},
	{Name: "OPENAI_BASE_URL", Help: "API base (default https://api.openai.com/v1); point it at bin/fake-web-search to try offline"},
	{Name: "WEB_SEARCH_MODEL", Help: "model with the hosted web_search tool (default gpt-6-luna, OpenAI's replacement for gpt-5-nano)"},
	{Name: "WEB_SEARCH_REASONING_EFFORT", Help: "reasoning effort (default low); one the model refuses is sent as the nearest it takes, with a warning"},
	{Name: "WEB_SEARCH_CONTEXT_SIZE", Help: "web_search search_context_size: low, medium or high"},
	{Name: "WEB_SEARCH_MAX_TOOL_CALLS", Help: "max_tool_calls: most built-in tool calls per search, each search, page open and find in page counting (default 6)"},
	{Name: "WEB_SEARCH_MAX_OUTPUT_TOKENS", Help: "max_output_tokens per call, reasoning included (default 8000)"},
	{Name: "WEB_SEARCH_TIMEOUT", Help: "deadline of one search including retries (default 90s); an answer cut by it returns what came, marked partial"},
	{Name: "WEB_SEARCH_LIMIT", Help: "searches per window per user (default 20)"},
	{Name: "WEB_SEARCH_WINDOW", Help: "the limit's sliding window (default 10m)"},
	{Name: "WEB_SEARCH_FETCH_LIMIT", Help: "fetch_page reads per window per user (default 30; pages cached 15 min are free)"},
	{Name: "WEB_SEARCH_FETCH_WINDOW", Help: "fetch_page limit's sliding window (default 10m)"},
	{Name: "MCPFLEET_FETCH_USER_AGENT", Help: "user agent of fetch_page (its product token is what robots.txt rules match)"},
	{Name: "MCPFLEET_FETCH_ALLOW_LOOPBACK", Help: "1 lets fetch_page read 127.0.0.0/8 and ::1 (tests and local fakes only)"},
	{Name: "WEB_SEARCH_CACHE_TTL", Help: "how long an identical search by the same user is answered from cache (default 2m)"},
}
