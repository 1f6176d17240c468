package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const httpInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`

// startHTTP runs a server binary with --transport http on a free loopback port.
func startHTTP(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	addr := freePort(t)
	cmd := exec.Command(bin, append([]string{"--transport", "http", "--addr", addr}, args...)...)
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for i := 0; i < 200; i++ {
		if r, err := http.Get("http://" + addr + "/healthz"); err == nil {
			r.Body.Close()
			return "http://" + addr
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("%s did not serve HTTP on %s: %s", bin, addr, stderr.String())
	return ""
}

func status(t *testing.T, url, body string, hdr map[string]string) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// TestEveryServerEnforcesHTTPRules runs each real binary over streamable HTTP.
func TestEveryServerEnforcesHTTPRules(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	const tok = "e2e-token-0123456789abcdef"
	big := httpInit + strings.Repeat(" ", 4<<20)
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			env := append(serverEnv(t, bins, s.Name), "MCPFLEET_AUTH_TOKENS=")
			open := startHTTP(t, filepath.Join(bins, s.Name), env)
			authed := startHTTP(t, filepath.Join(bins, s.Name), append(env, "MCPFLEET_AUTH_TOKENS=alice="+tok))
			cases := []struct {
				name string
				url  string
				body string
				hdr  map[string]string
				want int
			}{
				{"initialize", open, httpInit, nil, 200},
				{"foreign origin", open, httpInit, map[string]string{"Origin": "http://evil.example.com"}, 403},
				{"body over 4 MiB", open, big, nil, 413},
				{"no token", authed, httpInit, nil, 401},
				{"wrong token", authed, httpInit, map[string]string{"Authorization": "Bearer e2e-token-0123456789abcdeX"}, 401},
				{"right token", authed, httpInit, map[string]string{"Authorization": "Bearer " + tok}, 200},
			}
			for _, tc := range cases {
				if got := status(t, tc.url, tc.body, tc.hdr); got != tc.want {
					t.Errorf("%s: status %d, want %d", tc.name, got, tc.want)
				}
			}
			// A public address without tokens: refuses to start, and says why.
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(bins, s.Name), "--transport", "http", "--addr", "0.0.0.0:"+portOf(freePort(t)))
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), "MCPFLEET_AUTH_TOKENS") {
				t.Errorf("0.0.0.0 without tokens: err %v, output %q", err, out)
			}
		})
	}
}

func portOf(addr string) string {
	_, p, _ := net.SplitHostPort(addr)
	return p
}
