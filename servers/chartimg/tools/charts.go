package tools

import (
	"context"
	"encoding/base64"
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
	NaturalLanguage string          `json:"naturalLanguage" jsonschema:"e.g. 'Apple daily, 50 and 200 day MAs, RSI, dark'" mcp:"minLength=1;maxLength=2000"`
	Symbol          string          `json:"symbol,omitempty" jsonschema:"EXCHANGE:SYMBOL, ticker or name" mcp:"maxLength=100"`
	Exchange        string          `json:"exchange,omitempty" jsonschema:"for a bare ticker, or to move a crypto" mcp:"maxLength=40"`
	Preferences     *nl.Preferences `json:"preferences,omitempty"`
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
		Description: `Turn a chart request in plain English into a chart-img v2 config, deterministically (no model, no network).
Understands names, tickers, ranges, intervals, indicators with inputs and levels (RSI 21), timezones, theme, style, size, price lines; other arguments override the text.
Returns the config and reasoning; anything unresolved is a warning, not a guess. Next: validate_chart_config.`,
		Hints: toolkit.LocalRead},
		func(ctx context.Context, in ConstructIn) (constructOut, error) {
			req := nl.Request{Text: in.NaturalLanguage, Symbol: in.Symbol, Exchange: in.Exchange}
			if in.Preferences != nil {
				req.Prefs = *in.Preferences
			}
			r := s.current().builder.Build(req)
			return constructOut{Config: r.Config, Reasoning: r.Reasoning, Warnings: r.Warnings}, nil
		})
}

// ValidateIn is validate_chart_config's input.
type ValidateIn struct {
	Config    map[string]any `json:"config"`
	PlanLevel string         `json:"planLevel,omitempty" jsonschema:"default CHART_IMG_PLAN (unset: limits only warn)" mcp:"enum=BASIC|PRO|MEGA|ULTRA|ENTERPRISE"`
}

func (s *Service) validateTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "validate_chart_config", Title: "Validate chart config", Toolset: "charts",
		Description: `Check a chart-img v2 config before spending quota: formats, every value against the docs (study names, input keys, bounds), the plan's size and studies+drawings limits.
Returns valid, errors and warnings by JSON path, suggestions, plan check (figures); warnings keep it valid. Next: generate_chart_image.`,
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

	image []byte
}

// ExtraContent adds the image so clients display it.
// With storage, a resource link to the public URL instead.
func (o ImageOut) ExtraContent() []mcp.Content {
	switch {
	case len(o.image) > 0:
		return []mcp.Content{mcp.NewImageContent(base64.StdEncoding.EncodeToString(o.image), o.MimeType)}
	case o.URL != "":
		return []mcp.Content{mcp.NewResourceLink(o.URL, o.Symbol+" chart", "chart-img public image, deleted at "+o.Expire, o.MimeType)}
	}
	return nil
}

func (s *Service) generateTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "generate_chart_image", Title: "Render chart", Toolset: "charts",
		Description: `Render a chart-img v2 config as image content plus metadata; with storage, a public URL and expiry instead.
Validated first (invalid → invalid_argument, no quota spent); each call spends plan quota; 429 and 5xx are retried; plan limits → permission_denied.
Related: construct_chart_config.`,
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
				var msgs []string
				for _, e := range res.Errors {
					if e.Severity == "error" && len(msgs) < 4 {
						msgs = append(msgs, e.Field+": "+e.Message)
					}
				}
				return ImageOut{}, envelope.Invalid("config", "the config would be rejected (%s); fix it (validate_chart_config lists everything) — no quota was spent", strings.Join(msgs, "; ")).
					WithDetail("errors", res.Errors).WithDetail("suggestions", res.Suggestions)
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
