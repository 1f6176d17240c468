package feed

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
	"github.com/mcpfleet/mcpfleet/servers/google-news-rss/query"
)

// An item's link (news.google.com/rss/articles/CBMi…) is a JavaScript
// interstitial, not a redirect (techempower-org/candela#1295). The
// publisher's URL comes from two Google requests (SSujitX/google-news-url-
// decoder googlenewsdecoder/_parse.py and decoder.py, v0.1.x; candela's
// GoogleNewsUrlDecoder): GET /rss/articles/{id}?hl&gl&ceid, whose page
// carries a signature (data-n-a-sg) and a timestamp (data-n-a-ts) on the
// c-wiz > div[jscontroller] element; then POST the Fbv4je rpc to
// /_/DotsSplashUi/data/batchexecute with f.req =
// [[["Fbv4je", "[\"garturlreq\",CTX,id,ts,sig]", null, "generic"]]],
// answered after the )]}' guard line by rows whose "wrb.fr" row for Fbv4je
// carries the JSON string ["garturlres","<publisher url>",…].
const (
	ArticlesPath     = "/rss/articles/"
	BatchExecutePath = "/_/DotsSplashUi/data/batchexecute"
	rpcDecode        = "Fbv4je"
)

// garturlCtx is the fixed request context every public decoder sends
// (SSujitX/google-news-url-decoder _parse.py _GARTURLREQ_CTX; the edition
// slot, "US:en" there, takes the item's edition).
func garturlCtx(ceid string) []any {
	return []any{
		[]any{"X", "X", []any{"X", "X"}, nil, nil, 1, 1, ceid, nil, 1, nil, nil, nil, nil, nil, 0, 1},
		"X", "X", 1, []any{1, 1, 1}, 1, 1, nil, 0, 0, nil, 0,
	}
}

// ArticleID is the opaque id of a Google News article link
// (https://news.google.com/rss/articles/{id}, /articles/{id} or /read/{id}
// on the configured host); ok is false for any other URL.
func ArticleID(link, base string) (string, bool) {
	u, err := url.Parse(link)
	if err != nil {
		return "", false
	}
	b, _ := url.Parse(base)
	if u.Host != "news.google.com" && (b == nil || !strings.EqualFold(u.Host, b.Host)) {
		return "", false
	}
	parts := strings.Split(strings.Trim(u.Path, "/"), "/")
	if len(parts) < 2 || (parts[len(parts)-2] != "articles" && parts[len(parts)-2] != "read") {
		return "", false
	}
	id := parts[len(parts)-1]
	if id == "" || len(id) > 2000 || strings.ContainsAny(id, "?#%") {
		return "", false
	}
	return id, true
}

// Undecodable is a Google link that Google answered but would not resolve;
// Why says what it answered. It is not worth asking again soon.
type Undecodable struct{ Why string }

func (u *Undecodable) Error() string { return u.Why }

// DecodeArticle resolves a Google News article id to its publisher's URL:
// two requests to Google, each from the request budget (a refusal, a
// throttle or a network failure is an envelope error; Google answering but
// not resolving is *Undecodable).
func (c *Client) DecodeArticle(ctx context.Context, id string, e query.Edition) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	resp, err := c.up.Do(ctx, upstream.Request{Op: "article page", Path: ArticlesPath + url.PathEscape(id),
		Query: url.Values{"hl": {e.HL}, "gl": {e.GL}, "ceid": {e.CEID}}, NoDetect: true, Timeout: c.timeout / maxAttempts})
	if err != nil {
		return "", c.noteThrottle(ctx, classify(err))
	}
	sig, ts, ok := decodingParams(resp.Body)
	if !ok {
		return "", &Undecodable{Why: "Google's article page carried no decoding signature (data-n-a-sg/data-n-a-ts): Google changed the page or served its JavaScript interstitial"}
	}
	req, _ := json.Marshal([]any{"garturlreq", garturlCtx(e.CEID), id, tsValue(ts), sig})
	freq, _ := json.Marshal([]any{[]any{[]any{rpcDecode, string(req), nil, "generic"}}})
	resp, err = c.up.Do(ctx, upstream.Request{Op: "batchexecute", Method: http.MethodPost, Path: BatchExecutePath,
		Form: url.Values{"f.req": {string(freq)}}, NoDetect: true, Timeout: c.timeout / maxAttempts})
	if err != nil {
		return "", c.noteThrottle(ctx, classify(err))
	}
	u, why := ParseBatchExecute(resp.Body)
	if why != "" {
		return "", &Undecodable{Why: why}
	}
	return u, nil
}

