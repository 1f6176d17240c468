package fake

import (
	"encoding/json"
)

// Response objects, shaped like the recorded answers (source:
// openai/testdata/contract; vercel/ai packages/openai/src/responses/__fixtures__): the request's settings echoed, a dated model
// name, interleaved output items, usage without search counters.

func responseJSON(v map[string]any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// datedModel: the API answers with the snapshot name ("gpt-5-mini" →
// "gpt-5-mini-2025-08-07" in the recordings). assumed: the same date for
// every gpt-5 model.
func datedModel(m string) string {
	if m == "gpt-5" || m == "gpt-5-mini" || m == "gpt-5-nano" {
		return m + "-2025-08-07"
	}
	if m == "gpt-4o" {
		return "gpt-4o-2024-08-06"
	}
	return m
}

// usedOutputTokens is what the default answers report as output tokens
// (reasoning included).
const usedOutputTokens = 1187

func envelope(req map[string]any, status string, output []any) map[string]any {
	model := str(req["model"])
	output = capToolCalls(output, req["max_tool_calls"])
	if phased(model) {
		output = withPhases(output)
	}
	tools, _ := req["tools"].([]any)
	echoed := make([]any, 0, len(tools))
	for _, t := range tools {
		tm, _ := t.(map[string]any)
		loc := map[string]any{"type": "approximate", "city": nil, "country": nil, "region": nil, "timezone": nil}
		if ul, ok := tm["user_location"].(map[string]any); ok {
			for k, v := range ul {
				loc[k] = v
			}
		} else {
			loc["country"] = "US" // no user_location means the US (developers.openai.com/api/docs/guides/tools-web-search)
		}
		size := tm["search_context_size"]
		if size == nil {
			size = "medium"
		}
		echoed = append(echoed, map[string]any{"type": tm["type"], "filters": tm["filters"], "search_context_size": size, "user_location": loc})
	}
	effort := any(nil)
	if rs, ok := req["reasoning"].(map[string]any); ok {
		effort = rs["effort"]
	}
	r := map[string]any{
		"id": "resp_0953eda47ee17412006933306199c88195b44f9cf2fake", "object": "response", "created_at": 1764962401,
		"status": status, "background": false, "error": nil, "incomplete_details": nil,
		"instructions": req["instructions"], "max_output_tokens": req["max_output_tokens"], "max_tool_calls": req["max_tool_calls"],
		"model": datedModel(str(req["model"])), "output": output, "parallel_tool_calls": true, "previous_response_id": nil,
		"reasoning": map[string]any{"effort": effort, "summary": nil}, "store": req["store"], "temperature": 1.0,
		"text":        map[string]any{"format": map[string]any{"type": "text"}, "verbosity": "medium"},
		"tool_choice": req["tool_choice"], "tools": echoed, "top_p": 1.0, "truncation": "disabled",
		"usage": map[string]any{"input_tokens": 8412, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": usedOutputTokens, "output_tokens_details": map[string]any{"reasoning_tokens": 704}, "total_tokens": 9599},
		"user": nil, "metadata": map[string]any{},
	}
	if phased(model) {
		// Newer models report billed tool use (vercel/ai fixture
		// gpt-6-luna-reasoning-none-sampling.json). assumed: num_requests
		// counts the search actions, the billed ones.
		r["tool_usage"] = map[string]any{"web_search": map[string]any{"num_requests": countSearches(output)}}
	}
	return r
}

// withPhases gives messages their phase as gpt-5.4 and later do
// (openai-phase.1.json): a commentary preamble before the first search,
// final_answer on the answer.
func withPhases(output []any) []any {
	out := make([]any, 0, len(output)+1)
	said := false
	for _, it := range output {
		m, _ := it.(map[string]any)
		switch m["type"] {
		case "web_search_call":
			if !said {
				said = true
				out = append(out, map[string]any{"id": "msg_commentary_fake", "type": "message", "status": "completed", "role": "assistant", "phase": "commentary",
					"content": []any{map[string]any{"type": "output_text", "annotations": []any{}, "logprobs": []any{}, "text": "I'm going to use the web search tool to find current sources."}}})
			}
		case "message":
			m["phase"] = "final_answer"
		}
		out = append(out, it)
	}
	return out
}

func countSearches(output []any) int {
	n := 0
	for _, it := range output {
		m, _ := it.(map[string]any)
		if m["type"] != "web_search_call" {
			continue
		}
		a, _ := m["action"].(map[string]any)
		if a == nil || a["type"] == "search" {
			n++
		}
	}
	return n
}

func reasoning(id string) map[string]any {
	return map[string]any{"id": "rs_" + id, "type": "reasoning", "summary": []any{}}
}

func searchCall(id string, action map[string]any) map[string]any {
	item := map[string]any{"id": "ws_" + id, "type": "web_search_call", "status": "completed"}
	if action != nil {
		item["action"] = action
	}
	return item
}

func urlSources(urls ...string) []any {
	out := make([]any, 0, len(urls))
	for _, u := range urls {
		out = append(out, map[string]any{"type": "url", "url": u})
	}
	return out
}

func message(status string, t *textBuilder) map[string]any {
	anns := make([]any, 0, len(t.anns))
	for _, a := range t.anns {
		anns = append(anns, a)
	}
	return map[string]any{"id": "msg_0953eda47ee17412006933308e32fake", "type": "message", "status": status, "role": "assistant",
		"content": []any{map[string]any{"type": "output_text", "annotations": anns, "logprobs": []any{}, "text": t.b.String()}}}
}

// The sources of the default scenario. Two cite the same Reuters page,
// once with utm_source=openai (2025–2026) and once with
// utm_source=chatgpt.com (2025) (source: openai/testdata/contract recordings).
const (
	reutersA  = "https://www.reuters.com/world/middle-east/uae-central-bank-holds-rates-2026-11-20/?utm_source=openai"
	reutersB  = "https://www.reuters.com/world/middle-east/uae-central-bank-holds-rates-2026-11-20/?utm_source=chatgpt.com"
	national  = "https://www.thenationalnews.com/business/markets/2026/11/20/dfm-index-rises-after-rate-decision/?utm_source=openai&utm_medium=referral"
	gulfnews  = "https://gulfnews.com/business/banking/emirates-nbd-sees-rate-cut-in-q1-1.500312345?utm_source=openai"
	centralbk = "https://www.centralbank.ae/en/news-and-publications/press-releases/base-rate-2026-11/"
	khaleej   = "https://www.khaleejtimes.com/business/economy/what-the-rate-hold-means-for-mortgages?utm_source=openai"
	arabianbz = "https://www.arabianbusiness.com/money/banking-finance/uae-rate-decision-explained?id=42&utm_source=openai"
	bloomberg = "https://www.bloomberg.com/news/articles/2026-11-20/gulf-central-banks-follow-fed-hold?utm_source=openai"
	ft        = "https://www.ft.com/content/4f2c9a1e-gulf-rates?utm_source=openai#:~:text=dirham"
	zawya     = "https://www.zawya.com/en/economy/gcc/uae-inflation-eases-to-1-8-in-october-abc123?utm_source=openai"
	imf       = "https://www.imf.org/en/Countries/ARE?utm_source=openai"
)

// completedResponse: reasoning, a search with queries and sources (one of
// type api), an open_page and a find_in_page, then the message (source:
// openai/testdata/contract/gpt-5-mini-2025-12.json, its item order). The text has non-ASCII characters
// (’ — “ ” é ã °) before citations, 9 distinct sources (more than the tool's
// maximum of 8) and the Reuters page cited twice with different utm values.
func completedResponse(req map[string]any) map[string]any {
	q := str(req["input"])
	t := &textBuilder{}
	t.text("Here is what current reporting says about “" + q + "”.\n\n")
	t.text("**Decision** — The Central Bank of the UAE kept its base rate at 4.40 % on Wednesday, tracking the U.S. Federal Reserve’s hold.")
	t.cite(reutersA, "UAE central bank holds rates steady after Fed pause | Reuters")
	t.text("\n\n**Markets** — Dubai’s DFM index rose 0.6 % after the announcement, and the dirham’s peg (3.6725 per $) was unchanged.")
	t.cite(national, "DFM index rises after rate decision - The National")
	t.text("\n\n**Outlook** — Economists at Emirates NBD expect a first cut “as early as Q1 2027”, while São Paulo-based strategists see the Fed moving first.")
	t.cite(gulfnews, "Emirates NBD sees rate cut in Q1 | Gulf News")
	t.text(" The decision was first reported on Wednesday afternoon Gulf time.")
	t.cite(reutersB, "UAE central bank holds rates steady after Fed pause | Reuters")
	t.text("\n\nFurther reading:\n- The central bank’s statement sets the base rate for the overnight deposit facility.")
	t.cite(centralbk, "Base rate announcement — Central Bank of the UAE")
	t.text("\n- Borrowers with variable-rate mortgages see no change this month.")
	t.cite(khaleej, "What the rate hold means for mortgages - Khaleej Times")
	t.text("\n- The peg means UAE rates follow the Fed’s within hours.")
	t.cite(arabianbz, "UAE rate decision explained - Arabian Business")
	t.text("\n- Saudi Arabia, Qatar and Kuwait held as well.")
	t.cite(bloomberg, "Gulf central banks follow Fed hold - Bloomberg")
	t.text("\n- Analysts note the dirham’s stability.")
	t.cite(ft, "Gulf rates stay put - Financial Times")
	t.text("\n- Inflation eased to 1.8 % in October, at 21 °C average temperatures and lower fuel prices.")
	t.cite(zawya, "UAE inflation eases to 1.8% in October - Zawya")
	output := []any{
		reasoning("0953eda47ee1741200693330620ffc8195a8"),
		searchCall("0953eda47ee1741200693330682c988195aa", map[string]any{"type": "search", "query": q,
			"queries": []any{q, q + " today"},
			"sources": append(urlSources(reutersA, national, gulfnews, centralbk, khaleej, arabianbz, bloomberg, ft, zawya, imf),
				map[string]any{"type": "api", "name": "oai-finance"})}),
		reasoning("0953eda47ee17412006933306a4f188195b2"),
		searchCall("0953eda47ee17412006933306f501c8195b9", map[string]any{"type": "open_page", "url": centralbk}),
		reasoning("0953eda47ee174120069333071b0e08195a5"),
		searchCall("0953eda47ee1741200693330740e248195a2", map[string]any{"type": "find_in_page", "pattern": "base rate", "url": centralbk}),
		reasoning("0953eda47ee174120069333075d5e48195b3"),
		message("completed", t),
	}
	return envelope(req, "completed", output)
}

func build(sc string, req map[string]any) map[string]any {
	q := str(req["input"])
	// Reasoning counts against max_output_tokens; an answer that needs more
	// stops with status incomplete (the API reference's incomplete_details).
	if limit, ok := req["max_output_tokens"].(float64); ok && limit < usedOutputTokens && sc != Failed {
		sc = Incomplete
	}
	switch sc {
	case Plain:
		// The gpt-4o recording's shape: no reasoning, a search without
		// sources, a search without a query, utm_source=chatgpt.com.
		t := &textBuilder{}
		t.text("Several developments stand out this week:\n\n**Rates** — The UAE central bank held its base rate.")
		t.cite("https://www.reuters.com/world/middle-east/uae-central-bank-holds-rates-2026-11-20/?utm_source=chatgpt.com", "UAE central bank holds rates steady | Reuters")
		t.text("\n\n**Stocks** — Gulf markets closed higher, led by banks.")
		t.cite("https://www.thenationalnews.com/business/markets/2026/11/20/gulf-markets/?utm_source=chatgpt.com", "Gulf markets close higher - The National")
		t.text("\n\n**Oil** — Brent traded near $74 a barrel.")
		t.cite("https://www.cnbc.com/2026/11/20/oil-prices.html?utm_source=chatgpt.com", "Oil prices - CNBC")
		return envelope(req, "completed", []any{
			searchCall("67cf2b3051e88190b006770db6fdb13d", map[string]any{"type": "search", "query": q}),
			searchCall("67cf2b3051e88190b006234456fdb13d", map[string]any{"type": "search"}),
			message("completed", t),
		})
	case NoAction:
		// The gpt-5.1 recording: calls without an action, and with action null.
		t := &textBuilder{}
		t.text("Tokyo’s startup week drew exhibitors from 40 countries.")
		t.cite("https://www.japantimes.co.jp/business/2026/02/19/tech/tokyo-startup-week/?utm_source=openai", "Tokyo startup week | The Japan Times")
		t.text(" Port operators announced automation upgrades.")
		t.cite("https://www.porttechnology.org/news/tokyo-port-automation/?utm_source=openai", "Tokyo port automation - Port Technology")
		nullAction := searchCall("0a76c91bedfdd317016ac90881305087d2", nil)
		nullAction["action"] = nil
		return envelope(req, "completed", []any{
			reasoning("0a76c91bedfdd317016ac908"), searchCall("0a76c91bedfdd317016ac909", nil), nullAction,
			reasoning("0a76c91bedfdd317016ac90a"), message("completed", t),
		})
	case NoCitations:
		t := &textBuilder{}
		t.text("“" + q + "” is a general question; no search was needed to answer it. The answer does not depend on recent events.")
		return envelope(req, "completed", []any{reasoning("b1"), message("completed", t)})
	case Astral, AstralUTF16:
		t := &textBuilder{utf16: sc == AstralUTF16}
		t.text("🚀 Launch update 🛰️: the 𝔘AE’s Rashid rover team confirmed a new launch window for 2027.")
		t.cite("https://www.mbrsc.ae/en/news/rashid-2-launch-window/?utm_source=openai", "Rashid 2 launch window - MBRSC")
		t.text(" 👩‍🚀 Crew training continues in Houston 🇺🇸.")
		t.cite("https://www.thenationalnews.com/science/2026/11/19/uae-astronaut-training/?utm_source=openai", "UAE astronaut training - The National")
		return envelope(req, "completed", []any{
			reasoning("a1"), searchCall("a2", map[string]any{"type": "search", "query": q, "queries": []any{q}}),
			reasoning("a3"), message("completed", t),
		})
	case Incomplete:
		t := &textBuilder{}
		t.text("Partial summary: the Central Bank of the UAE kept its base rate at 4.40 %.")
		t.cite(reutersA, "UAE central bank holds rates steady after Fed pause | Reuters")
		t.text(" Markets reacted with modest gains, and analysts expect the next move to")
		r := envelope(req, "incomplete", []any{
			reasoning("i1"), searchCall("i2", map[string]any{"type": "search", "query": q, "sources": urlSources(reutersA, national)}),
			reasoning("i3"), message("incomplete", t),
		})
		r["incomplete_details"] = map[string]any{"reason": "max_output_tokens"}
		return r
	case Failed:
		r := envelope(req, "failed", []any{})
		r["error"] = map[string]any{"code": "server_error", "message": "The server had an error processing your request. Sorry about that! You can retry your request, or contact us through our help center at help.openai.com if you keep seeing this error."}
		r["usage"] = nil
		return r
	}
	return completedResponse(req)
}

// capToolCalls keeps the first max_tool_calls built-in tool calls: "The
// maximum number of total calls to built-in tools that can be processed in a
// response. This maximum number applies across all built-in tool calls, not
// per individual tool. Any further attempts to call a tool by the model will
// be ignored." (openai-go responses/response.go; openai-python
// Response.max_tool_calls). So a search, an open_page and a find_in_page
// are three calls.
func capToolCalls(output []any, limit any) []any {
	n, ok := limit.(float64)
	if !ok {
		return output
	}
	out, calls := make([]any, 0, len(output)), 0
	for _, it := range output {
		if m, _ := it.(map[string]any); m["type"] == "web_search_call" {
			if calls >= int(n) {
				continue
			}
			calls++
		}
		out = append(out, it)
	}
	return out
}
