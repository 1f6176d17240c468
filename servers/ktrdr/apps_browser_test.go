package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
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
	c, _, _ := appEnvFake(t)
	return c
}

// appEnvFake also returns the fake and a way to move its clock forward (real
// time plus an offset, so waits still end on their own).
func appEnvFake(t *testing.T) (*servetest.Conn, *fake.Server, func(time.Duration)) {
	t.Helper()
	var offset atomic.Int64
	f := fake.New(fake.Options{Now: func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }, Scripts: map[string]fake.Script{"training": {Duration: 600 * time.Millisecond, Steps: 10}}})
	base, stop := f.Start()
	t.Cleanup(stop)
	cfg := &tools.Config{Retries: -1, Options: tools.Options{PollMin: 20 * time.Millisecond, PollMax: 80 * time.Millisecond}}
	return servetest.NewWithOptions(t, app(cfg), []mcpclient.ClientOption{mcpclient.WithClientCapabilities(mcpapps.ClientCapabilities())}, "--api-url", base), f, func(d time.Duration) { offset.Add(int64(d)) }
}

// checkEpochs: the last epoch's numbers equal the tool's, and each curve has
// one vertex per epoch with a value; no series, no curve.
func checkEpochs(t *testing.T, v *apptest.View, e *client.EpochSeries) {
	t.Helper()
	n := apptest.Eval[int](t, v, `document.querySelectorAll('.u-series[data-series]').length`)
	if e == nil {
		if n != 0 || apptest.Eval[bool](t, v, `!!document.querySelector('[data-k="last_epoch"]')`) {
			t.Errorf("no epochs in the result, yet the view draws %d curves", n)
		}
		return
	}
	last := len(e.Epoch) - 1
	cols := map[string][]*float64{"train_loss": e.TrainLoss, "val_loss": e.ValLoss, "train_accuracy": e.TrainAccuracy, "val_accuracy": e.ValAccuracy}
	if got := apptest.Eval[string](t, v, `document.querySelector('[data-k="last_epoch"] dd').textContent`); got != strconv.Itoa(e.Epoch[last]) {
		t.Errorf("last epoch shows %q, tool says %d", got, e.Epoch[last])
	}
	drawn := 0
	for k, col := range cols {
		want := col[last]
		got := apptest.Eval[string](t, v, `document.querySelector('[data-k="last_`+k+`"] dd').textContent`)
		if want == nil {
			if got != "–" {
				t.Errorf("last %s shows %q, tool says null", k, got)
			}
		} else if g, err := strconv.ParseFloat(got, 64); err != nil || math.Abs(g-*want) > 0.0005 {
			t.Errorf("last %s shows %q, tool says %v", k, got, *want)
		}
		values := 0
		for _, x := range col {
			if x != nil {
				values++
			}
		}
		if values > 0 {
			drawn++
		}
		pts := apptest.Eval[int](t, v, `+((document.querySelector('.u-series[data-series="`+k+`"]')||{getAttribute:function(){return -1}}).getAttribute('data-n'))`)
		if values > 0 && pts != values || values == 0 && pts != -1 {
			t.Errorf("%s curve has %d points, the tool has %d epochs with a value", k, pts, values)
		}
		// A curve over two or more epochs paints a line in its colour
		// (train and val may overlap, so only "some" is certain).
		if px := apptest.SeriesPixels(t, v, k); values > 1 && px < 20 || values == 0 && px != -1 {
			t.Errorf("%s curve paints %d pixels for %d epochs with a value", k, px, values)
		}
	}
	if n != drawn {
		t.Errorf("%d curves drawn, want %d", n, drawn)
	}
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
	c, f, advance := appEnvFake(t)
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
	// The "training" case starts a second, hour-long training and moves the clock
	// 25 minutes on: running, with 4 of 10 epochs done.
	running := map[string]any{}
	startLong := func() {
		f.SetScript("training", fake.Script{Duration: time.Hour, Steps: 10})
		long := servetest.Decode[client.TrainingStarted](t, c.Call(t, "start_training", map[string]any{"symbols": []string{"AAPL"}, "timeframes": []string{"1h"}, "strategy_name": "neuro_mean_reversion"}))
		advance(25 * time.Minute)
		running["operation_id"] = long.OperationID
	}
	text := func(v *apptest.View, k string) string {
		return apptest.Eval[string](t, v, `(document.querySelector('[data-k="`+k+`"]')||{}).textContent||""`)
	}
	cases := []struct {
		name, tool string
		args       map[string]any
		before     func()
		check      func(t *testing.T, v *apptest.View, res *mcp.CallToolResult)
	}{
		{"status", "get_operation_status", id, nil, func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
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
			checkEpochs(t, v, op.Epochs)
		}},
		{"finished", "wait_for_operation", map[string]any{"operation_id": tr.OperationID, "timeout_seconds": 20}, nil, func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
			out := servetest.Decode[struct {
				Operation client.Operation `json:"operation"`
			}](t, res)
			if out.Operation.Status != "completed" || text(v, "status") != "completed" || text(v, "percentage") != "100.0%" {
				t.Errorf("status %q shows %q / %q", out.Operation.Status, text(v, "status"), text(v, "percentage"))
			}
			if e := out.Operation.Epochs; e == nil || e.Completed != 10 || len(e.Epoch) != 10 {
				t.Fatalf("a finished 10-epoch training on HEAD: epochs %+v", e)
			}
			checkEpochs(t, v, out.Operation.Epochs)
		}},
		{"training", "get_operation_status", running, startLong, func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
			op := servetest.Decode[client.Operation](t, res)
			if op.Status != "running" || op.Epochs == nil || op.Epochs.Completed < 1 || op.Epochs.Completed >= 10 {
				t.Fatalf("want a running training with some epochs: %s %+v", op.Status, op.Epochs)
			}
			if got, want := text(v, "percentage"), fmt.Sprintf("%.1f%%", float64(op.Progress.Percentage)); got != want {
				t.Errorf("percentage shows %q, tool says %q", got, want)
			}
			checkEpochs(t, v, op.Epochs)
		}},
		// 3ba55e75 has no OperationInfo.metrics: the same training shows no curves, and no error.
		{"baseline", "get_operation_status", running, func() { f.SetFaults(fake.Faults{Backend: fake.Backend3ba55e75}) }, func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
			op := servetest.Decode[client.Operation](t, res)
			if op.Status != "running" || op.Epochs != nil {
				t.Fatalf("3ba55e75: status %s, epochs %+v", op.Status, op.Epochs)
			}
			if got, want := text(v, "percentage"), fmt.Sprintf("%.1f%%", float64(op.Progress.Percentage)); got != want {
				t.Errorf("percentage shows %q, tool says %q", got, want)
			}
			checkEpochs(t, v, nil)
		}},
		{"performance", "get_model_performance", id, func() { f.ClearFaults() }, func(t *testing.T, v *apptest.View, res *mcp.CallToolResult) {
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
			if tc.before != nil {
				tc.before()
			}
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
