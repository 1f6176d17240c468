package main

import (
	"encoding/json"
	"fmt"
	"io"
)

// fleetEntry is one server as `mcpfleet list --json` prints it. cmd/mkdist reads
// this to generate bundles, registry entries and images for every server in
// servers.go without importing this package or any server's code.
type fleetEntry struct {
	Name    string     `json:"name"`
	Summary string     `json:"summary"`
	Port    int        `json:"port"`
	Env     []fleetEnv `json:"env"`
}

type fleetEnv struct {
	Name     string `json:"name"`
	Example  string `json:"example,omitempty"`
	Secret   bool   `json:"secret"`
	Required bool   `json:"required"`
}

func listJSON(stdout, stderr io.Writer) int {
	out := make([]fleetEntry, 0, len(servers))
	for _, s := range servers {
		e := fleetEntry{Name: s.Name, Summary: s.Summary, Port: s.Port, Env: []fleetEnv{}}
		for _, v := range s.Env {
			e.Env = append(e.Env, fleetEnv(v))
		}
		out = append(out, e)
	}
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fmt.Fprintln(stderr, "mcpfleet:", err)
		return exitNoServer
	}
	return exitOK
}
