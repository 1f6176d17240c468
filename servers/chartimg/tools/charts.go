package tools

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/chart"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/client"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/validate"
)

// ConstructIn is construct_chart_config's input.
type ConstructIn struct {
	NaturalLanguage string          `json:"naturalLanguage,omitempty" jsonschema:"e.g. 'Apple daily, 50 and 200 day MAs, RSI, dark'" mcp:"maxLength=2000"`
	Symbol          string          `json:"symbol,omitempty" jsonschema:"EXCHANGE:SYMBOL, ticker or name" mcp:"maxLength=100"`
	Exchange        string          `json:"exchange,omitempty" jsonschema:"for a bare ticker, or to move a crypto" mcp:"maxLength=40"`
	Preferences     *nl.Preferences `json:"preferences,omitempty"`
	// structured: resolved against the docs' tables, they win over the text;
	// item shapes are in the description (a full schema per item would cost
	// every client on every tools/list)
	Studies  []map[string]any `json:"studies,omitempty" jsonschema:"[{name, inputs, overrides}]"`
	Drawings []map[string]any `json:"drawings,omitempty" jsonschema:"[{name, input, override}]"`
	Timezone string           `json:"timezone,omitempty" jsonschema:"e.g. America/New_York"`
}

// constructOut is nl.Result with the config typed as an object: its fields are
// the chart-img v2 request body (fetch_chart_documentation section parameters),
// and restating them costs every client on every tools/list.
type constructOut struct {
	Config    chart.Config `json:"config" mcp:"type=object"`
	Reasoning []string     `json:"reasoning"`
	Warnings  []string     `json:"warnings"`
}

func (s *Service) constructTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "construct_chart_config", Title: "Build chart config", Toolset: "charts",
		Description: `Plain-English chart request → chart-img v2 config, deterministic and local: names, tickers, ranges, intervals, indicators with inputs and levels (RSI 21), timezones, theme, size, price lines.
Arguments win over the text; studies/drawings/timezone take documented names and keys, else refused with the closest.
Next: validate_chart_config.`,
		Hints: toolkit.LocalRead},
		func(ctx context.Context, in ConstructIn) (constructOut, error) {
			req := nl.Request{Text: in.NaturalLanguage, Symbol: in.Symbol, Exchange: in.Exchange, Timezone: in.Timezone}
			var errs, derrs []nl.FieldError
			req.Studies, errs = nl.StudySpecs(in.Studies)
			req.Drawings, derrs = nl.DrawingSpecs(in.Drawings)
			if errs = append(errs, derrs...); len(errs) > 0 {
				return constructOut{}, fieldErrors(errs)
			}
			if in.Preferences != nil {
				req.Prefs = *in.Preferences
			}
			if strings.TrimSpace(req.Text) == "" && req.Symbol == "" && !req.HasStructured() {
				return constructOut{}, envelope.Invalid("naturalLanguage", "say what to chart: naturalLanguage, or symbol/studies/drawings/timezone")
			}
			r := s.current().builder.Build(req)
			if len(r.Errors) > 0 {
				return constructOut{}, fieldErrors(r.Errors)
			}
			return constructOut{Config: r.Config, Reasoning: r.Reasoning, Warnings: r.Warnings}, nil
		})
}

// fieldErrors answers structured fields that cannot be sent: the first in
// the message, all with their closest valid names in details.errors.
func fieldErrors(errs []nl.FieldError) error {
	e := errs[0]
	msg := e.Message
	if !strings.HasPrefix(msg, e.Field) {
		msg = e.Field + ": " + msg
	}
	if len(errs) > 1 {
		msg += fmt.Sprintf(" (and %d more in details.errors)", len(errs)-1)
	}
	return envelope.Invalid(e.Field, "%s", msg).WithDetail("errors", errs)
}

// ValidateIn is validate_chart_config's input.
type ValidateIn struct {
	Config    map[string]any `json:"config"`
	PlanLevel string         `json:"planLevel,omitempty" jsonschema:"default CHART_IMG_PLAN (unset: limits only warn)" mcp:"enum=BASIC|PRO|MEGA|ULTRA|ENTERPRISE"`
}

func (s *Service) validateTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "validate_chart_config", Title: "Validate chart config", Toolset: "charts",
		Description: `Check a chart-img v2 config before spending quota: every value against the docs (studies, inputs, bounds, timezones), the plan's size and studies+drawings limits.
Returns valid, errors/warnings by JSON path, suggestions, plan figures.`,
		Hints: toolkit.LocalRead},
		func(ctx context.Context, in ValidateIn) (validate.Result, error) {
			plan, err := s.plan(in.PlanLevel)
			if err != nil {
				return validate.Result{}, err
			}
			if in.Config == nil {
				return validate.Result{}, envelope.Invalid("config", "config is required: a chart-img v2 request body object")
			}
			return s.current().validator.Validate(in.Config, plan), nil
		})
}

func (s *Service) plan(name string) (chart.Plan, error) {
	if name == "" {
		name = s.c.Plan().Name
	}
	if name == "" {
		return chart.Plan{}, nil // unknown: the validator only warns about plan limits
	}
	p, ok := s.current().validator.Plan(name)
	if !ok {
		return p, envelope.Invalid("planLevel", "planLevel must be one of %s", strings.Join(chart.PlanNames, ", "))
	}
	return p, nil
}

