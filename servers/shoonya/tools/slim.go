package tools

import (
	"bytes"
	"encoding/json"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// slim drops "required" and "additionalProperties":false from every output
// schema: a model reading tools/list learns nothing from them (every field is
// always sent; results never carry extra fields), yet they were a large share
// of this server's tools/list bytes, which every client pays on connect.
// Input schemas keep both: there they reject bad arguments.
func slim(ts []toolkit.Tool) []toolkit.Tool {
	for i := range ts {
		var s any
		if err := json.Unmarshal(ts[i].Tool.RawOutputSchema, &s); err != nil {
			continue
		}
		stripOutput(s)
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // keep < > & as they are: they cost 6 bytes each escaped
		if err := enc.Encode(s); err == nil {
			ts[i].Tool.RawOutputSchema = bytes.TrimSpace(buf.Bytes())
		}
	}
	return ts
}

func stripOutput(v any) {
	switch v := v.(type) {
	case map[string]any:
		if _, ok := v["required"].([]any); ok { // a property named "required" is an object
			delete(v, "required")
		}
		if ap, ok := v["additionalProperties"].(bool); ok && !ap {
			delete(v, "additionalProperties")
		}
		for _, c := range v {
			stripOutput(c)
		}
	case []any:
		for _, c := range v {
			stripOutput(c)
		}
	}
}
