package toolkit

import (
	"context"
	"encoding/json"
	"testing"
)

func TestNewSetsEveryHint(t *testing.T) {
	for _, h := range []Hints{LocalRead, RemoteRead, RemoteWrite, RemoteDestructive, LocalWrite, {}} {
		tl := New(Def{Name: "x", Description: "d", Hints: h}, func(ctx context.Context, in sampleIn) (sampleOut, error) { return sampleOut{}, nil })
		b, _ := json.Marshal(tl.Tool)
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		ann := m["annotations"].(map[string]any)
		for k, want := range map[string]bool{"readOnlyHint": h.ReadOnly, "destructiveHint": h.Destructive, "idempotentHint": h.Idempotent, "openWorldHint": h.OpenWorld} {
			if ann[k] != want {
				t.Errorf("%+v: %s = %v, want %v", h, k, ann[k], want)
			}
		}
		if _, ok := m["outputSchema"]; !ok {
			t.Error("no output schema")
		}
	}
}

func TestBadTagPanicsAtDefinition(t *testing.T) {
	type bad struct {
		X int `json:"x" mcp:"nonsense=1"`
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a bad mcp tag must fail when the tool is defined")
		}
	}()
	New(Def{Name: "bad"}, func(ctx context.Context, in bad) (sampleOut, error) { return sampleOut{}, nil })
}

// TestPresets: a preset whose fingerprint matches the tool's types is served
// as is (no derivation); one whose fingerprint differs is ignored and the
// schemas are derived; DeriveSchemas always derives.
func TestPresets(t *testing.T) {
	type presetIn struct {
		Q string `json:"q" mcp:"minLength=1"`
	}
	type presetOut struct {
		N int `json:"n"`
	}
	h := func(ctx context.Context, in presetIn) (presetOut, error) { return presetOut{}, nil }
	fp := fingerprintOf[presetIn, presetOut]()
	marked := json.RawMessage(`{"type":"object","description":"from the preset"}`)
	data, _ := json.Marshal(map[string]Preset{
		"preset_used":  {In: marked, Out: marked, Fingerprint: fp},
		"preset_stale": {In: marked, Out: marked, Fingerprint: "old"},
	})
	if err := UsePresets(data); err != nil {
		t.Fatal(err)
	}
	used := New(Def{Name: "preset_used", Description: "d", Hints: LocalRead}, h)
	stale := New(Def{Name: "preset_stale", Description: "d", Hints: LocalRead}, h)
	if string(used.Tool.RawInputSchema) != string(marked) || used.Fingerprint() != fp {
		t.Fatalf("matching preset not served: %s", used.Tool.RawInputSchema)
	}
	in, out, err := stale.DeriveSchemas()
	if err != nil || string(stale.Tool.RawInputSchema) != string(in) || string(stale.Tool.RawOutputSchema) != string(out) {
		t.Fatalf("stale preset served: %s (derived %s, %v)", stale.Tool.RawInputSchema, in, err)
	}
	if in, _, _ := used.DeriveSchemas(); string(in) == string(marked) {
		t.Fatal("DeriveSchemas returned the preset")
	}
	// Other types (here: another tag), another fingerprint.
	type presetIn2 struct {
		Q string `json:"q" mcp:"minLength=2"`
	}
	if fingerprintOf[presetIn2, presetOut]() == fp {
		t.Fatal("fingerprint blind to a tag")
	}
	if err := UsePresets([]byte("not json")); err == nil {
		t.Fatal("a broken presets file was accepted")
	}
}
