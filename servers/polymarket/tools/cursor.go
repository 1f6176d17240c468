package tools

import (
	"encoding/base64"
	"encoding/json"

	"github.com/mcpfleet/mcpfleet/pkg/envelope"
)

// cursor is the opaque next_cursor a paging tool returns: the paging style and
// position (a Gamma keyset cursor, an offset, or a search page). The model
// passes it back unchanged with the same filters.
type cursor struct {
	Tool   string `json:"t"`
	Keyset string `json:"k,omitempty"`
	Offset int    `json:"o,omitempty"`
	Phase  int    `json:"p,omitempty"` // state=all: 0 lists the open markets, 1 the closed ones
	// Scope names the query a keyset cursor continues (list_comments: the
	// thread and its order), so it is refused for another.
	Scope string `json:"s,omitempty"`
}

func (c cursor) encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor issued by tool; "" is the first page.
func decodeCursor(tool, s string) (cursor, error) {
	if s == "" {
		return cursor{Tool: tool}, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	var c cursor
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Tool != tool || c.Offset < 0 || c.Phase < 0 || c.Phase > 1 {
		return cursor{}, envelope.Invalid("cursor", "cursor is not a next_cursor that %s returned; pass it back unchanged, or leave it out for the first page", tool)
	}
	return c, nil
}

// OffsetCursor is the cursor an offset-paging tool would return at offset
// (tests walk to Gamma's cap without 100 calls).
func OffsetCursor(tool string, offset int) string { return cursor{Tool: tool, Offset: offset}.encode() }
