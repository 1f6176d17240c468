// Command ziwei is the Zi Wei Dou Shu MCP server: charts computed natively in
// Go (reference engine iztro 2.6.1), stateless chart_ids, 格局 patterns and
// user rules. `ziwei check-golden FILE` checks the engine against golden data.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/apps"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/golden"
	"github.com/mcpfleet/mcpfleet/servers/ziwei/tools"
)

var version = "dev"

func main() { serve.Main(app(&tools.Config{})) }

func app(cfg *tools.Config) serve.App {
	return serve.App{
		Name: "ziwei", Version: version, DefaultPort: 8701, Env: envVars,
		Instructions: tools.Instructions,
		Flags:        cfg.Flags,
		Register: func(ctx context.Context, r *serve.Registry) error {
			if err := cfg.Register(ctx, r); err != nil {
				return err
			}
			return mcpapps.Install(r.Server, apps.Config())
		},
		Commands: map[string]serve.Command{"check-golden": func(ctx context.Context, args []string) int {
			return checkGolden(args, os.Stdout, os.Stderr)
		}},
	}
}

// checkGolden runs golden.Check on FILE (plain or .gz JSON Lines): every
// mismatch, then "N passed, M failed"; exit 1 on any failure, 2 on bad usage.
func checkGolden(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: ziwei check-golden FILE   (golden JSON Lines, plain or .gz)")
		return 2
	}
	f, err := os.Open(args[0])
	if err != nil {
		fmt.Fprintln(stderr, "ziwei check-golden:", err)
		return 2
	}
	defer f.Close()
	_, failed, err := golden.Check(f, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "ziwei check-golden:", err)
		return 1
	}
	if failed > 0 {
		return 1
	}
	return 0
}
