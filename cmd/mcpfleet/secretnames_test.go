package main

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/redact"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
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
		"SHOONYA_CLIENT_SECRET": true, "CHART_IMG_API_KEY": true, "MCPFLEET_AUTH_TOKENS": true, "OPENAI_API_KEY": true,
		"MCPFLEET_STATE_KEY": true}
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

// TestSettingsStayReadableInLogs: shoonya started with SHOONYA_AUTH=legacy and
// every secret set to a canary logs its login generation as "legacy" (it was
// "[REDACTED]" when redaction went by the word "auth"), and no canary.
func TestSettingsStayReadableInLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	var stderr servetest.Buffer
	tr := transport.NewStdioWithOptions(filepath.Join(bins, "shoonya"), serverEnv(t, bins, "shoonya"), nil, transport.WithCommandStderrWriter(&stderr))
	c := client.NewClient(tr)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if err := servetest.Initialize(ctx, c, ""); err != nil {
		t.Fatal(err)
	}
	var req mcp.CallToolRequest
	req.Params.Name = "connect_shoonya_broker"
	req.Params.Arguments = map[string]any{}
	if _, err := c.CallTool(ctx, req); err != nil {
		t.Fatal(err)
	}
	_ = c.Close()
	time.Sleep(100 * time.Millisecond) // let stderr drain
	logs := stderr.String()
	if !strings.Contains(logs, `"login_generation":"legacy"`) {
		t.Errorf("the login generation is not readable in the logs:\n%.2000s", logs)
	}
	for _, canary := range canaries {
		if strings.Contains(logs, canary) {
			t.Errorf("canary %q in the logs", canary)
		}
	}
}
