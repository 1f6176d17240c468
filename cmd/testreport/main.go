// Command testreport reads `go test -json` on stdin and prints what a person
// needs: one line per package, the output of every failed test, and a summary
// of tests passed, failed and skipped, with the prerequisites whose absence
// caused skips and the command that installs each. It exits 1 when any test
// or package failed.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"
)

type event struct {
	ImportPath string
	Action     string
	Package    string
	Test       string
	Output     string
	Elapsed    float64
}

// prereq is a missing tool recognised in skip messages.
type prereq struct{ name, match, install string }

var prereqs = []prereq{
	{"redis-server", "redis-server", "apt-get install redis-server"},
	{"MCP Inspector / node 22", "Inspector", "make tools-node"},
	{"MCP conformance suite", "conformance", "make tools-node"},
	{"python3 (Debian)", "python3", "apt-get install python3"},
	{"Chromium", "hromium", "apt-get install chromium-headless-shell fonts-noto-cjk"},
	{"network namespaces / sandbox layers", "sandbox unavailable", "run on Linux with unprivileged user namespaces and Landlock"},
}

type testKey struct{ pkg, test string }

func main() { os.Exit(report(os.Stdin, os.Stdout)) }

func report(in io.Reader, out io.Writer) int {
	output := map[testKey][]string{}
	var passed, failed, skipped int
	var failedTests []testKey
	skipReasons := map[testKey]string{}
	pkgFailed := map[string]bool{}
	var pkgs []string
	start := time.Now()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1024*1024), 16*1024*1024)
	for sc.Scan() {
		line := sc.Bytes()
		var e event
		if json.Unmarshal(line, &e) != nil {
			// Build errors and other non-JSON lines go through as they are.
			fmt.Fprintln(out, string(line))
			continue
		}
		k := testKey{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			fmt.Fprint(out, e.Output)
		case "build-fail":
			pkgFailed[e.Package] = true
		case "output":
			if len(output[k]) < 2000 {
				output[k] = append(output[k], e.Output)
			}
		case "pass":
			if e.Test == "" {
				pkgs = append(pkgs, e.Package)
				fmt.Fprintf(out, "ok    %s (%.1fs)\n", e.Package, e.Elapsed)
				delete(output, k)
			} else {
				if !strings.Contains(e.Test, "/") {
					passed++
				}
				delete(output, k)
			}
		case "skip":
			if e.Test == "" {
				fmt.Fprintf(out, "?     %s [no test files]\n", e.Package)
				continue
			}
			if !strings.Contains(e.Test, "/") {
				skipped++
			}
			skipReasons[k] = skipReason(output[k])
			delete(output, k)
		case "fail":
			if e.Test == "" {
				pkgs = append(pkgs, e.Package)
				pkgFailed[e.Package] = true
				fmt.Fprintf(out, "FAIL  %s (%.1fs)\n", e.Package, e.Elapsed)
				if lines := output[k]; len(lines) > 0 {
					fmt.Fprint(out, indent(lines))
				}
				continue
			}
			if !strings.Contains(e.Test, "/") {
				failed++
				failedTests = append(failedTests, k)
			}
			fmt.Fprintf(out, "--- FAIL %s %s\n%s", e.Package, e.Test, indent(output[k]))
		}
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "packages: %d (%d failed), tests: %d passed, %d failed, %d skipped, %s\n",
		len(pkgs), len(pkgFailed), passed, failed, skipped, time.Since(start).Round(time.Second))
	if len(failedTests) > 0 {
		fmt.Fprintln(out, "failed:")
		for _, k := range failedTests {
			fmt.Fprintf(out, "  %s %s\n", k.pkg, k.test)
		}
	}
	if len(skipReasons) > 0 {
		missing := map[string]int{}
		var other []string
		for k, r := range skipReasons {
			hit := false
			for _, p := range prereqs {
				if strings.Contains(r, p.match) {
					missing[p.name]++
					hit = true
					break
				}
			}
			if !hit && !strings.Contains(r, "short") && !strings.Contains(r, "e2e") {
				other = append(other, fmt.Sprintf("  %s %s: %s", k.pkg, k.test, r))
			}
		}
		for _, p := range prereqs {
			if n := missing[p.name]; n > 0 {
				fmt.Fprintf(out, "skipped %d test(s): %s missing — install with: %s\n", n, p.name, p.install)
			}
		}
		sort.Strings(other)
		if len(other) > 0 {
			fmt.Fprintln(out, "other skips:")
			fmt.Fprintln(out, strings.Join(other, "\n"))
		}
	}
	// The plain closing line CI readers look for.
	fmt.Fprintf(out, "%d passed, %d failed, %d skipped\n", passed, failed, skipped)
	if failed > 0 || len(pkgFailed) > 0 {
		return 1
	}
	return 0
}

// skipReason is the t.Skip message: the last output line that is not the
// "--- SKIP" header.
func skipReason(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if l == "" || strings.HasPrefix(l, "--- SKIP") || strings.HasPrefix(l, "=== ") {
			continue
		}
		return l
	}
	return ""
}

func indent(lines []string) string {
	var sb strings.Builder
	for _, l := range lines {
		if strings.HasPrefix(l, "=== RUN") || strings.HasPrefix(l, "=== PAUSE") || strings.HasPrefix(l, "=== CONT") {
			continue
		}
		sb.WriteString("    " + strings.TrimLeft(l, " "))
		if !strings.HasSuffix(l, "\n") {
			sb.WriteByte('\n')
		}
	}
	return sb.String()
}
