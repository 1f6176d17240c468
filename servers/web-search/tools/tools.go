// Package tools defines web-search's MCP tools: search_web (a cited
// answer from OpenAI's web_search, within a per-user budget),
// get_search_capabilities (that budget and the honest semantics, no search)
// and fetch_page (one page read through pkg/pagereader, no OpenAI cost).
package tools

import "github.com/mcpfleet/mcpfleet/pkg/toolkit"

// All returns the tools.
func All(s *Service) []toolkit.Tool {
	return []toolkit.Tool{s.searchTool(), s.capsTool(), s.pages.fetchTool()}
}
