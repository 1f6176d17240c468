package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpfleet/mcpfleet/pkg/extract"
	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal (progress bars, line editing).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressPrinter renders progress notifications: a bar redrawn in place on a
// terminal, one line per update otherwise.
func progressPrinter(w io.Writer) (func(mcp.ProgressNotificationParams), func()) {
	tty := isTerminal(w)
	drawn := false
	update := func(p mcp.ProgressNotificationParams) {
		pct := -1.0
		if p.Total > 0 {
			pct = 100 * p.Progress / p.Total
		} else if p.Progress >= 0 && p.Progress <= 100 {
			pct = p.Progress
		}
		msg := strings.TrimSpace(p.Message)
		if !tty {
			if pct >= 0 {
				fmt.Fprintf(w, "progress %3.0f%% %s\n", pct, msg)
			} else {
				fmt.Fprintf(w, "progress %s\n", msg)
			}
			return
		}
		const width = 30
		filled := 0
		if pct >= 0 {
			filled = int(pct / 100 * width)
		}
		filled = max(0, min(width, filled))
		msg = extract.Cut(msg, 39)
		fmt.Fprintf(w, "\r[%s%s] %3.0f%% %-40s", strings.Repeat("#", filled), strings.Repeat(".", width-filled), max(pct, 0), msg)
		drawn = true
	}
	finish := func() {
		if tty && drawn {
			fmt.Fprintln(w)
		}
	}
	return update, finish
}

// renderResult prints a result for a person: errors as one line, structured
// content as indented JSON, text otherwise; images are saved or described.
func renderResult(w io.Writer, res *mcp.CallToolResult, tool, saveDir string) error {
	var texts []string
	images := 0
	for _, c := range res.Content {
		switch x := c.(type) {
		case mcp.TextContent:
			texts = append(texts, x.Text)
		case mcp.ImageContent:
			images++
		}
	}
	switch {
	case res.IsError:
		fmt.Fprintln(w, "error:", strings.Join(texts, "\n"))
	case res.StructuredContent != nil:
		b, err := json.MarshalIndent(res.StructuredContent, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintln(w, string(b))
	default:
		fmt.Fprintln(w, strings.Join(texts, "\n"))
	}
	if images == 0 {
		return nil
	}
	if saveDir == "" {
		fmt.Fprintf(w, "(%d image(s) in the result; --save-images DIR saves them)\n", images)
		return nil
	}
	paths, err := saveImages(res, saveDir, tool)
	for _, p := range paths {
		fmt.Fprintln(w, "saved image:", p)
	}
	return err
}

// callJSON is the `call` command's machine-readable output.
func callJSON(w io.Writer, res *mcp.CallToolResult, saved []string) {
	out := map[string]any{"isError": res.IsError}
	if res.StructuredContent != nil {
		out["structuredContent"] = res.StructuredContent
	} else {
		var texts []string
		for _, c := range res.Content {
			if tc, ok := c.(mcp.TextContent); ok {
				texts = append(texts, tc.Text)
			}
		}
		out["text"] = strings.Join(texts, "\n")
	}
	for _, c := range res.Content {
		if ic, ok := c.(mcp.ImageContent); ok {
			out["image"] = map[string]any{"mimeType": ic.MIMEType, "base64Bytes": len(ic.Data)}
		}
	}
	if len(saved) > 0 {
		out["savedImages"] = saved
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(out)
}

// describeArgs renders a tool's input schema: one line per argument with its
// type, required mark, default, enum or bounds, and description.
func describeArgs(schema json.RawMessage) []string {
	var s struct {
		Properties map[string]map[string]any `json:"properties"`
		Required   []string                  `json:"required"`
	}
	if json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return nil
	}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if req[names[i]] != req[names[j]] {
			return req[names[i]]
		}
		return names[i] < names[j]
	})
	var out []string
	for _, n := range names {
		p := s.Properties[n]
		line := n + " " + typeOf(p)
		if req[n] {
			line += " (required)"
		}
		if v, ok := p["default"]; ok {
			line += " default " + compact(v)
		}
		if v, ok := p["enum"].([]any); ok {
			parts := make([]string, len(v))
			for i, e := range v {
				parts[i] = compact(e)
			}
			line += " one of " + strings.Join(parts, "|")
		}
		var bounds []string
		for _, k := range []string{"minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems"} {
			if v, ok := p[k]; ok {
				bounds = append(bounds, k+" "+compact(v))
			}
		}
		if len(bounds) > 0 {
			line += " [" + strings.Join(bounds, ", ") + "]"
		}
		if d, ok := p["description"].(string); ok && d != "" {
			line += " — " + d
		}
		out = append(out, line)
	}
	return out
}

func typeOf(p map[string]any) string {
	switch t := p["type"].(type) {
	case string:
		if t == "array" {
			if items, ok := p["items"].(map[string]any); ok {
				return typeOf(items) + "[]"
			}
		}
		return t
	case []any:
		parts := make([]string, len(t))
		for i, x := range t {
			parts[i] = fmt.Sprint(x)
		}
		return strings.Join(parts, "|")
	}
	return "any"
}

func compact(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// cliVersion is mcpfleet's own version: -ldflags "-X main.version=…" or build info.
func cliVersion() string {
	if version != "dev" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v := bi.Main.Version
		if v == "" || v == "(devel)" {
			v = "dev"
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				v += " (" + s.Value[:12] + ")"
			}
		}
		return v + " " + bi.GoVersion
	}
	return "dev"
}

var version = "dev"
