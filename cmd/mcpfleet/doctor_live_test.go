package main

import (
	"encoding/json"
	"net/http"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/rs/zerolog"

	"github.com/mcpfleet/mcpfleet/pkg/drift"
)

// setFakeDrift switches the drift of the fake behind a base URL env var.
func setFakeDrift(t *testing.T, baseEnv, body string) {
	t.Helper()
	base := os.Getenv(baseEnv)
	base = strings.TrimSuffix(strings.TrimSuffix(base, "/"), "/v1")
	req, _ := http.NewRequest(http.MethodPost, base+"/_fake/drift", strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("drift switch: %d", resp.StatusCode)
	}
}

func noCanary(t *testing.T, outs ...string) {
	t.Helper()
	for _, o := range outs {
		for _, c := range canaries {
			if strings.Contains(o, c) {
				t.Fatalf("canary secret %q printed:\n%s", c, o)
			}
		}
	}
}

// TestDoctorLive: the probe of web-search against its fake (the operator's
// env, here with a canary key): ok; each drift of the fake changes the
// status and the exit code a cron job acts on; the paid search runs only
// with --include-paid; no secret is printed.
func TestDoctorLive(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	cliEnv(t, "web-search")
	code, out, errs := runCLI(t, "", "doctor", "--live", "--json", "web-search")
	noCanary(t, out, errs)
	var rep liveReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != drift.ExitOK || rep.Status != drift.OK || len(rep.Servers) != 1 {
		t.Fatalf("exit %d %v\n%s%s", code, err, out, errs)
	}
	routes := map[string]string{}
	for _, r := range rep.Servers[0].Routes {
		routes[r.Route] = r.Status
	}
	if routes["model"] != drift.OK || routes["search"] != drift.StatusSkip {
		t.Fatalf("routes %v", routes)
	}
	cases := []struct {
		drift string
		code  int
		want  string
	}{
		{`{"deprecate":true}`, drift.ExitDeprecated, "Deprecation: true"},
		{`{"rename_from":"object","rename_to":"kind"}`, drift.ExitDrifted, "missing_field object"},
		{`{"enum_field":"object","enum_value":"model_v2"}`, drift.ExitDrifted, `unknown_enum object`},
		{`{"error_body":true}`, drift.ExitDrifted, "new_error_body"},
	}
	for _, c := range cases {
		setFakeDrift(t, "OPENAI_BASE_URL", c.drift)
		code, out, errs := runCLI(t, "", "doctor", "--live", "web-search")
		noCanary(t, out, errs)
		if code != c.code || !strings.Contains(out, c.want) || !strings.Contains(out, "UPSTREAM") {
			t.Errorf("%s: exit %d\n%s%s", c.drift, code, out, errs)
		}
	}
	setFakeDrift(t, "OPENAI_BASE_URL", `{}`)
	code, out, errs = runCLI(t, "", "doctor", "--live", "--include-paid", "web-search")
	noCanary(t, out, errs)
	if code != drift.ExitOK || strings.Contains(out, "skipped") || !strings.Contains(out, "POST /responses") {
		t.Errorf("paid: exit %d\n%s%s", code, out, errs)
	}
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
	code, out, _ = runCLI(t, "", "doctor", "--live", "web-search")
	if code != drift.ExitFailing || !strings.Contains(out, "failing") {
		t.Errorf("unreachable: exit %d\n%s", code, out)
	}
}

