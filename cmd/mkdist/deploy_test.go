package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The committed deploy/ files are what the generator makes of the current
// server list: a server added to cmd/mcpfleet/servers.go fails this test until
// `make deploy-manifests` writes its Deployment.
func TestDeployFilesUpToDate(t *testing.T) {
	fleet, _ := testFleet(t)
	files, err := deployFiles(fleet, deployVersion)
	if err != nil {
		t.Fatal(err)
	}
	root := repoRoot(t)
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(root, "deploy", name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("deploy/%s is stale or missing (%v): run `make deploy-manifests`", name, err)
		}
	}
}

type kubeDoc struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		Replicas     *int `yaml:"replicas"`
		MinAvailable *int `yaml:"minAvailable"`
		Template     struct {
			Spec struct {
				SecurityContext struct {
					RunAsNonRoot bool `yaml:"runAsNonRoot"`
				} `yaml:"securityContext"`
				Containers []struct {
					Image string `yaml:"image"`
					Ports []struct {
						ContainerPort int `yaml:"containerPort"`
					} `yaml:"ports"`
					Env []struct {
						Name      string  `yaml:"name"`
						Value     *string `yaml:"value"`
						ValueFrom *struct {
							SecretKeyRef    *struct{ Name, Key string } `yaml:"secretKeyRef"`
							ConfigMapKeyRef *struct{ Name, Key string } `yaml:"configMapKeyRef"`
						} `yaml:"valueFrom"`
					} `yaml:"env"`
					ReadinessProbe *kubeProbe `yaml:"readinessProbe"`
					LivenessProbe  *kubeProbe `yaml:"livenessProbe"`
					Resources      struct {
						Requests map[string]string `yaml:"requests"`
					} `yaml:"resources"`
				} `yaml:"containers"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

type kubeProbe struct {
	HTTPGet *struct {
		Path string `yaml:"path"`
		Port string `yaml:"port"`
	} `yaml:"httpGet"`
}

func readKube(t *testing.T, path string) []kubeDoc {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	var docs []kubeDoc
	for {
		var d kubeDoc
		err := dec.Decode(&d)
		if errors.Is(err, io.EOF) {
			return docs
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		docs = append(docs, d)
	}
}

// Each server's Deployment: 2 replicas, probes on /healthz, requests set,
// non-root, every secret from a Secret (never a literal), Redis and the state key wired.
func TestKubernetesManifests(t *testing.T) {
	fleet, _ := testFleet(t)
	root := repoRoot(t)
	for _, s := range fleet {
		t.Run(s.Name, func(t *testing.T) {
			kinds := map[string]kubeDoc{}
			for _, d := range readKube(t, filepath.Join(root, "deploy", "kubernetes", s.Name+".yaml")) {
				kinds[d.Kind] = d
			}
			dep, ok := kinds["Deployment"]
			if !ok || kinds["Service"].Kind == "" || kinds["PodDisruptionBudget"].Kind == "" {
				t.Fatalf("want Deployment, Service and PodDisruptionBudget, got %v", kinds)
			}
			if pdb := kinds["PodDisruptionBudget"]; pdb.Spec.MinAvailable == nil || *pdb.Spec.MinAvailable != 1 {
				t.Error("the PDB must keep one replica up")
			}
			if dep.Spec.Replicas == nil || *dep.Spec.Replicas != 2 {
				t.Errorf("replicas %v, want 2", dep.Spec.Replicas)
			}
			pod := dep.Spec.Template.Spec
			if !pod.SecurityContext.RunAsNonRoot || len(pod.Containers) != 1 {
				t.Fatalf("pod %+v", pod)
			}
			c := pod.Containers[0]
			if len(c.Ports) != 1 || c.Ports[0].ContainerPort != s.Port {
				t.Errorf("ports %+v, want %d", c.Ports, s.Port)
			}
			for name, pr := range map[string]*kubeProbe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe} {
				if pr == nil || pr.HTTPGet == nil || pr.HTTPGet.Path != "/healthz" {
					t.Errorf("%s probe is not GET /healthz", name)
				}
			}
			if c.Resources.Requests["cpu"] == "" || c.Resources.Requests["memory"] == "" {
				t.Errorf("requests %v", c.Resources.Requests)
			}
			env := map[string]int{}
			for i, e := range c.Env {
				env[e.Name] = i
			}
			secretFromSecret := func(name string) {
				i, ok := env[name]
				if !ok {
					t.Errorf("%s not set", name)
					return
				}
				e := c.Env[i]
				if e.Value != nil || e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil || e.ValueFrom.SecretKeyRef.Key != name {
					t.Errorf("%s must come from a Secret", name)
				}
			}
			secretFromSecret("MCPFLEET_AUTH_TOKENS")
			secretFromSecret("MCPFLEET_STATE_KEY")
			for _, v := range s.Env {
				if v.Secret {
					secretFromSecret(v.Name)
				} else if _, ok := env[v.Name]; !ok {
					t.Errorf("%s not set", v.Name)
				}
			}
			if i, ok := env["MCPFLEET_REDIS_URL"]; !ok || c.Env[i].Value == nil || *c.Env[i].Value != "redis://redis:6379/0" {
				t.Error("MCPFLEET_REDIS_URL must point at the base's redis Service")
			}
			if i, ok := env["MCPFLEET_ADDR"]; !ok || *c.Env[i].Value != "0.0.0.0:"+strconv.Itoa(s.Port) {
				t.Error("MCPFLEET_ADDR must listen on all interfaces at the server's port")
			}
		})
	}
	var kinds []string
	for _, d := range readKube(t, filepath.Join(root, "deploy", "kubernetes", "redis.yaml")) {
		kinds = append(kinds, d.Kind+"/"+d.Metadata.Name)
	}
	if len(kinds) != 3 || kinds[0] != "Deployment/redis" || kinds[1] != "PersistentVolumeClaim/redis-data" || kinds[2] != "Service/redis" {
		t.Errorf("redis.yaml: %v", kinds)
	}
}

// compose.yaml runs every server twice beside one Redis.
func TestComposeFile(t *testing.T) {
	fleet, _ := testFleet(t)
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "deploy", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Services map[string]struct {
			Image  string `yaml:"image"`
			Deploy struct {
				Replicas int `yaml:"replicas"`
			} `yaml:"deploy"`
			Environment map[string]string `yaml:"environment"`
			User        string            `yaml:"user"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.Services["redis"]; !ok {
		t.Error("no redis service")
	}
	for _, s := range fleet {
		svc, ok := doc.Services[s.Name]
		if !ok {
			t.Errorf("no %s service", s.Name)
			continue
		}
		if svc.Deploy.Replicas != 2 || svc.Environment["MCPFLEET_REDIS_URL"] == "" || svc.User != "65532:65532" {
			t.Errorf("%s: %+v", s.Name, svc)
		}
	}
}
