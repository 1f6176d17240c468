package tools

import (
	"context"

	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
)

// ScripKeyForTest exposes the search cache's key to the external tests.
func ScripKeyForTest(ctx context.Context, exchange, text string) string {
	return scripKey(ctx, exchange, text)
}

// SearchOutForTest is search_scrip's answer for list, as a fetch builds it.
func SearchOutForTest(list []noren.Scrip) SearchOut { return searchOut(list) }
