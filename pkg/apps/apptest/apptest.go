// Package apptest runs an MCP App view in a real browser: headless Chromium
// (Debian's chromium-headless-shell or chromium) driven by chromedp loads a
// small host page on loopback that speaks the host side of the protocol, and
// the test reads what the view shows, what it sent, and whether it touched the
// network or broke the CSP. See docs/apps.md for what the host imitates.
package apptest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/mark3labs/mcp-go/mcp"
)

// DefaultCSP is the spec's CSP for a view that declares no domains
// (specification/2026-01-26/apps.mdx, "Security Implications"; the draft adds
// object-src 'none').
const DefaultCSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; media-src 'self' data:; connect-src 'none'; object-src 'none'"

// chromiumNames are looked up on PATH in order; Debian installs the first two.
var chromiumNames = []string{"chromium-headless-shell", "chromium", "google-chrome", "chrome"}

// Browser starts one headless Chromium for the test (closed at its end). When
// none is found the test is skipped with a loud message, or fails when
// MCPFLEET_REQUIRE_CHROMIUM=1 (CI installs it).
func Browser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, n := range chromiumNames {
		if p, err := exec.LookPath(n); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		msg := "NO CHROMIUM: the MCP Apps browser suite did not run. Install it with: apt-get install -y chromium-headless-shell fonts-noto-cjk"
		if os.Getenv("MCPFLEET_REQUIRE_CHROMIUM") == "1" {
			t.Fatal(msg)
		}
		fmt.Fprintln(os.Stderr, "!!! "+msg)
		t.Skip(msg)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		// Without these the closed network refuses Chromium's own connections
		// (.library env notes); none of them changes what a page may load.
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.Flag("disable-extensions", true),
		// Keep the sandboxed view in the page's process so its frame is in the
		// page's frame tree (real hosts may isolate it; it changes nothing the
		// view can do).
		chromedp.Flag("disable-features", "IsolateSandboxedIframes,Translate"),
		chromedp.WindowSize(800, 1000),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(func() { bcancel(); acancel() })
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start %s: %v", path, err)
	}
	return bctx
}

// Run is one rendering of a view.
type Run struct {
	HTML   string              // the document resources/read returned
	Args   map[string]any      // sent as ui/notifications/tool-input
	Result *mcp.CallToolResult // sent as ui/notifications/tool-result
	Theme  string              // "light" or "dark"
	Width  int                 // iframe width in CSS px (360 if 0)
}

// View is a rendered view in its own tab.
type View struct {
	ctx     context.Context
	world   runtime.ExecutionContextID
	hostURL string
	mu      sync.Mutex
	events  []string // network requests off the host, CSP reports, JS errors
}

// Open loads the host page with r in a new tab of the browser and waits until
// the view has answered the tool-result with a size-changed (or 15 s).
func Open(t *testing.T, browser context.Context, r Run) *View {
	t.Helper()
	if r.Width == 0 {
		r.Width = 360
	}
	if r.Theme == "" {
		r.Theme = "light"
	}
	cfg, err := json.Marshal(map[string]any{"html": r.HTML, "args": r.Args, "result": r.Result, "theme": r.Theme,
		"width": r.Width, "csp": DefaultCSP})
	if err != nil {
		t.Fatal(err)
	}
	// json.Marshal escapes <, > and &, so the document cannot end the script.
	body := strings.Replace(hostPage, "{{CFG}}", string(cfg), 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != "/" {
			http.NotFound(w, req)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	v := &View{hostURL: srv.URL}
	tctx, tcancel := chromedp.NewContext(browser, chromedp.WithListener(v.listen))
	t.Cleanup(tcancel)
	ctx, cancel := context.WithTimeout(tctx, 30*time.Second)
	t.Cleanup(cancel)
	v.ctx = ctx
	enable := func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return chromedp.Void{}, err
		}
		if _, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{}); err != nil {
			return chromedp.Void{}, err
		}
		_, err := cdp.Call(ctx, tg, runtime.Enable, cdp.Empty{})
		return chromedp.Void{}, err
	}
	if err := chromedp.Do(ctx, enable, chromedp.Navigate(srv.URL+"/")); err != nil {
		t.Fatalf("load host page: %v", err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for !v.rendered(t) {
		if time.Now().After(deadline) {
			t.Fatalf("the view did not answer tool-result with size-changed in 15 s; host log: %s", v.hostLogJSON(t))
		}
		time.Sleep(50 * time.Millisecond)
	}
	v.world = v.viewWorld(t)
	return v
}

func (v *View) listen(ev any) {
	v.mu.Lock()
	defer v.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		u := e.Request.URL
		if !strings.HasPrefix(u, v.hostURL+"/") && !strings.HasPrefix(u, "data:") {
			v.events = append(v.events, "network request: "+u)
		}
	case *cdplog.EventEntryAdded:
		if e.Entry.Level == cdplog.EntryLevelError || strings.Contains(e.Entry.Text, "Content Security Policy") {
			v.events = append(v.events, "log "+string(e.Entry.Source)+": "+e.Entry.Text)
		}
	case *runtime.EventExceptionThrown:
		v.events = append(v.events, "exception: "+e.ExceptionDetails.Text+" "+describe(e.ExceptionDetails))
	case *runtime.EventConsoleAPICalled:
		if e.Type == "error" {
			v.events = append(v.events, "console.error")
		}
	}
}

