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
	"github.com/mcpfleet/mcpfleet/servers/chartimg/nl"
	"github.com/mcpfleet/mcpfleet/servers/chartimg/validate"
)

// ConstructIn is construct_chart_config's input.
type ConstructIn struct {
	NaturalLanguage string          `json:"naturalLanguage" jsonschema:"the chart request in plain English, e.g. 'Apple daily with 50 and 200 day MAs and RSI over the last year, dark'" mcp:"minLength=1;maxLength=2000"`
	Symbol          string          `json:"symbol,omitempty" jsonschema:"overrides the text: EXCHANGE:SYMBOL, a ticker or a name" mcp:"maxLength=100"`
	Exchange        string          `json:"exchange,omitempty" jsonschema:"exchange id for a bare ticker, or to move a crypto to that exchange" mcp:"maxLength=40"`
	Preferences     *nl.Preferences `json:"preferences,omitempty" jsonschema:"override what the text says"`
}

func (s *Service) constructTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "construct_chart_config", Title: "Build a chart config from text", Toolset: "charts",
		Description: `Turn a chart request in plain English into a chart-img v2 config, deterministically (no model, no network).
Understands names and tickers (bitcoin, AAPL, EUR/USD, S&P 500, NASDAQ:MSFT), ranges (today, last week, 3 months, YTD, all time), intervals (15 minute, 4h, daily, weekly), indicators with inputs (RSI 21, 50 and 200 day MAs, 20 EMA, Bollinger Bands (20, 2.5), MACD 12 26 9 and the rest of the documented list), theme, style (candles, line, heikin ashi…), size (1280x720), horizontal lines at a price. preferences override the text.
Returns {config, reasoning, warnings}: anything it could not resolve is a warning, never a guess. Next: validate_chart_config, then generate_chart_image.`,
		Hints: toolkit.LocalRead},
		func(ctx context.Context, in ConstructIn) (nl.Result, error) {
			req := nl.Request{Text: in.NaturalLanguage, Symbol: in.Symbol, Exchange: in.Exchange}
			if in.Preferences != nil {
				req.Prefs = *in.Preferences
			}
			return s.current().builder.Build(req), nil
		})
}

// ValidateIn is validate_chart_config's input.
type ValidateIn struct {
	Config    map[string]any `json:"config" jsonschema:"a chart-img v2 request body (as construct_chart_config returns)"`
	PlanLevel string         `json:"planLevel,omitempty" jsonschema:"plan to check limits against; default CHART_IMG_PLAN (unset: limits only warn)" mcp:"enum=BASIC|PRO|MEGA|ULTRA|ENTERPRISE"`
}

func (s *Service) validateTool() toolkit.Tool {
	return toolkit.New(toolkit.Def{Name: "validate_chart_config", Title: "Validate a chart config", Toolset: "charts",
		Description: `Check a chart-img v2 config before spending quota: required fields and formats (symbol EXCHANGE:SYMBOL, ISO 8601 ranges), every value against the documented sets (intervals, ranges, styles, themes, study display names and their input keys, types and bounds, drawings' required inputs), and the plan's resolution and combined studies+drawings limit (BASIC 800x600 and 3, PRO 1920x1080 and 5, MEGA 1920x1600 and 10, ULTRA/ENTERPRISE 2048x1920 and 25/50).
Returns {valid, errors[{field,message,severity}], suggestions, rateLimitCheck}; warnings do not make it invalid. Related: construct_chart_config, generate_chart_image.`,
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
	Config  map[string]any `json:"config" jsonschema:"a chart-img v2 request body (as construct_chart_config returns)"`
	Storage bool           `json:"storage,omitempty" jsonschema:"save to chart-img's public storage and return its URL and expiry instead of the image bytes"`
	Format  string         `json:"format,omitempty" jsonschema:"image format; overrides config.format" mcp:"enum=png|jpeg"`
}

// ImageOut is the chart's metadata; the image itself is an image content block.
type ImageOut struct {
	Symbol      string `json:"symbol"`
	Format      string `json:"format" mcp:"enum=png|jpeg"`
	MimeType    string `json:"mimeType"`
	Width       int    `json:"width"`
	Height      int    `json:"height"`
	Bytes       int    `json:"bytes,omitempty" jsonschema:"image size; absent with storage"`
	Plan        string `json:"plan"`
	GeneratedAt string `json:"generatedAt"`
	Storage     bool   `json:"storage"`
	URL         string `json:"url,omitempty" jsonschema:"public image URL (storage only)"`
	Expire      string `json:"expire,omitempty" jsonschema:"when the stored image is deleted (storage only; plan's storage days)"`
	ETag        string `json:"etag,omitempty"`

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
	return toolkit.New(toolkit.Def{Name: "generate_chart_image", Title: "Render a chart image", Toolset: "charts",
		Description: `Render a chart-img v2 config as an image (PNG or JPEG) and return it as image content, plus metadata; with storage=true, chart-img stores it publicly and the URL and expiry are returned instead.
The config is validated first (invalid → invalid_argument with the errors, no quota spent); plan limits only when CHART_IMG_PLAN is set or a 403 revealed the plan. Each call spends one request of the plan's quota (per second and per day); 429 and 5xx are retried with backoff. Plan limits answer permission_denied naming the limit. Needs CHART_IMG_API_KEY.
Build configs with construct_chart_config; check them with validate_chart_config.`,
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
			if in.Storage {
				st, err := s.c.Store(ctx, cfg)
				if err != nil {
					return ImageOut{}, err
				}
				out.URL, out.Expire, out.ETag = st.URL, st.Expire, st.ETag
				out.Width, out.Height = intOr(cfg["width"], chart.DefaultWidth), intOr(cfg["height"], chart.DefaultHeight)
				return out, nil
			}
			img, err := s.c.Chart(ctx, cfg)
			if err != nil {
				return ImageOut{}, err
			}
			out.image, out.Bytes, out.MimeType, out.Width, out.Height = img.Bytes, len(img.Bytes), img.MIME, img.Width, img.Height
			out.Format = strings.TrimPrefix(img.MIME, "image/")
			return out, nil
		})
}

func intOr(v any, d int) int {
	if f, ok := v.(float64); ok && f > 0 {
		return int(f)
	}
	return d
}
