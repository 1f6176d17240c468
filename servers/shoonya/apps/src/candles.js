// Shoonya candles view: get_time_price_series → one candle (wick and body)
// per row, volume bars underneath, the last row's numbers on top.
(function () {
  var app = document.getElementById("app");
  var input = {};
  function h(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  function kv(pairs) {
    var dl = h("dl", { "class": "kv" });
    pairs.forEach(function (p) {
      var d = h("div", { "data-k": p[0] });
      d.appendChild(h("dt", {}, p[1]));
      d.appendChild(h("dd", {}, p[2]));
      dl.appendChild(d);
    });
    return dl;
  }
  function draw(cs) {
    var lo = Infinity, hi = -Infinity, vmax = 0;
    cs.forEach(function (c) { lo = Math.min(lo, c.low); hi = Math.max(hi, c.high); vmax = Math.max(vmax, c.volume || 0); });
    if (lo === hi) { lo -= 1; hi += 1; }
    var label = function (i) { var c = cs[Math.round(i)]; return c ? String(c.time).slice(5, 16).replace("T", " ") : ""; };
    var f = Chart.frame(app, [0, Math.max(1, cs.length - 1)], [lo, hi], { height: 240, label: "candles", xLabel: label });
    var step = (f.W - f.L - f.R) / Math.max(1, cs.length);
    var bw = Math.max(1, step * 0.6);
    var sx = function (i) { return f.L + step * (i + 0.5); };
    cs.forEach(function (c, i) {
      var up = c.close >= c.open, color = up ? "var(--up)" : "var(--down)";
      var g = Chart.el("g", { "class": "candle", "data-time": c.time }, f.svg);
      Chart.el("line", { x1: sx(i), x2: sx(i), y1: f.sy(c.high), y2: f.sy(c.low), stroke: color }, g);
      var top = f.sy(Math.max(c.open, c.close)), bot = f.sy(Math.min(c.open, c.close));
      Chart.el("rect", { x: sx(i) - bw / 2, y: top, width: bw, height: Math.max(1, bot - top), fill: color }, g);
    });
    if (vmax > 0) {
      var v = Chart.frame(app, [0, Math.max(1, cs.length - 1)], [0, vmax], { height: 90, label: "volume", xLabel: label });
      cs.forEach(function (c, i) {
        var y = v.sy(c.volume || 0);
        Chart.el("rect", { "class": "vol", x: sx(i) - bw / 2, y: y, width: bw, height: Math.max(0, v.sy(0) - y),
          fill: c.close >= c.open ? "var(--up)" : "var(--down)", "fill-opacity": 0.6 }, v.svg);
      });
    }
  }
  McpApp.on("input", function (a) { input = a || {}; });
  McpApp.on("result", function (d, raw) {
    app.textContent = "";
    app.className = "";
    if (raw.isError) { app.appendChild(h("p", { "class": "error" }, (d && d.message) || "the tool failed")); return; }
    var cs = (d && d.candles) || [];
    var name = input.trading_symbol || ((input.exchange || "") + " " + (input.token || ""));
    app.appendChild(h("h1", {}, name + " · " + (d.interval === "day" ? "daily" : d.interval + " min") + " candles"));
    if (!cs.length) { app.appendChild(h("p", { "class": "muted" }, "No candles in this window.")); return; }
    var last = cs[cs.length - 1];
    app.appendChild(kv([["open", "Open", last.open.toFixed(2)], ["high", "High", last.high.toFixed(2)],
      ["low", "Low", last.low.toFixed(2)], ["close", "Close", last.close.toFixed(2)],
      ["volume", "Volume", Chart.fmt(last.volume || 0)], ["candles", "Candles", String(cs.length)]]));
    draw(cs);
  });
  McpApp.start("shoonya-candles", "1");
})();
