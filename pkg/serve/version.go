package serve

import (
	"runtime/debug"
	"strings"
)

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