// noteThrottle holds the host after Google throttled a decode, as Fetch
// does for a feed.
func (c *Client) noteThrottle(ctx context.Context, err error) error {
	if !Throttled(err) {
		return err
	}
	t := err.(*envelope.Error)
	n := c.throttles.Add(1)
	if t.RetryAfter <= 0 {
		t = t.WithRetryAfter(ThrottleBackoff(int(n)))
	}
	if herr := c.budget.Hold(context.WithoutCancel(ctx), t.RetryAfter); herr != nil {
		c.log.Warn().Err(herr).Msg("google-news-rss: recording Google's throttle hold failed; the budget alone limits requests")
	}
	return t
}

// tsValue sends a numeric timestamp as a number (as the decoders do).
func tsValue(ts string) any {
	if n, err := strconv.ParseInt(ts, 10, 64); err == nil {
		return n
	}
	return ts
}

// decodingParams finds the first element carrying both data-n-a-sg and
// data-n-a-ts in an article page.
func decodingParams(page []byte) (sig, ts string, ok bool) {
	z := html.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return "", "", false
		case html.StartTagToken, html.SelfClosingTagToken:
			sig, ts = "", ""
			for more := true; more; {
				var k, v []byte
				k, v, more = z.TagAttr()
				switch string(k) {
				case "data-n-a-sg":
					sig = string(v)
				case "data-n-a-ts":
					ts = string(v)
				}
			}
			if sig != "" && ts != "" {
				return sig, ts, true
			}
		}
	}
}

// ParseBatchExecute reads the publisher URL from a batchexecute answer, or
// says why there is none.
func ParseBatchExecute(body []byte) (publisherURL, why string) {
	s := strings.TrimSpace(string(body))
	s = strings.TrimPrefix(s, ")]}'")
	s = strings.TrimSpace(s)
	var rows []json.RawMessage
	if err := json.Unmarshal([]byte(s), &rows); err != nil {
		// rt=c framing: length lines between JSON chunks; take the first array.
		if i := strings.Index(s, "[["); i >= 0 {
			dec := json.NewDecoder(strings.NewReader(s[i:]))
			if dec.Decode(&rows) != nil {
				return "", "Google's batchexecute answer is not the JSON it sends (" + extract.Clip(s, 60) + ")"
			}
		} else {
			return "", "Google's batchexecute answer is not the JSON it sends (" + extract.Clip(s, 60) + ")"
		}
	}
	for _, raw := range rows {
		var row []any
		if json.Unmarshal(raw, &row) != nil || len(row) < 3 {
			continue
		}
		if tag, _ := row[0].(string); tag == "er" {
			return "", "Google's batchexecute refused the decode request (an \"er\" row): the signature expired or the request shape changed"
		}
		if tag, _ := row[0].(string); tag != "wrb.fr" {
			continue
		}
		if rpc, _ := row[1].(string); rpc != rpcDecode {
			continue
		}
		payload, _ := row[2].(string)
		if payload == "" {
			return "", "Google's batchexecute answered the decode request with no payload (the article id was not accepted)"
		}
		var res []any
		if json.Unmarshal([]byte(payload), &res) != nil || len(res) < 2 {
			return "", "Google's batchexecute payload is not [\"garturlres\", url]"
		}
		if tag, _ := res[0].(string); tag != "garturlres" {
			return "", "Google's batchexecute payload is " + extract.Clip(tag, 40) + ", not garturlres"
		}
		u, _ := res[1].(string)
		pu, err := url.Parse(u)
		if err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || pu.Host == "" {
			return "", "Google's batchexecute answered a publisher URL that is not an http(s) address"
		}
		return u, ""
	}
	return "", "Google's batchexecute answer has no Fbv4je result row"
}
