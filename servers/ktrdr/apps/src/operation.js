// KTRDR operation view: an operation's status, progress bar and stage (from
// get_operation_status or wait_for_operation) with a training's per-epoch
// loss and accuracy curves, or a finished training's metrics
// (get_operation_results, get_model_performance).
(function () {
  var app = document.getElementById("app");
  function h(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  function show(v) {
    if (typeof v === "number") return Math.abs(v) < 10 && v % 1 !== 0 ? v.toFixed(3) : String(v);
    return v == null ? "–" : String(v);
  }
  function kv(obj, title) {
    if (!obj) return;
    app.appendChild(h("h2", {}, title));
    var dl = h("dl", { "class": "kv" });
    Object.keys(obj).forEach(function (k) {
      if (typeof obj[k] === "object" && obj[k] !== null) return;
      var d = h("div", { "data-k": k });
      d.appendChild(h("dt", {}, k.replace(/_/g, " ")));
      d.appendChild(h("dd", {}, show(obj[k])));
      dl.appendChild(d);
    });
    app.appendChild(dl);
  }
  var colors = { completed: "var(--up)", failed: "var(--down)", cancelled: "var(--warn)" };
  function operation(o, extra) {
    var p = o.progress || {};
    var pct = Math.max(0, Math.min(100, Number(p.percentage) || 0));
    app.appendChild(h("h1", {}, (o.operation_type || "operation") + " · " + (o.metadata && o.metadata.symbol ? o.metadata.symbol + " " + (o.metadata.timeframe || "") : o.operation_id)));
    var st = h("p", { "data-k": "status", style: "font-weight:600;color:" + (colors[o.status] || "var(--accent)") }, o.status);
    app.appendChild(st);
    var bar = h("div", { style: "background:var(--card);border-radius:6px;height:14px;overflow:hidden", role: "progressbar",
      "aria-valuenow": String(pct), "aria-valuemin": "0", "aria-valuemax": "100" });
    bar.appendChild(h("div", { style: "height:100%;width:" + pct + "%;background:" + (colors[o.status] || "var(--accent)") }));
    app.appendChild(bar);
    app.appendChild(h("p", { "data-k": "percentage" }, pct.toFixed(1) + "%"));
    if (p.current_step) app.appendChild(h("p", { "data-k": "stage", "class": "muted" }, p.current_step));
    if (p.steps_total) app.appendChild(h("p", { "data-k": "steps", "class": "muted" }, p.steps_completed + " of " + p.steps_total + " steps"));
    if (o.error_message) app.appendChild(h("p", { "class": "error" }, o.error_message));
    if (extra) app.appendChild(h("p", { "class": "muted" }, extra));
    if (o.epochs) epochs(o.epochs);
    if (o.result_summary) metrics(o.result_summary);
    app.appendChild(h("p", { "class": "muted", style: "font-size:11px;overflow-wrap:anywhere" }, o.operation_id));
  }
  // epochs draws the columns of client.EpochSeries: one curve vertex per epoch
  // that has a value (the backend may send null), and the last epoch's numbers.
  function epochs(e) {
    var ep = e.epoch || [], last = ep.length - 1;
    if (last < 0) return;
    app.appendChild(h("h2", {}, "Epochs · " + e.epochs_completed + " done" + (e.epochs_completed > ep.length ? " (" + ep.length + " shown)" : "")));
    var dl = h("dl", { "class": "kv" });
    [["epoch", "epoch", ep], ["train_loss", "train loss", e.train_loss], ["val_loss", "val loss", e.val_loss],
      ["train_accuracy", "train acc", e.train_accuracy], ["val_accuracy", "val acc", e.val_accuracy]].forEach(function (c) {
      var d = h("div", { "data-k": "last_" + c[0] });
      d.appendChild(h("dt", {}, "last " + c[1]));
      d.appendChild(h("dd", {}, show(c[2] ? c[2][last] : null)));
      dl.appendChild(d);
    });
    app.appendChild(dl);
    if (e.best_epoch != null) app.appendChild(h("p", { "class": "muted", "data-k": "best_epoch" }, "best epoch " + e.best_epoch +
      (e.epochs_since_improvement != null ? ", " + e.epochs_since_improvement + " since" : "") +
      (e.is_overfitting ? " · overfitting" : "") + (e.is_plateaued ? " · plateaued" : "")));
    function pts(col) {
      var out = [];
      (col || []).forEach(function (v, i) { if (v != null && isFinite(v)) out.push([ep[i], v]); });
      return out;
    }
    [["loss", "train_loss", "val_loss"], ["accuracy", "train_accuracy", "val_accuracy"]].forEach(function (c) {
      var series = [{ name: c[1], color: "--s1", points: pts(e[c[1]]) }, { name: c[2], color: "--s2", points: pts(e[c[2]]) }]
        .filter(function (s) { return s.points.length; });
      if (!series.length) return;
      // uPlot's legend names the curves (train/val) in their colours.
      Lines.draw(app, series, { label: c[0] + " per epoch", height: 180, integerX: true, xLabel: function (x) { return "epoch " + x; } });
    });
  }
  function metrics(r) {
    kv(r.training_metrics, "Training");
    kv(r.test_metrics, "Test");
    kv(r.model_info, "Model");
  }
  McpApp.on("result", function (d, raw) {
    app.textContent = "";
    app.className = "";
    if (raw.isError) { app.appendChild(h("p", { "class": "error" }, (d && d.message) || "the tool failed")); return; }
    if (d.operation) operation(d.operation, d.timed_out ? "Still running after " + d.waited_seconds + " s of waiting." : "");
    else if (d.progress) operation(d);
    else if (d.results) {
      app.appendChild(h("h1", {}, (d.operation_type || "operation") + " results · " + d.status));
      metrics(d.results);
      if (d.results.error) app.appendChild(h("p", { "class": "error" }, String(d.results.error)));
    } else if (d.training_metrics || d.test_metrics) {
      app.appendChild(h("h1", {}, "Model performance · " + (d.status || "")));
      metrics(d);
    } else app.appendChild(h("p", { "class": "muted" }, "Nothing to show for this result."));
  });
  McpApp.start("ktrdr-operation", "1");
})();
