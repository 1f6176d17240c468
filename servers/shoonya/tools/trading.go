package tools

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	osuser "os/user"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/guard"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/kv"
)

// TradingCommand is `shoonya trading halt|resume|status`: the kill switch
// a person throws from the server's host, on the shared state every
// replica reads (Redis with MCPFLEET_REDIS_URL, else the state file). It is
// no MCP tool, so the model cannot call it.
func TradingCommand(ctx context.Context, args []string) int {
	return runTrading(ctx, args, os.Stdout, os.Stderr)
}

func runTrading(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("shoonya trading", flag.ContinueOnError)
	fs.SetOutput(stderr)
	who := fs.String("user", "local", "the MCP user whose freeze resume lifts and status shows")
	reason := fs.String("reason", "", "halt: why (shown in every refusal)")
	stateDir := fs.String("state-dir", env.Or(store.EnvDir, ""), "the server's state directory [MCPFLEET_STATE_DIR]")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: shoonya trading halt [--reason text] | resume [--user U] | status [--user U]")
		fs.PrintDefaults()
	}
	if len(args) == 0 {
		fs.Usage()
		return 2
	}
	verb := args[0]
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	st, closeState, err := openTradingState(ctx, *stateDir)
	if err != nil {
		fmt.Fprintln(stderr, "shoonya trading:", err)
		return 1
	}
	defer closeState()
	cfg, err := guard.FromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "shoonya trading:", err)
		return 2
	}
	g := guard.New(cfg, st, nil)
	switch verb {
	case "halt":
		by := "a person at the server's host"
		if u, err := osuser.Current(); err == nil {
			by = "user " + u.Username + " (shoonya trading halt)"
		}
		if err := g.Halt(ctx, by, *reason); err != nil {
			fmt.Fprintln(stderr, "shoonya trading halt:", err)
			return 1
		}
		fmt.Fprintln(stdout, "trading halted: every new order and modification is refused until `shoonya trading resume` (cancels still go)")
	case "resume":
		if err := g.Resume(ctx, *who); err != nil {
			fmt.Fprintln(stderr, "shoonya trading resume:", err)
			return 1
		}
		fmt.Fprintf(stdout, "trading resumed; the rejection freeze of user %s is lifted\n", *who)
		if cfg.Mode == guard.Halted {
			fmt.Fprintln(stdout, "note: "+guard.EnvTrading+"=halted is still set for the server: set it to live or paper and restart")
		}
	case "status":
		s, err := g.StatusOf(ctx, *who)
		if err != nil {
			fmt.Fprintln(stderr, "shoonya trading status:", err)
			return 1
		}
		b, _ := json.MarshalIndent(s, "", "  ")
		fmt.Fprintln(stdout, string(b))
	default:
		fs.Usage()
		return 2
	}
	return 0
}

// openTradingState opens where the server keeps its guards.
func openTradingState(ctx context.Context, dir string) (kv.State, func(), error) {
	if url := os.Getenv("MCPFLEET_REDIS_URL"); url != "" {
		rdb, err := serve.ConnectRedis(ctx, url, zerolog.Nop())
		if err != nil {
			return nil, nil, err
		}
		return kv.NewRedis(rdb), func() { _ = rdb.Close() }, nil
	}
	if mode, _ := serve.StateMode(); mode == serve.StateMemory {
		return nil, nil, fmt.Errorf("MCPFLEET_STATE=memory keeps the guards inside each server process, so there is nothing shared to halt; set %s=halted for the server instead", guard.EnvTrading)
	}
	path, err := serve.StatePath(os.Getenv, "shoonya", dir)
	if err != nil {
		return nil, nil, err
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		return nil, nil, err
	}
	st, err := kv.NewStored(ctx, db)
	if err != nil {
		_ = db.Close()
		return nil, nil, err
	}
	return st, func() { _ = db.Close() }, nil
}
