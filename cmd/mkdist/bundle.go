package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// probeEnv is the environment a server is listed in: no credentials, so the
// manifest shows what a fresh install shows; logs quiet on stderr.
func probeEnv() []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir(), "MCPFLEET_LOG_LEVEL=error"}
}

// mcpbCLI runs the @anthropic-ai/mcpb CLI.
type mcpbCLI struct{ Path string }

func (c mcpbCLI) run(ctx context.Context, args ...string) error {
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, c.Path, args...)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("mcpb %s: %v\n%s", strings.Join(args, " "), err, out.String())
	}
	return nil
}

// bundlePath is where the packed bundle of s for p goes.
func bundlePath(dist, name, version string, p Platform) string {
	return filepath.Join(dist, "bundles", fmt.Sprintf("%s-%s-%s.mcpb", name, version, p.Dir()))
}

// makeBundle stages manifest.json and the platform's binary, then validates
// and packs them with the mcpb CLI. It returns the .mcpb path.
func makeBundle(ctx context.Context, cli mcpbCLI, dist string, s Server, l Listing, version string, p Platform) (string, error) {
	stage := filepath.Join(dist, "bundles", "stage", s.Name, p.Dir())
	if err := os.RemoveAll(stage); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(stage, "server"), 0o755); err != nil {
		return "", err
	}
	m := buildManifest(s, l, version, p)
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return "", err
	}
	manifest := filepath.Join(stage, "manifest.json")
	if err := os.WriteFile(manifest, append(b, '\n'), 0o644); err != nil {
		return "", err
	}
	if err := copyFile(binPath(dist, s.Name, p), filepath.Join(stage, "server", p.Exe(s.Name)), 0o755); err != nil {
		return "", err
	}
	if err := cli.run(ctx, "validate", manifest); err != nil {
		return "", err
	}
	out := bundlePath(dist, s.Name, version, p)
	if err := cli.run(ctx, "pack", stage, out); err != nil {
		return "", err
	}
	return out, nil
}

func copyFile(from, to string, mode os.FileMode) error {
	in, err := os.Open(from)
	if err != nil {
		return fmt.Errorf("%w (build it first: mkdist binaries)", err)
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
