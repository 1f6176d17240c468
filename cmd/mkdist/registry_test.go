package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// registrySchema compiles the registry's published server.json schema
// (testdata/README.md says where the copy comes from).
func registrySchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/server.schema.2025-12-11.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(schemaURL, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(schemaURL)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateJSON(sch *jsonschema.Schema, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return sch.Validate(inst)
}

// Every server in the fleet list gets a server.json the registry's schema
// accepts, with both package kinds, its variables (secrets marked) and a
// streamable-http remote template.
func TestServerJSONMatchesRegistrySchema(t *testing.T) {
	sch := registrySchema(t)
	fleet, _ := testFleet(t)
	sums := map[Platform]string{}
	for _, p := range allPlatforms {
		sums[p] = strings.Repeat("ab", 32) // stands for the bundle's hash, made at release
	}
	for _, s := range fleet {
		t.Run(s.Name, func(t *testing.T) {
			sj := buildServerJSON(s, "1.2.3", sums)
			if err := validateJSON(sch, sj); err != nil {
				t.Fatalf("%s server.json against the registry schema: %v", s.Name, err)
			}
			kinds := map[string]int{}
			for _, p := range sj.Packages {
				kinds[p.RegistryType]++
				if len(p.EnvironmentVariables) != len(s.Env) {
					t.Errorf("%s package lists %d variables, the fleet %d", p.RegistryType, len(p.EnvironmentVariables), len(s.Env))
				}
				for i, v := range p.EnvironmentVariables {
					if v.IsSecret != s.Env[i].Secret || v.IsRequired != s.Env[i].Required {
						t.Errorf("%s %s: secret %v required %v", p.RegistryType, v.Name, v.IsSecret, v.IsRequired)
					}
				}
				if p.RegistryType == "mcpb" && (!strings.Contains(p.Identifier, "mcp") || !strings.HasPrefix(p.Identifier, "https://github.com/")) {
					t.Errorf("the registry takes mcpb only from GitHub/GitLab releases with \"mcp\" in the URL: %s", p.Identifier)
				}
			}
			if kinds["mcpb"] != len(allPlatforms) || kinds["oci"] != 1 {
				t.Errorf("packages %v", kinds)
			}
			if len(sj.Remotes) != 1 || sj.Remotes[0].Type != "streamable-http" || !strings.Contains(sj.Remotes[0].URL, "{host}") {
				t.Errorf("remotes %+v", sj.Remotes)
			}
		})
	}
}

// The schema copy is a real check: entries it must refuse are refused.
func TestRegistrySchemaRefuses(t *testing.T) {
	sch := registrySchema(t)
	base := Server{Name: "x", Summary: "x", Port: 1, Env: []EnvVar{{Name: "X_KEY", Secret: true}}}
	tests := map[string]func(*ServerJSON){
		"description over 100": func(s *ServerJSON) { s.Description = strings.Repeat("d", 101) },
		"name without slash":   func(s *ServerJSON) { s.Name = "mcpfleet-x" },
		"bad sha":              func(s *ServerJSON) { s.Packages[0].FileSHA256 = "xyz" },
		"remote not http":      func(s *ServerJSON) { s.Remotes[0].URL = "ftp://x/mcp" },
	}
	for name, mutate := range tests {
		sj := buildServerJSON(base, "1.0.0", map[Platform]string{allPlatforms[0]: strings.Repeat("0", 64)})
		mutate(&sj)
		if err := validateJSON(sch, sj); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
