package sandbox

import (
	"debug/elf"
	"os"
	"path/filepath"
	"sort"
)

// sharedLibs is what the root needs of the library directory: the shared
// libraries the given ELF files link (DT_NEEDED), and theirs, found in
// libDir. It maps each library's path in the root (libDir/soname, where
// the loader looks without a cache) to the host file it is bound from.
func sharedLibs(libDir string, roots ...string) map[string]string {
	libs := map[string]string{}
	queue := append([]string(nil), roots...)
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, name := range neededOf(f) {
			at := filepath.Join(libDir, name)
			if _, seen := libs[at]; seen || filepath.Base(name) != name {
				continue
			}
			real, err := filepath.EvalSymlinks(at)
			if err != nil {
				continue // not there: the loader will say so if it is needed
			}
			if st, err := os.Stat(real); err != nil || !st.Mode().IsRegular() {
				continue
			}
			libs[at] = real
			queue = append(queue, real)
		}
	}
	return libs
}

func neededOf(path string) []string {
	f, err := elf.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.ImportedLibraries()
	return names
}

// sortedPaths is m's keys in order (bwrap's arguments stay stable).
func sortedPaths(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
