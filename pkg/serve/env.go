package serve

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime/debug"
	"sort"
	"strings"
)

// EnvVar is one environment variable a server reads: listed by --help, checked
// for placeholders at start-up, and (in the fleet CLI) written into configs.
type EnvVar struct {
	Name string
	Help string
	// Secret values are scrubbed from logs (they are registered with redact).
	Secret bool
	// Sample is the documentation's made-up example value (an account id like
	// FA12345). Sample values are refused at start-up like placeholders.
	Sample string
}

// placeholderRE matches values a user copied from a template and never filled:
// ${VAR}, $VAR, <token>, and the usual words.
var placeholderRE = regexp.MustCompile(`(?i)^(\$\{[^}]*\}|\$[A-Z_][A-Z0-9_]*|<[^<>]*>|change[-_ ]?me|replace[-_ ]?me|your[-_ ].*|todo|tbd|x{3,}|placeholder|\.\.\.|…)$`)

// IsPlaceholder reports whether v is an unfilled template value. Comma lists
// and user=token pairs (MCPFLEET_AUTH_TOKENS) are checked part by part.
func IsPlaceholder(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return false
	}
	if placeholderRE.MatchString(v) {
		return true
	}
	for _, part := range strings.Split(v, ",") {
		if _, val, ok := strings.Cut(part, "="); ok {
			part = val
		}
		if p := strings.TrimSpace(part); p != v && placeholderRE.MatchString(p) {
			return true
		}
	}
	return false
}

// checkPlaceholders refuses to start when a declared variable, or any
// MCPFLEET_* one, still holds a template value: it would be sent upstream as a
// credential. The message names the variable, never the value of a secret.
func checkPlaceholders(app App, environ []string) error {
	declared := map[string]EnvVar{}
	for _, e := range app.Env {
		declared[e.Name] = e
	}
	var bad []string
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		e, ok := declared[k]
		if !ok && !strings.HasPrefix(k, "MCPFLEET_") {
			continue
		}
		switch {
		case IsPlaceholder(v):
			bad = append(bad, k+" is still a placeholder")
		case ok && e.Sample != "" && strings.TrimSpace(v) == e.Sample:
			bad = append(bad, fmt.Sprintf("%s is the documentation's sample value %q", k, e.Sample))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	return fmt.Errorf("%s: set the real value (or unset the variable) in the client's config or the environment, then start again", strings.Join(bad, "; "))
}

// printEnv lists the server's variables for --help.
func printEnv(w io.Writer, app App) {
	if len(app.Env) == 0 {
		return
	}
	fmt.Fprintf(w, "environment (%s):\n", app.Name)
	for _, e := range app.Env {
		s := "  " + e.Name
		if e.Secret {
			s += " (secret)"
		}
		if e.Help != "" {
			s += "  " + e.Help
		}
		fmt.Fprintln(w, s)
	}
}

func environ() []string { return os.Environ() }

// resolveVersion is the version --version prints: the one set at build time
// (-ldflags "-X main.version=v1.2.3"), else the module version and VCS
// revision from the binary's build info (go install …@v1.2.3 sets both).
func resolveVersion(v string) string {
	if v != "" && v != "dev" {
		return v
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	out := bi.Main.Version
	if out == "" || out == "(devel)" {
		out = "dev"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if rev != "" && !strings.Contains(out, rev[:min(12, len(rev))]) {
		out += " (" + rev[:min(12, len(rev))] + modified + ")"
	}
	return out + " " + bi.GoVersion
}
