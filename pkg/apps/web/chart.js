// Small SVG charts drawn by hand (no library: the views must stay
// self-contained and small). Every chart scales to its container width.
var Chart = (function () {
  var NS = "http://www.w3.org/2000/svg";
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function fmt(v) {
    if (Math.abs(v) >= 1e6) return (v / 1e6).toFixed(1) + "M";
    if (Math.abs(v) >= 1e5) return (v / 1e3).toFixed(0) + "k";
    if (Math.abs(v) >= 100) return v.toFixed(0);
    return Math.abs(v) < 10 ? v.toFixed(3).replace(/0+$/, "").replace(/\.$/, "") : v.toFixed(1);
  }
  function bounds(series, key) {
    var lo = Infinity, hi = -Infinity;
    series.forEach(function (s) { s.points.forEach(function (p) { lo = Math.min(lo, p[key]); hi = Math.max(hi, p[key]); }); });
    if (lo === hi) { lo -= 0.5; hi += 0.5; }
    return [lo, hi];
  }
  // frame makes the svg and the scale functions for the given ranges.
  function frame(parent, xr, yr, opts) {
    var W = 600, H = opts.height || 240, L = 62, R = 8, T = 10, B = 28;
    var svg = el("svg", { viewBox: "0 0 " + W + " " + H, "class": "chart", role: "img" }, parent);
    if (opts.label) el("title", {}, svg).textContent = opts.label;
    var sx = function (x) { return L + (x - xr[0]) / (xr[1] - xr[0]) * (W - L - R); };
    var sy = function (y) { return T + (1 - (y - yr[0]) / (yr[1] - yr[0])) * (H - T - B); };
    el("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, "class": "axis" }, svg);
    el("line", { x1: L, y1: T, x2: L, y2: H - B, "class": "axis" }, svg);
    [yr[0], (yr[0] + yr[1]) / 2, yr[1]].forEach(function (v) {
      el("text", { x: L - 6, y: sy(v) + 6, "text-anchor": "end" }, svg).textContent = fmt(v);
    });
    var xl = opts.xLabel || fmt;
    el("text", { x: L, y: H - 6 }, svg).textContent = xl(xr[0]);
    el("text", { x: W - R, y: H - 6, "text-anchor": "end" }, svg).textContent = xl(xr[1]);
    return { svg: svg, sx: sx, sy: sy, W: W, H: H, L: L, R: R, T: T, B: B };
  }
  // line draws series [{name, color, points:[[x,y],...]}]; one polyline
  // vertex per point (data-n says how many).
  function line(parent, series, opts) {
    opts = opts || {};
    var f = frame(parent, bounds(series, 0), opts.yRange || bounds(series, 1), opts);
    series.forEach(function (s) {
      var pts = s.points.map(function (p) { return f.sx(p[0]).toFixed(1) + "," + f.sy(p[1]).toFixed(1); }).join(" ");
      el("polyline", { points: pts, fill: "none", stroke: s.color, "stroke-width": 1.8, "data-series": s.name, "data-n": s.points.length }, f.svg);
    });
    return f;
  }
  // steps draws cumulative depth: points [[price, cumulative size]] as a
  // filled step area per side.
  function steps(parent, sides, opts) {
    opts = opts || {};
    var f = frame(parent, opts.xRange || bounds(sides, 0), [0, bounds(sides, 1)[1]], opts);
    sides.forEach(function (s) {
      if (!s.points.length) return;
      var d = "M" + f.sx(s.points[0][0]).toFixed(1) + "," + f.sy(0).toFixed(1);
      s.points.forEach(function (p, i) {
        var y = f.sy(p[1]).toFixed(1);
        if (i > 0) d += " L" + f.sx(p[0]).toFixed(1) + "," + f.sy(s.points[i - 1][1]).toFixed(1);
        d += " L" + f.sx(p[0]).toFixed(1) + "," + y;
      });
      var lastP = s.points[s.points.length - 1];
      d += " L" + f.sx(lastP[0]).toFixed(1) + "," + f.sy(0).toFixed(1) + " Z";
      el("path", { d: d, fill: s.color, "fill-opacity": 0.25, stroke: s.color, "stroke-width": 1.5, "data-side": s.name, "data-n": s.points.length }, f.svg);
    });
    return f;
  }
  function vline(f, x, color, label) {
    el("line", { x1: f.sx(x), x2: f.sx(x), y1: f.T, y2: f.H - f.B, stroke: color, "stroke-dasharray": "4 3" }, f.svg);
    if (label) el("text", { x: f.sx(x) + 4, y: f.T + 16 }, f.svg).textContent = label;
  }
  return { el: el, fmt: fmt, frame: frame, line: line, steps: steps, vline: vline };
})();
