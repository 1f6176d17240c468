package openai

// Read types: the small subset of a Responses API answer this parser reads,
// decoded from the raw JSON the SDK hands over (a stream event's item or
// response). Field names follow the API (openai-go responses/response.go).
// Unknown fields are ignored, so new API fields do not break decoding; the
// request side is the SDK's own (responses.ResponseNewParams).

// Response is the answer of POST /v1/responses (source: openai-go
// responses/response.go; testdata/contract).
type Response struct {
	ID                string       `json:"id"`
	Object            string       `json:"object"`
	Status            string       `json:"status"`
	Model             string       `json:"model"`
	Error             *StatusError `json:"error"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
	Output []OutputItem `json:"output"`
	Usage  *Usage       `json:"usage"`
	// ToolUsage counts billed tool use on newer models
	// (vercel/ai fixture gpt-6-luna-reasoning-none-sampling.json:
	// "tool_usage": {"web_search": {"num_requests": 0}, …}).
	ToolUsage *struct {
		WebSearch *struct {
			NumRequests *int `json:"num_requests"`
		} `json:"web_search"`
	} `json:"tool_usage"`
}

// StatusError is the error of a 200 answer with status "failed".
type StatusError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// OutputItem is one item of output: reasoning, web_search_call or message
// (others are skipped).
type OutputItem struct {
	Type   string `json:"type"`
	ID     string `json:"id"`
	Status string `json:"status"`
	Role   string `json:"role"`
	// Phase marks an assistant message as "commentary" (a preamble such as
	// "I'm going to use the web search tool") or "final_answer" on gpt-5.4
	// and later (OpenAI changelog 2026-02-24; vercel/ai fixture
	// openai-phase.1.json). Absent on older models.
	Phase   string        `json:"phase"`
	Action  *Action       `json:"action"` // may be absent or null (a vercel/ai test)
	Content []ContentPart `json:"content"`
}

// Action is what a web_search_call did: search, open_page or find_in_page.
type Action struct {
	Type    string   `json:"type"`
	Query   string   `json:"query"` // deprecated in favour of queries
	Queries []string `json:"queries"`
	URL     string   `json:"url"`
	Pattern string   `json:"pattern"`
	Sources []Source `json:"sources"`
}

// Source is a consulted URL ({type:url}) or a real-time feed ({type:api}).
type Source struct {
	Type string `json:"type"`
	URL  string `json:"url"`
	Name string `json:"name"`
}

// ContentPart is one part of a message: output_text or refusal.
type ContentPart struct {
	Type        string       `json:"type"`
	Text        string       `json:"text"`
	Refusal     string       `json:"refusal"`
	Annotations []Annotation `json:"annotations"`
}

// Annotation is a url_citation over [StartIndex, EndIndex) of the part's
// text, counted in Unicode code points (testdata/contract/SOURCES.md).
type Annotation struct {
	Type       string `json:"type"`
	StartIndex int    `json:"start_index"`
	EndIndex   int    `json:"end_index"`
	URL        string `json:"url"`
	Title      string `json:"title"`
}

// Usage is the token count; the API has no search counters (openai-go responses/response.go).
type Usage struct {
	InputTokens        int `json:"input_tokens"`
	OutputTokens       int `json:"output_tokens"`
	TotalTokens        int `json:"total_tokens"`
	OutputTokenDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"output_tokens_details"`
}

// APIError is the body of every non-2xx answer (openai-go internal/apierror/apierror.go).
type APIError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}
