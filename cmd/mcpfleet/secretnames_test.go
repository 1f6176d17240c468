package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpfleet/mcpfleet/pkg/redact"
)

// TestSecretVariablesAreScrubbed: every variable a server declares secret is
// scrubbed by redact's name rule, and no setting is (SHOONYA_AUTH=legacy
// once turned every "legacy" in the logs into [REDACTED]).
func TestSecretVariablesAreScrubbed(t *testing.T) {
	for _, s := range servers {
		for _, e := range s.Env {
			if got := redact.IsSecretName(e.Name); got != e.Secret {
				t.Errorf("%s %s: redact.IsSecretName %v, servers.go says secret=%v", s.Name, e.Name, got, e.Secret)
			}
		}
	}
	// The example configs list every variable; these hold secrets.
	secret := map[string]bool{"SHOONYA_PASSWORD": true, "SHOONYA_TOTP_SECRET": true, "SHOONYA_API_SECRET": true,
		"SHOONYA_CLIENT_SECRET": true, "CHART_IMG_API_KEY": true, "MCPFLEET_AUTH_TOKENS": true}
	files, _ := filepath.Glob(filepath.Join("..", "..", "configs", "*.env.example"))
	if len(files) == 0 {
		t.Fatal("no configs/*.env.example")
	}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			line := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(sc.Text()), "#"))
			name, _, ok := strings.Cut(line, "=")
			if !ok || name == "" || strings.ContainsAny(name, " \t") || strings.ToUpper(name) != name {
				continue
			}
			if got := redact.IsSecretName(name); got != secret[name] {
				t.Errorf("%s %s: redact.IsSecretName %v, want %v", filepath.Base(f), name, got, secret[name])
			}
		}
		fh.Close()
	}
}
