package tools_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
	"github.com/mcpfleet/mcpfleet/pkg/fakeupstream"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/pkg/store"
	"github.com/mcpfleet/mcpfleet/pkg/store/storetest"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/fake"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/noren"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/session"
	"github.com/mcpfleet/mcpfleet/servers/shoonya/tools"
)

// probeCanary is an account whose secrets are canaries: the probe's
// output must never hold them.
func probeCanary() fake.Account {
	a := fake.DemoAccount()
	a.Password, a.APISecret, a.ClientSecret = "canary-Pw-Q8z1x", "canary-api-Zx91k", "canary-oauth-77ab"
	a.TOTPSecret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
	return a
}

// probeEnv is a legacy shoonya server keeping its broker sessions in its
// state file (sealed with MCPFLEET_STATE_KEY), in front of a fake Noren.
func probeEnv(t *testing.T) *env {
	t.Helper()
	acct := probeCanary()
	return newEnv(t, noren.Legacy, envOpt{account: &acct, cfg: fake.Config{RateLimit: fake.RateLimit{Disabled: true}},
		extra: map[string]string{"MCPFLEET_STATE": "file", "MCPFLEET_STATE_DIR": t.TempDir(), "MCPFLEET_STATE_KEY": stateKey(t),
			tools.EnvProbeLogin: "", tools.EnvProbeUser: ""}})
}

