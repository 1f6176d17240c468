package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// Platform is a GOOS/GOARCH pair.
type Platform struct{ OS, Arch string }

func (p Platform) String() string { return p.OS + "/" + p.Arch }

// Dir is the platform's directory name, e.g. linux-amd64.
func (p Platform) Dir() string { return p.OS + "-" + p.Arch }

// Exe is the binary's file name on this platform.
func (p Platform) Exe(name string) string {
	if p.OS == "windows" {
		return name + ".exe"
	}
	return name
}

// allPlatforms are the release targets: desktop clients run on all three
// systems, on both architectures.
var allPlatforms = []Platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

func hostPlatform() Platform { return Platform{runtime.GOOS, runtime.GOARCH} }

// parsePlatforms reads "all", "host" or a comma list of os/arch.
func parsePlatforms(s string) ([]Platform, error) {
	switch strings.TrimSpace(s) {
	case "", "all":
		return allPlatforms, nil
	case "host":
		return []Platform{hostPlatform()}, nil
	}
	var out []Platform
	for _, part := range strings.Split(s, ",") {
		osName, arch, ok := strings.Cut(strings.TrimSpace(part), "/")
		if !ok {
			return nil, fmt.Errorf("platform %q is not os/arch (e.g. linux/amd64)", part)
		}
		p := Platform{osName, arch}
		known := false
		for _, a := range allPlatforms {
			known = known || a == p
		}
		if !known {
			return nil, fmt.Errorf("platform %q is not one of the release targets %v", part, allPlatforms)
		}
		out = append(out, p)
	}
	return out, nil
}

// BuildOptions make a release binary: static (no cgo), paths trimmed, build
// id empty and VCS stamped, so the same commit gives the same bytes anywhere.
type BuildOptions struct {
	Version  string
	BuildVCS string // "true", "false" or "auto" (go build -buildvcs)
	Go       string
	Dir      string // the repository root (package paths are relative to it)
}

// goBuildArgs are the go build arguments for one package.
func (o BuildOptions) goBuildArgs(pkg, out string) []string {
	return []string{"build", "-trimpath", "-buildvcs=" + o.BuildVCS,
		"-ldflags", "-s -w -buildid= -X main.version=" + o.Version,
		"-o", out, pkg}
}

// build cross-compiles pkg for p into out.
func (o BuildOptions) build(ctx context.Context, pkg, out string, p Platform) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, o.Go, o.goBuildArgs(pkg, out)...)
	cmd.Dir = o.Dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+p.OS, "GOARCH="+p.Arch)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s for %s: %w", pkg, p, err)
	}
	return nil
}

// binPath is where a server's binary for p lives under dist.
func binPath(dist, name string, p Platform) string {
	return filepath.Join(dist, "bin", p.Dir(), p.Exe(name))
}

// fileSHA256 is the hex SHA-256 of a file.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeSums writes SHA256SUMS in dir over every regular file below it (paths
// relative to dir, sorted), in the format `sha256sum -c` reads.
func writeSums(dir string) error {
	var lines []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "stage" { // bundle staging copies, not artifacts
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() == "SHA256SUMS" {
			return nil
		}
		sum, err := fileSHA256(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		lines = append(lines, sum+"  "+filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][66:] < lines[j][66:] })
	return os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}
