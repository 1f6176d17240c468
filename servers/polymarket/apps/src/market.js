// Polymarket view: renders whichever of get_price_history ({points}),
// get_order_books ({books}) or get_market ({market}) produced the result.
(function () {
  var app = document.getElementById("app");
  var input = {};
  function h(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  function num(v, digits) { return v == null ? "–" : Number(v).toFixed(digits == null ? 3 : digits); }
  function money(v) { return v == null ? "–" : "$" + Chart.fmt(Number(v)); }
  // kv renders key numbers; data-k names each so tests and readers can find it.
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
  function date(ts) { return new Date(ts * 1000).toISOString().slice(0, 10); }
  function history(d) {
    app.appendChild(h("h1", {}, "Price history" + (input.token_id ? " · token " + String(input.token_id).slice(0, 10) + "…" : "")));
    app.appendChild(kv([["first", "First", num(d.first)], ["last", "Last", num(d.last)], ["min", "Min", num(d.min)],
      ["max", "Max", num(d.max)], ["points", "Samples", String(d.points.length)]]));
    if (d.points.length) {
      Lines.draw(app, [{ name: "price", color: "--s1", points: d.points }],
        { yRange: [0, 1], label: "price over time", xLabel: date, height: 220 });
    }
    if (d.note) app.appendChild(h("p", { "class": "muted" }, d.note));
  }
  function cumulative(levels) {
    var sum = 0;
    return levels.map(function (l) { sum += l[1]; return [l[0], sum]; });
  }
  function book(b) {
    var sec = h("section", { "data-token": b.token_id });
    sec.appendChild(h("h1", {}, "Order book · token " + String(b.token_id).slice(0, 10) + "…"));
    sec.appendChild(kv([["best_bid", "Best bid", num(b.best_bid)], ["best_ask", "Best ask", num(b.best_ask)],
      ["spread", "Spread", num(b.spread)], ["mid", "Mid", num(b.mid)],
      ["bid_size_in_band", "Bid size in band", Chart.fmt(b.bid_size_in_band || 0)],
      ["ask_size_in_band", "Ask size in band", Chart.fmt(b.ask_size_in_band || 0)]]));
    // Bids come best (highest) first; the chart runs left to right in price.
    var bids = cumulative(b.bids || []), asks = cumulative(b.asks || []);
    if (bids.length || asks.length) {
      var f = Chart.steps(sec, [{ name: "bids", color: "var(--up)", points: bids.slice().reverse().map(function (p) { return p; }) },
        { name: "asks", color: "var(--down)", points: asks }], { label: "cumulative depth", height: 180 });
      if (b.mid != null) Chart.vline(f, b.mid, "var(--muted)", "mid " + num(b.mid));
      var legend = h("div", { "class": "legend" });
      legend.innerHTML = '<span><i style="background:var(--up)"></i>bids</span><span><i style="background:var(--down)"></i>asks</span>';
      sec.appendChild(legend);
    }
    if (b.warning) sec.appendChild(h("p", { "class": "muted" }, b.warning));
    app.appendChild(sec);
  }
  function market(m) {
    app.appendChild(h("h1", {}, m.question || m.slug || ("market " + m.id)));
    app.appendChild(kv([["state", "State", m.state || "–"], ["volume", "Volume", money(m.volume)],
      ["volume_24h", "24h volume", money(m.volume_24h)], ["liquidity", "Liquidity", money(m.liquidity)],
      ["best_bid", "Best bid", num(m.best_bid)], ["best_ask", "Best ask", num(m.best_ask)],
      ["end", "Ends", m.end ? String(m.end).slice(0, 10) : "–"]]));
    if (m.outcomes && m.outcomes.length) {
      var t = h("table");
      t.appendChild(h("tr")).innerHTML = "<th>Outcome</th><th>Price</th>";
      m.outcomes.forEach(function (o) {
        var tr = h("tr", { "data-outcome": o.name });
        tr.appendChild(h("td", {}, o.name));
        tr.appendChild(h("td", {}, num(o.price)));
        t.appendChild(tr);
      });
      app.appendChild(t);
    }
  }
  McpApp.on("input", function (args) { input = args || {}; });
  McpApp.on("result", function (d, raw) {
    app.textContent = "";
    app.className = "";
    if (raw.isError) {
      app.appendChild(h("p", { "class": "error" }, (d && d.message) || "the tool failed"));
      return;
    }
    if (d && d.points) history(d);
    else if (d && d.books) d.books.forEach(book);
    else if (d && d.market) market(d.market);
    else app.appendChild(h("p", { "class": "muted" }, "Nothing to draw for this result."));
  });
  McpApp.start("polymarket-market", "1");
})();
