package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/ssestream"
	"github.com/openai/openai-go/v3/responses"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Progress receives one line per step of a search as it happens
// ("searching: …", "reading: host", "writing the answer: …").
type Progress func(message string)

// event is the part of a Responses stream event this client reads (source:
// the Responses streaming reference, platform.openai.com/docs/api-reference/
// responses-streaming; openai-go responses.ResponseStreamEventUnion; the
// recorded streams in testdata/contract, SOURCES.md).
type event struct {
	Type         string          `json:"type"`
	OutputIndex  int             `json:"output_index"`
	ContentIndex int             `json:"content_index"`
	Delta        string          `json:"delta"`
	Item         json.RawMessage `json:"item"`
	Response     json.RawMessage `json:"response"`
	Annotation   *Annotation     `json:"annotation"`
	// An "error" event's fields.
	Code    *string `json:"code"`
	Message string  `json:"message"`
	Param   *string `json:"param"`
}

// Search runs one search within the deadline (Config.Timeout, or ctx's if
// sooner), retrying only what OpenAI says is worth retrying, and reports
// each step to progress (nil: none). An answer cut by the deadline comes
// back with what was found so far (Result.Cut); only a cut with nothing
// found is an error.
func (c *Client) Search(ctx context.Context, q Query, progress Progress) (*Result, error) {
	if c.cfg.APIKey == "" {
		return nil, envelope.New(envelope.Unauthenticated, "no OpenAI API key: set %s (platform.openai.com/api-keys); get_search_capabilities works without it", EnvAPIKey)
	}
	if progress == nil {
		progress = func(string) {}
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	body := c.BuildRequest(q)
	res, err := c.stream(ctx, body, progress)
	if err != nil || res.Incomplete != "max_output_tokens" || res.Cut != "" {
		return res, err
	}
	// Out of room (reasoning counts against max_output_tokens): once more
	// with more room, then a clear error rather than a cut answer.
	first := int(body.MaxOutputTokens.Value)
	if more := min(first*3, RetryOutputTokens); more > first {
		body.MaxOutputTokens = sdk.Int(int64(more))
		c.cfg.Logger.Debug().Int("max_output_tokens", more).Msg("OpenAI search: answer ran out of output tokens; retrying with more room")
		progress(fmt.Sprintf("the answer ran out of output tokens: asking again with %d", more))
		res2, err2 := c.stream(ctx, body, progress)
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
		if res2.Incomplete != "max_output_tokens" || res2.Cut != "" {
			return res2, nil
		}
		first = more
	}
	return nil, envelope.New(envelope.UpstreamError, "OpenAI ran out of output tokens before finishing the answer (incomplete: max_output_tokens, reasoning counts against it), also after a retry with %d; raise %s (now %d), lower %s (now %s), or narrow the query",
		first, EnvMaxOutputTokens, c.cfg.MaxOutputTokens, EnvEffort, orWord(c.effort, "model default")).
		WithRetryable(false).WithDetail("openai_status", "incomplete").WithDetail("reason", "max_output_tokens").WithDetail("max_output_tokens", first)
}

// stream sends body as a streamed request and reads its events.
func (c *Client) stream(ctx context.Context, body responses.ResponseNewParams, progress Progress) (*Result, error) {
	st := &callState{}
	s := c.sdk.Responses.NewStreaming(context.WithValue(ctx, callKey{}, st), body)
	defer s.Close()
	acc := newAccumulator(c.cfg.ProgressEvery, progress)
	for s.Next() {
		var ev event
		if err := json.Unmarshal([]byte(s.Current().RawJSON()), &ev); err != nil {
			continue // the SDK decoded it, so it is JSON; not ours to read
		}
		if done := acc.add(ev); done {
			break
		}
	}
	err := s.Err()
	switch {
	case acc.final != nil:
		drift.Default().Observe(c.cfg.Logger, "OpenAI", "search", 200, st.okHeader(), acc.final)
		return c.result(acc.final)
	case acc.failure != nil:
		return nil, acc.failure
	case ctx.Err() != nil:
		return c.cut(ctx, acc)
	}
	var apiErr *sdk.Error
	var streamErr *ssestream.StreamError
	switch {
	case errors.As(err, &apiErr) || st.failed():
		return nil, withAttempts(c.httpError(st), st.tries())
	case errors.As(err, &streamErr):
		return nil, streamError([]byte(streamErr.Event.Data))
	case err != nil && !acc.started:
		return nil, withAttempts(envelope.New(envelope.UpstreamUnavailable, "could not reach OpenAI (%s); check %s and the network, then try again", extract.Clip(err.Error(), 160), EnvBaseURL).WithRetryable(true), st.tries())
	case err != nil:
		return nil, envelope.New(envelope.UpstreamError, "OpenAI's answer stream is not valid JSON or broke off (%s); try again", extract.Clip(err.Error(), 120)).WithRetryable(true)
	}
	return nil, envelope.New(envelope.UpstreamError, "OpenAI's answer stream was cut off before the response finished (no response.completed); try again").WithRetryable(true)
}

// cut answers a search the deadline stopped: what was found so far, marked
// cut, or, with nothing found, a timeout that says what helps. Either way
// OpenAI bills what it did before the cut: the searches it ran and the
// tokens it wrote.
func (c *Client) cut(ctx context.Context, acc *accumulator) (*Result, error) {
	why := "deadline"
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, envelope.From(ctx.Err())
	}
	res := Parse(acc.partial())
	res.Cut = why
	if len(res.Citations) > 0 || strings.TrimSpace(pieceText(res.Pieces)) != "" {
		return res, nil
	}
	return nil, envelope.New(envelope.Timeout, "OpenAI did not finish within %s=%s (%d web searches ran and are billed, no answer yet); the same search will most likely run out of time again: lower %s (now %s), lower %s (now %d, every search, page open and find counts), set %s to a smaller model (now %s), or raise %s",
		EnvTimeout, c.cfg.Timeout, res.BilledSearches, EnvEffort, orWord(c.effort, "model default"), EnvMaxToolCalls, c.cfg.MaxToolCalls, EnvModel, c.cfg.Model, EnvTimeout).
		WithRetryable(false).WithDetail("billed_searches", res.BilledSearches).WithDetail("deadline_s", c.cfg.Timeout.Seconds())
}

