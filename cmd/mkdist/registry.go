package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
)

// schemaURL is the current server.json schema of the MCP Registry
// (model.CurrentSchemaURL in github.com/modelcontextprotocol/registry v1.8.8).
const schemaURL = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json"

const (
	// registryNamespace is the GitHub namespace the registry authenticates
	// (io.github.<owner>/...).
	registryNamespace = "io.github.mcpfleet"
	// imageRepo is where release images would be pushed (nothing is pushed here).
	imageRepo = "ghcr.io/mcpfleet"
	// releaseURL is where release assets (bundles) would be attached.
	releaseURL = repoURL + "/releases/download"
)

// ServerJSON is a registry entry (schema 2025-12-11).
type ServerJSON struct {
	Schema      string          `json:"$schema"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Version     string          `json:"version"`
	WebsiteURL  string          `json:"websiteUrl"`
	Repository  RegistryRepo    `json:"repository"`
	Packages    []Package       `json:"packages"`
	Remotes     []Remote        `json:"remotes"`
	Meta        json.RawMessage `json:"_meta,omitempty"`
}

type RegistryRepo struct {
	URL       string `json:"url"`
	Source    string `json:"source"`
	Subfolder string `json:"subfolder"`
}

type Package struct {
	RegistryType         string     `json:"registryType"`
	Identifier           string     `json:"identifier"`
	Version              string     `json:"version,omitempty"`
	FileSHA256           string     `json:"fileSha256,omitempty"`
	Transport            Transport  `json:"transport"`
	PackageArguments     []Argument `json:"packageArguments,omitempty"`
	EnvironmentVariables []Input    `json:"environmentVariables,omitempty"`
}

type Transport struct {
	Type string `json:"type"`
}

type Argument struct {
	Type  string `json:"type"`
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Input is a KeyValueInput (env var or header) or a URL variable.
type Input struct {
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
	IsRequired  bool   `json:"isRequired,omitempty"`
	IsSecret    bool   `json:"isSecret,omitempty"`
	Format      string `json:"format,omitempty"`
	Value       string `json:"value,omitempty"`
	Placeholder string `json:"placeholder,omitempty"`
	// Variables fill {curly} names in Value (headers only).
	Variables map[string]Input `json:"variables,omitempty"`
}

type Remote struct {
	Type      string           `json:"type"`
	URL       string           `json:"url"`
	Headers   []Input          `json:"headers,omitempty"`
	Variables map[string]Input `json:"variables,omitempty"`
}

// registryName is s's name in the registry.
func registryName(name string) string { return registryNamespace + "/" + name }

// imageRef is s's image reference for version.
func imageRef(name, version string) string { return imageRepo + "/" + name + ":" + version }

// semverRE is the registry's recommendation (versioning.mdx): semantic versions.
var semverRE = regexp.MustCompile(`^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

func validVersion(v string) error {
	if !semverRE.MatchString(v) {
		return fmt.Errorf("version %q is not semver (e.g. 1.2.3 or 0.0.0-dev)", v)
	}
	return nil
}

// buildServerJSON makes s's registry entry. bundleSums maps each bundled
// platform to its .mcpb's SHA-256 (the registry requires fileSha256 for mcpb).
// The image runs --transport http; the OCI package overrides it to stdio
// (docker run IMAGE ARGS appends to the entrypoint; the last flag wins) so a
// client that starts containers over stdio gets a working server.
func buildServerJSON(s Server, version string, bundleSums map[Platform]string) ServerJSON {
	var env []Input
	for _, v := range s.Env {
		in := Input{Name: v.Name, Description: optionText(v), IsRequired: v.Required, IsSecret: v.Secret, Format: "string"}
		env = append(env, in)
	}
	sj := ServerJSON{
		Schema:      schemaURL,
		Name:        registryName(s.Name),
		Title:       "mcpfleet " + s.Name,
		Description: truncate(s.Summary, 100),
		Version:     version,
		WebsiteURL:  repoURL + "/tree/main/servers/" + s.Name,
		Repository:  RegistryRepo{URL: repoURL, Source: "github", Subfolder: "servers/" + s.Name},
	}
	for _, p := range allPlatforms {
		sum, ok := bundleSums[p]
		if !ok {
			continue
		}
		sj.Packages = append(sj.Packages, Package{
			RegistryType: "mcpb",
			Identifier:   fmt.Sprintf("%s/v%s/%s", releaseURL, version, filepath.Base(bundlePath("", s.Name, version, p))),
			Version:      version,
			FileSHA256:   sum,
			Transport:    Transport{Type: "stdio"},
			// The bundle's own user_config maps these; listed so registry clients can ask for them too.
			EnvironmentVariables: env,
		})
	}
	sj.Packages = append(sj.Packages, Package{
		RegistryType:         "oci",
		Identifier:           imageRef(s.Name, version),
		Transport:            Transport{Type: "stdio"},
		PackageArguments:     []Argument{{Type: "named", Name: "--transport", Value: "stdio"}},
		EnvironmentVariables: env,
	})
	sj.Remotes = []Remote{{
		Type: "streamable-http",
		URL:  "https://{host}/mcp",
		Headers: []Input{{Name: "Authorization", Description: "Bearer token from the deployment's MCPFLEET_AUTH_TOKENS (user=token)",
			IsRequired: true, IsSecret: true, Value: "Bearer {token}",
			Variables: map[string]Input{"token": {Description: "your bearer token", IsRequired: true, IsSecret: true}}}},
		Variables: map[string]Input{"host": {Description: "host[:port] of your deployment (deploy/ in the repository; default port " +
			strconv.Itoa(s.Port) + ")", IsRequired: true}},
	}}
	return sj
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// cmdRegistry writes dist/registry/<name>/server.json, with the hashes of the
// bundles already in dist (make bundles first for the mcpb packages).
func cmdRegistry(ctx context.Context, c config, stdout io.Writer) error {
	fleet, err := c.fleet(ctx)
	if err != nil {
		return err
	}
	for _, s := range fleet {
		bin, err := c.hostBinary(ctx, s.Name)
		if err != nil {
			return err
		}
		help, err := envHelp(ctx, bin, s.Name)
		if err != nil {
			return err
		}
		s = withHelp(s, help)
		sums := map[Platform]string{}
		for _, p := range c.platforms {
			if sum, err := fileSHA256(bundlePath(c.dist, s.Name, c.version, p)); err == nil {
				sums[p] = sum
			}
		}
		b, err := json.MarshalIndent(buildServerJSON(s, c.version, sums), "", "  ")
		if err != nil {
			return err
		}
		out := filepath.Join(c.dist, "registry", s.Name, "server.json")
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
			return err
		}
		fmt.Fprintln(stdout, out)
	}
	return nil
}
