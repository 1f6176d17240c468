package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// finalStage is the last stage of a Dockerfile as instruction -> arguments
// (continuation lines joined, comments dropped), with ARGs expanded from args.
func finalStage(t *testing.T, path string, args map[string]string) [][2]string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	cur := ""
	for _, l := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "#") {
			continue
		}
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		if s := strings.TrimSpace(cur + l); s != "" {
			lines = append(lines, s)
		}
		cur = ""
	}
	var stage [][2]string
	expand := regexp.MustCompile(`\$\{([A-Z_]+)\}`)
	for _, l := range lines {
		ins, rest, _ := strings.Cut(l, " ")
		ins = strings.ToUpper(ins)
		if ins == "FROM" {
			stage = nil
		}
		rest = expand.ReplaceAllStringFunc(rest, func(m string) string { return args[m[2:len(m)-1]] })
		stage = append(stage, [2]string{ins, strings.TrimSpace(rest)})
	}
	return stage
}

// pairs reads k=v k2="v 2" ... (ENV and LABEL).
func pairs(t *testing.T, s string) map[string]string {
	t.Helper()
	out := map[string]string{}
	re := regexp.MustCompile(`([A-Za-z0-9_.-]+)=("(?:[^"\\]|\\.)*"|\S*)`)
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		v := m[2]
		if strings.HasPrefix(v, `"`) {
			var err error
			if v, err = strconv.Unquote(v); err != nil {
				t.Fatalf("%s: %v", m[0], err)
			}
		}
		out[m[1]] = v
	}
	return out
}

// The Dockerfile builds what mkdist builds, for every server: a test, not a
// promise, keeps the two from drifting.
func TestDockerfileMatchesGenerator(t *testing.T) {
	fleet, _ := testFleet(t)
	for _, s := range fleet {
		t.Run(s.Name, func(t *testing.T) {
			args := map[string]string{"SERVER": s.Name, "PORT": strconv.Itoa(s.Port), "VERSION": "1.2.3", "DESCRIPTION": s.Summary}
			stage := finalStage(t, filepath.Join(repoRoot(t), "Dockerfile"), args)
			env, labels := map[string]string{}, map[string]string{}
			var copies []string
			got := map[string]string{}
			for _, in := range stage {
				switch in[0] {
				case "ENV":
					for k, v := range pairs(t, in[1]) {
						env[k] = v
					}
				case "LABEL":
					for k, v := range pairs(t, in[1]) {
						labels[k] = v
					}
				case "COPY":
					f := strings.Fields(in[1])
					copies = append(copies, f[len(f)-1])
				default:
					got[in[0]] = in[1]
				}
			}
			if got["FROM"] != "scratch" {
				t.Errorf("final stage FROM %q: the image has no shell or libc", got["FROM"])
			}
			var entry []string
			if err := json.Unmarshal([]byte(got["ENTRYPOINT"]), &entry); err != nil || !slices.Equal(entry, imageEntrypoint) {
				t.Errorf("ENTRYPOINT %s, generator %v", got["ENTRYPOINT"], imageEntrypoint)
			}
			if got["USER"] != imageUser || got["WORKDIR"] != imageHome || got["STOPSIGNAL"] != "SIGTERM" {
				t.Errorf("USER %q WORKDIR %q STOPSIGNAL %q", got["USER"], got["WORKDIR"], got["STOPSIGNAL"])
			}
			if got["EXPOSE"] != strconv.Itoa(s.Port)+"/tcp" {
				t.Errorf("EXPOSE %q", got["EXPOSE"])
			}
			wantEnv := map[string]string{}
			for _, kv := range imageEnv(s) {
				k, v, _ := strings.Cut(kv, "=")
				wantEnv[k] = v
			}
			if !mapsEqual(env, wantEnv) {
				t.Errorf("ENV %v, generator %v", env, wantEnv)
			}
			if want := imageLabels(s, "1.2.3"); !mapsEqual(labels, want) {
				t.Errorf("LABEL %v, generator %v", labels, want)
			}
			for _, p := range []string{imageBinary, caBundle, "/tmp", imageState} {
				if !slices.Contains(copies, p) {
					t.Errorf("nothing COPYed to %s (copies %v)", p, copies)
				}
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
