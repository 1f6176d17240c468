// The view side of MCP Apps for every mcpfleet view, on the official SDK
// (@modelcontextprotocol/ext-apps 1.x: App + PostMessageTransport to
// window.parent). It keeps the small global API the views were written
// against: McpApp.on("result"|"input"|"context"|"cancelled", fn) and
// McpApp.start(name, version). The SDK does the handshake (ui/initialize,
// then ui/notifications/initialized), answers ping and
// ui/resource-teardown, and reports the size (autoResize: a ResizeObserver
// sending ui/notifications/size-changed). This module applies the host's
// theme (initial hostContext and host-context-changed) as data-theme on
// <html>, which base.css reads. No view calls a tool.
import "./jitless.js";
import { App, PostMessageTransport, applyDocumentTheme } from "@modelcontextprotocol/ext-apps";

const handlers = {};
let app = null;

// data returns what a tool result carries for the view: structuredContent,
// else the text blocks parsed as JSON, else that text.
function data(result) {
  if (result.structuredContent != null) return result.structuredContent;
  const t = (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
  try { return JSON.parse(t); } catch (e) { return { text: t }; }
}

function applyContext(ctx) {
  if (!ctx) return;
  if (ctx.theme === "dark" || ctx.theme === "light") applyDocumentTheme(ctx.theme);
  if (handlers.context) handlers.context(ctx);
}

function start(name, version) {
  app = new App({ name, version }, { availableDisplayModes: ["inline"] }, { autoResize: true });
  app.ontoolinput = (p) => { if (handlers.input) handlers.input((p && p.arguments) || {}); };
  app.ontoolresult = (p) => { if (handlers.result) handlers.result(data(p || {}), p || {}); };
  app.ontoolcancelled = (p) => { if (handlers.cancelled) handlers.cancelled((p && p.reason) || "cancelled"); };
  app.onhostcontextchanged = (p) => applyContext(p);
  app.onteardown = async () => ({});
  app.connect(new PostMessageTransport(window.parent, window.parent))
    .then(() => applyContext(app.getHostContext()))
    .catch((e) => console.warn("mcp app: handshake failed", e));
}

window.McpApp = { start, on: (event, fn) => { handlers[event] = fn; } };
