package serve

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
)

// Alias is another name a tool answers to without being listed: tools/list
// (and what every client pays for it) does not grow, yet a call by an older
// or a foreign name still reaches the tool. Args, when set, renames or
// rewrites the arguments before the tool validates them (it gets a copy it
// may change, never nil).
type Alias struct {
	Name   string
	Target string
	Args   func(map[string]any) map[string]any
}

// AddAliases registers aliases of served tools; an alias of a tool the
// filters dropped is dropped too, so it cannot reach what --tools or
// --read-only removed. The first alias of a name wins; a served tool's own
// name is never shadowed.
func (r *Registry) AddAliases(as ...Alias) {
	served := map[string]bool{}
	for _, t := range r.tools {
		served[t.Name()] = true
	}
	for _, a := range as {
		if !served[a.Target] || served[a.Name] {
			continue
		}
		if _, dup := r.aliases[a.Name]; dup {
			continue
		}
		if r.aliases == nil {
			r.aliases = map[string]Alias{}
			// mcp-go looks the tool up after the before-call hooks, with the
			// request they were given: renaming it there routes the call
			r.Server.GetHooks().AddBeforeCallTool(r.resolveAlias)
		}
		r.aliases[a.Name] = a
	}
}

// resolveAlias turns a call by an alias into a call of its tool.
func (r *Registry) resolveAlias(_ context.Context, _ any, req *mcp.CallToolRequest) {
	a, ok := r.aliases[req.Params.Name]
	if !ok {
		return
	}
	req.Params.Name = a.Target
	if a.Args == nil {
		return
	}
	args := map[string]any{}
	if m, ok := req.Params.Arguments.(map[string]any); ok {
		for k, v := range m {
			args[k] = v
		}
	}
	req.Params.Arguments = a.Args(args)
	req.Params.RawArguments = nil // read before Arguments: the rewrite must win
}
