// Shoonya portfolio view, read-only: get_positions (P&L per position and in
// total) or get_order_book (statuses and reject reasons). It never calls a
// tool; the order tools are model-only for app hosts.
(function () {
  var app = document.getElementById("app");
  function h(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  function money(v) { return (v > 0 ? "+" : "") + Number(v || 0).toFixed(2); }
  function pnlCell(v) { return h("td", { "class": "pnl", style: "color:" + (v > 0 ? "var(--up)" : v < 0 ? "var(--down)" : "inherit") }, money(v)); }
  function table(head, rows) {
    var wrap = h("div", { style: "overflow-x:auto" });
    var t = h("table");
    var tr = h("tr");
    head.forEach(function (c) { tr.appendChild(h("th", {}, c)); });
    t.appendChild(tr);
    rows.forEach(function (r) { t.appendChild(r); });
    wrap.appendChild(t);
    return wrap;
  }
  function positions(d) {
    var total = (d.total_realised_pnl || 0) + (d.total_unrealised_pnl || 0);
    app.appendChild(h("h1", {}, "Positions"));
    var dl = h("dl", { "class": "kv" });
    [["total_realised_pnl", "Realised", d.total_realised_pnl], ["total_unrealised_pnl", "Unrealised", d.total_unrealised_pnl], ["total_pnl", "Total P&L", total]].forEach(function (p) {
      var x = h("div", { "data-k": p[0] });
      x.appendChild(h("dt", {}, p[1]));
      x.appendChild(h("dd", { style: "color:" + (p[2] > 0 ? "var(--up)" : p[2] < 0 ? "var(--down)" : "inherit") }, money(p[2])));
      dl.appendChild(x);
    });
    app.appendChild(dl);
    if (!d.positions.length) { app.appendChild(h("p", { "class": "muted" }, "No positions.")); return; }
    app.appendChild(table(["Symbol", "Qty", "Avg", "LTP", "P&L"], d.positions.map(function (p) {
      var tr = h("tr", { "class": "position", "data-symbol": p.trading_symbol });
      tr.appendChild(h("td", {}, p.trading_symbol + " " + p.product));
      tr.appendChild(h("td", {}, String(p.net_quantity)));
      tr.appendChild(h("td", {}, Number(p.average_price).toFixed(2)));
      tr.appendChild(h("td", {}, Number(p.last_price).toFixed(2)));
      tr.appendChild(pnlCell((p.realised_pnl || 0) + (p.unrealised_pnl || 0)));
      return tr;
    })));
  }
  // records turns get_order_book's table (cols once, rows of values) back
  // into objects; with detail, more[i] is the rest of rows[i].
  function records(d) {
    return d.rows.map(function (r, i) {
      var o = {};
      d.cols.forEach(function (c, j) { o[c] = r[j]; });
      o.more = (d.more || [])[i] || null;
      return o;
    });
  }
  function orders(list) {
    app.appendChild(h("h1", {}, "Orders"));
    var counts = {};
    list.forEach(function (o) { counts[o.status] = (counts[o.status] || 0) + 1; });
    app.appendChild(h("p", { "class": "muted", "data-k": "statuses" }, Object.keys(counts).sort().map(function (s) { return s + " " + counts[s]; }).join(" · ") || "No orders."));
    if (!list.length) return;
    // Side and fill share a column so that five fields fit a 360 px iframe.
    app.appendChild(table(["Order", "Side · Qty", "Price", "Status"], list.map(function (o) {
      var tr = h("tr", { "class": "order", "data-order": o.order_id, "data-status": o.status });
      var first = h("td", {}, o.trading_symbol);
      first.appendChild(h("div", { "class": "muted", style: "font-size:11px" }, o.order_id));
      if (o.reject_reason) first.appendChild(h("div", { "class": "reject", style: "color:var(--down);font-size:12px" }, o.reject_reason));
      tr.appendChild(first);
      var q = h("td", {});
      q.appendChild(h("span", { "class": "side", style: "color:" + (o.side === "BUY" ? "var(--up)" : "var(--down)") }, o.side));
      q.appendChild(h("div", { "class": "qty" }, o.filled_quantity + "/" + o.quantity));
      tr.appendChild(q);
      // A MKT order has no price (Noren's prc is 0; place_order sends a
      // protective LIMIT instead, but the book may hold others); detail names
      // the type.
      var market = o.more ? o.more.order_type === "MARKET" : !o.price;
      tr.appendChild(h("td", {}, market ? "MKT" : Number(o.price).toFixed(2)));
      tr.appendChild(h("td", { "class": "status" }, o.status));
      return tr;
    })));
  }
  McpApp.on("result", function (d, raw) {
    app.textContent = "";
    app.className = "";
    if (raw.isError) { app.appendChild(h("p", { "class": "error" }, (d && d.message) || "the tool failed")); return; }
    if (d && d.positions) positions(d);
    else if (d && d.cols && d.rows && d.cols.indexOf("order_id") >= 0 && d.cols.indexOf("status") >= 0) orders(records(d));
    else app.appendChild(h("p", { "class": "muted" }, "Nothing to show for this result."));
  });
  McpApp.start("shoonya-portfolio", "1");
})();
