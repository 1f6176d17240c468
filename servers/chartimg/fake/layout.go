package fake

// Shared layouts: POST /v2/tradingview/layout-chart/{LAYOUT_ID} and
// /v2/tradingview/layout-chart/storage/{LAYOUT_ID} (docs › TradingView
// Snapshot v2 › Shared Layout, Shared Layout To Storage; doc.chart-img.com, as
// copied in johnpaul-aquino/charttalk .docs/chart-img-raw-documentation).

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
)

// Layout is one TradingView layout the fake knows.
type Layout struct {
	Symbol, Interval string
	// Private layouts need a TradingView session (docs › Shared Layout: "The
	// layout must be shared to capture a snapshot without session-id and
	// session-id-sign").
	Private bool
	Studies int // drawn as the layout's own indicators
}

// TVSession is a TradingView session the fake accepts: sessionid → sessionid_sign.
type TVSession = map[string]string

func defaultLayouts() map[string]Layout {
	// 37wLAGgd is the docs' own example id; PRIVATE1 is a test convention.
	return map[string]Layout{
		"37wLAGgd": {Symbol: "BINANCE:BTCUSDT", Interval: "4h", Studies: 2},
		"OKyFXMzN": {Symbol: "NASDAQ:AAPL", Interval: "1D", Studies: 1},
		"PRIVATE1": {Symbol: "NASDAQ:TSLA", Interval: "1h", Private: true, Studies: 3},
	}
}

// layoutBody is the documented Shared Layout request body.
type layoutBody struct {
	Symbol           string  `json:"symbol"`
	Interval         string  `json:"interval"`
	Width            int     `json:"width"`
	Height           int     `json:"height"`
	Format           string  `json:"format"`
	ResetZoom        bool    `json:"resetZoom"`
	ZoomIn           int     `json:"zoomIn"`
	ZoomOut          int     `json:"zoomOut"`
	MoveLeft         int     `json:"moveLeft"`
	MoveRight        int     `json:"moveRight"`
	Watermark        string  `json:"watermark"`
	WatermarkSize    int     `json:"watermarkSize"`
	WatermarkOpacity float64 `json:"watermarkOpacity"`
}

func (s *Server) layout(w http.ResponseWriter, r *http.Request, storage bool) {
	if r.Method != http.MethodPost {
		msg(w, 404, "Not Found") // assumed: the status and body of a wrong method
		return
	}
	p, key, ok := s.auth(w, r, false)
	if !ok {
		return
	}
	prefix := "/v2/tradingview/layout-chart/"
	if storage {
		prefix += "storage/"
	}
	id := strings.TrimPrefix(r.URL.Path, prefix)
	sid, sign := r.Header.Get("tradingview-session-id"), r.Header.Get("tradingview-session-id-sign")
	session := false
	if sid != "" || sign != "" {
		// docs › Errors: 409 {"message":"Session Disconnected"}, "make sure that
		// you are using the current login sessionId"; a pair the fake does not
		// hold (or the "expired" test id) is a disconnected session.
		want, known := s.o.TVSessions[sid]
		if !known || want != sign || sid == "expired" {
			msg(w, 409, "Session Disconnected")
			return
		}
		session = true
	}
	lay, ok := s.o.Layouts[id]
	if !ok {
		// docs › Errors: 404 "Could not find the resource or page, including
		// TradingView LAYOUT_ID"; the body is assumed.
		msg(w, 404, "Not Found")
		return
	}
	if lay.Private && !session {
		// docs › Errors: 403 {"message":"Layout Forbidden"} for a private layout
		msg(w, 403, "Layout Forbidden")
		return
	}
	var b layoutBody
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		msg(w, 400, "Bad Request") // docs › Errors: 400 invalid JSON; body assumed
		return
	}
	if len(strings.TrimSpace(string(body))) > 0 && json.Unmarshal(body, &b) != nil {
		msg(w, 400, "Bad Request") // docs › Errors: 400 invalid JSON; body assumed
		return
	}
	if errs := checkLayout(b); len(errs) > 0 {
		writeJSON(w, 422, errs) // docs › Errors: 422 array; the layout items are inferred
		return
	}
	width, height := b.Width, b.Height
	if width == 0 {
		width = chart.DefaultWidth
	}
	if height == 0 {
		height = chart.DefaultHeight
	}
	// docs › Request Limit › Resolution Limit, with the Errors' 403 message
	if width > p.MaxWidth || height > p.MaxHeight {
		msg(w, 403, fmt.Sprintf("Exceed Max Usage Resolution Limit (%dx%d)", p.MaxWidth, p.MaxHeight))
		return
	}
	if b.Watermark != "" && !p.CustomMark {
		msg(w, 403, "Forbidden") // assumed: the answer to a watermark below ULTRA
		return
	}
	if !s.limit(w, key, p) {
		return
	}
	format := orDefault(b.Format, "png")
	img, err := render(orDefault(b.Symbol, lay.Symbol), orDefault(b.Interval, lay.Interval), "candle", "dark", format, width, height, lay.Studies)
	if err != nil {
		msg(w, 500, "Something Went Wrong") // docs › Errors: 500 body
		return
	}
	// docs › Shared Layout: the image bytes; To Storage: {url, etag, size, expire}
	s.answerImage(w, r, img, format, storage, p, "layout-")
}

// checkLayout is the documented Shared Layout body table's rules (interval
// list, format, Min 400/300, zoom 1..25, move 1..50, watermarkSize set); the
// 422 item texts are inferred from the advanced chart's.
func checkLayout(b layoutBody) []fieldError {
	var errs []fieldError
	add := func(v any, m, p string) { errs = append(errs, fieldError{v, m, p, "body"}) }
	if b.Symbol != "" && !chart.ValidSymbol(b.Symbol) {
		add(b.Symbol, "must be a valid tradingview EXCHANGE:SYMBOL", "symbol")
	}
	if b.Interval != "" && !chart.Contains(chart.Intervals, b.Interval) {
		add(b.Interval, "must be a supported interval", "interval")
	}
	if b.Format != "" && !chart.Contains(chart.Formats, b.Format) {
		add(b.Format, "must be a supported format", "format")
	}
	if b.Width != 0 && b.Width < chart.MinWidth {
		add(b.Width, "must be a minimum of 400", "width")
	}
	if b.Height != 0 && b.Height < chart.MinHeight {
		add(b.Height, "must be a minimum of 300", "height")
	}
	for _, f := range []struct {
		name   string
		v, max int
	}{{"zoomIn", b.ZoomIn, 25}, {"zoomOut", b.ZoomOut, 25}, {"moveLeft", b.MoveLeft, 50}, {"moveRight", b.MoveRight, 50}} {
		if f.v != 0 && (f.v < 1 || f.v > f.max) {
			add(f.v, fmt.Sprintf("must be between 1 and %d", f.max), f.name)
		}
	}
	return errs
}
