package client

import (
	"bytes"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// Cloudflare recognises the HTML page Cloudflare sends in front of Polymarket
// when it filters or throttles a client (403 "Attention Required!",
// source: py-clob-client#91, #101, #143), and any other HTML
// error page: such a body is never parsed as JSON.
func Cloudflare(status int, body []byte) *envelope.Error {
	if status >= 200 && status <= 299 || !isHTML(body) {
		return nil
	}
	return cloudflareError("", status)
}

func isHTML(body []byte) bool {
	t := bytes.TrimSpace(body)
	if len(t) > 512 {
		t = t[:512]
	}
	return len(t) > 0 && t[0] == '<' || bytes.Contains(bytes.ToLower(t), []byte("<html"))
}

func cloudflareError(op string, status int) *envelope.Error {
	where := "polymarket"
	if op != "" {
		where += " " + op
	}
	e := envelope.New(envelope.UpstreamUnavailable,
		"%s: Polymarket's Cloudflare front answered with an HTML page (HTTP %d, e.g. \"Attention Required!\") instead of data: the request was throttled or filtered; wait a minute and retry, and keep calls under the per-user limits", where, status).
		WithRetryable(true).WithDetail("http_status", status)
	return e
}

// TooEarly maps 425 "service not ready", which Polymarket answers during
// volatility (source: py-clob-client#273, confirmed by support); the client retries
// it inside the call's deadline before this error reaches a tool.
func TooEarly(status int, _ []byte) *envelope.Error {
	if status != 425 {
		return nil
	}
	return envelope.New(envelope.UpstreamUnavailable, "Polymarket answered 425 (service not ready); retry in a few seconds").
		WithRetryable(true).WithDetail("http_status", 425)
}
