package main

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Listing is what a server answers over stdio: the source of every bundle's
// tools and prompts, so nothing is kept by hand.
type Listing struct {
	Instructions string
	Tools        []mcp.Tool
	Prompts      []mcp.Prompt
}

// probe starts bin over stdio with env (no credentials) and lists its tools
// and prompts. args are the server's flags (none for the default stdio).
func probe(ctx context.Context, bin string, env, args []string) (Listing, error) {
	tr := transport.NewStdio(bin, env, args...)
	c := client.NewClient(tr)
	if err := c.Start(ctx); err != nil {
		return Listing{}, fmt.Errorf("start %s: %w", bin, err)
	}
	defer c.Close()
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "mkdist", Version: "1"}
	res, err := c.Initialize(ctx, init)
	if err != nil {
		return Listing{}, fmt.Errorf("initialize %s: %w", bin, err)
	}
	var l Listing
	l.Instructions = res.Instructions
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return Listing{}, fmt.Errorf("tools/list %s: %w", bin, err)
	}
	l.Tools = tools.Tools
	if res.Capabilities.Prompts != nil {
		ps, err := c.ListPrompts(ctx, mcp.ListPromptsRequest{})
		if err != nil {
			return Listing{}, fmt.Errorf("prompts/list %s: %w", bin, err)
		}
		l.Prompts = ps.Prompts
	}
	return l, nil
}
