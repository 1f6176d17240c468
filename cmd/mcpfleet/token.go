package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/auth/issued"
	"github.com/mcpfleet/mcpfleet/pkg/serve"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/rs/zerolog"
)

const tokenUsage = `usage:
  mcpfleet token issue  --server NAME --user ID [--scopes read,write] [--expires 30d] [--state-dir DIR] [--json]
  mcpfleet token list   --server NAME [--state-dir DIR] [--json]
  mcpfleet token revoke --server NAME (ID... | --user ID) [--state-dir DIR] [--json]
Tokens are written where the server reads them: Redis when MCPFLEET_REDIS_URL is set (replicas),
else the server's state file in --state-dir / MCPFLEET_STATE_DIR (the server's default otherwise).
Servers accept them only with MCPFLEET_AUTH_ISSUED=1 (docs/deploy.md, "Issued tokens").`

// tokenCommand runs `mcpfleet token ...` with the environment getenv.
func tokenCommand(args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintln(stderr, tokenUsage)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	verb := args[0]
	fs := flag.NewFlagSet("token "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	srv := fs.String("server", "", "the server the token is for (`mcpfleet list`)")
	user := fs.String("user", "", "the user the token stands for (revoke: every token of this user)")
	scopes := fs.String("scopes", "", "read, write or both (default both): read-only tokens see and call only tools that change nothing")
	expires := fs.String("expires", "", "lifetime: a number and s, m, h, d or w (e.g. 30d); default: until revoked")
	stateDir := fs.String("state-dir", getenv(store.EnvDir), "the server's state directory [MCPFLEET_STATE_DIR]")
	asJSON := fs.Bool("json", false, "print JSON for scripts")
	pos, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return exitUsage
	}
	switch {
	case verb != "issue" && verb != "list" && verb != "revoke":
		fmt.Fprintf(stderr, "unknown token command %q\n%s\n", verb, tokenUsage)
		return exitUsage
	case verb == "issue" && (*user == "" || len(pos) > 0),
		verb == "list" && (*user != "" || len(pos) > 0),
		verb == "revoke" && (len(pos) == 0) == (*user == ""):
		fmt.Fprintln(stderr, tokenUsage)
		return exitUsage
	}
	if _, ok := findServer(*srv); !ok {
		fmt.Fprintf(stderr, "mcpfleet token %s: --server must name one of the servers (`mcpfleet list`), not %q\n", verb, *srv)
		return exitUsage
	}
	ttl, err := issued.ParseExpires(*expires)
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return exitUsage
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	st, where, closeStore, err := openTokens(ctx, *srv, *stateDir, verb == "issue", getenv)
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return exitToolErr
	}
	defer closeStore()
	now := time.Now()
	switch verb {
	case "issue":
		secret, t, err := issued.Issue(ctx, st, *srv, *user, splitScopes(*scopes), ttl, now)
		if err != nil {
			fmt.Fprintln(stderr, "mcpfleet:", err)
			return exitToolErr
		}
		if *asJSON {
			_ = json.NewEncoder(stdout).Encode(struct {
				Secret string `json:"token"`
				issued.Token
				Note string `json:"note"`
			}{secret, t, "shown once: it is stored only as a hash and cannot be shown again"})
		} else {
			// The token alone on stdout (TOKEN=$(mcpfleet token issue ...)); what it is on stderr.
			fmt.Fprintln(stdout, secret)
			fmt.Fprintf(stderr, "issued token %s for %s on %s (scopes %s, expires %s), kept in %s\n",
				t.ID, t.User, t.Server, strings.Join(t.Scopes, " "), orNever(t.Expires), where)
			fmt.Fprintln(stderr, "This token is shown once and cannot be shown again (only its hash is kept): store it now.")
			fmt.Fprintln(stderr, "Clients send it as Authorization: Bearer <token>; the server needs MCPFLEET_AUTH_ISSUED=1.")
		}
		return exitOK
	case "list":
		ts, err := st.List(ctx)
		if err != nil {
			fmt.Fprintln(stderr, "mcpfleet:", err)
			return exitToolErr
		}
		printTokens(stdout, ts, now, *asJSON)
		return exitOK
	}
	var ids []string
	if *user != "" {
		if ids, err = issued.RevokeUser(ctx, st, *user, now); err == nil && len(ids) == 0 {
			err = fmt.Errorf("%s has no active token on %s (`mcpfleet token list --server %s`)", *user, *srv, *srv)
		}
	} else {
		for _, id := range pos {
			var ok bool
			if ok, err = st.Revoke(ctx, id, now); err == nil && !ok {
				err = fmt.Errorf("no token %q on %s (`mcpfleet token list --server %s` shows the ids)", id, *srv, *srv)
			}
			if err != nil {
				break
			}
			ids = append(ids, id)
		}
	}
	if *asJSON {
		_ = json.NewEncoder(stdout).Encode(map[string]any{"revoked": append([]string{}, ids...)})
	} else {
		for _, id := range ids {
			fmt.Fprintf(stdout, "revoked %s: refused from the next request on\n", id)
		}
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return exitToolErr
	}
	return exitOK
}

