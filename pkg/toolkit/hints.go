package toolkit

import "github.com/mark3labs/mcp-go/mcp"

// Hints are the four MCP tool annotations, always all set: mcp.NewTool would
// otherwise advertise destructiveHint:true and openWorldHint:true by default.
type Hints struct {
	ReadOnly    bool // the tool changes nothing anywhere
	Destructive bool // the tool may destroy or irreversibly change something (orders, cancels)
	Idempotent  bool // calling again with the same arguments has no further effect
	OpenWorld   bool // the tool talks to something outside this process (an upstream API)
}

// Common hint sets.
var (
	// LocalRead computes from its input only (ziwei, config builders).
	LocalRead = Hints{ReadOnly: true, Idempotent: true}
	// RemoteRead reads from an upstream.
	RemoteRead = Hints{ReadOnly: true, Idempotent: true, OpenWorld: true}
	// RemoteWrite changes state upstream in a way that is not destructive (start a job).
	RemoteWrite = Hints{OpenWorld: true}
	// RemoteDestructive changes state upstream irreversibly (orders, cancellation).
	RemoteDestructive = Hints{Destructive: true, OpenWorld: true}
	// LocalWrite changes local state (a rules file).
	LocalWrite = Hints{Idempotent: true}
)

func (h Hints) annotation(title string) mcp.ToolAnnotation {
	b := func(v bool) *bool { return &v }
	return mcp.ToolAnnotation{
		Title:           title,
		ReadOnlyHint:    b(h.ReadOnly),
		DestructiveHint: b(h.Destructive),
		IdempotentHint:  b(h.Idempotent),
		OpenWorldHint:   b(h.OpenWorld),
	}
}
