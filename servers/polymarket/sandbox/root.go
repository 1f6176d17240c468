package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// rootExtensions are the only extension modules (.so files of lib-dynload)
// the sandbox root may carry: those the whitelisted modules and the prelude
// load, on the CPython 3.11 builds the sandbox supports. Debian 12 builds
// most of them into the interpreter and loads only _decimal and _json from
// files; a build that keeps more of them as files (pyenv's, python.org's)
// loads the rest. Anything else the prelude might load (a new CPython
// release) is refused at start, naming the module, instead of entering the
// root: every other file of lib-dynload (_ctypes, _testcapi, mmap,
// _sqlite3, _socket, _posixsubprocess, ...) gives native code a door the
// Python layer cannot watch.
var rootExtensions = map[string]string{
	"_bisect":     "bisect's C accelerator",
	"_datetime":   "datetime's C implementation",
	"_decimal":    "decimal (statistics and fractions import it)",
	"_heapq":      "heapq's C accelerator (collections.Counter.most_common)",
	"_json":       "json's C scanner and encoder",
	"_random":     "random's generator",
	"_sha512":     "random.seed of str and bytes",
	"_statistics": "statistics' C helpers",
	"math":        "math",
}

// rootModule is one module a run loads and the host file it comes from.
type rootModule struct {
	Name, File string
}

// rootModules asks the interpreter which modules a run loads: the prelude
// in its root-modules mode imports what every run imports (the whitelist,
// the modules they import lazily, the codecs it looks up) and lists them.
// It runs the trusted prelude on the host interpreter with no user code,
// once at start.
func rootModules(ctx context.Context, py string) ([]rootModule, error) {
	cmd := exec.CommandContext(ctx, py, "-I", "-S", "-B", "-c", prelude, "root-modules")
	cmd.Stdin = strings.NewReader(`{"code": "", "input_data": {}}`)
	cmd.Env = []string{}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s root-modules: %v: %s", py, err, strings.TrimSpace(stderr.String()))
	}
	var mods []rootModule
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		name, file, ok := strings.Cut(sc.Text(), "\t")
		if !ok || name == "" || !filepath.IsAbs(file) {
			return nil, fmt.Errorf("%s root-modules: unexpected line %q", py, sc.Text())
		}
		mods = append(mods, rootModule{Name: name, File: file})
	}
	if len(mods) == 0 {
		return nil, fmt.Errorf("%s root-modules: no modules listed", py)
	}
	return mods, nil
}

// rootFiles is what the sandbox root binds of the stdlib: each module's
// file (and its compiled __pycache__ copies, so no run compiles them
// again), every one inside stdlib; extension modules only from
// rootExtensions.
func rootFiles(mods []rootModule, stdlib string) ([]string, error) {
	seen := map[string]bool{}
	var files []string
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, m := range mods {
		real, err := filepath.EvalSymlinks(m.File)
		if err != nil {
			return nil, fmt.Errorf("module %s: %v", m.Name, err)
		}
		if rel, err := filepath.Rel(stdlib, real); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, fmt.Errorf("module %s comes from %s, outside the stdlib %s", m.Name, real, stdlib)
		}
		if strings.HasSuffix(real, ".so") {
			if _, ok := rootExtensions[m.Name]; !ok {
				return nil, fmt.Errorf("the prelude loads extension module %s (%s), which the sandbox root does not admit", m.Name, real)
			}
			add(real)
			continue
		}
		add(real)
		stem := strings.TrimSuffix(filepath.Base(real), ".py")
		pycs, _ := filepath.Glob(filepath.Join(filepath.Dir(real), "__pycache__", stem+".*.pyc"))
		for _, p := range pycs {
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				add(p)
			}
		}
	}
	sort.Strings(files)
	return files, nil
}
