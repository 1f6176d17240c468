package main

import (
	"strings"
)

// manifestVersion is what `mcpb init` of @anthropic-ai/mcpb 2.1.2 writes
// (DEFAULT_MANIFEST_VERSION in dist/shared/constants.js); pack and validate
// accept it.
const manifestVersion = "0.2"

const (
	repoURL = "https://github.com/mcpfleet/mcpfleet"
	license = "Apache-2.0"
)

// Manifest is an MCPB manifest.json (schema 0.2 of @anthropic-ai/mcpb).
type Manifest struct {
	ManifestVersion  string                `json:"manifest_version"`
	Name             string                `json:"name"`
	DisplayName      string                `json:"display_name"`
	Version          string                `json:"version"`
	Description      string                `json:"description"`
	LongDescription  string                `json:"long_description,omitempty"`
	Author           Author                `json:"author"`
	Repository       Repository            `json:"repository"`
	Homepage         string                `json:"homepage"`
	Documentation    string                `json:"documentation"`
	License          string                `json:"license"`
	Keywords         []string              `json:"keywords"`
	Server           ManifestServer        `json:"server"`
	Tools            []ManifestTool        `json:"tools"`
	ToolsGenerated   bool                  `json:"tools_generated"`
	PromptsGenerated bool                  `json:"prompts_generated"`
	Compatibility    Compatibility         `json:"compatibility"`
	UserConfig       map[string]UserOption `json:"user_config,omitempty"`
}

type Author struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

type Repository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

type ManifestServer struct {
	Type       string    `json:"type"`
	EntryPoint string    `json:"entry_point"`
	MCPConfig  MCPConfig `json:"mcp_config"`
}

type MCPConfig struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

type ManifestTool struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type Compatibility struct {
	Platforms []string `json:"platforms"`
}

// UserOption is one user_config entry: the desktop client asks for it at
// install time and keeps sensitive ones in the OS keychain.
type UserOption struct {
	Type        string  `json:"type"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	Required    bool    `json:"required"`
	Sensitive   bool    `json:"sensitive"`
	Default     *string `json:"default,omitempty"`
}

// mcpbPlatform maps GOOS to the manifest's platform names (Node's process.platform).
func mcpbPlatform(goos string) string {
	if goos == "windows" {
		return "win32"
	}
	return goos
}

// configKey is the user_config key of a variable: SHOONYA_PASSWORD -> shoonya_password.
func configKey(env string) string { return strings.ToLower(env) }

// buildManifest makes the manifest of s for platform p from what the server
// itself listed. Every deployment variable becomes a user_config entry mapped
// into env; secrets are sensitive. Optional ones default to "" because the
// client leaves an unset ${user_config.x} verbatim (replaceVariables in
// @anthropic-ai/mcpb dist/shared/config.js), and pkg/serve refuses to start on
// such a placeholder; an empty variable reads as unset.
func buildManifest(s Server, l Listing, version string, p Platform) Manifest {
	exe := p.Exe(s.Name)
	m := Manifest{
		ManifestVersion: manifestVersion,
		Name:            s.Name,
		DisplayName:     "mcpfleet " + s.Name,
		Version:         version,
		Description:     s.Summary,
		LongDescription: l.Instructions,
		Author:          Author{Name: "mcpfleet", URL: repoURL},
		Repository:      Repository{Type: "git", URL: repoURL},
		Homepage:        repoURL,
		Documentation:   repoURL + "/tree/main/servers/" + s.Name + "#readme",
		License:         license,
		Keywords:        []string{"mcp", "mcpfleet", s.Name},
		Server: ManifestServer{
			Type:       "binary",
			EntryPoint: "server/" + exe,
			MCPConfig: MCPConfig{
				Command: "${__dirname}/server/" + exe,
				Args:    []string{"--transport", "stdio"},
			},
		},
		Tools:            []ManifestTool{},
		ToolsGenerated:   false,
		PromptsGenerated: len(l.Prompts) > 0,
		Compatibility:    Compatibility{Platforms: []string{mcpbPlatform(p.OS)}},
	}
	for _, t := range l.Tools {
		m.Tools = append(m.Tools, ManifestTool{Name: t.Name, Description: firstLine(t.Description)})
	}
	if len(s.Env) > 0 {
		m.UserConfig = map[string]UserOption{}
		m.Server.MCPConfig.Env = map[string]string{}
	}
	for _, v := range s.Env {
		key := configKey(v.Name)
		opt := UserOption{Type: "string", Title: v.Name, Description: optionText(v), Required: v.Required, Sensitive: v.Secret}
		if !v.Required {
			empty := ""
			opt.Default = &empty
		}
		m.UserConfig[key] = opt
		m.Server.MCPConfig.Env[v.Name] = "${user_config." + key + "}"
	}
	return m
}

func optionText(v EnvVar) string {
	text := v.Help
	if text == "" {
		text = v.Name
	}
	if v.Example != "" && !v.Secret {
		text += " (e.g. " + v.Example + ")"
	}
	return text
}

// firstLine is a tool's one-line summary: the manifest is shown in an install
// dialog; the full text comes from the server at run time.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return strings.TrimSpace(line)
}
