// Line charts for the views' series (polymarket price history, ktrdr
// per-epoch curves) on uPlot, a small canvas chart library. uPlot needs
// concrete colours, so the views' CSS variables (base.css) are resolved when
// a chart is drawn, and every chart is drawn again when the theme
// (data-theme on <html>) or the width changes.
//
// Lines.draw(parent, series, opts): series [{name, color: "--s1", points:
// [[x, y], ...]}]; opts {label, height, xLabel(x), yRange: [lo, hi]}.
// Each series' legend row carries data-series (its name) and data-n (how
// many points uPlot holds for it), so tests and readers can find them.
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import "./lines.css";

const charts = [];

function cssVar(name) {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";
}

function fmt(v) {
  if (Math.abs(v) >= 1e6) return (v / 1e6).toFixed(1) + "M";
  if (Math.abs(v) >= 1e5) return (v / 1e3).toFixed(0) + "k";
  if (Math.abs(v) >= 100) return v.toFixed(0);
  return Math.abs(v) < 10 ? v.toFixed(3).replace(/0+$/, "").replace(/\.$/, "") : v.toFixed(1);
}

function render(c) {
  if (c.plot) c.plot.destroy();
  const { box, series, opts } = c;
  const width = Math.max(120, Math.floor(box.clientWidth));
  const tables = series.map((s) => [s.points.map((p) => p[0]), s.points.map((p) => p[1])]);
  const data = tables.length === 1 ? tables[0] : uPlot.join(tables);
  const muted = cssVar("--muted"), grid = cssVar("--grid");
  const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, font: "11px system-ui, sans-serif" };
  const xLabel = opts.xLabel || fmt;
  c.plot = new uPlot({
    width,
    height: opts.height || 200,
    title: undefined,
    cursor: { drag: { x: false, y: false } },
    legend: { live: false },
    scales: { x: { time: false }, y: opts.yRange ? { range: opts.yRange } : { auto: true } },
    axes: [
      Object.assign({ space: 90, values: (u, splits) => splits.map(xLabel) },
        opts.integerX ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] } : {}, axis),
      Object.assign({ size: 44, values: (u, splits) => splits.map(fmt) }, axis),
    ],
    series: [{ label: "x" }].concat(series.map((s) => ({
      label: s.name.replace(/_/g, " "), stroke: cssVar(s.color), width: 2, spanGaps: true, points: { show: false },
    }))),
  }, data, box);
  // Without live values uPlot's legend has no row for x; with them, the
  // first row is x's.
  const rows = c.plot.root.querySelectorAll(".u-legend .u-series");
  const skip = rows.length - series.length;
  series.forEach((s, i) => {
    const row = rows[i + skip];
    if (!row) return;
    row.setAttribute("data-series", s.name);
    row.setAttribute("data-n", String(c.plot.data[i + 1].filter((v) => v != null).length));
  });
  if (opts.label) c.plot.root.setAttribute("aria-label", opts.label);
  c.plot.root.setAttribute("role", "img");
}

function draw(parent, series, opts) {
  const box = document.createElement("div");
  box.className = "lines";
  parent.appendChild(box);
  const c = { box, series, opts: opts || {}, plot: null };
  charts.push(c);
  render(c);
  return box;
}

function redrawAll() {
  for (let i = charts.length - 1; i >= 0; i--) {
    if (!charts[i].box.isConnected) { charts[i].plot.destroy(); charts.splice(i, 1); continue; }
    render(charts[i]);
  }
}

new MutationObserver(redrawAll).observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
let lastWidth = 0;
window.addEventListener("resize", () => {
  if (window.innerWidth === lastWidth) return;
  lastWidth = window.innerWidth;
  redrawAll();
});

window.Lines = { draw };
