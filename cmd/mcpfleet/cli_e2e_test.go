package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// cliEnv puts a server's fake-wired environment into this process (the CLI
// passes its environment to the servers it starts) for the test's duration.
func cliEnv(t *testing.T, name string) {
	t.Helper()
	bins := buildFleet(t)
	t.Setenv("MCPFLEET_BIN", bins)
	for _, kv := range serverEnv(t, bins, name) {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runWithInput(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestShellKeepsOneSession: a login and then a stateful call in one shoonya
// process, read from a pipe as a person would paste them.
func TestShellKeepsOneSession(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	cliEnv(t, "shoonya")
	// The fake's demo account (documented as fake in servers/shoonya/fake).
	t.Setenv("SHOONYA_PASSWORD", "fake-Passw0rd")
	t.Setenv("SHOONYA_TOTP_SECRET", "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP")
	t.Setenv("SHOONYA_API_SECRET", "fake-api-secret-0000")
	code, out, errs := runCLI(t, "connect_shoonya_broker\n# a comment\nget_limits {}\nget_order_book\n", "shell", "shoonya")
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errs)
	}
	for _, want := range []string{"> connect_shoonya_broker", "> get_limits {}", "> get_order_book"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "error:") || strings.Contains(out, "unauthenticated") {
		t.Fatalf("a call after login failed: the session was not kept\n%s", out)
	}
}

// TestBatchShowsProgress: wait_for_operation's progress notifications are
// printed as they arrive (plain lines when stderr is not a terminal).
func TestBatchShowsProgress(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	cliEnv(t, "ktrdr")
	// A training long enough to report progress a few times.
	addr := startFake(t, filepath.Join(buildFleet(t), "fake-ktrdr"), "--training-duration", "3s")
	t.Setenv("KTRDR_API_URL", "http://"+addr+"/api/v1")
	code, out, errs := runCLI(t, `start_training {"strategy_name":"neuro_mean_reversion","symbols":["AAPL"],"timeframes":["1h"]}`+"\n", "batch", "ktrdr", "-")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	id := regexp.MustCompile(`"operation_id": "([^"]+)"`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("no operation id in\n%s", out)
	}
	code, out, errs = runCLI(t, `wait_for_operation {"operation_id":"`+id[1]+`","timeout_seconds":30}`+"\n", "batch", "ktrdr")
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	if !regexp.MustCompile(`(?m)^progress +\d+%`).MatchString(errs) {
		t.Fatalf("no progress lines on stderr:\n%s\nstdout:\n%s", errs, out)
	}
}

func TestUnknownToolSuggestsAndIsNotAStartFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	t.Setenv("MCPFLEET_BIN", buildFleet(t))
	code, _, errs := runCLI(t, "", "call", "ziwei", "get_palce_info", "{}")
	if code != exitRefused || !strings.Contains(errs, `ziwei has no tool "get_palce_info"; did you mean get_palace_info?`) {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	code, out, _ := runCLI(t, "get_palce_info {}\ninitialize_chart {\"birthDate\":\"1990-05-17\",\"birthTimeIndex\":6,\"gender\":\"female\"}\n", "batch", "ziwei")
	if code != exitToolErr || !strings.Contains(out, "did you mean get_palace_info?") || !strings.Contains(out, "chart_id") {
		t.Fatalf("batch: exit %d\n%s", code, out)
	}
}

// TestServerStderrIsShown: a server that cannot start says why, through the CLI.
func TestServerStderrIsShown(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	t.Setenv("MCPFLEET_BIN", buildFleet(t))
	for _, tc := range []struct{ env, val, want string }{
		{"MCPFLEET_TRANSPORT", "htp", `--transport must be stdio or http, not "htp"`},
		{"CHART_IMG_API_KEY", "${CHART_IMG_API_KEY}", "CHART_IMG_API_KEY is still a placeholder"},
	} {
		t.Setenv(tc.env, tc.val)
		code, _, errs := runCLI(t, "", "call", "chartimg", "get_exchanges")
		if code != exitNoServer || !strings.Contains(errs, tc.want) || !strings.Contains(errs, "chartimg said") {
			t.Errorf("%s=%s: exit %d, stderr %q", tc.env, tc.val, code, errs)
		}
		os.Unsetenv(tc.env)
	}
}

func TestToolsShowsArguments(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	t.Setenv("MCPFLEET_BIN", buildFleet(t))
	code, out, errs := runCLI(t, "", "tools", "ziwei")
	if code != 0 {
		t.Fatalf("exit %d %s", code, errs)
	}
	for _, want := range []string{"initialize_chart (read):", "birthTimeIndex integer", "[minimum 0, maximum 12]", `gender string (required) one of "男"|"女"|"male"|"female"`} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in tools output", want)
		}
	}
}

func TestDoctor(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	cliEnv(t, "ktrdr")
	code, out, errs := runCLI(t, "", "doctor", "ktrdr")
	if code != 0 || !strings.Contains(out, "all good") || !strings.Contains(out, "ktrdr starts and lists") {
		t.Fatalf("healthy ktrdr: exit %d\n%s%s", code, out, errs)
	}
	t.Setenv("KTRDR_API_URL", "http://127.0.0.1:9/api/v1")
	t.Setenv("CHART_IMG_API_KEY", "<your key>")
	t.Setenv("MCPFLEET_REDIS_URL", "redis://127.0.0.1:9/0")
	code, out, _ = runCLI(t, "", "doctor", "ktrdr", "chartimg")
	for _, want := range []string{
		"FIX  Redis at MCPFLEET_REDIS_URL answers PING",
		"FIX  upstream http://127.0.0.1:9/api/v1 (KTRDR_API_URL) reachable",
		"FIX  CHART_IMG_API_KEY set — it is still a placeholder",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if code != exitToolErr {
		t.Errorf("exit %d with problems", code)
	}
}

// TestDoctorModelShutdown: web-search on gpt-5-nano, which OpenAI shuts
// down on 2026-12-11, gets a FIX line naming the setting and the
// replacement (from get_search_capabilities' warnings).
func TestDoctorModelShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	cliEnv(t, "web-search")
	code, out, errs := runCLI(t, "", "doctor", "web-search")
	if code != 0 || !strings.Contains(out, "all good") {
		t.Fatalf("default model: exit %d\n%s%s", code, out, errs)
	}
	t.Setenv("WEB_SEARCH_MODEL", "gpt-5-nano")
	code, out, _ = runCLI(t, "", "doctor", "web-search")
	if code != exitToolErr || !strings.Contains(out, "FIX  web-search get_search_capabilities — ") || !strings.Contains(out, "WEB_SEARCH_MODEL=gpt-6-luna") {
		t.Errorf("exit %d\n%s", code, out)
	}
}

func TestSaveImages(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	cliEnv(t, "chartimg")
	dir := t.TempDir()
	code, out, errs := runCLI(t, "", "call", "--save-images", dir, "chartimg", "generate_chart_image", `{"config":{"symbol":"NASDAQ:AAPL","interval":"1D"}}`)
	if code != 0 || !strings.Contains(out, "savedImages") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "generate_chart_image-*.png"))
	if len(files) != 1 {
		t.Fatalf("saved %v", files)
	}
	if b, _ := os.ReadFile(files[0]); len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Fatalf("not a PNG: %d bytes", len(b))
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "", "--version")
	if code != 0 || !strings.HasPrefix(out, "mcpfleet ") || strings.TrimSpace(out) == "mcpfleet dev" {
		t.Fatalf("exit %d %q", code, out)
	}
}
