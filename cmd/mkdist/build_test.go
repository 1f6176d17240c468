package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParsePlatforms(t *testing.T) {
	tests := []struct {
		in      string
		want    int
		wantErr bool
	}{
		{"all", 6, false},
		{"", 6, false},
		{"host", 1, false},
		{"linux/amd64", 1, false},
		{"linux/amd64, windows/arm64", 2, false},
		{"linux", 0, true},
		{"plan9/386", 0, true},
	}
	for _, tt := range tests {
		got, err := parsePlatforms(tt.in)
		if (err != nil) != tt.wantErr || len(got) != tt.want {
			t.Errorf("parsePlatforms(%q) = %v, %v", tt.in, got, err)
		}
	}
}

func TestVersion(t *testing.T) {
	for v, ok := range map[string]bool{"1.2.3": true, "0.0.0-dev": true, "1.0.0-rc.1+abc": true, "v1.2.3": false, "dev": false, "1.2": false} {
		if err := validVersion(v); (err == nil) != ok {
			t.Errorf("validVersion(%q) = %v", v, err)
		}
	}
}

// The release build flags are what makes two builds of one commit identical.
func TestGoBuildArgsReproducible(t *testing.T) {
	args := BuildOptions{Version: "1.2.3", BuildVCS: "true", Go: "go"}.goBuildArgs("./servers/ziwei", "out")
	for _, want := range []string{"-trimpath", "-buildvcs=true"} {
		if !slices.Contains(args, want) {
			t.Errorf("%v lacks %s", args, want)
		}
	}
	i := slices.Index(args, "-ldflags")
	if i < 0 || !strings.Contains(args[i+1], "-X main.version=1.2.3") || !strings.Contains(args[i+1], "-buildid=") {
		t.Errorf("ldflags: %v", args)
	}
}

func TestWriteSums(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "b", "x"), []byte("hello\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a"), nil, 0o644)
	if err := writeSums(dir); err != nil {
		t.Fatal(err)
	}
	if err := writeSums(dir); err != nil { // SHA256SUMS never lists itself
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	want := "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  a\n" +
		"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  b/x\n"
	if string(got) != want {
		t.Errorf("SHA256SUMS:\n%s\nwant\n%s", got, want)
	}
}