func describe(d *runtime.ExceptionDetails) string {
	if d.Exception != nil {
		return d.Exception.Description
	}
	return ""
}

// rendered: the host sent tool-result and the view sent size-changed after it.
func (v *View) rendered(t *testing.T) bool {
	ok, err := chromedp.Run(v.ctx, chromedp.Evaluate[bool](`(function(){var r=-1;for(var i=0;i<hostLog.length;i++){var m=hostLog[i];
	  if(m.dir==="host"&&m.msg.method==="ui/notifications/tool-result")r=i;
	  if(r>=0&&i>r&&m.dir==="view"&&m.msg.method==="ui/notifications/size-changed")return true;}return false;})()`))
	if err != nil {
		t.Logf("poll: %v", err)
	}
	return ok
}

func (v *View) hostLogJSON(t *testing.T) string {
	b, _ := chromedp.Run(v.ctx, chromedp.Evaluate[[]byte](`hostLog`))
	return string(b)
}

// viewWorld makes an isolated world in the view's frame, for reading its DOM
// (the host page cannot: the sandbox gives the view an opaque origin).
func (v *View) viewWorld(t *testing.T) runtime.ExecutionContextID {
	t.Helper()
	id, err := chromedp.Run(v.ctx, func(ctx context.Context, tg *chromedp.Target) (runtime.ExecutionContextID, error) {
		tree, err := cdp.Call(ctx, tg, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return 0, err
		}
		if len(tree.FrameTree.ChildFrames) != 1 {
			return 0, fmt.Errorf("want one view frame, got %d", len(tree.FrameTree.ChildFrames))
		}
		w, err := cdp.Call(ctx, tg, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{
			FrameID: tree.FrameTree.ChildFrames[0].Frame.ID, WorldName: "apptest"})
		return w.ExecutionContextID, err
	})
	if err != nil {
		t.Fatalf("view frame: %v", err)
	}
	return id
}

// SetTheme sends ui/notifications/host-context-changed with a new theme, as
// a host does when the user switches it, and waits up to 5 s for the view's
// body background to change (every view's base.css colours it by theme).
func (v *View) SetTheme(t *testing.T, theme string) {
	t.Helper()
	before := v.Background(t)
	v.hostPost(t, map[string]any{"method": "ui/notifications/host-context-changed", "params": map[string]any{"theme": theme}})
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if v.Background(t) != before {
			return
		}
	}
	t.Fatalf("the view's background stayed %s after host-context-changed to %s", before, theme)
}

// Teardown sends ui/resource-teardown (a request: the host waits for the
// answer before removing the iframe) and fails unless the view answers it
// without an error within 5 s.
func (v *View) Teardown(t *testing.T) {
	t.Helper()
	v.hostPost(t, map[string]any{"id": "apptest-teardown", "method": "ui/resource-teardown", "params": map[string]any{}})
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		for _, m := range v.HostLog(t) {
			if m.Dir == "view" && m.Msg["id"] == "apptest-teardown" {
				if m.Msg["result"] == nil {
					t.Fatalf("the view answered ui/resource-teardown with %v", m.Msg)
				}
				return
			}
		}
	}
	t.Fatal("the view did not answer ui/resource-teardown")
}

// hostPost sends msg from the host page to the view (and logs it).
func (v *View) hostPost(t *testing.T, msg map[string]any) {
	t.Helper()
	b, err := json.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(v.ctx, chromedp.Evaluate[bool](`(post(`+string(b)+`), true)`)); err != nil {
		t.Fatalf("host post: %v", err)
	}
}

// Eval evaluates js in the view's document and decodes its JSON value into T.
func Eval[T any](t *testing.T, v *View, js string) T {
	t.Helper()
	out, err := chromedp.Run(v.ctx, chromedp.Evaluate[T](js, func(p *runtime.EvaluateParams) { p.ContextID = v.world }))
	if err != nil {
		t.Fatalf("eval in view %q: %v", js, err)
	}
	return out
}

