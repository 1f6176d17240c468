package main

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/web-search/fake"
	"github.com/mcpfleet/mcpfleet/servers/web-search/tools"
)

// A real search runs tens of seconds (the recorded gpt-5.1 answer took
// 59 s, openai/testdata/contract/gpt-5.1-2026-02.json). These tests scale
// it down through the fake's knobs (StreamMs spreads the events, StallAfter
// holds the stream open mid-answer) and a small deadline, so none is slow.

// TestDeadlineMidAnswerIsPartial: the deadline comes while the model is
// still writing: what came (the text so far, its citation, the billed
// search) is the result, marked partial with how to get the rest, and it
// is not cached, so the next identical call searches again.
func TestDeadlineMidAnswerIsPartial(t *testing.T) {
	e := start(t, setup{extra: []string{"--timeout", "1500ms"}})
	e.fake.Push(fake.Fault{StallAfter: "response.output_text.annotation.added"})
	begin := time.Now()
	out := servetest.Decode[tools.SearchOut](t, e.search(t, q("UAE central bank")))
	if took := time.Since(begin); took > 1500*time.Millisecond+2*time.Second {
		t.Errorf("returned after %s, deadline 1.5 s", took)
	}
	if out.Complete || out.Incomplete == nil || out.Incomplete.Reason != envelope.Partial ||
		!strings.Contains(out.Incomplete.Missing, "deadline") || !strings.Contains(out.Incomplete.Missing, "WEB_SEARCH_TIMEOUT") ||
		!strings.Contains(out.Incomplete.Next, "WEB_SEARCH_REASONING_EFFORT") {
		t.Errorf("coverage %+v %+v", out.Coverage, out.Incomplete)
	}
	if len(out.Citations) != 1 || !strings.Contains(out.Answer, "4.40 %") || !strings.Contains(out.Answer, "[1]") ||
		strings.Contains(out.Answer, "DFM index") {
		t.Errorf("want the text up to the first citation: %d citations\n%s", len(out.Citations), out.Answer)
	}
	if out.Trace.Usage.BilledSearches != 1 || out.Trace.Usage.PageOpens != 1 || out.Trace.Usage.FindInPage != 1 {
		t.Errorf("billed what ran before the cut: %+v", out.Trace.Usage)
	}
	checkCitations(t, out)
	e.fake.Clear()
	again := servetest.Decode[tools.SearchOut](t, e.search(t, q("UAE central bank")))
	if again.Trace.Cached || !again.Complete || e.fake.Count() != 2 {
		t.Errorf("a cut answer was served from cache: cached %v, complete %v, %d requests", again.Trace.Cached, again.Complete, e.fake.Count())
	}
}

// TestTimeoutWithNothingFound: a deadline before any text or citation is a
// timeout error that says retrying unchanged will not help (not
// retryable) and names each setting that does.
func TestTimeoutWithNothingFound(t *testing.T) {
	e := start(t, setup{extra: []string{"--timeout", "1s", "--cache-ttl", "0"}})
	for _, tc := range []struct {
		name   string
		fault  fake.Fault
		billed string
	}{
		{"no answer headers yet", fake.Fault{LatencyMs: 20000}, "0 web searches"},
		{"stream open, nothing written", fake.Fault{StallAfter: "response.in_progress"}, "0 web searches"},
		{"a search ran, no text yet", fake.Fault{StallAfter: "response.web_search_call.completed"}, "1 web searches"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.fake.Clear()
			e.fake.Push(tc.fault)
			b := servetest.ErrorBody(t, e.search(t, q("slow search")))
			if b.Code != envelope.Timeout || b.Retryable {
				t.Errorf("code %s retryable %v: %s", b.Code, b.Retryable, b.Message)
			}
			for _, setting := range []string{"WEB_SEARCH_TIMEOUT", "WEB_SEARCH_REASONING_EFFORT", "WEB_SEARCH_MAX_TOOL_CALLS", "WEB_SEARCH_MODEL", "will most likely run out of time again"} {
				if !strings.Contains(b.Message, setting) {
					t.Errorf("message lacks %q: %s", setting, b.Message)
				}
			}
			if tc.billed != "" && !strings.Contains(b.Message, tc.billed) {
				t.Errorf("message lacks %q: %s", tc.billed, b.Message)
			}
		})
	}
}