func runProbe(t *testing.T) []drift.Result {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	probes, shapes, err := tools.DriftSetup(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return drift.Run(ctx, probes, shapes, drift.Options{})
}

// sentSince is what the fake saw after before: "POST /NorenWClientTP/X" → count.
func sentSince(f *fake.Server, before map[string]int) map[string]int {
	out := map[string]int{}
	for k, n := range f.Drift().Seen() {
		if d := n - before[k]; d > 0 {
			out[k] = d
		}
	}
	return out
}

// onlyReads fails unless the probe sent read routes of the client's route
// table (and QuickAuth when login is true), each read route at least once.
func onlyReads(t *testing.T, sent map[string]int, login bool) {
	t.Helper()
	hit := map[string]bool{}
	for k := range sent {
		route, ok := strings.CutPrefix(k, "POST "+fake.PathLegacyREST)
		switch {
		case ok && noren.Routes[route] == noren.Reads, ok && login && route == "QuickAuth":
			hit[route] = true
		default:
			t.Errorf("the probe sent %s", k)
		}
	}
	for r, kind := range noren.Routes {
		if kind == noren.Reads && !hit[r] {
			t.Errorf("read route %s not probed", r)
		}
	}
	if login != hit["QuickAuth"] {
		t.Errorf("login %v, QuickAuth sent %v", login, hit["QuickAuth"])
	}
}

// TestProbeSkipsWithoutSession: no stored session and no permission to log
// in: every route is skipped, saying how to get a session, and nothing
// is sent.
func TestProbeSkipsWithoutSession(t *testing.T) {
	e := probeEnv(t)
	before := e.fake.Drift().Seen()
	rs := runProbe(t)
	if len(rs) == 0 || drift.Worst(rs) != drift.StatusSkip {
		t.Fatalf("worst %s of %d", drift.Worst(rs), len(rs))
	}
	for _, r := range rs {
		if r.Status != drift.StatusSkip || !strings.Contains(r.Error, "no session") || !strings.Contains(r.Error, tools.EnvProbeLogin) {
			t.Errorf("%s: %s %s", r.Route, r.Status, r.Error)
		}
	}
	if sent := sentSince(e.fake, before); len(sent) != 0 {
		t.Errorf("sent %v", sent)
	}
}

// TestProbeSeesEachDrift: the probe reads with the session the server
// stored (no second login), every route ok; each way the fake drifts shows
// on a route; only read routes are sent; the server's session still works.
func TestProbeSeesEachDrift(t *testing.T) {
	e := probeEnv(t)
	e.connect()
	before := e.fake.Drift().Seen()
	for _, r := range runProbe(t) {
		if r.Status != drift.OK {
			t.Errorf("undrifted: %s %s %v %s", r.Route, r.Status, r.Findings, r.Error)
		}
	}
	cases := []struct {
		name   string
		drift  fakeupstream.Drift
		route  string
		status string
		kind   string
	}{
		{"deprecation headers", fakeupstream.Drift{Deprecate: true}, "Limits", drift.StatusDepr, drift.Deprecated},
		{"renamed field", fakeupstream.Drift{RenameFrom: "tsym", RenameTo: "trading_symbol"}, "SearchScrip", drift.StatusDrift, drift.Missing},
		{"new enum value", fakeupstream.Drift{EnumField: "optt", EnumValue: "CALL"}, "GetOptionChain", drift.StatusDrift, drift.NewEnum},
		{"new error body", fakeupstream.Drift{ErrorBody: true}, "Limits", drift.StatusDrift, drift.ErrorBody},
	}
	for _, c := range cases {
		e.fake.Drift().Set(c.drift)
		r := servetest.ResultFor(runProbe(t), c.route)
		found := false
		for _, f := range r.Findings {
			found = found || f.Kind == c.kind
		}
		if r.Status != c.status || !found {
			t.Errorf("%s: %+v", c.name, r)
		}
	}
	e.fake.Drift().Set(fakeupstream.Drift{})
	onlyReads(t, sentSince(e.fake, before), false)
	if res := e.call("get_limits", map[string]any{}); res.IsError {
		t.Errorf("the server's session no longer works after the probe: %+v", res.Content)
	}
}

// TestProbeLogsInOnlyWhenAllowed: with SHOONYA_PROBE_LOGIN=1 and no stored
// session the probe logs in once (its answer checked against QuickAuth's
// shape) and reads with that session; it stores nothing.
func TestProbeLogsInOnlyWhenAllowed(t *testing.T) {
	e := probeEnv(t)
	t.Setenv(tools.EnvProbeLogin, "1")
	before := e.fake.Drift().Seen()
	rs := runProbe(t)
	if rs[0].Route != "QuickAuth" || len(rs) < 2 {
		t.Fatalf("first %+v", rs[0])
	}
	for _, r := range rs {
		if r.Status != drift.OK {
			t.Errorf("%s: %s %v %s", r.Route, r.Status, r.Findings, r.Error)
		}
	}
	onlyReads(t, sentSince(e.fake, before), true)
	e.fake.Drift().Set(fakeupstream.Drift{RenameFrom: "susertoken", RenameTo: "token"})
	rs = runProbe(t)
	if r := rs[0]; r.Status != drift.StatusDrift || len(r.Findings) == 0 || r.Findings[0].Kind != drift.Missing {
		t.Errorf("renamed susertoken: %+v", r)
	}
	if r := rs[1]; r.Status != drift.StatusSkip {
		t.Errorf("a read without a session: %+v", r)
	}
	if res := e.call("get_limits", map[string]any{}); !res.IsError {
		t.Error("the probe's login became the server's")
	}
}

// TestProbeCommandPrintsNoSecret: the drift-probe command's output, after
// a login and with a stored session, holds no password, TOTP secret, API
// key, OAuth secret, session token or hash of them.
func TestProbeCommandPrintsNoSecret(t *testing.T) {
	e := probeEnv(t)
	acct := probeCanary()
	secrets := []string{acct.Password, acct.TOTPSecret, acct.APISecret, acct.ClientSecret}
	t.Setenv(tools.EnvProbeLogin, "1")
	out := runCommand(t)
	e.connect()
	t.Setenv(tools.EnvProbeLogin, "")
	out += runCommand(t)
	token := storedToken(t)
	for _, s := range append(secrets, token) {
		if strings.Contains(out, s) {
			t.Fatalf("%q printed:\n%s", s, out)
		}
	}
	if hex := regexp.MustCompile(`[0-9a-f]{40,}`).FindString(out); hex != "" {
		t.Fatalf("a token or hash printed: %s\n%s", hex, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var rep drift.Report
		if err := json.Unmarshal([]byte(line), &rep); err != nil || rep.Status != drift.OK {
			t.Errorf("report %v: %s", err, line)
		}
	}
}

// runCommand runs the drift-probe command as main.go wires it and returns
// its stdout and stderr.
func runCommand(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	stdout, _ := os.Create(filepath.Join(dir, "out"))
	stderr, _ := os.Create(filepath.Join(dir, "err"))
	oldOut, oldErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = stdout, stderr
	code := drift.Command("shoonya", tools.DriftSetup)(context.Background(), nil)
	os.Stdout, os.Stderr = oldOut, oldErr
	_ = stdout.Close()
	_ = stderr.Close()
	a, _ := os.ReadFile(stdout.Name())
	b, _ := os.ReadFile(stderr.Name())
	if code != drift.ExitOK {
		t.Errorf("exit %d: %s%s", code, a, b)
	}
	return string(a) + string(b)
}

// storedToken is the session token the server stored for the stdio user.
func storedToken(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	db := storetest.Open(t, store.File(os.Getenv("MCPFLEET_STATE_DIR"), "shoonya"))
	key, _ := session.ParseStateKey(os.Getenv(session.EnvStateKey))
	fs, err := session.NewFileStore(ctx, db, key)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := fs.Load(ctx, "local")
	if err != nil || rec == nil || rec.Auth.Token == "" {
		t.Fatalf("no stored session: %v", err)
	}
	return rec.Auth.Token
}
