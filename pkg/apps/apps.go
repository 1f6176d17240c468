// Package apps serves MCP Apps (the io.modelcontextprotocol/ui extension,
// stable 2026-01-26): an HTML view a host shows beside a tool's answer, fed
// with that tool's own result over postMessage.
//
// A server installs its views once in Register. The extension is declared in
// the server's capabilities, every view is a ui:// resource with the spec's
// MIME type, and linked tools carry _meta.ui.resourceUri (plus the flat,
// deprecated ui/resourceUri key older hosts read) — but only in the tools/list
// a client sees when that client declared the extension, per request
// (2026-07-28) or per session (initialize). Every other client sees exactly
// the tools/list it saw before, and no result changes for anyone.
package apps

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const (
	// Extension is the MCP Apps extension identifier (ext-apps
	// specification/2026-01-26/apps.mdx, "Client<>Server Capability Negotiation").
	Extension = "io.modelcontextprotocol/ui"
	// MIMEType is the required MIME type of a view resource (same spec, "UI
	// Resource Format"; the older text/html+mcp is not accepted by hosts).
	MIMEType = "text/html;profile=mcp-app"
)

// View is one app: a self-contained HTML document served at URI.
type View struct {
	// URI is ui://<server>/<name>.html.
	URI string
	// Name and Description appear in resources/list.
	Name        string
	Description string
	// HTML is the whole document (inline script and style only: the default
	// CSP blocks every other origin and the view declares no domains).
	HTML string
	// Tools are the names of the tools whose results this view renders.
	Tools []string
}

// Config is what a server installs.
type Config struct {
	Views []View
	// ModelOnly are tools a view must never call (order placement): they are
	// listed with _meta.ui.visibility ["model"] to clients that declare the
	// extension, so hosts reject a view's tools/call to them.
	ModelOnly []string
}

// Install declares the extension, registers every view as a resource and
// installs the tools/list filter that links tools for declaring clients. It
// replaces the server's extensions map (mcp-go keeps one map per server, and
// no other part of the spine sets it). It runs once, before serving.
func Install(s *server.MCPServer, c Config) error {
	links := map[string]string{}
	for _, v := range c.Views {
		if err := v.check(); err != nil {
			return err
		}
		for _, t := range v.Tools {
			if prev, dup := links[t]; dup {
				return fmt.Errorf("apps: tool %q is linked to both %s and %s", t, prev, v.URI)
			}
			links[t] = v.URI
		}
		addResource(s, v)
	}
	modelOnly := map[string]bool{}
	for _, t := range c.ModelOnly {
		if _, linked := links[t]; linked {
			return fmt.Errorf("apps: tool %q is both linked to a view and model-only", t)
		}
		modelOnly[t] = true
	}
	server.WithExtensions(map[string]any{Extension: map[string]any{}})(s)
	server.WithToolFilter(func(ctx context.Context, tools []mcp.Tool) []mcp.Tool {
		if !ClientSupports(ctx) {
			return tools
		}
		out := make([]mcp.Tool, len(tools))
		for i, t := range tools {
			if uri, ok := links[t.Name]; ok {
				t.Meta = withMeta(t.Meta, map[string]any{"resourceUri": uri}, uri)
			} else if modelOnly[t.Name] {
				t.Meta = withMeta(t.Meta, map[string]any{"visibility": []string{"model"}}, "")
			}
			out[i] = t
		}
		return out
	})(s)
	return nil
}

func (v View) check() error {
	rest, ok := strings.CutPrefix(v.URI, "ui://")
	if !ok || !strings.HasSuffix(rest, ".html") || !strings.Contains(rest, "/") {
		return fmt.Errorf("apps: view URI %q must be ui://<server>/<name>.html", v.URI)
	}
	// Only the head is compared: lower-casing a whole ~300 KB view cost ~1 ms
	// of every start.
	if head := strings.TrimLeft(v.HTML, " \t\r\n"); len(head) < 15 || !strings.EqualFold(head[:15], "<!doctype html>") {
		return fmt.Errorf("apps: view %s must be an HTML5 document (<!doctype html> first)", v.URI)
	}
	if v.Name == "" || len(v.Tools) == 0 {
		return fmt.Errorf("apps: view %s needs a name and at least one linked tool", v.URI)
	}
	return nil
}

// uiMeta is the view's _meta.ui: no declared domains (the spec's default CSP
// then applies: inline script and style, nothing from any other origin) and
// an explicit border preference (host defaults vary). The same value goes on
// the resources/list entry and the resources/read content (DRAFT "Metadata
// Location": the content item wins; STABLE reads only the content item).
func uiMeta() map[string]any {
	return map[string]any{
		"csp":           map[string]any{"connectDomains": []string{}, "resourceDomains": []string{}},
		"prefersBorder": true,
	}
}

func addResource(s *server.MCPServer, v View) {
	res := mcp.NewResource(v.URI, v.Name, mcp.WithResourceDescription(v.Description), mcp.WithMIMEType(MIMEType))
	res.Meta = mcp.NewMetaFromMap(map[string]any{"ui": uiMeta()})
	html := v.HTML
	s.AddResource(res, func(ctx context.Context, r mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return []mcp.ResourceContents{mcp.TextResourceContents{
			URI: v.URI, MIMEType: MIMEType, Text: html, Meta: map[string]any{"ui": uiMeta()},
		}}, nil
	})
}

// withMeta returns a new _meta (never mutating the registered tool's) with
// ui set, plus the flat ui/resourceUri key when flatURI is not empty: it is
// deprecated, yet the official registerAppTool still writes it for older hosts
// (ext-apps src/server/index.ts).
func withMeta(old *mcp.Meta, ui map[string]any, flatURI string) *mcp.Meta {
	m := map[string]any{}
	if old != nil {
		for k, v := range old.AdditionalFields {
			m[k] = v
		}
		if old.ProgressToken != nil {
			m["progressToken"] = old.ProgressToken
		}
	}
	m["ui"] = ui
	if flatURI != "" {
		m["ui/resourceUri"] = flatURI
	}
	return mcp.NewMetaFromMap(m)
}

// ClientSupports reports whether the client behind ctx declared the extension
// with our MIME type (mimeTypes is REQUIRED in the declaration). A 2026-07-28
// request is judged on its own _meta capabilities only (servers must not infer
// them from earlier requests); a legacy request on its session's initialize.
func ClientSupports(ctx context.Context) bool {
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.Modern {
		return info.ClientCapabilities != nil && declares(info.ClientCapabilities.Extensions)
	}
	if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		return declares(s.GetClientCapabilities().Extensions)
	}
	return false
}

func declares(ext map[string]any) bool {
	decl, ok := ext[Extension].(map[string]any)
	if !ok {
		return false
	}
	switch types := decl["mimeTypes"].(type) {
	case []any: // decoded from JSON
		return slices.ContainsFunc(types, func(t any) bool { return t == MIMEType })
	case []string: // an in-process client's Go value
		return slices.Contains(types, MIMEType)
	}
	return false
}

// ClientCapabilities is the declaration a client (a test, a host) sends to
// receive the links.
func ClientCapabilities() mcp.ClientCapabilities {
	return mcp.ClientCapabilities{Extensions: map[string]any{
		Extension: map[string]any{"mimeTypes": []any{MIMEType}},
	}}
}
