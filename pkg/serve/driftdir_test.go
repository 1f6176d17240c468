package serve_test

import (
	"context"
	"io"
	"os"
	"testing"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
)

// TestStateDirFlagKeepsDrift: a server started with --state-dir keeps its
// drift signals there (beside its state file), as with MCPFLEET_STATE_DIR;
// MCPFLEET_DRIFT_DIR still wins, and state in memory keeps none.
func TestStateDirFlagKeepsDrift(t *testing.T) {
	t.Cleanup(func() { drift.Default().Keep("", ""); drift.Default().Reset() })
	flagDir, envDir, driftDir := t.TempDir(), t.TempDir(), t.TempDir()
	cases := []struct {
		name, mode, stateEnv, driftEnv string
		args                           []string
		want                           string
	}{
		{"flag", "file", "", "", []string{"--state-dir", flagDir}, flagDir},
		{"flag over env", "file", envDir, "", []string{"--state-dir", flagDir}, flagDir},
		{"env", "file", envDir, "", nil, envDir},
		{"drift dir wins", "file", envDir, driftDir, []string{"--state-dir", flagDir}, driftDir},
		{"memory", "memory", "", "", []string{"--state-dir", flagDir}, ""},
	}
	app := serve.App{Name: "driftdir"}
	for _, c := range cases {
		t.Setenv("MCPFLEET_STATE", c.mode)
		t.Setenv("MCPFLEET_STATE_DIR", c.stateEnv)
		t.Setenv(drift.EnvDir, c.driftEnv)
		o, err := serve.ParseOptions(app, c.args, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := serve.Build(context.Background(), app, o, zerolog.Nop()); err != nil {
			t.Fatal(err)
		}
		if got := drift.Default().Dir(); got != c.want {
			t.Errorf("%s: drift kept in %q, want %q", c.name, got, c.want)
		}
	}
	// What is noted now lands in the flag's directory, where doctor reads it.
	t.Setenv("MCPFLEET_STATE", "file")
	t.Setenv(drift.EnvDir, "")
	o, _ := serve.ParseOptions(app, []string{"--state-dir", flagDir}, io.Discard)
	if _, err := serve.Build(context.Background(), app, o, zerolog.Nop()); err != nil {
		t.Fatal(err)
	}
	drift.Default().Note(zerolog.Nop(), "Up", "list", drift.Finding{Kind: drift.Missing, Path: "id", Detail: "absent"})
	if _, err := os.Stat(drift.SavedPath(flagDir, app.Name)); err != nil {
		t.Errorf("no drift file beside the state: %v", err)
	}
}
