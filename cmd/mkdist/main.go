// Command mkdist makes the fleet's distributables from the servers listed by
// `mcpfleet list --json` and from each server binary's own tools/list:
//
//	mkdist binaries   static release binaries per platform (+ SHA256SUMS)
//	mkdist bundles    MCPB bundles (manifest.json, mcpb validate, mcpb pack)
//	mkdist registry   server.json per server for the MCP Registry
//	mkdist images     OCI image layouts per server (no Docker daemon)
//	mkdist sums       SHA256SUMS over everything in -dist
//	mkdist deploy     deploy/kubernetes/<name>.yaml and deploy/compose.yaml (committed)
//
// Nothing is published; everything goes under -dist (gitignored).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

const usage = `usage: mkdist binaries|bundles|registry|images|sums|deploy [flags]
flags:
  -dist DIR          output directory (default dist)
  -version V         release version, semver (default 0.0.0-dev)
  -platforms LIST    all, host, or os/arch,... (default all)
  -servers a,b       only these servers (default every server in mcpfleet list)
  -mcpfleet PATH     the fleet CLI binary (default bin/mcpfleet)
  -mcpb PATH         the @anthropic-ai/mcpb CLI (default $MCPB, else .tools/mcpb/node_modules/.bin/mcpb)
  -buildvcs MODE     go build -buildvcs (default true)`

type config struct {
	dist, version, mcpfleet, mcpb, buildvcs string
	root                                    string // repository root; "" is the working directory
	platforms                               []Platform
	servers                                 []string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usage)
		return 2
	}
	cmd := args[0]
	fs := flag.NewFlagSet("mkdist "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var c config
	var platforms, servers string
	mcpbDefault := os.Getenv("MCPB")
	if mcpbDefault == "" {
		mcpbDefault = filepath.Join(".tools", "mcpb", "node_modules", ".bin", "mcpb")
	}
	fs.StringVar(&c.dist, "dist", "dist", "output directory")
	fs.StringVar(&c.version, "version", "0.0.0-dev", "release version")
	fs.StringVar(&platforms, "platforms", "all", "all, host, or os/arch,...")
	fs.StringVar(&servers, "servers", "", "comma list of servers (default all)")
	fs.StringVar(&c.mcpfleet, "mcpfleet", filepath.Join("bin", "mcpfleet"), "fleet CLI binary")
	fs.StringVar(&c.mcpb, "mcpb", mcpbDefault, "mcpb CLI")
	fs.StringVar(&c.buildvcs, "buildvcs", "true", "go build -buildvcs")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	var err error
	if c.platforms, err = parsePlatforms(platforms); err != nil {
		fmt.Fprintln(stderr, "mkdist:", err)
		return 2
	}
	if servers != "" {
		c.servers = strings.Split(servers, ",")
	}
	if err := validVersion(c.version); err != nil {
		fmt.Fprintln(stderr, "mkdist:", err)
		return 2
	}
	ctx, cancel := context.WithTimeout(ctx, 60*time.Minute)
	defer cancel()
	switch cmd {
	case "binaries":
		err = cmdBinaries(ctx, c, stdout)
	case "bundles":
		err = cmdBundles(ctx, c, stdout)
	case "registry":
		err = cmdRegistry(ctx, c, stdout)
	case "images":
		err = cmdImages(ctx, c, stdout)
	case "sums":
		err = writeSums(c.dist)
	case "deploy":
		err = cmdDeploy(ctx, c, stdout)
	default:
		fmt.Fprintln(stderr, usage)
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "mkdist:", err)
		return 1
	}
	return 0
}

// fleet loads and filters the server list.
func (c config) fleet(ctx context.Context) ([]Server, error) {
	all, err := loadFleet(ctx, c.mcpfleet)
	if err != nil {
		return nil, err
	}
	return pick(all, c.servers)
}

func (c config) buildOptions() BuildOptions {
	gobin := os.Getenv("GO")
	if gobin == "" {
		gobin = "go"
	}
	return BuildOptions{Version: c.version, BuildVCS: c.buildvcs, Go: gobin, Dir: c.root}
}

// cmdBinaries cross-compiles every server and the fleet CLI for each platform.
func cmdBinaries(ctx context.Context, c config, stdout io.Writer) error {
	fleet, err := c.fleet(ctx)
	if err != nil {
		return err
	}
	o := c.buildOptions()
	for _, p := range c.platforms {
		for _, s := range fleet {
			out := binPath(c.dist, s.Name, p)
			if err := o.build(ctx, "./servers/"+s.Name, out, p); err != nil {
				return err
			}
			fmt.Fprintln(stdout, out)
		}
		out := binPath(c.dist, "mcpfleet", p)
		if err := o.build(ctx, "./cmd/mcpfleet", out, p); err != nil {
			return err
		}
		fmt.Fprintln(stdout, out)
	}
	return writeSums(filepath.Join(c.dist, "bin"))
}

// hostBinary is the server built for this machine, for listing its tools:
// the release one when it exists, else a fresh build.
func (c config) hostBinary(ctx context.Context, name string) (string, error) {
	p := hostPlatform()
	bin := binPath(c.dist, name, p)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	return bin, c.buildOptions().build(ctx, "./servers/"+name, bin, p)
}

// listing starts the host binary of s and reads its tools, prompts and env help.
func (c config) listing(ctx context.Context, s Server) (Server, Listing, error) {
	bin, err := c.hostBinary(ctx, s.Name)
	if err != nil {
		return s, Listing{}, err
	}
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	help, err := envHelp(pctx, bin, s.Name)
	if err != nil {
		return s, Listing{}, err
	}
	l, err := probe(pctx, bin, probeEnv(), nil)
	if err != nil {
		return s, Listing{}, err
	}
	return withHelp(s, help), l, nil
}

// cmdBundles builds one .mcpb per server and platform.
func cmdBundles(ctx context.Context, c config, stdout io.Writer) error {
	fleet, err := c.fleet(ctx)
	if err != nil {
		return err
	}
	cli := mcpbCLI{Path: c.mcpb}
	o := c.buildOptions()
	for _, s := range fleet {
		s, l, err := c.listing(ctx, s)
		if err != nil {
			return err
		}
		for _, p := range c.platforms {
			if _, err := os.Stat(binPath(c.dist, s.Name, p)); err != nil {
				if err := o.build(ctx, "./servers/"+s.Name, binPath(c.dist, s.Name, p), p); err != nil {
					return err
				}
			}
			out, err := makeBundle(ctx, cli, c.dist, s, l, c.version, p)
			if err != nil {
				return err
			}
			fmt.Fprintln(stdout, out)
		}
	}
	return nil
}
