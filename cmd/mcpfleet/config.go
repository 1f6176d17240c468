package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// placeholder is what a secret looks like in a snippet: the user fills it in.
func placeholder(v envVar) string {
	if v.Secret || v.Example == "" {
		return "${" + v.Name + "}"
	}
	return v.Example
}

func envMap(s server) map[string]string {
	m := map[string]string{}
	for _, v := range s.Env {
		m[v.Name] = placeholder(v)
	}
	return m
}

// clientConfig renders the snippet each client expects. Claude Desktop, Claude
// Code (.mcp.json) and Cursor use {"mcpServers": {...}}; VS Code (.vscode/mcp.json)
// uses {"servers": {...}} with "type":"stdio" and inputs for secrets.
func clientConfig(clientName string, picked []server, binDir string) (string, error) {
	type entry struct {
		Type    string            `json:"type,omitempty"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env,omitempty"`
	}
	entries := map[string]entry{}
	var inputs []map[string]any
	for _, s := range picked {
		e := entry{Command: filepath.Join(binDir, s.Name), Args: []string{}, Env: envMap(s)}
		switch clientName {
		case "claude-code":
			e.Type = "stdio"
		case "vscode":
			e.Type = "stdio"
			for _, v := range s.Env {
				if v.Secret {
					id := strings.ToLower(strings.ReplaceAll(v.Name, "_", "-"))
					e.Env[v.Name] = "${input:" + id + "}"
					inputs = append(inputs, map[string]any{"id": id, "type": "promptString", "description": v.Name, "password": true})
				}
			}
		case "claude-desktop", "cursor":
		default:
			return "", errUnknownClient
		}
		entries[s.Name] = e
	}
	var doc any = map[string]any{"mcpServers": entries}
	if clientName == "vscode" {
		m := map[string]any{"servers": entries}
		if len(inputs) > 0 {
			m["inputs"] = inputs
		}
		doc = m
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	return string(b), err
}
