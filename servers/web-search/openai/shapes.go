package openai

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
)

// Shapes are what this client reads from OpenAI, per route (the Op of its
// requests). The contract tests assert the recorded answers through them,
// the live probe (drift-probe) checks real answers with them, and the
// run-time watch samples ordinary answers against them.
//
// Sources: the Responses API reference (response object: id, status,
// model, output[] items message / web_search_call / reasoning, content
// parts output_text / refusal, url_citation annotations, usage) and the
// recordings in testdata/contract (SOURCES.md); the error object
// {"error":{message,type,param,code}} of the API reference's error codes
// page; the model object (id, object "model", optional shutdown_date) of
// GET /v1/models/{id} (deprecations page, 2026-06-11 notice).
var Shapes = []drift.Shape{
	{Route: "search", Fields: []drift.Field{
		drift.Req("id", drift.String),
		drift.Req("status", drift.String).OneOf("completed", "incomplete", "failed", "in_progress", "queued", "cancelled"),
		drift.Req("model", drift.String),
		drift.Req("output", drift.Array),
		drift.Req("output[].type", drift.String).OneOf("message", "web_search_call", "reasoning"),
		drift.Opt("output[].action.type", drift.String).OneOf("search", "open_page", "find_in_page"),
		drift.Opt("output[].content[].type", drift.String).OneOf("output_text", "refusal"),
		drift.Opt("output[].content[].annotations[].type", drift.String).OneOf("url_citation"),
		drift.Opt("output[].content[].annotations[].start_index", drift.Number),
		drift.Opt("output[].content[].annotations[].end_index", drift.Number),
		drift.Opt("output[].content[].annotations[].url", drift.String),
		drift.Opt("usage.input_tokens", drift.Number),
		drift.Opt("usage.output_tokens", drift.Number),
		drift.Opt("incomplete_details.reason", drift.String),
	}, Error: apiErrorShape},
	{Route: "model", Fields: []drift.Field{
		drift.Req("id", drift.String),
		drift.Req("object", drift.String).OneOf("model"),
		drift.Opt("shutdown_date", drift.String, drift.Null),
	}, Error: apiErrorShape},
}

var apiErrorShape = []drift.Field{
	drift.Req("error.message", drift.String),
	drift.Opt("error.type", drift.String, drift.Null),
	drift.Opt("error.code", drift.String, drift.Null),
	drift.Opt("error.param", drift.String, drift.Null),
}

func init() { drift.Default().Register(Shapes...) }

// Probes are the read-only live checks of every route this client uses:
// the configured model's object (free), and one minimal search (paid:
// only with --include-paid; store:false, one search action at most).
func (c *Client) Probes(now time.Time) []drift.Probe {
	send := c.sender()
	search := c.BuildRequest(Query{Text: "What is the capital of France?", MaxResults: 1, SourcesOnly: true})
	search.MaxToolCalls = sdk.Int(1)
	return []drift.Probe{
		{Upstream: "OpenAI", Route: "model", Path: "/models/" + url.PathEscape(c.cfg.Model), Send: send,
			Extra: func(r drift.Reply) []drift.Finding { return shutdownFinding(c.cfg.Model, r, now) }},
		{Upstream: "OpenAI", Route: "search", Method: http.MethodPost, Path: "/responses", JSON: search, Paid: true, Send: send,
			ReadOnly: "a web search reads the web; store is false, so nothing is kept"},
	}
}

// shutdownFinding is a deprecation when OpenAI's shutdown_date of model is
// within WarnWithin of now (or past).
func shutdownFinding(model string, r drift.Reply, now time.Time) []drift.Finding {
	var l Lifecycle
	m, err := decodeModel(r.Body)
	if err != nil {
		return nil // the shape check reports it
	}
	l.Model = model
	l.apply(m, now)
	if w := l.Warning(); w != "" {
		return []drift.Finding{{Kind: drift.Deprecated, Path: "shutdown_date", Detail: w}}
	}
	return nil // none announced, or further away than WarnWithin
}

// sender sends drift probes through the SDK client (its base URL, key and
// middleware), once each, and hands back what came.
func (c *Client) sender() drift.Sender {
	return func(ctx context.Context, call drift.Call) (drift.Reply, error) {
		st := &callState{}
		var body []byte
		method := call.Method
		if method == "" {
			method = http.MethodGet
		}
		var params any
		if call.JSON != nil {
			params = call.JSON
		}
		err := c.sdk.Execute(context.WithValue(ctx, callKey{}, st), method, strings.TrimPrefix(call.Path, "/"), params, &body, option.WithMaxRetries(0))
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.status >= 400 {
			return drift.Reply{Status: st.status, Header: st.header, Body: st.body}, nil
		}
		if err != nil && st.status == 0 {
			return drift.Reply{}, envelope.New(envelope.UpstreamUnavailable, "could not reach OpenAI (%s)", extract.Clip(err.Error(), 160))
		}
		return drift.Reply{Status: st.status, Header: st.okHdr, Body: body}, nil
	}
}
