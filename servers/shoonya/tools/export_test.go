package tools

import "context"

// ScripKeyForTest exposes the search cache's key to the external tests.
func ScripKeyForTest(ctx context.Context, exchange, text string) string {
	return scripKey(ctx, exchange, text)
}
