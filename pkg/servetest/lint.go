package servetest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/toolkit"
)

// Lint fails for a tool that leaves a hint unset, lacks a description or an
// output schema, has a top-level oneOf/anyOf/allOf (some clients reject the
// whole tools/list for it), an array without items, or a duplicate name.
func Lint(t testing.TB, tools []toolkit.Tool) {
	t.Helper()
	seen := map[string]bool{}
	for _, tl := range tools {
		tool := tl.Tool
		name := tool.Name
		if seen[name] {
			t.Errorf("%s: duplicate tool name", name)
		}
		seen[name] = true
		a := tool.Annotations
		if a.ReadOnlyHint == nil || a.DestructiveHint == nil || a.IdempotentHint == nil || a.OpenWorldHint == nil {
			t.Errorf("%s: every hint must be set explicitly (readOnly, destructive, idempotent, openWorld)", name)
		}
		if a.ReadOnlyHint != nil && a.DestructiveHint != nil && *a.ReadOnlyHint && *a.DestructiveHint {
			t.Errorf("%s: a read-only tool cannot be destructive", name)
		}
		if strings.TrimSpace(tool.Description) == "" {
			t.Errorf("%s: no description", name)
		}
		if len(tool.RawOutputSchema) == 0 && tool.OutputSchema.Type == "" {
			t.Errorf("%s: no output schema", name)
		}
		for _, raw := range []json.RawMessage{schemaOf(tool, true), schemaOf(tool, false)} {
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Errorf("%s: schema is not JSON: %v", name, err)
				continue
			}
			for _, k := range []string{"oneOf", "anyOf", "allOf"} {
				if _, ok := m[k]; ok {
					t.Errorf("%s: top-level %s in a schema", name, k)
				}
			}
			if m["type"] != "object" {
				t.Errorf("%s: schema root type is %v, want object", name, m["type"])
			}
			walkArrays(t, name, m)
		}
	}
}

func schemaOf(tool mcp.Tool, input bool) json.RawMessage {
	if input {
		if len(tool.RawInputSchema) > 0 {
			return tool.RawInputSchema
		}
		b, _ := json.Marshal(tool.InputSchema)
		return b
	}
	if len(tool.RawOutputSchema) > 0 {
		return tool.RawOutputSchema
	}
	b, _ := json.Marshal(tool.OutputSchema)
	return b
}

func walkArrays(t testing.TB, name string, v any) {
	switch x := v.(type) {
	case map[string]any:
		isArray := x["type"] == "array"
		if ts, ok := x["type"].([]any); ok {
			for _, e := range ts {
				isArray = isArray || e == "array"
			}
		}
		if isArray {
			if _, ok := x["items"]; !ok {
				t.Errorf("%s: an array schema without items", name)
			}
		}
		for _, e := range x {
			walkArrays(t, name, e)
		}
	case []any:
		for _, e := range x {
			walkArrays(t, name, e)
		}
	}
}

// Snapshot compares each tool's definition (as tools/list sends it) with
// dir/<name>.json. UPDATE_TOOLSNAPS=1 rewrites them; a missing snapshot is
// written and fails the test so it gets reviewed and committed.
func Snapshot(t testing.TB, tools []toolkit.Tool, dir string) {
	t.Helper()
	update := os.Getenv("UPDATE_TOOLSNAPS") != ""
	for _, tl := range tools {
		got, err := json.MarshalIndent(tl.Tool, "", "  ")
		if err != nil {
			t.Fatalf("%s: %v", tl.Name(), err)
		}
		got = append(normalizeJSON(t, got), '\n')
		path := filepath.Join(dir, tl.Name()+".json")
		want, err := os.ReadFile(path)
		if update || os.IsNotExist(err) {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			if !update {
				t.Errorf("%s: no snapshot; wrote %s — review and commit it", tl.Name(), path)
			}
			continue
		}
		if string(want) != string(got) {
			t.Errorf("%s: tool definition changed; if intended, rerun with UPDATE_TOOLSNAPS=1 and commit.\n--- want\n%s\n--- got\n%s", tl.Name(), want, got)
		}
	}
}

// normalizeJSON re-encodes with sorted keys so snapshots are stable.
func normalizeJSON(t testing.TB, b []byte) []byte {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// NoSecrets fails if any canary appears in any haystack (logs, results, errors).
func NoSecrets(t testing.TB, haystacks []string, canaries ...string) {
	t.Helper()
	for _, c := range canaries {
		for i, h := range haystacks {
			if c != "" && strings.Contains(h, c) {
				t.Errorf("secret canary %q leaked in output #%d", c, i)
			}
		}
	}
}
