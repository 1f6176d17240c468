package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/servetest"
)

// Canary secrets: each server runs with these in its environment and its fake
// upstream on loopback; none may appear on stdout (results) or stderr (logs).
const (
	canaryPassword = "canary-Pass-7f3a9c21"
	canaryTOTP     = "JBSWY3DPEHPK3PXPCANARY2Q"
	canaryAPIKey   = "canary-apikey-5b8e1d77"
	canarySecret   = "canary-apisecret-c0ffee99"
	canaryClient   = "canary-clientsecret-d00d1e5"
	canaryToken    = "canary-authtoken-0123456789"
)

var canaries = []string{canaryPassword, canaryTOTP, canaryAPIKey, canarySecret, canaryClient, canaryToken}

func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// startFake runs a fake upstream binary on a free loopback port until the test ends.
func startFake(t *testing.T, bin string, args ...string) string {
	t.Helper()
	addr := freePort(t)
	cmd := exec.Command(bin, append([]string{"--addr", addr}, args...)...)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	for i := 0; i < 200; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return addr
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatalf("%s did not listen on %s", bin, addr)
	return ""
}

// serverEnv wires each server to its fake and seeds every secret with a canary.
func serverEnv(t *testing.T, bins, name string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "MCPFLEET_LOG_LEVEL=debug",
		"MCPFLEET_AUTH_TOKENS=canary=" + canaryToken}
	switch name {
	case "ziwei":
		env = append(env, "ZIWEI_RULES_FILE="+filepath.Join(t.TempDir(), "rules.json"))
	case "ktrdr":
		addr := startFake(t, filepath.Join(bins, "fake-ktrdr"), "--data-load-duration", "200ms", "--training-duration", "200ms")
		env = append(env, "KTRDR_API_URL=http://"+addr+"/api/v1", "KTRDR_API_KEY="+canaryAPIKey)
	case "chartimg":
		addr := startFake(t, filepath.Join(bins, "fake-chartimg"), "--keys", canaryAPIKey+"=PRO")
		env = append(env, "CHART_IMG_API_URL=http://"+addr, "CHART_IMG_DOCS_URL=http://"+addr+"/docs",
			"CHART_IMG_API_KEY="+canaryAPIKey, "CHART_IMG_PLAN=PRO")
	case "shoonya":
		addr := startFake(t, filepath.Join(bins, "fake-shoonya"), "--no-rate-limit")
		env = append(env, "SHOONYA_AUTH=legacy",
			"SHOONYA_REST_URL=http://"+addr+"/NorenWClientTP/", "SHOONYA_WS_URL=ws://"+addr+"/NorenWSTP/",
			"SHOONYA_USER_ID=FA12345", "SHOONYA_PASSWORD="+canaryPassword, "SHOONYA_TOTP_SECRET="+canaryTOTP,
			"SHOONYA_VENDOR_CODE=FA12345_U", "SHOONYA_API_SECRET="+canarySecret, "SHOONYA_IMEI=abc1234",
			"SHOONYA_CLIENT_ID=FA12345_U", "SHOONYA_CLIENT_SECRET="+canaryClient)
	case "web-search":
		addr := startFake(t, filepath.Join(bins, "fake-web-search"), "--keys", canaryAPIKey)
		env = append(env, "OPENAI_BASE_URL=http://"+addr+"/v1", "OPENAI_API_KEY="+canaryAPIKey)
	}
	return env
}

// happyArgs are calls that get past schema validation, so upstream and error
// paths run with the secrets loaded.
// mustSucceed are happy calls that prove the server reached its fake with the
// secrets loaded (a wrong env name would turn them into errors).
var mustSucceed = map[string]string{"ziwei": "initialize_chart", "ktrdr": "list_operations", "chartimg": "get_exchanges",
	"web-search": "search_web"}

var happyArgs = map[string]map[string]map[string]any{
	"ziwei": {
		"initialize_chart": {"birthDate": "1990-05-17", "birthTimeIndex": 6, "gender": "female"},
		"store_star_combination_meaning": {"name": "canary", "meaning": "m",
			"rule": map[string]any{"star": "紫微", "in": "命宫"}},
	},
	"ktrdr": {
		"health_check":         {},
		"list_operations":      {},
		"trigger_data_loading": {"symbol": "AAPL", "timeframe": "1h", "mode": "tail"},
	},
	"chartimg": {
		"get_exchanges":             {},
		"construct_chart_config":    {"naturalLanguage": "AAPL daily with RSI"},
		"generate_chart_image":      {"config": map[string]any{"symbol": "NASDAQ:AAPL", "interval": "1D"}},
		"fetch_chart_documentation": {"section": "limits"},
	},
	"shoonya": {
		"connect_shoonya_broker": {},
		"get_limits":             {},
		"get_quotes":             {"exchange": "NSE", "token": "2885"},
	},
	"web-search": {
		"search_web": {"query": "UAE central bank rate decision", "region": "AE"},
	},
}

func TestNoSecretsLeakOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("e2e")
	}
	bins := buildFleet(t)
	for _, s := range servers {
		t.Run(s.Name, func(t *testing.T) {
			env := serverEnv(t, bins, s.Name)
			var stderr servetest.Buffer
			tr := transport.NewStdioWithOptions(filepath.Join(bins, s.Name), env, nil, transport.WithCommandStderrWriter(&stderr))
			c := client.NewClient(tr)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			if err := servetest.Initialize(ctx, c, ""); err != nil {
				t.Fatal(err)
			}
			list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil {
				t.Fatal(err)
			}
			var results []string
			calls := 0
			for _, tool := range list.Tools {
				argsets := []map[string]any{{}}
				if a, ok := happyArgs[s.Name][tool.Name]; ok {
					argsets = append(argsets, a)
				}
				for _, args := range argsets {
					var req mcp.CallToolRequest
					req.Params.Name = tool.Name
					req.Params.Arguments = args
					cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
					res, err := c.CallTool(cctx, req)
					ccancel()
					calls++
					if err != nil {
						results = append(results, err.Error())
						continue
					}
					b, _ := json.Marshal(res)
					results = append(results, string(b))
					if len(args) > 0 && mustSucceed[s.Name] == tool.Name && res.IsError {
						t.Errorf("%s %v should succeed against the fake: %.400s", tool.Name, args, b)
					}
				}
			}
			_ = c.Close()
			time.Sleep(100 * time.Millisecond) // let stderr drain
			logs := stderr.String()
			for _, canary := range canaries {
				for i, r := range results {
					if strings.Contains(r, canary) {
						t.Errorf("canary %q in result #%d: %.300s", canary, i, r)
					}
				}
				if strings.Contains(logs, canary) {
					t.Errorf("canary %q in the logs", canary)
				}
			}
			if calls < len(list.Tools) || logs == "" {
				t.Fatalf("too little exercised: %d calls, %d bytes of logs", calls, len(logs))
			}
			t.Logf("%s: %d tools, %d calls, %d bytes of logs, no canary", s.Name, len(list.Tools), calls, len(logs))
		})
	}
}
