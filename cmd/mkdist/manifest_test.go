package main

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestBuildManifest(t *testing.T) {
	s := Server{Name: "acme", Summary: "Acme things", Port: 8799, Env: []EnvVar{
		{Name: "ACME_USER", Example: "u123", Required: true, Help: "account id"},
		{Name: "ACME_TOKEN", Secret: true, Help: "API token"},
		{Name: "ACME_MODE", Example: "fast"},
	}}
	l := Listing{Instructions: "Use acme.", Tools: []mcp.Tool{
		mcp.NewTool("get_thing", mcp.WithDescription("Get a thing.\nMore detail.")),
		mcp.NewTool("put_thing", mcp.WithDescription("Put a thing.")),
	}, Prompts: []mcp.Prompt{mcp.NewPrompt("p")}}
	tests := []struct {
		p       Platform
		entry   string
		command string
		plat    string
	}{
		{Platform{"linux", "amd64"}, "server/acme", "${__dirname}/server/acme", "linux"},
		{Platform{"darwin", "arm64"}, "server/acme", "${__dirname}/server/acme", "darwin"},
		{Platform{"windows", "amd64"}, "server/acme.exe", "${__dirname}/server/acme.exe", "win32"},
	}
	for _, tt := range tests {
		t.Run(tt.p.String(), func(t *testing.T) {
			m := buildManifest(s, l, "1.2.3", tt.p)
			if m.ManifestVersion != "0.2" || m.Server.Type != "binary" || m.Version != "1.2.3" {
				t.Fatalf("header: %+v", m)
			}
			if m.Server.EntryPoint != tt.entry || m.Server.MCPConfig.Command != tt.command {
				t.Errorf("entry %q command %q", m.Server.EntryPoint, m.Server.MCPConfig.Command)
			}
			if got := m.Compatibility.Platforms; len(got) != 1 || got[0] != tt.plat {
				t.Errorf("platforms %v", got)
			}
			if len(m.Tools) != 2 || m.Tools[0].Description != "Get a thing." {
				t.Errorf("tools %+v", m.Tools)
			}
			if !m.PromptsGenerated {
				t.Error("a server with prompts must say prompts_generated")
			}
			tok := m.UserConfig["acme_token"]
			if !tok.Sensitive || tok.Required || tok.Default == nil || *tok.Default != "" {
				t.Errorf("secret option %+v", tok)
			}
			if strings.Contains(tok.Description, "e.g.") {
				t.Errorf("a secret's description shows an example: %q", tok.Description)
			}
			user := m.UserConfig["acme_user"]
			if user.Sensitive || !user.Required || user.Default != nil || !strings.Contains(user.Description, "u123") {
				t.Errorf("required option %+v", user)
			}
			for _, v := range s.Env {
				if got := m.Server.MCPConfig.Env[v.Name]; got != "${user_config."+strings.ToLower(v.Name)+"}" {
					t.Errorf("env %s = %q", v.Name, got)
				}
			}
		})
	}
}

func TestBuildManifestNoCredentials(t *testing.T) {
	m := buildManifest(Server{Name: "z", Summary: "z"}, Listing{}, "0.0.0-dev", Platform{"linux", "arm64"})
	if m.UserConfig != nil || m.Server.MCPConfig.Env != nil || m.PromptsGenerated {
		t.Errorf("a server without variables gets no user_config or env: %+v", m)
	}
}

func TestEnvHelpParse(t *testing.T) {
	got := withHelp(Server{Name: "x", Env: []EnvVar{{Name: "A"}, {Name: "B"}, {Name: "C"}}},
		map[string]EnvVar{"A": {Name: "A", Help: "a help"}, "B": {Name: "B", Help: "b help", Secret: true}})
	if got.Env[0].Help != "a help" || got.Env[0].Secret || got.Env[1].Help != "b help" || !got.Env[1].Secret || got.Env[2].Help != "" {
		t.Errorf("%+v", got.Env)
	}
}