// SeriesPixels counts the pixels of a uPlot chart's canvas (the views'
// pkg/apps/web/lines.js) painted exactly in the colour of the series whose
// legend row has data-series=name; -1 when there is no such series. A line
// drawn across the plot paints hundreds; a series that is not drawn, none.
func SeriesPixels(t *testing.T, v *View, name string) int {
	t.Helper()
	return Eval[int](t, v, `(function () {
  var row = document.querySelector('.u-series[data-series=' + JSON.stringify(`+strconv.Quote(name)+`) + ']');
  if (!row) return -1;
  var c = getComputedStyle(row.querySelector(".u-marker")).borderColor.match(/\d+/g).map(Number);
  var cv = row.closest(".uplot").querySelector("canvas");
  var px = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data, n = 0;
  for (var i = 0; i < px.length; i += 4) if (px[i] === c[0] && px[i + 1] === c[1] && px[i + 2] === c[2] && px[i + 3] === 255) n++;
  return n;
})()`)
}

// HostLog returns every message between host and view, in order.
func (v *View) HostLog(t *testing.T) []struct {
	Dir string         `json:"dir"`
	Msg map[string]any `json:"msg"`
} {
	t.Helper()
	var out []struct {
		Dir string         `json:"dir"`
		Msg map[string]any `json:"msg"`
	}
	if err := json.Unmarshal([]byte(v.hostLogJSON(t)), &out); err != nil {
		t.Fatalf("host log: %v", err)
	}
	return out
}

// Problems lists what a well-behaved view never does: a network request off
// the host page, a CSP violation or other error in the log, a JS exception,
// a missing handshake step, content wider than its iframe.
func (v *View) Problems(t *testing.T) []string {
	t.Helper()
	// Let late reports (a violation fired by a timer) arrive.
	time.Sleep(200 * time.Millisecond)
	v.mu.Lock()
	out := append([]string(nil), v.events...)
	v.mu.Unlock()
	seen := map[string]bool{}
	for _, m := range v.HostLog(t) {
		if m.Dir == "view" && m.Msg["apptest"] == "csp" {
			out = append(out, fmt.Sprintf("CSP violation: %v blocked %v", m.Msg["directive"], m.Msg["blocked"]))
		}
		if m.Dir == "view" {
			if s, _ := m.Msg["method"].(string); s != "" {
				seen[s] = true
			}
		}
	}
	for _, want := range []string{"ui/initialize", "ui/notifications/initialized", "ui/notifications/size-changed"} {
		if !seen[want] {
			out = append(out, "the view never sent "+want)
		}
	}
	// The host pings once after the view's first size report; wait up to 5 s
	// for the answer (a loaded machine), not a fixed time.
	pong := false
	for end := time.Now().Add(5 * time.Second); !pong && time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		for _, m := range v.HostLog(t) {
			if m.Dir == "view" && m.Msg["id"] == "apptest-ping" && m.Msg["result"] != nil {
				pong = true
			}
		}
	}
	if !pong {
		out = append(out, "the view did not answer ping")
	}
	if seen["tools/call"] {
		out = append(out, "the view called a tool")
	}
	if over := Eval[int](t, v, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); over > 0 {
		out = append(out, fmt.Sprintf("content is %d px wider than the %s", over, "iframe"))
	}
	return out
}

// Check fails the test on any Problems.
func (v *View) Check(t *testing.T) {
	t.Helper()
	for _, p := range v.Problems(t) {
		t.Error(p)
	}
}

// Background is the view's computed body background colour.
func (v *View) Background(t *testing.T) string {
	return Eval[string](t, v, `getComputedStyle(document.body).backgroundColor`)
}

// Screenshot writes a PNG of the view's iframe to path when
// UPDATE_APP_SCREENSHOTS=1 (like UPDATE_TOOLSNAPS: pictures change only on purpose).
func (v *View) Screenshot(t *testing.T, path string) {
	t.Helper()
	if os.Getenv("UPDATE_APP_SCREENSHOTS") != "1" {
		return
	}
	png, err := chromedp.Run(v.ctx, chromedp.Screenshot("#view"))
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// SelfContained reports an error when html names another origin (the
// acceptance rule for resources/read: no reference to another origin).
func SelfContained(html string) error {
	// No allow-list: make apps writes the inert URL constants of the bundled
	// libraries as ":\/\/" (cmd/appbundle), so any scheme:// here is real.
	rest := html
	for _, bad := range []string{"http://", "https://", "//cdn", "<link ", "@import", "<script src"} {
		if i := strings.Index(strings.ToLower(rest), bad); i >= 0 {
			return fmt.Errorf("the view references another origin or file near %q", rest[max(0, i-40):min(len(rest), i+60)])
		}
	}
	return nil
}
