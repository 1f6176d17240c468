package main

import (
	"archive/tar"
	"bytes"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/layout"
)

// Every fleet server's image, written as an OCI layout and read back:
// entrypoint, non-root user, exposed port, labels, env, and a root
// filesystem of the binary, the CA bundle and /tmp only (no shell).
func TestImagesConfig(t *testing.T) {
	fleet, _ := testFleet(t)
	binary := []byte("\x7fELF stands in for the static binary")
	ca := []byte("-----BEGIN CERTIFICATE-----\n")
	for _, s := range fleet {
		t.Run(s.Name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), s.Name)
			imgs := map[Platform]v1.Image{}
			for _, p := range []Platform{{"linux", "amd64"}, {"linux", "arm64"}} {
				img, err := buildImage(s, "1.2.3", p, binary, ca)
				if err != nil {
					t.Fatal(err)
				}
				imgs[p] = img
			}
			if err := writeImageLayout(dir, s, "1.2.3", imgs); err != nil {
				t.Fatal(err)
			}
			idx, err := layout.ImageIndexFromPath(dir)
			if err != nil {
				t.Fatal(err)
			}
			im, err := idx.IndexManifest()
			if err != nil {
				t.Fatal(err)
			}
			if len(im.Manifests) != 2 {
				t.Fatalf("index has %d manifests, want linux/amd64 and linux/arm64", len(im.Manifests))
			}
			for _, d := range im.Manifests {
				if d.Platform == nil || d.Platform.OS != "linux" || d.Annotations["org.opencontainers.image.ref.name"] != "1.2.3" {
					t.Errorf("descriptor %+v", d)
				}
				img, err := idx.Image(d.Digest)
				if err != nil {
					t.Fatal(err)
				}
				checkImage(t, s, img, d.Platform.Architecture, binary)
			}
		})
	}
}

func checkImage(t *testing.T, s Server, img v1.Image, arch string, binary []byte) {
	t.Helper()
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cf.Config
	if cf.Architecture != arch || cf.OS != "linux" {
		t.Errorf("platform %s/%s", cf.OS, cf.Architecture)
	}
	if !slices.Equal(c.Entrypoint, []string{"/app/server", "--transport", "http"}) || len(c.Cmd) != 0 {
		t.Errorf("entrypoint %v cmd %v", c.Entrypoint, c.Cmd)
	}
	if c.User != "65532:65532" {
		t.Errorf("user %q, want the non-root 65532", c.User)
	}
	port := strconv.Itoa(s.Port) + "/tcp"
	if _, ok := c.ExposedPorts[port]; !ok || len(c.ExposedPorts) != 1 {
		t.Errorf("exposed %v, want %s", c.ExposedPorts, port)
	}
	if !slices.Contains(c.Env, "MCPFLEET_ADDR=0.0.0.0:"+strconv.Itoa(s.Port)) {
		t.Errorf("env %v lacks the listen address", c.Env)
	}
	for k, want := range map[string]string{
		"org.opencontainers.image.title":      s.Name,
		"org.opencontainers.image.version":    "1.2.3",
		"org.opencontainers.image.source":     "https://github.com/mcpfleet/mcpfleet",
		"io.modelcontextprotocol.server.name": "io.github.mcpfleet/" + s.Name,
		"io.mcpfleet.healthcheck":             "/healthz",
	} {
		if c.Labels[k] != want {
			t.Errorf("label %s = %q, want %q", k, c.Labels[k], want)
		}
	}
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("layers %d %v", len(layers), err)
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	tr := tar.NewReader(rc)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
		if h.Name == "var/lib/mcpfleet/" && (h.Uid != 65532 || h.Gid != 65532) {
			t.Errorf("the state directory belongs to %d:%d, not the image's user", h.Uid, h.Gid)
		}
		if h.Name == "app/server" {
			data, _ := io.ReadAll(tr)
			if h.Mode != 0o755 || h.Uid != 0 || !bytes.Equal(data, binary) {
				t.Errorf("app/server mode %o uid %d, %d bytes", h.Mode, h.Uid, len(data))
			}
		}
	}
	want := []string{"app/", "etc/", "etc/ssl/", "etc/ssl/certs/", "tmp/", "var/", "var/lib/", "var/lib/mcpfleet/", "app/server", "etc/ssl/certs/ca-certificates.crt"}
	if !slices.Equal(names, want) {
		t.Errorf("files %v, want %v (no shell, nothing else)", names, want)
	}
}

// The same inputs give the same image digest (reproducible images).
func TestImageDigestStable(t *testing.T) {
	s := Server{Name: "x", Summary: "x", Port: 8799}
	var digests []v1.Hash
	for range 2 {
		img, err := buildImage(s, "1.0.0", Platform{"linux", "amd64"}, []byte("bin"), []byte("ca"))
		if err != nil {
			t.Fatal(err)
		}
		d, err := img.Digest()
		if err != nil {
			t.Fatal(err)
		}
		digests = append(digests, d)
	}
	if digests[0] != digests[1] {
		t.Errorf("digests differ: %v", digests)
	}
}
