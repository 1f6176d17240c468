package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/env"
	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/store"
)

// doctor checks what each server needs before a client starts it: its binary,
// its credentials (present, not placeholders), its upstream reachable, Redis
// when configured, and that it starts and lists its tools. Every problem is
// one line that says what to fix. Exit 0 when nothing needs fixing, else 1.
func doctor(args []string, stdout, stderr io.Writer) int {
	for _, a := range args {
		if a == "--live" {
			return doctorLive(args, stdout, stderr)
		}
	}
	var names []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--state-dir" && i+1 < len(args):
			i++
			a = "--state-dir=" + args[i]
			fallthrough
		case strings.HasPrefix(a, "--state-dir="):
			// As the servers take it: their state file and the drift they
			// saw live there. Set for doctor's checks and the servers it starts.
			_ = os.Setenv(store.EnvDir, strings.TrimPrefix(a, "--state-dir="))
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(stderr, "mcpfleet doctor: unknown flag %s\n%s\n", a, usage)
			return exitUsage
		default:
			names = append(names, a)
		}
	}
	picked := servers
	if len(names) > 0 {
		picked = nil
		for _, n := range names {
			s, ok := findServer(n)
			if !ok {
				fmt.Fprintf(stderr, "mcpfleet: unknown server %q; `mcpfleet list` shows them\n", n)
				return exitUsage
			}
			picked = append(picked, s)
		}
	}
	problems := 0
	report := func(ok bool, what, fix string) {
		if ok {
			fmt.Fprintf(stdout, "  ok   %s\n", what)
			return
		}
		problems++
		fmt.Fprintf(stdout, "  FIX  %s — %s\n", what, fix)
	}
	if u := os.Getenv("MCPFLEET_REDIS_URL"); u != "" {
		fmt.Fprintln(stdout, "fleet")
		err := checkRedis(u)
		report(err == nil, "Redis at MCPFLEET_REDIS_URL answers PING", fmt.Sprint(err, "; start Redis or fix the URL (or unset it to keep limits in memory)"))
	}
	for _, s := range picked {
		fmt.Fprintln(stdout, s.Name)
		bin, err := binary(s.Name)
		report(err == nil, "binary "+s.Name+" found", fmt.Sprint(err))
		if path, err := checkStateFile(s.Name); path != "" || err != nil {
			report(err == nil, "state file "+path+" usable", fmt.Sprint(err))
		}
		if on, _ := strconv.ParseBool(os.Getenv("MCPFLEET_AUTH_ISSUED")); on {
			n, where, err := activeTokens(s.Name, os.Getenv)
			fix := fmt.Sprint(err)
			if err == nil {
				fix = "none to accept yet: `mcpfleet token issue --server " + s.Name + " --user ID` (with the server's MCPFLEET_REDIS_URL or state dir)"
			}
			report(err == nil && n > 0, fmt.Sprintf("%d active issued tokens in %s", n, where), fix)
		}
		for _, e := range s.Env {
			v, set := os.LookupEnv(e.Name)
			switch {
			case set && env.IsPlaceholder(v):
				report(false, e.Name+" set", "it is still a placeholder; put the real value in the environment or the client's config")
			case e.Required && (!set || strings.TrimSpace(v) == ""):
				report(false, e.Name+" set", "the server needs it; see configs/"+s.Name+".env.example")
			case e.Required:
				report(true, e.Name+" set", "")
			}
		}
		for _, u := range s.Upstreams {
			raw := os.Getenv(u.Env)
			from := u.Env
			if raw == "" {
				raw, from = u.Default, "default"
			}
			if raw == "" {
				continue
			}
			err := reach(raw)
			report(err == nil, fmt.Sprintf("upstream %s (%s) reachable", raw, from), fmt.Sprint(err, "; check ", u.Env, " and the network"))
		}
		if len(s.Upstreams) > 0 {
			lastDrift(s.Name, stdout, report)
		}
		if bin == "" {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		sess, err := openSession(ctx, s.Name)
		if err == nil {
			var ts int
			if tools, lerr := sess.listTools(ctx); lerr == nil {
				ts = len(tools)
			} else {
				err = lerr
			}
			var warnings []string
			if err == nil && s.Check != "" {
				warnings = checkWarnings(ctx, sess, s.Check)
			}
			sess.Close()
			if err == nil {
				report(true, fmt.Sprintf("%s starts and lists %d tools", s.Name, ts), "")
				for _, w := range warnings {
					report(false, s.Name+" "+s.Check, w)
				}
			}
		}
		if err != nil {
			report(false, s.Name+" starts", strings.ReplaceAll(err.Error(), "\n", "\n       "))
		}
		cancel()
	}
	if problems > 0 {
		fmt.Fprintf(stdout, "%d thing(s) to fix\n", problems)
		return exitToolErr
	}
	fmt.Fprintln(stdout, "all good")
	return exitOK
}

