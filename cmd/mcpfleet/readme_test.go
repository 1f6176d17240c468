package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// tryIt is the first ```bash block under a server README's "## Try it".
var tryIt = regexp.MustCompile("(?s)\n## Try it\n.*?```bash\n(.*?)```")

// TestReadmeTryItRunsVerbatim: every server README's try-it block runs as
// written from the repo root after `make build`, and every call in it succeeds
// (mcpfleet batch exits 1 when one fails).
func TestReadmeTryItRunsVerbatim(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	root := repoRoot(t)
	bins := buildFleet(t)
	// The blocks call bin/…: give them a bin/ with this test's fresh builds.
	work := t.TempDir()
	if err := os.Symlink(bins, filepath.Join(work, "bin")); err != nil {
		t.Fatal(err)
	}
	cli := filepath.Join(bins, "mcpfleet")
	build := exec.Command("go", "build", "-o", cli, "./cmd/mcpfleet")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build mcpfleet: %v\n%s", err, out)
	}
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			readme, err := os.ReadFile(filepath.Join(root, "servers", s.Name, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			m := tryIt.FindSubmatch(readme)
			if m == nil {
				t.Fatalf("servers/%s/README.md has no ```bash block under \"## Try it\"", s.Name)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", string(m[1]))
			cmd.Dir = work
			// A reader runs the block on a fresh machine: no limits already spent by
			// other tests in this process's shared state directory.
			// TMPDIR: what a block writes under ${TMPDIR:-/tmp} goes with the test.
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "MCPFLEET_STATE_DIR="+t.TempDir(), "TMPDIR="+t.TempDir())
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("try-it block failed: %v\n%s", err, out)
			}
		})
	}
}
