package serve

import "testing"

// TestHTTPBase: where a person's browser reaches a server's pages.
func TestHTTPBase(t *testing.T) {
	for _, tc := range []struct {
		transport, addr, public, want string
	}{
		{"stdio", "127.0.0.1:8702", "", ""},
		{"stdio", "127.0.0.1:8702", "https://mcp.example/mcp", ""},
		{"http", "127.0.0.1:8702", "", "http://127.0.0.1:8702"},
		{"http", "127.0.0.1:8702", "https://mcp.example/mcp", "https://mcp.example"},
		{"http", "127.0.0.1:8702", "https://mcp.example/mcp/", "https://mcp.example"},
		{"http", "127.0.0.1:8702", "https://mcp.example/fleet/shoonya/mcp?x=1#f", "https://mcp.example/fleet/shoonya"},
		{"http", "127.0.0.1:8702", "not a url", "http://127.0.0.1:8702"},
	} {
		t.Setenv("MCPFLEET_PUBLIC_URL", tc.public)
		r := &Registry{transport: tc.transport, addr: tc.addr}
		if got := r.HTTPBase(); got != tc.want {
			t.Errorf("%s %s public %q: %q, want %q", tc.transport, tc.addr, tc.public, got, tc.want)
		}
	}
}
