// The View side of MCP Apps (ext-apps specification/2026-01-26/apps.mdx,
// "iframe <-> host protocol"), hand-written: JSON-RPC 2.0 over postMessage
// with window.parent only. The view sends ui/initialize, applies the reply's
// hostContext (theme), confirms with ui/notifications/initialized, renders
// from ui/notifications/tool-result alone and reports its size with
// ui/notifications/size-changed on every layout change. It answers ping and
// ui/resource-teardown, ignores unknown notifications and never calls a tool.
var McpApp = (function () {
  var nextId = 1, pending = {}, handlers = {}, lastSize = "";
  function send(m) { m.jsonrpc = "2.0"; window.parent.postMessage(m, "*"); }
  function request(method, params, then) {
    var id = nextId++;
    pending[id] = then;
    send({ id: id, method: method, params: params });
  }
  function applyContext(ctx) {
    if (!ctx) return;
    if (ctx.theme === "dark" || ctx.theme === "light") document.documentElement.setAttribute("data-theme", ctx.theme);
    if (handlers.context) handlers.context(ctx);
  }
  function reportSize() {
    var b = document.body;
    if (!b) return;
    var r = b.getBoundingClientRect();
    var w = Math.ceil(r.width), h = Math.ceil(r.height);
    var key = w + "x" + h;
    if (key === lastSize) return;
    lastSize = key;
    send({ method: "ui/notifications/size-changed", params: { width: w, height: h } });
  }
  // data returns what a tool result carries for the view: structuredContent,
  // else the first text block parsed as JSON, else that text.
  function data(result) {
    if (result.structuredContent != null) return result.structuredContent;
    var t = (result.content || []).filter(function (c) { return c.type === "text"; }).map(function (c) { return c.text; }).join("\n");
    try { return JSON.parse(t); } catch (e) { return { text: t }; }
  }
  window.addEventListener("message", function (e) {
    if (e.source !== window.parent) return;
    var m = e.data;
    if (!m || m.jsonrpc !== "2.0") return;
    if (m.method == null && m.id != null) {
      var then = pending[m.id];
      delete pending[m.id];
      if (then) then(m.error, m.result);
      return;
    }
    switch (m.method) {
      case "ui/notifications/tool-input":
        if (handlers.input) handlers.input((m.params || {}).arguments || {});
        break;
      case "ui/notifications/tool-result":
        var res = m.params || {};
        if (handlers.result) handlers.result(data(res), res);
        reportSize();
        break;
      case "ui/notifications/host-context-changed":
        applyContext(m.params);
        break;
      case "ui/notifications/tool-cancelled":
        if (handlers.cancelled) handlers.cancelled((m.params || {}).reason || "cancelled");
        break;
      case "ping":
      case "ui/resource-teardown":
        if (m.id != null) send({ id: m.id, result: {} });
        break;
      default:
        if (m.id != null) send({ id: m.id, error: { code: -32601, message: "method not found: " + m.method } });
    }
  });
  return {
    // start runs the handshake; on(...) handlers may be set before or after.
    start: function (name, version) {
      request("ui/initialize", {
        protocolVersion: "2026-01-26",
        appInfo: { name: name, version: version },
        appCapabilities: { availableDisplayModes: ["inline"] }
      }, function (err, result) {
        if (!err && result) applyContext(result.hostContext);
        send({ method: "ui/notifications/initialized", params: {} });
        reportSize();
      });
      if (window.ResizeObserver) new ResizeObserver(reportSize).observe(document.body);
      window.addEventListener("resize", reportSize);
    },
    on: function (event, fn) { handlers[event] = fn; },
    reportSize: reportSize
  };
})();
