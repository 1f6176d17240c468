package main

import (
	"archive/tar"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image settings the Dockerfile repeats (dockerfile_test.go keeps them equal).
const (
	imageBinary = "/app/server" // one path for every server, so one Dockerfile serves all
	imageUser   = "65532:65532" // the distroless "nonroot" uid; no passwd entry needed
	imageHome   = "/tmp"        // HOME (a writable emptyDir in deploy/kubernetes)
	// imageState is MCPFLEET_STATE_DIR, owned by the image's user: a volume
	// mounted there keeps the state file <server>.db (deploy/).
	imageState = "/var/lib/mcpfleet"
	caBundle   = "/etc/ssl/certs/ca-certificates.crt"
	// healthPath answers 200 without auth (pkg/serve.HTTPHandler): liveness and readiness probes.
	healthPath = "/healthz"
)

// imageEntrypoint starts the streamable HTTP transport; the listen address
// comes from MCPFLEET_ADDR (set per server in the image env) so a single
// Dockerfile with exec-form ENTRYPOINT, which expands no variables, matches.
var imageEntrypoint = []string{imageBinary, "--transport", "http"}

// imageEnv is the environment baked into s's image.
func imageEnv(s Server) []string {
	return []string{
		"MCPFLEET_ADDR=0.0.0.0:" + strconv.Itoa(s.Port),
		"MCPFLEET_LOG_FORMAT=json",
		"HOME=" + imageHome,
		"SSL_CERT_FILE=" + caBundle,
		"MCPFLEET_STATE_DIR=" + imageState,
	}
}

// imageLabels are the OCI annotations, plus the registry's ownership label
// (io.modelcontextprotocol.server.name, package-types.mdx of the registry).
func imageLabels(s Server, version string) map[string]string {
	return map[string]string{
		"org.opencontainers.image.title":       s.Name,
		"org.opencontainers.image.description": s.Summary,
		"org.opencontainers.image.version":     version,
		"org.opencontainers.image.source":      repoURL,
		"org.opencontainers.image.url":         repoURL + "/tree/main/servers/" + s.Name,
		"org.opencontainers.image.licenses":    license,
		"org.opencontainers.image.vendor":      "mcpfleet",
		"io.modelcontextprotocol.server.name":  registryName(s.Name),
		"io.mcpfleet.healthcheck":              healthPath,
	}
}

// epoch is every timestamp in the image: the same inputs give the same digest.
var epoch = time.Unix(0, 0).UTC()

// rootLayer is the image's only layer: the binary (root-owned, 0755), the CA
// bundle for HTTPS upstreams, a world-writable /tmp and the state directory
// owned by the image's user. No shell, no libc.
func rootLayer(binary, ca []byte) (v1.Layer, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	dirs := []struct {
		name string
		mode int64
		uid  int
	}{{"app/", 0o755, 0}, {"etc/", 0o755, 0}, {"etc/ssl/", 0o755, 0}, {"etc/ssl/certs/", 0o755, 0}, {"tmp/", 0o1777, 0},
		{"var/", 0o755, 0}, {"var/lib/", 0o755, 0}, {imageState[1:] + "/", 0o700, 65532}}
	for _, d := range dirs {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: d.name, Mode: d.mode, Uid: d.uid, Gid: d.uid, ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
	}
	files := []struct {
		name string
		mode int64
		data []byte
	}{{imageBinary[1:], 0o755, binary}, {caBundle[1:], 0o644, ca}}
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: f.name, Mode: f.mode, Size: int64(len(f.data)), ModTime: epoch, Format: tar.FormatPAX}); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	data := buf.Bytes()
	// gzip from the same bytes at the same level is the same: the digest is stable.
	return tarball.LayerFromOpener(func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil },
		tarball.WithMediaType(types.OCILayer))
}

// buildImage makes s's image for one linux platform from its static binary.
func buildImage(s Server, version string, p Platform, binary, ca []byte) (v1.Image, error) {
	layer, err := rootLayer(binary, ca)
	if err != nil {
		return nil, err
	}
	base := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	base = mutate.ConfigMediaType(base, types.OCIConfigJSON)
	img, err := mutate.Append(base, mutate.Addendum{Layer: layer, History: v1.History{Created: v1.Time{Time: epoch}, CreatedBy: "mkdist images", Comment: "static " + s.Name + " binary, CA bundle, /tmp"}})
	if err != nil {
		return nil, err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, err
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = p.OS, p.Arch
	cf.Created = v1.Time{Time: epoch}
	cf.Config.Entrypoint = imageEntrypoint
	cf.Config.Cmd = nil
	cf.Config.User = imageUser
	cf.Config.WorkingDir = imageHome
	cf.Config.Env = imageEnv(s)
	cf.Config.ExposedPorts = map[string]struct{}{strconv.Itoa(s.Port) + "/tcp": {}}
	cf.Config.Labels = imageLabels(s, version)
	cf.Config.StopSignal = "SIGTERM"
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		return nil, err
	}
	return mutate.Annotations(img, imageLabels(s, version)).(v1.Image), nil
}

// writeImageLayout writes an OCI image layout at dir: one index with one
// manifest per platform, tagged with the image reference.
func writeImageLayout(dir string, s Server, version string, imgs map[Platform]v1.Image) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	lp, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	for _, p := range allPlatforms {
		img, ok := imgs[p]
		if !ok {
			continue
		}
		err := lp.AppendImage(img,
			layout.WithPlatform(v1.Platform{OS: p.OS, Architecture: p.Arch}),
			layout.WithAnnotations(map[string]string{
				"org.opencontainers.image.ref.name":   version,
				"io.mcpfleet.image.reference":         imageRef(s.Name, version),
				"io.modelcontextprotocol.server.name": registryName(s.Name),
			}))
		if err != nil {
			return err
		}
	}
	return nil
}

// cmdImages writes dist/images/<name>/ (an OCI layout) per server for the
// linux platforms in -platforms; `skopeo copy oci:dist/images/ziwei docker://…`
// or `crane push` publishes one, which this repository never does.
func cmdImages(ctx context.Context, c config, stdout io.Writer) error {
	fleet, err := c.fleet(ctx)
	if err != nil {
		return err
	}
	ca, err := os.ReadFile(caBundle)
	if err != nil {
		return fmt.Errorf("the images carry the build machine's CA bundle for HTTPS upstreams: %w (apt-get install ca-certificates)", err)
	}
	o := c.buildOptions()
	for _, s := range fleet {
		imgs := map[Platform]v1.Image{}
		for _, p := range c.platforms {
			if p.OS != "linux" {
				continue
			}
			bin := binPath(c.dist, s.Name, p)
			if _, err := os.Stat(bin); err != nil {
				if err := o.build(ctx, "./servers/"+s.Name, bin, p); err != nil {
					return err
				}
			}
			data, err := os.ReadFile(bin)
			if err != nil {
				return err
			}
			if imgs[p], err = buildImage(s, c.version, p, data, ca); err != nil {
				return err
			}
		}
		if len(imgs) == 0 {
			return fmt.Errorf("images are linux only; -platforms has no linux/amd64 or linux/arm64")
		}
		dir := filepath.Join(c.dist, "images", s.Name)
		if err := writeImageLayout(dir, s, c.version, imgs); err != nil {
			return err
		}
		fmt.Fprintln(stdout, dir)
	}
	return nil
}