// GenerateIn is generate_chart_image's input.
type GenerateIn struct {
	Config  map[string]any `json:"config"`
	Storage bool           `json:"storage,omitempty"`
	Format  string         `json:"format,omitempty" jsonschema:"overrides config.format" mcp:"enum=png|jpeg"`
}

// ImageOut is the chart's metadata; the image itself is an image content block.
type ImageOut struct {
	Symbol      string `json:"symbol"`
	Format      string `json:"format" mcp:"enum=png|jpeg"`
	MimeType    string `json:"-"` // on the image block
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Bytes       int    `json:"bytes,omitempty"`
	Plan        string `json:"plan"`
	GeneratedAt string `json:"generatedAt"`
	// the plan's daily maximum and what is left of it after this call, as
	// this server counts it; absent when the plan is unknown
	DailyLimit     int    `json:"dailyLimit,omitempty"`
	DailyRemaining *int   `json:"dailyRemaining,omitempty"`
	Storage        bool   `json:"-"` // the request's echo
	URL            string `json:"url,omitempty"`
	Expire         string `json:"expire,omitempty"`
	ETag           string `json:"-"`

	image  []byte
	layout string // the TradingView layout id (generate_layout_chart)
}

// ExtraContent adds the image so clients display it.
// With storage, a resource link to the public URL instead.
func (o ImageOut) ExtraContent() []mcp.Content {
	switch {
	case len(o.image) > 0:
		return []mcp.Content{mcp.NewImageContent(base64.StdEncoding.EncodeToString(o.image), o.MimeType)}
	case o.URL != "":
		name := o.Symbol + " chart"
		if o.layout != "" {
			name = strings.TrimSpace("TradingView layout " + o.layout + " " + o.Symbol)
		}
		return []mcp.Content{mcp.NewResourceLink(o.URL, name, "chart-img public image, deleted at "+o.Expire, o.MimeType)}
	}
	return nil
}

func (s *Service) generateTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "generate_chart_image", Title: "Render chart", Toolset: "charts",
		Description: `Render a chart-img v2 config as image content plus metadata; storage: a public URL and expiry instead.
Validated first (no quota spent on a bad one); spends plan quota; 429/5xx retried; plan limits → permission_denied.`,
		Hints: toolkit.Hints{ReadOnly: false, Destructive: false, Idempotent: true, OpenWorld: true}},
		func(ctx context.Context, in GenerateIn) (ImageOut, error) {
			if in.Config == nil {
				return ImageOut{}, envelope.Invalid("config", "config is required: a chart-img v2 request body object")
			}
			cfg := make(map[string]any, len(in.Config)+1)
			for k, v := range in.Config {
				cfg[k] = v
			}
			if in.Format != "" {
				cfg["format"] = in.Format
			}
			plan, err := s.plan("")
			if err != nil {
				return ImageOut{}, err
			}
			res := s.current().validator.Validate(cfg, plan)
			if !res.Valid {
				return ImageOut{}, rejected(res, "the config would be rejected (%s); fix it (validate_chart_config lists everything) — no quota was spent")
			}
			if plan.Name == "" {
				plan.Name = validate.Unknown
			}
			out := ImageOut{Plan: plan.Name, GeneratedAt: time.Now().UTC().Format(time.RFC3339), Storage: in.Storage}
			out.Symbol, _ = cfg["symbol"].(string)
			if out.Symbol == "" {
				out.Symbol = "BINANCE:BTCUSDT"
			}
			out.Format, _ = cfg["format"].(string)
			if out.Format == "" {
				out.Format = "png"
			}
			out.MimeType = "image/" + out.Format
			ctx, quota := client.WithQuota(ctx)
			if in.Storage {
				st, err := s.c.Store(ctx, cfg)
				if err != nil {
					return ImageOut{}, err
				}
				out.URL, out.Expire, out.ETag = st.URL, st.Expire, st.ETag
				out.Width, out.Height = intOr(cfg["width"], chart.DefaultWidth), intOr(cfg["height"], chart.DefaultHeight)
				out.quota(quota)
				return out, nil
			}
			img, err := s.c.Chart(ctx, cfg)
			if err != nil {
				return ImageOut{}, err
			}
			out.image, out.Bytes, out.MimeType, out.Width, out.Height = img.Bytes, len(img.Bytes), img.MIME, img.Width, img.Height
			out.Format = strings.TrimPrefix(img.MIME, "image/")
			out.quota(quota)
			return out, nil
		})
}

// rejected answers a config the validator refused before any quota is
// spent: the first four errors in the message (format's %s), all of them
// and the suggestions in details.
func rejected(res validate.Result, format string) error {
	var msgs []string
	for _, e := range res.Errors {
		if e.Severity == "error" && len(msgs) < 4 {
			msgs = append(msgs, e.Field+": "+e.Message)
		}
	}
	return envelope.Invalid("config", format, strings.Join(msgs, "; ")).
		WithDetail("errors", res.Errors).WithDetail("suggestions", res.Suggestions)
}

// quota copies the daily count into the result when the plan is known.
func (o *ImageOut) quota(q *client.Quota) {
	if q.Known {
		left := q.DailyRemaining
		o.DailyLimit, o.DailyRemaining = q.DailyLimit, &left
	}
}

func intOr(v any, d int) int {
	if f, ok := v.(float64); ok && f > 0 {
		return int(f)
	}
	return d
}
