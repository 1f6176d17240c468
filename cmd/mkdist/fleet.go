package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
)

// Server is one fleet member as `mcpfleet list --json` describes it (the list
// in cmd/mcpfleet/servers.go), plus the help text of each variable from the
// server binary's own --help. A server added there gets bundles, a registry
// entry and an image with no change here.
type Server struct {
	Name    string   `json:"name"`
	Summary string   `json:"summary"`
	Port    int      `json:"port"`
	Env     []EnvVar `json:"env"`
}

// EnvVar is a variable a deployment sets.
type EnvVar struct {
	Name     string `json:"name"`
	Example  string `json:"example,omitempty"`
	Secret   bool   `json:"secret"`
	Required bool   `json:"required"`
	Help     string `json:"-"` // from the server's --help
}

// loadFleet runs `mcpfleet list --json`.
func loadFleet(ctx context.Context, mcpfleet string) ([]Server, error) {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, mcpfleet, "list", "--json")
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s list --json: %v: %s", mcpfleet, err, strings.TrimSpace(stderr.String()))
	}
	var fleet []Server
	if err := json.Unmarshal(out, &fleet); err != nil {
		return nil, fmt.Errorf("%s list --json: %v", mcpfleet, err)
	}
	if len(fleet) == 0 {
		return nil, fmt.Errorf("%s list --json: no servers", mcpfleet)
	}
	return fleet, nil
}

// pick keeps the named servers (all when names is empty).
func pick(fleet []Server, names []string) ([]Server, error) {
	if len(names) == 0 {
		return fleet, nil
	}
	var out []Server
	for _, n := range names {
		found := false
		for _, s := range fleet {
			if s.Name == n {
				out = append(out, s)
				found = true
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown server %q (not in `mcpfleet list`)", n)
		}
	}
	return out, nil
}

// envHelp reads the "environment (NAME):" section pkg/serve prints on --help:
// lines "  VAR [(secret)]  help". It returns help text and secrecy per variable.
func envHelp(ctx context.Context, bin, name string) (map[string]EnvVar, error) {
	var buf bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, "--help")
	cmd.Stdout, cmd.Stderr = &buf, &buf
	cmd.Env = []string{"PATH=/usr/bin:/bin"}
	_ = cmd.Run() // --help exits non-zero with the flag package; the text is what counts
	out := map[string]EnvVar{}
	in := false
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "environment (") {
			in = strings.HasPrefix(line, "environment ("+name+"):")
			continue
		}
		if !in {
			continue
		}
		if !strings.HasPrefix(line, "  ") {
			in = false
			continue
		}
		head, help, _ := strings.Cut(strings.TrimSpace(line), "  ")
		v := EnvVar{Help: strings.TrimSpace(help)}
		v.Name, _, _ = strings.Cut(head, " ")
		v.Secret = strings.Contains(head, "(secret)")
		out[v.Name] = v
	}
	if len(out) == 0 && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return out, nil
}

// withHelp fills Help from the binary and marks a variable secret when either
// the fleet list or the server itself says so.
func withHelp(s Server, help map[string]EnvVar) Server {
	env := make([]EnvVar, len(s.Env))
	for i, v := range s.Env {
		if h, ok := help[v.Name]; ok {
			v.Help = h.Help
			v.Secret = v.Secret || h.Secret
		}
		env[i] = v
	}
	s.Env = env
	return s
}
