package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	mcpapps "github.com/mcpfleet/mcpfleet/pkg/apps"
	"github.com/mcpfleet/mcpfleet/pkg/apps/apptest"
	"github.com/mcpfleet/mcpfleet/pkg/servetest"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/apps"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/client"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/fake"
	"github.com/mcpfleet/mcpfleet/servers/ktrdr/tools"
)

// appEnv is a ktrdr server on its fake, seen by a client that declares MCP Apps.
func appEnv(t *testing.T) *servetest.Conn {
	t.Helper()
	f := fake.New(fake.Options{Scripts: map[string]fake.Script{"training": {Duration: 600 * time.Millisecond, Steps: 10}}})
	base, stop := f.Start()
	t.Cleanup(stop)
	cfg := &tools.Config{Retries: -1, Options: tools.Options{PollMin: 20 * time.Millisecond, PollMax: 80 * time.Millisecond}}
	return servetest.NewWithOptions(t, app(cfg), []mcpclient.ClientOption{mcpclient.WithClientCapabilities(mcpapps.ClientCapabilities())}, "--api-url", base)
}

func TestOperationViewLinks(t *testing.T) {
	c := appEnv(t)
	n := 0
	for _, tl := range c.Tools(t) {
		b, _ := json.Marshal(tl.Meta)
		if strings.Contains(string(b), `"resourceUri":"`+apps.OperationURI+`"`) {
			n++
		}
	}
	if n != 4 {
		t.Errorf("%d tools linked to %s, want 4", n, apps.OperationURI)
	}
}

func TestOperationViewInBrowser(t *testing.T) {
	browser := apptest.Browser(t)
	c := appEnv(t)
	var req mcp.ReadResourceRequest
	req.Params.URI = apps.OperationURI
	rr, err := c.Client.ReadResource(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	html := rr.Contents[0].(mcp.TextResourceContents).Text
	if err := apptest.SelfContained(html); err != nil {
		t.Fatal(err)
	}
	tr := servetest.Decode[client.TrainingStarted](t, c.Call(t, "start_training", map[string]any{"symbols": []string{"MSFT"}, "timeframes": []string{"1d"}, "strategy_name": "trend_momentum"}))
	id := map[string]any{"operation_id": tr.OperationID}
	text := func(v *apptest.View, k string) string {
		return apptest.Eval[string](t, v, `(document.querySelector('[data-k="`+k+`"]')||{}).textContent||""`)
	}
	cases := []struct {
		name, tool string
		args       map[string]any
		check      func(t *testing.T, v *apptest.View, res *mcp.CallToolResult)
	}{
		{"status", "get_operation_status", id, func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
			op := servetest.Decode[client.Operation](t, res)
			if got, want := text(v, "percentage"), fmt.Sprintf("%.1f%%", float64(op.Progress.Percentage)); got != want {
				t.Errorf("percentage shows %q, tool says %q", got, want)
			}
			if got := text(v, "stage"); got != op.Progress.CurrentStep {
				t.Errorf("stage shows %q, tool says %q", got, op.Progress.CurrentStep)
			}
			if got := text(v, "status"); got != op.Status {
				t.Errorf("status shows %q, tool says %q", got, op.Status)
			}
		}},
		{"finished", "wait_for_operation", map[string]any{"operation_id": tr.OperationID, "timeout_seconds": 20}, func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
			out := servetest.Decode[struct {
				Operation client.Operation `json:"operation"`
			}](t, res)
			if out.Operation.Status != "completed" || text(v, "status") != "completed" || text(v, "percentage") != "100.0%" {
				t.Errorf("status %q shows %q / %q", out.Operation.Status, text(v, "status"), text(v, "percentage"))
			}
		}},
		{"performance", "get_model_performance", id, func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
			p := servetest.Decode[client.Performance](t, res)
			for k, want := range p.TrainingMetrics {
				w, ok := want.(float64)
				if !ok {
					continue
				}
				got, err := strconv.ParseFloat(apptest.Eval[string](t, v, `document.querySelector('[data-k="`+k+`"] dd').textContent`), 64)
				if err != nil || math.Abs(got-w) > 0.0005 {
					t.Errorf("%s shows %v, tool says %v", k, got, w)
				}
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := c.Call(t, tc.tool, tc.args)
			if res.IsError {
				t.Fatalf("%s: %s", tc.tool, servetest.Text(res))
			}
			var bg []string
			for _, theme := range []string{"light", "dark"} {
				v := apptest.Open(t, browser, apptest.Run{HTML: html, Args: tc.args, Result: res, Theme: theme})
				tc.check(t, v, res)
				v.Check(t)
				bg = append(bg, v.Background(t))
				v.Screenshot(t, filepath.Join("docs", "operation-"+tc.name+"-"+theme+".png"))
			}
			if bg[0] == bg[1] {
				t.Errorf("dark theme did not change the background (%s)", bg[0])
			}
		})
	}
}
