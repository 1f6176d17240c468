package fake

// v2: POST /v2/tradingview/advanced-chart and /storage, the body checks behind its 422s and 403s.

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
)

type fieldError struct {
	Value    any    `json:"value"`
	Msg      string `json:"msg"`
	Param    string `json:"param"`
	Location string `json:"location"`
}

func (s *Server) chart(w http.ResponseWriter, r *http.Request, storage bool) {
	if r.Method != http.MethodPost {
		msg(w, 404, "Not Found") // assumed: the status and body of a wrong method
		return
	}
	p, key, ok := s.auth(w, r, false)
	if !ok {
		return
	}
	if sid := r.Header.Get("tradingview-session-id"); sid == "expired" {
		// docs › Errors: 409 {"message":"Session Disconnected"};
		// the "expired" session id that triggers it is a test convention.
		msg(w, 409, "Session Disconnected")
		return
	}
	// docs › Errors: 400 is a bad content type or invalid JSON; its body is not
	// documented (assumed {"message":"Bad Request"}).
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		msg(w, 400, "Bad Request")
		return
	}
	cfg := chart.Config{}
	var raw map[string]json.RawMessage
	if len(strings.TrimSpace(string(body))) > 0 {
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			msg(w, 400, "Bad Request")
			return
		}
		if json.Unmarshal(body, &raw) != nil || json.Unmarshal(body, &cfg) != nil {
			if json.Unmarshal(body, &raw) != nil {
				msg(w, 400, "Bad Request")
				return
			}
			// valid JSON of the wrong types: the API's type validation answers 422
			// (docs' changelog Jun 25 2024 "incorrect type validation error"; the item text is assumed)
			writeJSON(w, 422, []fieldError{{Value: "INVALID", Msg: "invalid value type", Param: "body", Location: "body"}})
			return
		}
	}
	if errs := s.check(cfg); len(errs) > 0 {
		// docs › Errors: 422 as a top-level array of {value,msg,param,location}.
		writeJSON(w, 422, errs)
		return
	}
	if cfg.Symbol != "" {
		ex, _, _ := strings.Cut(cfg.Symbol, ":")
		known := false
		for _, e := range s.o.Exchanges {
			known = known || e == ex
		}
		if !known && !strings.ContainsAny(cfg.Symbol, "()+*/") {
			// docs › Errors: 422 {"message":"Invalid Symbol"}; which symbols chart-img
			// knows is assumed (the exchanges of the fake's list).
			msg(w, 422, "Invalid Symbol")
			return
		}
	}
	width, height := cfg.Width, cfg.Height
	if width == 0 {
		width = chart.DefaultWidth
	}
	if height == 0 {
		height = chart.DefaultHeight
	}
	// docs › Request Limit and Errors: plan limits are 403s with these messages,
	// the parameter limit counts studies+drawings together (docs › Request Limit ›
	// Parameter Limit).
	// The order of the checks is assumed.
	if width > p.MaxWidth || height > p.MaxHeight {
		msg(w, 403, fmt.Sprintf("Exceed Max Usage Resolution Limit (%dx%d)", p.MaxWidth, p.MaxHeight))
		return
	}
	if n := len(cfg.Studies) + len(cfg.Drawings); n > p.MaxParameters {
		msg(w, 403, fmt.Sprintf("Exceed Max Usage Parameter Limit (%d)", p.MaxParameters))
		return
	}
	if cfg.Watermark != "" && !p.CustomMark {
		msg(w, 403, "Forbidden") // assumed: the answer to a watermark below ULTRA
		return
	}
	if !s.limit(w, key, p) {
		return
	}
	format := cfg.Format
	if format == "" {
		format = "png"
	}
	img, err := render(orDefault(cfg.Symbol, "BINANCE:BTCUSDT"), orDefault(cfg.Interval, "1D"), orDefault(cfg.Style, "candle"),
		orDefault(cfg.Theme, "light"), format, width, height, len(cfg.Studies))
	if err != nil {
		msg(w, 500, "Something Went Wrong") // docs › Errors: 500 body
		return
	}
	// docs › Advanced Chart: raw image bytes with its content type; To
	// Storage: {url, etag, expire}
	s.answerImage(w, r, img, format, storage, p, "")
}

