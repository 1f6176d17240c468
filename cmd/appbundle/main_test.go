package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBundle(t *testing.T) {
	cases := []struct {
		name, page, js, css, want, wantErr string
	}{
		{name: "inlines", page: `<!doctype html><link rel="stylesheet" href="a.css"><script src="a.js"></script>`,
			js: "var x = 1;\n", css: "b{}\n", want: "<!doctype html><style>\nb{}\n</style><script>\nvar x = 1;\n</script>"},
		{name: "remote script", page: `<script src="https://cdn.example/x.js"></script>`, wantErr: "not a local file"},
		{name: "missing file", page: `<script src="nope.js"></script>`, wantErr: "nope.js"},
		{name: "closing tag in script", page: `<script src="a.js"></script>`, js: `s = "</script>"`, wantErr: "contains"},
		{name: "remote image", page: `<img src="https://x/y.png">`, wantErr: "external reference"},
		{name: "css import", page: `<link rel="stylesheet" href="a.css">`, css: `@import "x.css";`, wantErr: "external reference"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range map[string]string{"p.html": c.page, "a.js": c.js, "a.css": c.css} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Bundle(filepath.Join(dir, "p.html"))
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

// TestCommittedViewsAreBuilt is the byte-for-byte check CI also runs (make apps-check).
func TestCommittedViewsAreBuilt(t *testing.T) {
	srcs, _ := filepath.Glob("../../servers/*/apps/src/*.html")
	if len(srcs) == 0 {
		t.Fatal("no view sources found")
	}
	for _, src := range srcs {
		want, err := Bundle(src)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(src)), filepath.Base(src)))
		if err != nil || string(got) != string(want) {
			t.Errorf("%s is stale: run make apps and commit (%v)", src, err)
		}
	}
}
