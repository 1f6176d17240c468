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
