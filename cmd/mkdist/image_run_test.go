package main

import (
	"archive/tar"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
)

// The ziwei image's own binary, run with the image's entrypoint and env (the
// listen address moved to loopback), answers /healthz without a token and
// refuses /mcp without one: what the Kubernetes probes and clients meet.
func TestZiweiImageRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ziwei")
	}
	if runtime.GOOS != "linux" {
		t.Skip("runs a linux image's binary")
	}
	p := Platform{"linux", runtime.GOARCH}
	dir := t.TempDir()
	bin := filepath.Join(dir, "ziwei")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := (BuildOptions{Version: "1.2.3", BuildVCS: "false", Go: "go", Dir: repoRoot(t)}).build(ctx, "./servers/ziwei", bin, p); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	s := Server{Name: "ziwei", Summary: "ziwei", Port: 8701}
	img, err := buildImage(s, "1.2.3", p, data, []byte("ca"))
	if err != nil {
		t.Fatal(err)
	}
	lay := filepath.Join(dir, "layout")
	if err := writeImageLayout(lay, s, "1.2.3", map[Platform]v1.Image{p: img}); err != nil {
		t.Fatal(err)
	}
	idx, err := layout.ImageIndexFromPath(lay)
	if err != nil {
		t.Fatal(err)
	}
	im, _ := idx.IndexManifest()
	img, err = idx.Image(im.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	cf, _ := img.ConfigFile()
	root := filepath.Join(dir, "rootfs")
	extract(t, img, root)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	var env []string
	for _, kv := range cf.Config.Env {
		switch {
		case strings.HasPrefix(kv, "MCPFLEET_ADDR="):
			kv = "MCPFLEET_ADDR=" + addr // loopback in tests; the image says 0.0.0.0
		case strings.HasPrefix(kv, "HOME="):
			kv = "HOME=" + dir
		case strings.HasPrefix(kv, "MCPFLEET_STATE_DIR="):
			kv = "MCPFLEET_STATE_DIR=" + filepath.Join(dir, "state") // the image's /var/lib/mcpfleet
		}
		env = append(env, kv)
	}
	env = append(env, "MCPFLEET_AUTH_TOKENS=ops=0123456789abcdef0123")
	entry := cf.Config.Entrypoint
	cmd := exec.CommandContext(ctx, filepath.Join(root, entry[0]), entry[1:]...)
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	var resp *http.Response
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if resp, err = http.Get("http://" + addr + "/healthz"); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("/healthz never answered: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "ok") {
		t.Fatalf("/healthz %d %s", resp.StatusCode, body)
	}
	resp, err = http.Post("http://"+addr+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("/mcp without a token: %d, want 401", resp.StatusCode)
	}
}

// extract writes the image's single layer under root.
func extract(t *testing.T, img v1.Image, root string) {
	t.Helper()
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(root, filepath.FromSlash(h.Name))
		if h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		data, _ := io.ReadAll(tr)
		if err := os.WriteFile(p, data, os.FileMode(h.Mode)&0o777); err != nil {
			t.Fatal(err)
		}
	}
}
