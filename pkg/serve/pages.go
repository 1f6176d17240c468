package serve

import (
	"net/http"
	"net/url"
	"os"
	"strings"
)

// HandlePage serves h at pattern beside /mcp on the HTTP transport: a page
// a person opens in a browser (an order confirmation, say), not an MCP
// route. It passes no bearer check (a browser has no token): h must
// authenticate its own requests, e.g. by an unguessable id in the path. On
// stdio it is never served; see HTTPBase.
func (r *Registry) HandlePage(pattern string, h http.Handler) {
	if r.pages == nil {
		r.pages = map[string]http.Handler{}
	}
	r.pages[pattern] = h
}

// HTTPBase is where a person's browser reaches this server's pages: the
// origin (and path prefix) of MCPFLEET_PUBLIC_URL without its /mcp, else
// http://<--addr>. It is "" on the stdio transport, where a server that
// needs a page opens its own loopback listener.
func (r *Registry) HTTPBase() string {
	if r.transport != "http" {
		return ""
	}
	if pub := os.Getenv("MCPFLEET_PUBLIC_URL"); pub != "" {
		if u, err := url.Parse(pub); err == nil && u.Host != "" {
			u.Path = strings.TrimSuffix(strings.TrimSuffix(u.Path, "/"), "/mcp")
			u.RawQuery, u.Fragment = "", ""
			return strings.TrimSuffix(u.String(), "/")
		}
	}
	return "http://" + r.addr
}

// mountPages adds the registered pages to mux.
func mountPages(b *Built, mux *http.ServeMux) {
	for p, h := range b.Registry.pages {
		mux.Handle(p, h)
	}
}
