package openai

import (
	"slices"
	"strings"
)

// The model rules: one table, each row citing its public source. The client
// reads it to settle the reasoning effort it sends and to name the model to
// move to; the fake (servers/web-search/fake) refuses what it refuses, so a
// request this table gets wrong fails a test.

// Efforts in order of how much the model reasons ("minimal" sits between
// none and low). The API names them in reasoning.effort (openai-go
// shared/shared.go ReasoningEffort: none, minimal, low, medium, high, xhigh,
// max; "Not all reasoning models support every value").
var Efforts = []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}

// ModelRule is what OpenAI publishes about one model line.
type ModelRule struct {
	// Models are the ids the row covers: exact ids, or a prefix ending in
	// "*" (the longest matching row wins).
	Models []string
	// Efforts are the reasoning efforts the API accepts for the model; nil
	// for a model without reasoning, which refuses any reasoning object.
	Efforts []string
	// Shutdown is the deprecations page's shutdown date ("" none announced).
	Shutdown string
	// Replacement is the deprecations page's recommended replacement, ""
	// when the page names none (or the model is not retiring).
	Replacement string
	// Source cites the row.
	Source string
}

var (
	gpt6WithNone = []string{"none", "low", "medium", "high", "xhigh", "max"}
	gpt6         = []string{"low", "medium", "high", "xhigh", "max"}
	gpt5x        = []string{"none", "low", "medium", "high", "xhigh"}
	gpt51        = []string{"none", "low", "medium", "high"}
	gpt5         = []string{"minimal", "low", "medium", "high"}
	oSeries      = []string{"low", "medium", "high"}
)

const deprecations = "developers.openai.com/api/docs/deprecations (newest table, as re-read 2026-11-22)"

// Rules is the table. Deprecations rows: the 2026-06-11 notice (gpt-5,
// gpt-5-mini, gpt-5-nano and their -2025-08-07 snapshots off on 2026-12-11),
// the 2026-10-14 notice (gpt-4o, gpt-4o-mini, gpt-4.1, gpt-4.1-mini off on
// 2027-01-14) and the o3 / o3-pro / gpt-5-pro rows (replacement gpt-6.1-sol;
// the pro rows with reasoning.mode pro).
var Rules = []ModelRule{
	{Models: []string{"gpt-6-luna", "gpt-6-luna-*", "gpt-6-sol", "gpt-6-sol-*"}, Efforts: gpt6WithNone,
		Source: "gpt-6-luna model page (developers.openai.com/api/docs/models/gpt-6-luna: none … max, no minimal); vercel/ai packages/openai/src/openai-language-model-capabilities.ts allows none only for gpt-6-sol and gpt-6-luna; none recorded in vercel/ai gpt-6-luna-reasoning-none-sampling.json"},
	{Models: []string{"gpt-6*", "gpt-7*"}, Efforts: gpt6,
		Source: "vercel/ai packages/openai/src/openai-language-model-capabilities.ts (other gpt-6 models: low … max); gpt-6.1-sol refuses none and minimal (apidog \"How to use GPT-6.1 Sol API\"; BaronCyrus/dsh-packycode-api v1.4.2)"},
	{Models: []string{"gpt-5.2*", "gpt-5.3*", "gpt-5.4*", "gpt-5.5*", "gpt-5.6*"}, Efforts: gpt5x,
		Source: "OpenAI's GPT-5.2 announcement: \"none, low, medium, high, and for the first time, xhigh\" (quoted in stdapi-ai/stdapi.ai#8; numman-ali/opencode-openai-codex-auth#62); assumed: the same for the later gpt-5.x lines"},
	{Models: []string{"gpt-5.1", "gpt-5.1-2025-11-13"}, Efforts: gpt51, Shutdown: "2027-04-01",
		Source: "400 \"Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values are: 'none', 'low', 'medium', and 'high'.\" (param reasoning.effort, code unsupported_value: openai/openai-agents-python#2089, anomalyco/opencode#4451); shutdown: " + deprecations},
	{Models: []string{"gpt-5.1-codex*"}, Efforts: oSeries,
		Source: "400 \"Unsupported value: 'none' is not supported with the 'gpt-5.1-codex' model. Supported values are: 'low', 'medium', and 'high'.\" (openai/codex#6647)"},
	{Models: []string{"gpt-5-pro", "gpt-5-pro-*"}, Efforts: []string{"high"}, Replacement: "gpt-6.1-sol",
		Source: "gpt-5-pro model page (high only; anomalyco/opencode#3474); replacement: " + deprecations},
	{Models: []string{"gpt-5", "gpt-5-2025-08-07"}, Efforts: gpt5, Shutdown: "2026-12-11", Replacement: "gpt-6.1-sol",
		Source: "gpt-5 model page (minimal … high); " + deprecations},
	{Models: []string{"gpt-5-mini", "gpt-5-mini-2025-08-07"}, Efforts: gpt5, Shutdown: "2026-12-11", Replacement: "gpt-6.1-terra",
		Source: "gpt-5-mini model page (minimal … high); " + deprecations},
	{Models: []string{"gpt-5-nano", "gpt-5-nano-2025-08-07"}, Efforts: gpt5, Shutdown: "2026-12-11", Replacement: "gpt-6-luna",
		Source: "gpt-5-nano model page (minimal … high; \"we recommend starting with GPT-6 Luna\"); " + deprecations},
	{Models: []string{"o3", "o3-2025-04-16", "o3-pro", "o3-pro-2025-06-10"}, Efforts: oSeries, Replacement: "gpt-6.1-sol",
		Source: "o3 / o3-pro model pages (low, medium, high); replacement: " + deprecations},
	{Models: []string{"o4-mini", "o4-mini-2025-04-16"}, Efforts: oSeries, Shutdown: "2026-10-23",
		Source: "o4-mini model page (low, medium, high); " + deprecations + " names no replacement (gpt-5.6-terra only in a third-party copy)"},
	{Models: []string{"o1*", "o3*", "o4*"}, Efforts: oSeries,
		Source: "o-series model pages (low, medium, high)"},
	{Models: []string{"gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini"}, Shutdown: "2027-01-14", Replacement: "gpt-6-luna",
		Source: "no reasoning (a reasoning object is refused: vercel/ai reasoning-model-temperature-error.json's kind); " + deprecations + ", 2026-10-14 notice"},
	{Models: []string{"gpt-4.1-nano"}, Shutdown: "2026-10-23",
		Source: "no reasoning; " + deprecations + " names no replacement"},
	{Models: []string{"gpt-4*"},
		Source: "no reasoning (gpt-4 line)"},
}

