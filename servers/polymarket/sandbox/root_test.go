package sandbox

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The extension modules that must never enter the root: each gives native
// code (unaudited memory, a subinterpreter the audit hook never sees,
// sockets, processes) a door the Python layer cannot watch.
var neverInRoot = []string{"_ctypes", "_testcapi", "_testinternalcapi", "mmap", "_sqlite3", "_socket",
	"_posixsubprocess", "fcntl", "select", "_ssl", "_multiprocessing", "_posixshmem", "termios", "resource", "_xxsubinterpreters"}

// TestRootFiles: the root built for this machine's interpreter holds the
// files of the modules a run loads and nothing else of the stdlib: of
// lib-dynload only admitted extension modules, none of the dangerous ones,
// and every file inside the stdlib tree.
func TestRootFiles(t *testing.T) {
	s := newTest(t, Config{})
	if p := s.Probe(); p.Unavailable != "" {
		t.Fatalf("sandbox unavailable: %s", p.Unavailable)
	}
	if len(s.stdlibFiles) == 0 {
		t.Fatal("the root binds no stdlib files: the tree is bound whole")
	}
	stdlib := s.spec.ReadDirs[0]
	all := 0
	_ = filepath.Walk(stdlib, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			all++
		}
		return nil
	})
	t.Logf("root: %d of the stdlib's %d files", len(s.stdlibFiles), all)
	if len(s.stdlibFiles) > all/5 {
		t.Errorf("the root binds %d of %d stdlib files", len(s.stdlibFiles), all)
	}
	for _, f := range s.stdlibFiles {
		if !strings.HasPrefix(f, stdlib+"/") {
			t.Errorf("%s is outside the stdlib %s", f, stdlib)
		}
		if strings.HasSuffix(f, ".so") {
			name, _, _ := strings.Cut(filepath.Base(f), ".")
			if _, ok := rootExtensions[name]; !ok || slices.Contains(neverInRoot, name) {
				t.Errorf("extension module %s in the root", name)
			}
		}
	}
	dynload, _ := filepath.Glob(filepath.Join(stdlib, "lib-dynload", "*.so"))
	for _, f := range dynload {
		name, _, _ := strings.Cut(filepath.Base(f), ".")
		if _, ok := rootExtensions[name]; !ok && slices.Contains(s.stdlibFiles, f) {
			t.Errorf("%s bound", f)
		}
	}
}

// TestRootModulesListed: the modules a run loads are those checked in for
// Debian 12's CPython 3.11 (testdata/root-modules.txt), so a change of
// the prelude's imports shows in review. Elsewhere the list is only logged.
func TestRootModulesListed(t *testing.T) {
	mods, err := rootModules(context.Background(), DefaultPython)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range mods {
		kind := "py"
		if strings.HasSuffix(m.File, ".so") {
			kind = "so"
		}
		got = append(got, m.Name+" "+kind)
	}
	want, err := os.ReadFile("testdata/root-modules.txt")
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(DefaultPython)
	if !strings.HasPrefix(filepath.Base(real), "python3.11") || !strings.HasPrefix(mods[0].File, "/usr/lib/python3.11/") {
		t.Logf("not Debian's CPython 3.11 (%s): the checked-in list is not compared; this interpreter loads:\n%s", real, strings.Join(got, "\n"))
		return
	}
	if g := strings.Join(got, "\n") + "\n"; g != string(want) {
		t.Errorf("the modules a run loads changed; review and write them to testdata/root-modules.txt:\n%s", g)
	}
}

// TestRootFilesRefusesUnadmittedExtensions: a module list naming an
// extension module outside rootExtensions, or a file outside the stdlib,
// builds no root.
func TestRootFilesRefusesUnadmittedExtensions(t *testing.T) {
	dir := t.TempDir()
	must := func(p string) string {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stdlib := filepath.Join(dir, "lib", "python3.11")
	ok := must(filepath.Join(stdlib, "lib-dynload", "_json.cpython-311-x86_64-linux-gnu.so"))
	py := must(filepath.Join(stdlib, "json", "__init__.py"))
	pyc := must(filepath.Join(stdlib, "json", "__pycache__", "__init__.cpython-311.pyc"))
	bad := must(filepath.Join(stdlib, "lib-dynload", "_ctypes.cpython-311-x86_64-linux-gnu.so"))
	outside := must(filepath.Join(dir, "elsewhere", "x.py"))
	files, err := rootFiles([]rootModule{{"_json", ok}, {"json", py}}, stdlib)
	if err != nil || !slices.Equal(files, []string{py, pyc, ok}) {
		t.Fatalf("files %v, err %v", files, err)
	}
	for _, mods := range [][]rootModule{{{"_ctypes", bad}}, {{"x", outside}}, {{"json", filepath.Join(stdlib, "missing.py")}}} {
		if _, err := rootFiles(mods, stdlib); err == nil {
			t.Errorf("%v: a root was built", mods)
		}
	}
}
