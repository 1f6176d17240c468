package tools

import (
	"context"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/client"
	"github.com/mcpfleet/mcpfleet/servers/polymarket/feed"
)

func all() []toolkit.Tool {
	svc := NewService(client.New(client.Config{}), nil, PublicPerMinute, UserPerMinute)
	return append(All(svc), FeedTools(svc, feed.New(context.Background(), feed.Options{}))...)
}

// Golden tool definitions (UPDATE_TOOLSNAPS=1 rewrites them) and the fleet's
// lint: hints all set, read-only and open-world, output schemas, array items.
func TestToolSnapshots(t *testing.T) {
	servetest.Snapshot(t, all(), "testdata/toolsnaps")
}

func TestToolLint(t *testing.T) {
	ts := all()
	servetest.Lint(t, ts)
	for _, tl := range ts {
		a := tl.Tool.Annotations
		if !*a.ReadOnlyHint || !*a.OpenWorldHint || *a.DestructiveHint {
			t.Errorf("%s: want read-only, open-world, not destructive", tl.Name())
		}
	}
}
