package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// `list --json` is what cmd/mkdist generates bundles, registry entries,
// images and deploy/ from: every server with its port and variables.
func TestListJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"list", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got []fleetEntry
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(servers) {
		t.Fatalf("%d entries for %d servers", len(got), len(servers))
	}
	for i, s := range servers {
		g := got[i]
		if g.Name != s.Name || g.Port != s.Port || g.Summary != s.Summary || len(g.Env) != len(s.Env) {
			t.Errorf("%s: %+v", s.Name, g)
			continue
		}
		for j, v := range s.Env {
			if g.Env[j].Name != v.Name || g.Env[j].Secret != v.Secret || g.Env[j].Required != v.Required {
				t.Errorf("%s %s: %+v", s.Name, v.Name, g.Env[j])
			}
		}
	}
}
