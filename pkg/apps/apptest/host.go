package apptest

// hostPage is the small host the suite loads on loopback. It plays the host
// side of MCP Apps (ext-apps specification/2026-01-26/apps.mdx): the view runs
// in an iframe sandboxed with allow-scripts only (an opaque origin: no access
// to the host, no storage), under the spec's default CSP prepended as a meta
// tag. The host answers ui/initialize with a hostContext, waits for
// ui/notifications/initialized before sending anything (the spec's MUST), then
// sends tool-input and tool-result once, sizes the iframe from size-changed
// (a flexible-height host) and answers any other request with {}. Every message
// both ways is kept in window.hostLog for the test to read.
const hostPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>apptest host</title>
<style>html,body{margin:0;background:#888}iframe{display:block;border:0}</style></head>
<body>
<script id="cfg" type="application/json">{{CFG}}</script>
<script>
var cfg = JSON.parse(document.getElementById("cfg").textContent);
window.hostLog = [];
var f = document.createElement("iframe");
f.id = "view";
f.setAttribute("sandbox", "allow-scripts");
f.style.width = cfg.width + "px";
f.style.height = "50px";
// The probe after the CSP reports every securitypolicyviolation to the host
// (some, like a blocked eval, reach no log); it is not JSON-RPC, so the view
// would ignore it, and it runs before any of the view's own scripts.
var meta = '<meta http-equiv="Content-Security-Policy" content="' + cfg.csp + '">' +
  '<scr' + 'ipt>document.addEventListener("securitypolicyviolation",function(e){parent.postMessage(' +
  '{apptest:"csp",directive:e.violatedDirective,blocked:e.blockedURI},"*")});</scr' + 'ipt>';
var html = cfg.html;
f.srcdoc = /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, function (h) { return h + meta; }) : meta + html;
function post(m) { m.jsonrpc = "2.0"; hostLog.push({dir: "host", msg: m}); f.contentWindow.postMessage(m, "*"); }
window.addEventListener("message", function (e) {
  if (e.source !== f.contentWindow) return;
  var m = e.data;
  hostLog.push({dir: "view", msg: m});
  if (!m || m.jsonrpc !== "2.0") return;
  if (m.method === "ui/initialize") {
    post({id: m.id, result: {protocolVersion: "2026-01-26", hostInfo: {name: "mcpfleet-apptest", version: "1"},
      hostCapabilities: {}, hostContext: {theme: cfg.theme, displayMode: "inline", availableDisplayModes: ["inline"],
      containerDimensions: {width: cfg.width, maxHeight: 4000}, locale: "en-US", timeZone: "UTC", platform: "web"}}});
  } else if (m.method === "ui/notifications/initialized") {
    post({method: "ui/notifications/tool-input", params: {arguments: cfg.args}});
    post({method: "ui/notifications/tool-result", params: cfg.result});
  } else if (m.method === "ui/notifications/size-changed") {
    f.style.height = Math.max(10, m.params.height) + "px";
    // Once the view has rendered, check it still answers requests (ping).
    if (!window.pinged) { window.pinged = true; post({id: "apptest-ping", method: "ping", params: {}}); }
  } else if (m.id != null && m.method) {
    post({id: m.id, result: {}});
  }
});
document.body.appendChild(f);
</script>
</body></html>`