// checkWarnings calls a server's check tool and returns the strings of its
// structured result's "warnings" (a failed call is no warning: the tool
// list already showed the server works).
func checkWarnings(ctx context.Context, sess *session, tool string) []string {
	res, err := sess.call(ctx, tool, map[string]any{}, nil)
	if err != nil || res.IsError {
		return nil
	}
	body, _ := res.StructuredContent.(map[string]any)
	list, _ := body["warnings"].([]any)
	var out []string
	for _, w := range list {
		if s, ok := w.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// reach dials the URL's host:port (no request is sent): is the upstream there?
func reach(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("%q is not a URL", raw)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443", "ws": "80", "wss": "443"}[u.Scheme]
	}
	c, err := net.DialTimeout("tcp", net.JoinHostPort(u.Hostname(), port), 3*time.Second)
	if err != nil {
		return fmt.Errorf("cannot connect to %s: %v", net.JoinHostPort(u.Hostname(), port), err)
	}
	return c.Close()
}

// checkRedis sends one PING (RESP) to the URL's host without printing the URL,
// which may hold a password.
func checkRedis(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return fmt.Errorf("MCPFLEET_REDIS_URL is not a redis:// URL")
	}
	host := u.Host
	if u.Port() == "" {
		host = net.JoinHostPort(u.Hostname(), "6379")
	}
	c, err := net.DialTimeout("tcp", host, 3*time.Second)
	if err != nil {
		return fmt.Errorf("cannot connect to Redis at %s", host)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	if pw, ok := u.User.Password(); ok {
		user := u.User.Username()
		if user == "" {
			user = "default"
		}
		fmt.Fprintf(c, "*3\r\n$4\r\nAUTH\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n", len(user), user, len(pw), pw)
	}
	if _, err := io.WriteString(c, "*1\r\n$4\r\nPING\r\n"); err != nil {
		return err
	}
	buf := make([]byte, 256)
	n, _ := io.ReadAtLeast(c, buf, 1)
	if !strings.Contains(string(buf[:n]), "PONG") {
		return fmt.Errorf("no PONG from Redis at %s (wrong password, or not Redis?)", host)
	}
	return nil
}

// checkStateFile opens the server's state file as the server would (creating
// it), unless the state is in memory or Redis; "" and nil when there is none
// to check.
func checkStateFile(server string) (string, error) {
	if os.Getenv(store.EnvMode) == "memory" || os.Getenv("MCPFLEET_REDIS_URL") != "" {
		return "", nil // Redis holds the shared state (ziwei's rules open it at start, checked below)
	}
	dir, err := store.Dir(os.Getenv)
	if err != nil {
		return "", err
	}
	path := store.File(dir, server)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	db, err := store.Open(ctx, path, store.WithBusyTimeout(2*time.Second))
	if err != nil {
		return path, err
	}
	return path, db.Close()
}

// lastDrift shows the drift a server saw on ordinary traffic, which it
// keeps beside its state (MCPFLEET_DRIFT_DIR, else the state directory).
// With state in memory only the live process knows (its log, its
// get_*_capabilities tool), and doctor says so.
func lastDrift(name string, stdout io.Writer, report func(ok bool, what, fix string)) {
	dir := drift.DirFromEnv(os.Getenv)
	if dir == "" {
		fmt.Fprintf(stdout, "  --   run-time drift: kept in memory only (MCPFLEET_STATE=memory); set %s to keep it for doctor; `mcpfleet doctor --live %s` probes now\n", drift.EnvDir, name)
		return
	}
	saved, ok, err := drift.Load(dir, name)
	switch {
	case err != nil:
		report(false, "run-time drift readable", fmt.Sprint(err))
	case !ok || len(saved.Signals) == 0:
		report(true, "no upstream drift seen at run time", "")
	default:
		for i, sg := range saved.Signals {
			if i == 5 {
				fmt.Fprintf(stdout, "       … %d more in %s\n", len(saved.Signals)-5, drift.SavedPath(dir, name))
				break
			}
			what := fmt.Sprintf("upstream drift seen: %s %s %s", sg.Upstream, sg.Route, sg.Kind)
			if sg.Path != "" {
				what += " " + sg.Path
			}
			report(false, what, fmt.Sprintf("%s (%d×, last %s); see docs/drift.md", redact.String(sg.Detail), sg.Count, sg.LastSeen.UTC().Format(time.RFC3339)))
		}
	}
}