// RuleFor is the row for model (ok false: no row, nothing known).
func RuleFor(model string) (ModelRule, bool) {
	best, bestLen := ModelRule{}, -1
	for _, r := range Rules {
		for _, m := range r.Models {
			n := -1
			switch p, wild := strings.CutSuffix(m, "*"); {
			case !wild && m == model:
				n = len(m) + 1 // an exact id beats any prefix
			case wild && strings.HasPrefix(model, p):
				n = len(p)
			}
			if n > bestLen {
				best, bestLen = r, n
			}
		}
	}
	return best, bestLen >= 0
}

// Reasons reports whether the model takes a reasoning object (unknown
// models are assumed to: every current model line does).
func Reasons(model string) bool {
	r, ok := RuleFor(model)
	return !ok || r.Efforts != nil
}

// Accepts reports whether the API takes effort for model with web_search
// (unknown models: any effort but minimal).
func Accepts(model, effort string) bool {
	if effort == "minimal" {
		return false // web_search refuses it on every model (see settleEffort)
	}
	r, ok := RuleFor(model)
	return !ok || slices.Contains(r.Efforts, effort)
}

// Nearest is the accepted effort nearest to effort in Efforts' order, ties
// going up (more reasoning rather than a refusal or a worse answer);
// minimal never, since web_search refuses it. "" when the model has no
// reasoning.
func Nearest(model, effort string) string {
	r, ok := RuleFor(model)
	if !ok {
		if effort == "minimal" {
			return "low"
		}
		return effort
	}
	at := slices.Index(Efforts, effort)
	best, dist := "", len(Efforts)+1
	for _, e := range r.Efforts {
		if e == "minimal" {
			continue
		}
		d := slices.Index(Efforts, e) - at
		if d < 0 {
			d = -d*2 + 1 // below: a tie loses to the effort above
		} else {
			d *= 2
		}
		if d < dist {
			best, dist = e, d
		}
	}
	return best
}

// ReplacementFor is OpenAI's recommended replacement for model ("" when
// the deprecations table names none).
func ReplacementFor(model string) string {
	r, _ := RuleFor(model)
	return r.Replacement
}
