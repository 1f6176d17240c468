package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// launchConfig is what @anthropic-ai/mcpb's getMcpConfigForManifest (the
// function desktop hosts use, dist/shared/config.js) makes of an unpacked
// bundle with no user settings: the command, args and env a client runs.
const launchConfigJS = `
const [pkg, dir] = process.argv.slice(1); // node -e: argv[1] is the first argument
const { getMcpConfigForManifest } = await import(pkg);
const fs = await import("node:fs");
const manifest = JSON.parse(fs.readFileSync(dir + "/manifest.json", "utf8"));
const cfg = await getMcpConfigForManifest({ manifest, extensionPath: dir, systemDirs: { HOME: process.env.HOME }, userConfig: {}, pathSeparator: "/" });
process.stdout.write(JSON.stringify(cfg ?? null));
`

// TestZiweiBundleStartsLikeADesktopClient packs the ziwei bundle for this
// machine, unpacks it with the mcpb CLI, asks the mcpb library for the launch
// config a desktop client computes, runs exactly that, and lists the tools.
func TestZiweiBundleStartsLikeADesktopClient(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and packs a bundle")
	}
	cli, path := mcpbPath(t)
	t.Setenv("PATH", path)
	_, fleetCLI := testFleet(t)
	dist := t.TempDir()
	c := config{dist: dist, version: "0.0.0-test", mcpfleet: fleetCLI, mcpb: cli, buildvcs: "false",
		root: repoRoot(t), platforms: []Platform{hostPlatform()}, servers: []string{"ziwei"}}
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	var out bytes.Buffer
	if err := cmdBundles(ctx, c, &out); err != nil {
		t.Fatal(err)
	}
	bundle := bundlePath(dist, "ziwei", "0.0.0-test", hostPlatform())
	if _, err := os.Stat(bundle); err != nil {
		t.Fatalf("no bundle: %v (output %s)", err, out.String())
	}

	installed := filepath.Join(t.TempDir(), "ziwei")
	if err := (mcpbCLI{Path: cli}).run(ctx, "unpack", bundle, installed); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(cli) // .bin/mcpb -> @anthropic-ai/mcpb/dist/cli/cli.js
	if err != nil {
		t.Fatal(err)
	}
	pkgIndex := filepath.Join(filepath.Dir(real), "..", "index.js")
	node := exec.CommandContext(ctx, "node", "--input-type=module", "-e", launchConfigJS, "file://"+pkgIndex, installed)
	node.Stderr = os.Stderr
	raw, err := node.Output()
	if err != nil {
		t.Fatalf("launch config: %v", err)
	}
	var launch struct {
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
	}
	if err := json.Unmarshal(raw, &launch); err != nil || launch.Command == "" {
		t.Fatalf("launch config %s: %v", raw, err)
	}
	if want := filepath.Join(installed, "server", "ziwei"); launch.Command != want {
		t.Errorf("command %q, want the unpacked binary %q", launch.Command, want)
	}

	// A desktop client passes a small environment plus the config's env.
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}
	for k, v := range launch.Env {
		env = append(env, k+"="+v)
	}
	mc := client.NewClient(transport.NewStdio(launch.Command, env, launch.Args...))
	if err := mc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer mc.Close()
	var init mcp.InitializeRequest
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "desktop-like", Version: "1"}
	if _, err := mc.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	tools, err := mc.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	b, err := os.ReadFile(filepath.Join(installed, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var live, listed []string
	for _, tl := range tools.Tools {
		live = append(live, tl.Name)
	}
	for _, tl := range m.Tools {
		listed = append(listed, tl.Name)
	}
	slices.Sort(live)
	slices.Sort(listed)
	if len(live) == 0 || !slices.Equal(live, listed) {
		t.Errorf("tools/list %v, manifest %v", live, listed)
	}
	if !slices.Contains(live, "initialize_chart") {
		t.Errorf("ziwei's tools/list lacks initialize_chart: %v", live)
	}
}

// mcpb validate is a real check: a manifest it must refuse is refused.
func TestMcpbValidateRefusesBadManifest(t *testing.T) {
	cli, path := mcpbPath(t)
	t.Setenv("PATH", path)
	m := buildManifest(Server{Name: "x", Summary: "x"}, Listing{}, "1.0.0", hostPlatform())
	m.Server.Type = "go"
	b, _ := json.Marshal(m)
	f := filepath.Join(t.TempDir(), "manifest.json")
	os.WriteFile(f, b, 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := (mcpbCLI{Path: cli}).run(ctx, "validate", f); err == nil {
		t.Fatal("mcpb validate accepted server.type go")
	}
	m.Server.Type = "binary"
	b, _ = json.Marshal(m)
	os.WriteFile(f, b, 0o644)
	if err := (mcpbCLI{Path: cli}).run(ctx, "validate", f); err != nil {
		t.Fatal(err)
	}
}