// TestDoctorLiveJSONSchema: the documented fields of --json, and nothing
// else (docs/drift.md lists them).
func TestDoctorLiveJSONSchema(t *testing.T) {
	rep := liveReport{Status: drift.StatusDrift, Servers: []drift.Report{{Server: "s", Status: drift.StatusDrift, Error: "e",
		Routes: []drift.Result{{Upstream: "U", Route: "r", Method: "GET", Path: "/p", Status: drift.StatusDrift, HTTP: 200, LatencyMS: 3,
			Findings: []drift.Finding{{Kind: drift.Missing, Path: "id", Detail: "absent"}}, Error: "x"}}}}}
	b, _ := json.Marshal(rep)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	keys := func(v any) string {
		var ks []string
		for k := range v.(map[string]any) {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		return strings.Join(ks, ",")
	}
	srv := m["servers"].([]any)[0].(map[string]any)
	route := srv["routes"].([]any)[0].(map[string]any)
	finding := route["findings"].([]any)[0]
	for _, c := range []struct{ got, want string }{
		{keys(m), "servers,status"},
		{keys(srv), "checked_at,error,routes,server,status"},
		{keys(route), "error,findings,http_status,latency_ms,method,path,route,status,upstream"},
		{keys(finding), "detail,kind,path"},
	} {
		if c.got != c.want {
			t.Errorf("keys %s, documented %s", c.got, c.want)
		}
	}
	doc, err := os.ReadFile("../../docs/drift.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"checked_at", "http_status", "latency_ms", "findings", "new_error_body", "unknown_enum", "missing_field", "retyped_field"} {
		if !strings.Contains(string(doc), "`"+k+"`") {
			t.Errorf("docs/drift.md does not document %s", k)
		}
	}
}

func TestDoctorLiveUsage(t *testing.T) {
	for _, args := range [][]string{{"doctor", "--live"}, {"doctor", "--live", "ziwei"}, {"doctor", "--live", "nope"},
		{"doctor", "--live", "--all", "web-search"}, {"doctor", "--live", "--frobnicate", "web-search"}} {
		if code, _, _ := runCLI(t, "", args...); code != exitUsage {
			t.Errorf("%v: exit %d", args, code)
		}
	}
}

// TestDoctorShowsSavedDrift: offline doctor shows what a server saved in
// MCPFLEET_DRIFT_DIR, and says where to look when it is unset.
func TestDoctorShowsSavedDrift(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("MCPFLEET_BIN", t.TempDir()) // no binaries: doctor reports that and goes on
	t.Setenv(drift.EnvDir, "")
	t.Setenv("MCPFLEET_STATE", "memory")
	_, out, _ := runCLI(t, "", "doctor", "web-search")
	if !strings.Contains(out, "run-time drift: kept in memory only") {
		t.Errorf("no hint without a dir:\n%s", out)
	}
	t.Setenv("MCPFLEET_STATE", "")
	t.Setenv("MCPFLEET_STATE_DIR", dir) // the default: beside the state files
	_, out, _ = runCLI(t, "", "doctor", "web-search")
	if !strings.Contains(out, "no upstream drift seen") {
		t.Errorf("empty state dir:\n%s", out)
	}
	t.Setenv("MCPFLEET_STATE_DIR", "")
	t.Setenv(drift.EnvDir, dir)
	_, out, _ = runCLI(t, "", "doctor", "web-search")
	if !strings.Contains(out, "no upstream drift seen") {
		t.Errorf("empty dir:\n%s", out)
	}
	w := drift.NewWatch("web-search", 0, dir)
	w.Note(zerolog.Nop(), "OpenAI", "search", drift.Finding{Kind: drift.NewEnum, Path: "output[].type", Detail: `"x" is new`})
	_, out, _ = runCLI(t, "", "doctor", "web-search")
	if !strings.Contains(out, "FIX  upstream drift seen: OpenAI search unknown_enum output[].type") {
		t.Errorf("saved drift not shown:\n%s", out)
	}
	// --state-dir, as the server took it: its drift file is read there.
	t.Setenv(drift.EnvDir, "")
	for _, args := range [][]string{{"doctor", "--state-dir", dir, "web-search"}, {"doctor", "--state-dir=" + dir, "web-search"}} {
		t.Setenv("MCPFLEET_STATE_DIR", t.TempDir()) // overridden by the flag
		_, out, _ = runCLI(t, "", args...)
		if !strings.Contains(out, "FIX  upstream drift seen: OpenAI search unknown_enum") || !strings.Contains(out, "state file "+dir) {
			t.Errorf("%v: saved drift not read from the flag's directory:\n%s", args, out)
		}
	}
	if code, _, _ := runCLI(t, "", "doctor", "--frobnicate", "web-search"); code != exitUsage {
		t.Errorf("unknown flag: exit %d", code)
	}
}

// TestDoctorLiveShoonya: the shoonya probe through its binary, allowed to
// log in (the fake's demo account: no session is stored): the login and
// every read ok; a renamed field and a new error body change the exit
// code; neither the password, the API secret nor the TOTP secret is printed.
func TestDoctorLiveShoonya(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	cliEnv(t, "shoonya")
	secrets := []string{"fake-Passw0rd", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP", "fake-api-secret-0000"}
	t.Setenv("SHOONYA_PASSWORD", secrets[0]) // the fake's demo account (servers/shoonya/fake)
	t.Setenv("SHOONYA_TOTP_SECRET", secrets[1])
	t.Setenv("SHOONYA_API_SECRET", secrets[2])
	t.Setenv("SHOONYA_PROBE_LOGIN", "1")
	code, out, errs := runCLI(t, "", "doctor", "--live", "--json", "shoonya")
	var rep liveReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != drift.ExitOK || len(rep.Servers) != 1 ||
		len(rep.Servers[0].Routes) < 10 || rep.Servers[0].Routes[0].Route != "QuickAuth" {
		t.Fatalf("exit %d %v\n%s%s", code, err, out, errs)
	}
	base := strings.TrimSuffix(os.Getenv("SHOONYA_REST_URL"), "/NorenWClientTP/")
	for _, c := range []struct {
		drift string
		code  int
		want  string
	}{
		{`{"rename_from":"cash","rename_to":"cash_balance"}`, drift.ExitDrifted, "missing_field cash"},
		{`{"error_body":true}`, drift.ExitDrifted, "new_error_body"},
	} {
		resp, err := http.Post(base+"/_fake/drift", "application/json", strings.NewReader(c.drift))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		code, out, errs := runCLI(t, "", "doctor", "--live", "shoonya")
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%s: exit %d\n%s%s", c.drift, code, out, errs)
		}
		for _, s := range secrets {
			if strings.Contains(out+errs, s) {
				t.Fatalf("%q printed:\n%s%s", s, out, errs)
			}
		}
	}
}

// TestDoctorLiveAll: every server with an upstream, each pointed at its
// fake with canary secrets: all routes ok (shoonya skipped: no stored
// session, and the probe may not log in), and no canary anywhere in the
// output.
func TestDoctorLiveAll(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	for _, name := range []string{"ktrdr", "chartimg", "shoonya", "web-search"} {
		cliEnv(t, name)
	}
	bins := buildFleet(t)
	pm := "http://" + startFake(t, bins+"/fake-polymarket")
	for _, env := range []string{"POLYMARKET_GAMMA_URL", "POLYMARKET_CLOB_URL", "POLYMARKET_DATA_URL", "POLYMARKET_BTC_URL", "POLYMARKET_BTC_FALLBACK_URL"} {
		t.Setenv(env, pm)
	}
	t.Setenv("GOOGLE_NEWS_BASE_URL", "http://"+startFake(t, bins+"/fake-google-news-rss"))
	code, out, errs := runCLI(t, "", "doctor", "--live", "--all", "--json")
	noCanary(t, out, errs)
	var rep liveReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errs)
	}
	got := map[string]string{}
	for _, s := range rep.Servers {
		got[s.Server] = s.Status
		for _, r := range s.Routes {
			if r.Status != drift.OK && r.Status != drift.StatusSkip {
				t.Errorf("%s %s: %s %v %s", s.Server, r.Route, r.Status, r.Findings, r.Error)
			}
		}
	}
	want := map[string]string{"shoonya": drift.StatusSkip, "chartimg": drift.OK, "ktrdr": drift.OK, "polymarket": drift.OK,
		"google-news-rss": drift.OK, "web-search": drift.OK}
	for n, s := range want {
		if got[n] != s {
			t.Errorf("%s: %q, want %q", n, got[n], s)
		}
	}
	if code != drift.ExitOK || len(rep.Servers) != len(want) {
		t.Errorf("exit %d, %d servers\n%s", code, len(rep.Servers), out)
	}
}