// answerImage writes a rendered chart: the image bytes with their content
// type, or with storage the public copy's {url, etag, expire} (docs ›
// Advanced Chart To Storage; the layout's adds size: docs › Shared Layout To
// Storage), expiring after the plan's storage days (docs › Request Limit ›
// Storage Limit). prefix names the stored file apart ("layout-").
func (s *Server) answerImage(w http.ResponseWriter, r *http.Request, img []byte, format string, storage bool, p chart.Plan, prefix string) {
	mime := "image/" + format
	if !storage {
		w.Header().Set("Content-Type", mime)
		w.Header().Set("Content-Length", strconv.Itoa(len(img)))
		w.WriteHeader(200)
		_, _ = w.Write(img)
		return
	}
	sum := md5.Sum(img)
	etag := hex.EncodeToString(sum[:])
	name := prefix + etag[:11] + "." + map[string]string{"png": "png", "jpeg": "jpg"}[format]
	s.mu.Lock()
	s.stored[name] = stored{img, mime}
	base := s.base
	s.mu.Unlock()
	if base == "" {
		base = "http://" + r.Host
	}
	out := map[string]any{"url": base + "/storage/" + name, "etag": etag,
		"expire": s.o.Now().UTC().Add(time.Duration(p.StorageDays) * 24 * time.Hour).Format("2006-01-02T15:04:05.000Z")}
	if prefix != "" {
		out["size"] = len(img)
	}
	writeJSON(w, 200, out)
}

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// check is the API's body validation; failures are the 422 array (docs › Errors:
// the symbol and interval messages; the others are inferred).
func (s *Server) check(c chart.Config) []fieldError {
	var errs []fieldError
	add := func(v any, m, p string) { errs = append(errs, fieldError{v, m, p, "body"}) }
	if c.Symbol != "" && !chart.ValidSymbol(c.Symbol) {
		add(c.Symbol, "must be a valid tradingview EXCHANGE:SYMBOL", "symbol")
	}
	if c.Interval != "" && !chart.Contains(chart.Intervals, c.Interval) {
		add(c.Interval, "must be a supported interval", "interval")
	}
	if c.Style != "" && !chart.Contains(chart.Styles, c.Style) {
		add(c.Style, "must be a supported style", "style")
	}
	if c.Theme != "" && !chart.Contains(chart.Themes, c.Theme) {
		add(c.Theme, "must be a supported theme", "theme")
	}
	if c.Format != "" && !chart.Contains(chart.Formats, c.Format) {
		add(c.Format, "must be a supported format", "format")
	}
	switch v := c.Range.(type) {
	case nil:
	case string:
		if !chart.Contains(chart.Ranges, v) {
			add(v, "must be a supported range", "range")
		}
	case map[string]any:
		from, _ := v["from"].(string)
		to, _ := v["to"].(string)
		if _, err := time.Parse(time.RFC3339, from); err != nil {
			add(v["from"], "must be a valid ISO8601 datetime", "range.from")
		}
		if _, err := time.Parse(time.RFC3339, to); err != nil {
			add(v["to"], "must be a valid ISO8601 datetime", "range.to")
		}
	default:
		add(v, "must be a supported range", "range")
	}
	if c.Width != 0 && c.Width < chart.MinWidth {
		add(c.Width, "must be a minimum of 400", "width")
	}
	if c.Height != 0 && c.Height < chart.MinHeight {
		add(c.Height, "must be a minimum of 300", "height")
	}
	for i, st := range c.Studies {
		ind, ok := s.known.Indicator(st.Name)
		if !ok {
			add(st.Name, "must be a supported study name", fmt.Sprintf("studies[%d].name", i))
			continue
		}
		keys := make([]string, 0, len(st.Input))
		for k := range st.Input {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			found := false
			for _, in := range ind.Inputs {
				found = found || in.Key == k
			}
			if !found {
				add(k, "must be a supported study input", fmt.Sprintf("studies[%d].input.%s", i, k))
			}
		}
	}
	for i, d := range c.Drawings {
		if !chart.Contains(chart.Drawings, d.Name) {
			add(d.Name, "must be a supported drawing name", fmt.Sprintf("drawings[%d].name", i))
		}
	}
	return errs
}

// image serves a stored image at its public URL (stands in for r2.chart-img.com;
// assumed: the fake serves it itself so tests can fetch the URL).
func (s *Server) image(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/storage/")
	s.mu.Lock()
	st, ok := s.stored[name]
	s.mu.Unlock()
	if !ok {
		msg(w, 404, "Not Found")
		return
	}
	w.Header().Set("Content-Type", st.mime)
	_, _ = w.Write(st.body)
}
