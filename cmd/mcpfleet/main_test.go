package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestUsageAndList(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "usage"},
		{[]string{"list"}, 0, "ktrdr"},
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"call", "nosuch", "x", "{}"}, 3, "unknown server"},
		{[]string{"call", "ziwei", "x", "not json"}, 2, "JSON object"},
		{[]string{"config", "--client", "emacs"}, 2, "--client must be"},
		{[]string{"config", "--servers", "nosuch"}, 2, "unknown server"},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := run(tc.args, &out, &errb)
		if code != tc.code || !strings.Contains(out.String()+errb.String(), tc.want) {
			t.Errorf("%v: exit %d, output %q %q", tc.args, code, out.String(), errb.String())
		}
	}
}

func TestConfigSnippets(t *testing.T) {
	for _, c := range []string{"claude-desktop", "claude-code", "cursor", "vscode"} {
		t.Run(c, func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := run([]string{"config", "--client", c, "--servers", "shoonya,ziwei", "--bin-dir", "/opt/mcpfleet"}, &out, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			var doc map[string]any
			if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out.String())
			}
			key := "mcpServers"
			if c == "vscode" {
				key = "servers"
			}
			entries := doc[key].(map[string]any)
			sh := entries["shoonya"].(map[string]any)
			if sh["command"] != "/opt/mcpfleet/shoonya" {
				t.Fatalf("command %v", sh["command"])
			}
			env := sh["env"].(map[string]any)
			pw := env["SHOONYA_PASSWORD"].(string)
			if !strings.HasPrefix(pw, "${") {
				t.Fatalf("a secret must be a placeholder, got %q", pw)
			}
		})
	}
}
