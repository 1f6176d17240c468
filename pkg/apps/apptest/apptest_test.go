package apptest_test

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpfleet/mcpfleet/pkg/apps/apptest"
)

// A minimal render-only view per the reference handshake (mcpapp.bundle.js is tested
// through every server's view).
const good = `<!doctype html><html><head><style>body{background:#fff}[data-theme=dark] body{background:#000}</style></head><body><p id="v">waiting</p><script>
var send=function(m){m.jsonrpc="2.0";parent.postMessage(m,"*")};
addEventListener("message",function(e){if(e.source!==parent)return;var m=e.data;
 if(m.id===1&&m.result){document.documentElement.setAttribute("data-theme",m.result.hostContext.theme);send({method:"ui/notifications/initialized",params:{}})}
 else if(m.method==="ping"&&m.id!=null&&!window.noPing){send({id:m.id,result:{}})}
 else if(m.method==="ui/notifications/tool-result"){document.getElementById("v").textContent=m.params.structuredContent.n;
  send({method:"ui/notifications/size-changed",params:{width:300,height:document.body.scrollHeight}})}});
send({id:1,method:"ui/initialize",params:{protocolVersion:"2026-01-26",appInfo:{name:"t",version:"1"},appCapabilities:{}}});
BAD</script></body></html>`

func result() *mcp.CallToolResult { return mcp.NewToolResultStructured(map[string]any{"n": 42}, "42") }

func TestHarness(t *testing.T) {
	browser := apptest.Browser(t)
	t.Run("good view", func(t *testing.T) {
		v := apptest.Open(t, browser, apptest.Run{HTML: strings.Replace(good, "BAD", "", 1), Result: result()})
		if got := apptest.Eval[string](t, v, `document.getElementById("v").textContent`); got != "42" {
			t.Errorf("view shows %q", got)
		}
		v.Check(t)
		dark := apptest.Open(t, browser, apptest.Run{HTML: strings.Replace(good, "BAD", "", 1), Result: result(), Theme: "dark"})
		if a, b := v.Background(t), dark.Background(t); a == b {
			t.Errorf("dark background %s equals light", b)
		}
	})
	// The checks must catch what they claim to: each bad view yields a problem.
	for name, c := range map[string]struct{ js, want string }{
		"fetch":        {`fetch("https://example.com/x").catch(function(){});`, "connect-src"},
		"remote image": {`var i=new Image();i.src="https://example.com/x.png";document.body.appendChild(i);`, "img-src"},
		"eval":         {`try{eval("1")}catch(e){}`, "script-src"},
		"exception":    {`setTimeout(function(){null.x},0);`, "exception"},
		"too wide":     {`document.body.style.width="900px";`, "wider than"},
		"no ping":      {`window.noPing=true;`, "ping"},
	} {
		t.Run(name, func(t *testing.T) {
			v := apptest.Open(t, browser, apptest.Run{HTML: strings.Replace(good, "BAD", c.js, 1), Result: result()})
			p := v.Problems(t)
			if !strings.Contains(strings.Join(p, "\n"), c.want) {
				t.Errorf("problems %q do not mention %q", p, c.want)
			}
		})
	}
}