// parseInterleaved parses flags and positional arguments in any order
// (`revoke ab12cd34 --server ziwei` as well as `revoke --server ziwei ab12cd34`).
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func splitScopes(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
}

func orNever(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format(time.RFC3339)
}

// printTokens lists tokens: never a secret or a hash, neither is kept in Token.
func printTokens(w io.Writer, ts []issued.Token, now time.Time, asJSON bool) {
	if asJSON {
		type row struct {
			issued.Token
			Status string `json:"status"`
		}
		rows := make([]row, 0, len(ts))
		for _, t := range ts {
			rows = append(rows, row{t, t.Status(now)})
		}
		_ = json.NewEncoder(w).Encode(rows)
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUSER\tSCOPES\tCREATED\tEXPIRES\tSTATUS")
	for _, t := range ts {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", t.ID, t.User, strings.Join(t.Scopes, ","),
			t.Created.UTC().Format(time.RFC3339), orNever(t.Expires), t.Status(now))
	}
	_ = tw.Flush()
}

// openTokens opens the store the server reads: Redis when MCPFLEET_REDIS_URL
// is set, as the server does, else the server's state file (serve.StatePath,
// the file serve.Registry.Store opens). Only
// issue creates a missing file; list and revoke name the path they looked at.
func openTokens(ctx context.Context, server, dir string, create bool, getenv func(string) string) (issued.Store, string, func(), error) {
	if u := getenv("MCPFLEET_REDIS_URL"); u != "" {
		rdb, err := serve.ConnectRedis(ctx, u, zerolog.Nop())
		if err != nil {
			return nil, "", nil, err
		}
		o := rdb.Options()
		return issued.NewRedis(rdb, server), fmt.Sprintf("Redis at %s db %d", o.Addr, o.DB), func() { _ = rdb.Close() }, nil
	}
	if getenv(store.EnvMode) == "memory" {
		return nil, "", nil, errors.New("MCPFLEET_STATE=memory: the server keeps no tokens another process can write; use the state file (unset MCPFLEET_STATE) or MCPFLEET_REDIS_URL")
	}
	path, err := serve.StatePath(getenv, server, dir)
	if err != nil {
		return nil, "", nil, err
	}
	if _, err := os.Stat(path); err != nil && !create {
		return nil, "", nil, fmt.Errorf("no state file %s: no token was issued for %s there (is --state-dir or MCPFLEET_STATE_DIR the server's?)", path, server)
	}
	db, err := store.Open(ctx, path)
	if err != nil {
		return nil, "", nil, err
	}
	st, err := issued.NewStore(ctx, db)
	if err != nil {
		_ = db.Close()
		return nil, "", nil, err
	}
	return st, path, func() { _ = db.Close() }, nil
}

// activeTokens counts server's tokens that a server with MCPFLEET_AUTH_ISSUED
// would accept now, for doctor; where is the store it read.
func activeTokens(server string, getenv func(string) string) (n int, where string, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, where, closeStore, err := openTokens(ctx, server, "", false, getenv)
	if err != nil {
		return 0, "the token store", err
	}
	defer closeStore()
	ts, err := st.List(ctx)
	now := time.Now()
	for _, t := range ts {
		if t.Status(now) == "active" {
			n++
		}
	}
	return n, where, err
}
