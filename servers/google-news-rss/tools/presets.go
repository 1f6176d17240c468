package tools

import (
	_ "embed"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// schemas.json is this server's tool schemas derived ahead of time
// (servetest.Presets writes it with UPDATE_TOOLSNAPS=1), so the server starts
// without deriving them from Go types (faster cold start); an entry whose types have
// changed since is ignored, never served.
//
//go:embed schemas.json
var schemaPresets []byte

func init() { _ = toolkit.UsePresets(schemaPresets) }
