package client

import (
	"context"
	"net/http"
	"strings"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"github.com/mcpfleet/mcpfleet/pkg/upstream"
)

// The user's TradingView browser session, for private layouts and
// invite-only indicators: doc.chart-img.com "Shared Layout › Request Header"
// (tradingview-session-id = the sessionid cookie, tradingview-session-id-sign
// = sessionid_sign; "both … are required"). Sent to the layout routes only.
const (
	EnvTVSessionID   = "TRADINGVIEW_SESSION_ID"
	EnvTVSessionSign = "TRADINGVIEW_SESSION_ID_SIGN"
)

// TVSession is the pair of cookie values; both or neither.
type TVSession struct {
	ID, Sign string
}

// LayoutResult is a layout capture: the image, or with storage its URL.
type LayoutResult struct {
	Image  Image
	Stored Stored
}

// Layout captures the TradingView layout id (within the client's timeout,
// --timeout, 60 s by default: the docs ask for at least 60 s for layouts) with body (the Shared Layout
// request body, validated by the caller): POST
// /v2/tradingview/layout-chart/{id}, or …/layout-chart/storage/{id}.
func (c *Client) Layout(ctx context.Context, id string, body map[string]any, storage bool) (LayoutResult, error) {
	if err := c.needKey(); err != nil {
		return LayoutResult{}, err
	}
	if (c.tv.ID == "") != (c.tv.Sign == "") {
		return LayoutResult{}, envelope.New(envelope.Unauthenticated, "only one of %s and %s is set; chart-img needs both (the sessionid and sessionid_sign cookies of tradingview.com) or neither (shared layouts only)", EnvTVSessionID, EnvTVSessionSign)
	}
	base, op := "/v2/tradingview/layout-chart", "render layout"
	if storage {
		base, op = "/v2/tradingview/layout-chart/storage", "store layout"
	}
	path, err := upstream.Path(upstream.Lit(base), upstream.Arg("layoutId", id))
	if err != nil {
		return LayoutResult{}, err
	}
	var hdr map[string]string
	if c.tv.ID != "" {
		hdr = map[string]string{"tradingview-session-id": c.tv.ID, "tradingview-session-id-sign": c.tv.Sign}
	}
	if body == nil {
		body = map[string]any{}
	}
	resp, err := c.api.Do(ctx, upstream.Request{Op: op, Method: http.MethodPost, Path: path, JSON: body,
		Headers: hdr, Idempotent: true, NoDetect: !storage})
	if err != nil {
		return LayoutResult{}, c.layoutError(err, resp, id)
	}
	if !storage {
		img, err := ParseImage(resp.Header.Get("Content-Type"), resp.Body)
		return LayoutResult{Image: img}, err
	}
	var st Stored
	if err := extract.Into(resp.Body, &st); err != nil {
		return LayoutResult{}, envelope.New(envelope.UpstreamError, "chart-img layout storage answered an unreadable body (%v); try again", envelope.From(err).Message).WithCause(err)
	}
	if st.URL == "" {
		return LayoutResult{}, envelope.New(envelope.UpstreamError, "chart-img layout storage answered without a url; try again")
	}
	return LayoutResult{Stored: st}, nil
}

// layoutError names the fix for the layout answers of docs › Errors: 409
// "Session Disconnected" (the session cookies are stale), 403 "Layout
// Forbidden" (a private layout without, or with another account's, session),
// 404 (no such LAYOUT_ID).
func (c *Client) layoutError(err error, resp *upstream.Response, id string) error {
	e := envelope.From(err)
	status := 0
	if resp != nil {
		status = resp.Status
	}
	withSession := c.tv.ID != ""
	switch {
	case status == http.StatusConflict:
		return envelope.New(envelope.Conflict, "chart-img: TradingView session disconnected (409 Session Disconnected): sign in to tradingview.com in a browser, copy the current sessionid and sessionid_sign cookies into %s and %s, and restart the server (the values must match the live browser session)", EnvTVSessionID, EnvTVSessionSign).WithCause(err)
	case status == http.StatusForbidden && resp != nil && strings.Contains(string(resp.Body), "Layout Forbidden"):
		if withSession {
			return envelope.New(envelope.PermissionDenied, "chart-img: layout %s is private to another TradingView account (403 Layout Forbidden); share it on TradingView, or set %s/%s to the owner's session", id, EnvTVSessionID, EnvTVSessionSign).WithCause(err)
		}
		return envelope.New(envelope.PermissionDenied, "chart-img: layout %s is private (403 Layout Forbidden); share it on TradingView (layout menu › Share), or set %s and %s to the owner's tradingview.com sessionid and sessionid_sign cookies", id, EnvTVSessionID, EnvTVSessionSign).WithCause(err)
	case status == http.StatusNotFound:
		return envelope.New(envelope.NotFound, "chart-img: no TradingView layout %q (404); the id is the part after /chart/ in the layout's URL, e.g. OKyFXMzN in tradingview.com/chart/OKyFXMzN/", id).WithCause(err)
	}
	return e
}