func pieceText(ps []Piece) string {
	var b strings.Builder
	for _, p := range ps {
		b.WriteString(p.Text)
	}
	return b.String()
}

// streamError maps an SSE "error" event ({type: error, code, message,
// param}: the Responses streaming reference) or an event carrying an error
// object.
func streamError(data []byte) error {
	var ev struct {
		Code    *string `json:"code"`
		Message string  `json:"message"`
		Error   *struct {
			Code    *string `json:"code"`
			Message string  `json:"message"`
		} `json:"error"`
	}
	_ = json.Unmarshal(data, &ev)
	if ev.Error != nil {
		ev.Code, ev.Message = ev.Error.Code, ev.Error.Message
	}
	code := ""
	if ev.Code != nil {
		code = *ev.Code
	}
	return failedError(code, ev.Message)
}

// accumulator keeps what a stream has said so far: the finished output
// items, the text and citations of the message being written, and the
// final response once it comes.
type accumulator struct {
	every    time.Duration
	progress Progress
	started  bool

	items map[int]json.RawMessage // finished items by output_index
	texts map[int]*liveMessage    // messages being written, by output_index
	// calls are web_search_call items that reported
	// response.web_search_call.completed but not yet their
	// output_item.done (which carries the action): run, so billed.
	calls map[int]bool
	final []byte // the response of response.completed / incomplete / failed
	// failure is an "error" event.
	failure error

	words     int
	lastWrite time.Time
}

type liveMessage struct {
	phase string
	parts map[int]*ContentPart
}

func newAccumulator(every time.Duration, p Progress) *accumulator {
	return &accumulator{every: every, progress: p, items: map[int]json.RawMessage{}, texts: map[int]*liveMessage{}, calls: map[int]bool{}}
}

// add reads one event; done is true once the response is final.
func (a *accumulator) add(ev event) (done bool) {
	a.started = true
	switch ev.Type {
	case "response.output_item.added":
		var it OutputItem
		if json.Unmarshal(ev.Item, &it) == nil && it.Type == "message" {
			a.texts[ev.OutputIndex] = &liveMessage{phase: it.Phase, parts: map[int]*ContentPart{}}
		}
	case "response.web_search_call.completed":
		a.calls[ev.OutputIndex] = true
	case "response.output_item.done":
		a.items[ev.OutputIndex] = ev.Item
		delete(a.texts, ev.OutputIndex)
		delete(a.calls, ev.OutputIndex)
		var it OutputItem
		if json.Unmarshal(ev.Item, &it) == nil && it.Type == "web_search_call" {
			a.progress(stepMessage(it.Action))
		}
	case "response.output_text.delta":
		p := a.part(ev.OutputIndex, ev.ContentIndex)
		p.Text += ev.Delta
		a.words += len(strings.Fields(ev.Delta))
		if now := time.Now(); a.lastWrite.IsZero() || now.Sub(a.lastWrite) >= a.every {
			a.lastWrite = now
			a.progress(fmt.Sprintf("writing the answer: %d words so far", a.words))
		}
	case "response.output_text.annotation.added":
		if ev.Annotation != nil {
			p := a.part(ev.OutputIndex, ev.ContentIndex)
			p.Annotations = append(p.Annotations, *ev.Annotation)
		}
	case "response.completed", "response.incomplete", "response.failed":
		a.final = ev.Response
		return true
	case "error":
		code := ""
		if ev.Code != nil {
			code = *ev.Code
		}
		a.failure = failedError(code, ev.Message)
		return true
	}
	return false
}

