package env

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
)

// Var is one environment variable a server reads: listed by --help, checked
// for placeholders at start-up, and (in the fleet CLI) written into configs.
type Var struct {
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

// CheckPlaceholders refuses to start when a declared variable, or any
// MCPFLEET_* one, still holds a template value in environ (os.Environ's
// form): it would be sent upstream as a credential. The message names the
// variable, never the value of a secret.
func CheckPlaceholders(declaredVars []Var, environ []string) error {
	declared := map[string]Var{}
	for _, e := range declaredVars {
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

// PrintHelp lists server's variables for --help.
func PrintHelp(w io.Writer, server string, vars []Var) {
	if len(vars) == 0 {
		return
	}
	fmt.Fprintf(w, "environment (%s):\n", server)
	for _, e := range vars {
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