// TestProgressDuringLongAnswer: a slow answer (the fake spreads its events
// over 3 s, a 60 s real answer scaled down 20×) reports each search, page
// read and find as an MCP progress notification while it runs, over
// streamable HTTP in both protocol eras (2025-11-25 with a session,
// 2026-07-28 without), so a client that extends its timeout on progress
// keeps waiting.
func TestProgressDuringLongAnswer(t *testing.T) {
	t.Setenv("MCPFLEET_AUTH_TOKENS", "alice=tok-alice-1234567890abc")
	e := start(t, setup{extra: []string{"--timeout", "20s", "--cache-ttl", "0"}})
	e.fake.Push(fake.Fault{StreamMs: 3000})
	hdr := map[string]string{"Authorization": "Bearer tok-alice-1234567890abc"}
	for _, era := range []string{mcp.LATEST_LEGACY_PROTOCOL_VERSION, mcp.LATEST_PROTOCOL_VERSION} {
		t.Run(era, func(t *testing.T) {
			c := e.conn.HTTPClient(t, era, hdr)
			type note struct {
				msg string
				at  time.Time
			}
			var mu sync.Mutex
			var notes []note
			c.OnNotification(func(n mcp.JSONRPCNotification) {
				if n.Method != "notifications/progress" || n.Params.AdditionalFields["progressToken"] != "tok-"+era {
					return
				}
				m, _ := n.Params.AdditionalFields["message"].(string)
				mu.Lock()
				notes = append(notes, note{m, time.Now()})
				mu.Unlock()
			})
			res := callWithProgress(t, c, "tok-"+era, q("UAE central bank "+era))
			done := time.Now()
			out := servetest.Decode[tools.SearchOut](t, res)
			if !out.Complete {
				t.Errorf("the slow answer did not finish: %+v", out.Incomplete)
			}
			mu.Lock()
			defer mu.Unlock()
			var msgs []string
			for _, n := range notes {
				msgs = append(msgs, n.msg)
			}
			for _, want := range []string{"searching: UAE central bank", "reading: centralbank.ae", `finding "base rate" in centralbank.ae`, "writing the answer"} {
				found := false
				for _, m := range msgs {
					found = found || strings.HasPrefix(m, want)
				}
				if !found {
					t.Errorf("no progress %q in %q", want, msgs)
				}
			}
			// Progress comes as the search runs, not in a burst with the result.
			if len(notes) == 0 || done.Sub(notes[0].at) < time.Second {
				t.Errorf("first progress not well before the result: %d notes", len(notes))
			}
		})
	}
}

func callWithProgress(t *testing.T, c *client.Client, token string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	var req mcp.CallToolRequest
	req.Params.Name = "search_web"
	req.Params.Arguments = args
	req.Params.Meta = &mcp.Meta{ProgressToken: mcp.ProgressToken(token)}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestMaxToolCallsSetting: WEB_SEARCH_MAX_TOOL_CALLS goes out as
// max_tool_calls and the fake counts every built-in call against it as the
// API does: with 2, one search and one page read use it all.
func TestMaxToolCallsSetting(t *testing.T) {
	e := start(t, setup{extra: []string{"--max-tool-calls", "2"}})
	out := servetest.Decode[tools.SearchOut](t, e.search(t, q("UAE central bank")))
	if b := e.fake.LastBody(); b["max_tool_calls"] != float64(2) {
		t.Errorf("sent max_tool_calls %v", b["max_tool_calls"])
	}
	if u := out.Trace.Usage; u.BilledSearches != 1 || u.PageOpens != 1 || u.FindInPage != 0 {
		t.Errorf("usage %+v, want 1 search and 1 page open (the cap of 2 spent)", u)
	}
}