func (a *accumulator) part(item, content int) *ContentPart {
	m := a.texts[item]
	if m == nil {
		m = &liveMessage{parts: map[int]*ContentPart{}}
		a.texts[item] = m
	}
	p := m.parts[content]
	if p == nil {
		p = &ContentPart{Type: "output_text"}
		m.parts[content] = p
	}
	return p
}

// partial is the response as far as the stream got: finished items and
// the messages being written, in output order.
func (a *accumulator) partial() *Response {
	r := &Response{Status: "incomplete"}
	idx := make([]int, 0, len(a.items)+len(a.texts)+len(a.calls))
	for i := range a.items {
		idx = append(idx, i)
	}
	for i := range a.texts {
		idx = append(idx, i)
	}
	for i := range a.calls {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		if a.calls[i] {
			// Its action is not known yet: counted as a search, as Parse
			// counts a call without an action (the cost is not
			// under-reported; an open_page cut here counts as one too).
			r.Output = append(r.Output, OutputItem{Type: "web_search_call", Status: "completed"})
			continue
		}
		if raw, ok := a.items[i]; ok {
			var it OutputItem
			if json.Unmarshal(raw, &it) == nil {
				r.Output = append(r.Output, it)
			}
			continue
		}
		m := a.texts[i]
		it := OutputItem{Type: "message", Role: "assistant", Phase: m.phase, Status: "incomplete"}
		ks := make([]int, 0, len(m.parts))
		for k := range m.parts {
			ks = append(ks, k)
		}
		sort.Ints(ks)
		for _, k := range ks {
			it.Content = append(it.Content, *m.parts[k])
		}
		r.Output = append(r.Output, it)
	}
	return r
}

// stepMessage says what one finished web_search_call did.
func stepMessage(a *Action) string {
	switch {
	case a == nil:
		return "searching the web"
	case a.Type == "open_page":
		return "reading: " + orWord(hostOf(a.URL), "a page")
	case a.Type == "find_in_page":
		return fmt.Sprintf("finding %q in %s", extract.Clip(a.Pattern, 60), orWord(hostOf(a.URL), "a page"))
	}
	qs := a.Queries
	if len(qs) == 0 && a.Query != "" {
		qs = []string{a.Query}
	}
	if len(qs) == 0 {
		return "searching the web"
	}
	return "searching: " + extract.Clip(strings.Join(qs, "; "), 160)
}

// callState is what the SDK's middleware saw of one call's HTTP exchanges:
// the last error answer (status, headers, body) and how many tries ran.
type callState struct {
	mu       sync.Mutex
	attempts int
	status   int
	header   map[string][]string
	body     []byte
	connErr  error
	okHdr    map[string][]string
}

type callKey struct{}

func (s *callState) failed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.status >= 400
}

func (s *callState) tries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.attempts
}

func (s *callState) okHeader() map[string][]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.okHdr
}

// result reads a final response: completed and incomplete answers are
// results; a failed one is an error (a 200 can carry a failure: openai-go
// responses/response.go; recorded in vercel/ai openai-error.1.chunks.txt).
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
			code, msg = r.Error.Code, r.Error.Message
		}
		return nil, failedError(code, msg)
	default:
		return nil, envelope.New(envelope.UpstreamError, "OpenAI answered with status %q instead of a finished search; try again", extract.Clip(r.Status, 40)).WithRetryable(true)
	}
}

// failedError is a response that failed after it started (status failed,
// or a stream "error" event): billed, so never retried here.
func failedError(code, msg string) *envelope.Error {
	msg = extract.Clip(msg, 200)
	switch code {
	case "insufficient_quota":
		return envelope.New(envelope.PermissionDenied, "the OpenAI account behind %s has no quota left (insufficient_quota); add credit or raise the budget at platform.openai.com/account/billing — retrying will not help", EnvAPIKey).
			WithRetryable(false).WithDetail("openai_code", code)
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
	return e
}

func withAttempts(e *envelope.Error, n int) *envelope.Error {
	if n > 1 {
		e = e.WithDetail("attempts", n)
	}
	return e
}
