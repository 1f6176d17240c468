// ziwei chart view: the natal board from the result's _meta["ziwei/board"]
// (palaces in board order, 0 = 寅), the centre panel from Basics
// (structuredContent of initialize_chart / get_chart_basics, else the
// board's basics), and a period tool's overlay from its structuredContent
// (palaces "period role = natal palace: …", sihua "禄 star palace (role)").
(function () {
  var app = document.getElementById("app");
  var L = {
    "zh-CN": { solar: "阳历", lunar: "农历", pillars: "四柱", time: "时辰", five: "五行局", soul: "命主", body: "身主",
      zodiac: "生肖", soulPalace: "命宫", bodyPalace: "身宫", bodyMark: "身", age: "虚岁", borrow: "借", m: ["禄", "权", "科", "忌"], fly: "飞",
      hint: "点击宫位：三方四正与飞四化", nodata: "结果中没有命盘数据（宿主未转发 _meta）" },
    "zh-TW": { solar: "陽曆", lunar: "農曆", pillars: "四柱", time: "時辰", five: "五行局", soul: "命主", body: "身主",
      zodiac: "生肖", soulPalace: "命宮", bodyPalace: "身宮", bodyMark: "身", age: "虛歲", borrow: "借", m: ["祿", "權", "科", "忌"], fly: "飛",
      hint: "點擊宮位：三方四正與飛四化", nodata: "結果中沒有命盤資料（宿主未轉發 _meta）" },
    "en-US": { solar: "Solar", lunar: "Lunar", pillars: "Pillars", time: "Hour", five: "Bureau", soul: "Soul ruler", body: "Body ruler",
      zodiac: "Zodiac", soulPalace: "Soul palace", bodyPalace: "Body palace", bodyMark: "body", age: "age", borrow: "opp.", m: ["A", "B", "C", "D"], fly: "→",
      hint: "Tap a palace: its trines and opposite, and where its stem flies A B C D", nodata: "The result carries no board (the host dropped _meta)" }
  };
  // Grid cell (row, column) of each branch 子…亥 on the classic board.
  var pos = [[4, 3], [4, 2], [4, 1], [3, 1], [2, 1], [1, 1], [1, 2], [1, 3], [1, 4], [2, 4], [3, 4], [4, 4]];
  var board, t, cells = [], selected = -1;
  function h(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  // parseStar splits "太阳旺[禄]" / "sun[+2][A]" into name, brightness, 四化.
  function parseStar(s) {
    var m = /^(.*?)(\[[+-]?\d\]|[庙廟旺得利平不陷])?(?:\[([^\]]+)\])?$/.exec(s);
    return { name: m[1], bright: m[2] || "", mut: m[3] || "" };
  }
  function mutIndex(label) {
    for (var k in L) { var i = L[k].m.indexOf(label); if (i >= 0) return i; }
    return -1;
  }
  function star(s, cls) {
    var p = parseStar(s);
    var e = h("span", { "class": "star " + cls, "data-s": s, "data-name": p.name }, p.name);
    if (p.bright) e.appendChild(h("sub", {}, p.bright.replace(/[\[\]]/g, "")));
    if (p.mut) e.appendChild(h("i", { "class": "m m" + mutIndex(p.mut), "data-k": "natal-sihua" }, p.mut));
    return e;
  }
  function centre(b) {
    var c = h("div", { "class": "centre", "data-k": "centre" });
    function row(k, label, v) {
      if (!v) return;
      var d = h("div", { "data-k": k });
      d.appendChild(h("b", {}, label));
      d.appendChild(document.createTextNode(v));
      c.appendChild(d);
    }
    row("gender-date", b.gender || "", (b.solarDate || "") + " " + (b.time || ""));
    row("lunar", t.lunar, b.lunarDate);
    row("pillars", t.pillars, b.chineseDate);
    row("five", t.five, b.fiveElementsClass);
    row("soul", t.soul, b.soul);
    row("body", t.body, b.body);
    row("zodiac", t.zodiac, b.zodiac);
    row("soulPalace", t.soulPalace, b.soulPalace);
    row("bodyPalace", t.bodyPalace, b.bodyPalace);
    c.appendChild(h("div", { "class": "muted" }, t.hint));
    return c;
  }
  function cell(i) {
    var p = board.palaces[i], parts = p.p.split(" ");
    var branch = (i + 2) % 12, rc = pos[branch];
    var c = h("div", { "class": "cell", "data-i": String(i), "data-palace": p.p,
      style: "grid-row:" + rc[0] + ";grid-column:" + rc[1] });
    var stars = h("div", { "class": "stars" });
    p.ma.forEach(function (s) { stars.appendChild(star(s, "major")); });
    // An empty palace (命无正曜…) is read with the opposite palace's majors (借对宫).
    if (!p.ma.length) {
      var opp = board.palaces[(i + 6) % 12].ma.map(function (s) { return parseStar(s).name; });
      if (opp.length) stars.appendChild(h("span", { "class": "borrow", "data-k": "borrowed" }, "(" + t.borrow + " " + opp.join(" ") + ")"));
    }
    p.mi.forEach(function (s) { stars.appendChild(star(s, "minor")); });
    p.ad.forEach(function (s) { stars.appendChild(star(s, "adj")); });
    c.appendChild(stars);
    c.appendChild(h("div", { "class": "ovs" }));
    var foot = h("div", { "class": "foot" });
    var name = h("div");
    name.appendChild(h("span", { "class": "role", "data-k": "role" }, parts[0]));
    if (i === board.body) name.appendChild(h("i", { "class": "body-mark", "data-k": "body-palace" }, t.bodyMark));
    name.appendChild(h("div", { "class": "gz", "data-k": "stem-branch" }, parts.slice(1).join(" ")));
    foot.appendChild(name);
    foot.appendChild(h("span", { "class": "dec", "data-k": "decade" }, p.d[0] + "-" + p.d[1]));
    c.appendChild(foot);
    c.addEventListener("click", function () { select(i === selected ? -1 : i); });
    return c;
  }
  var SVG = "http://www.w3.org/2000/svg";
  function centreOf(el, base) {
    var r = el.getBoundingClientRect();
    return [r.left - base.left + r.width / 2, r.top - base.top + r.height / 2];
  }
  // select marks palace i's 三方四正 (itself, +4, +6, +8) and its stem's
  // flights: a badge on each target star and a line to its palace.
  function select(i) {
    selected = i;
    var grid = document.getElementById("board"), svg = document.getElementById("lines");
    cells.forEach(function (c) { c.classList.remove("sel", "sf"); });
    Array.prototype.forEach.call(grid.querySelectorAll(".fly"), function (e) { e.remove(); });
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    var list = document.getElementById("flights");
    list.textContent = "";
    if (i < 0) return;
    [0, 4, 6, 8].forEach(function (d) { cells[(i + d) % 12].classList.add("sf"); });
    cells[i].classList.add("sel");
    var base = grid.getBoundingClientRect(), from = centreOf(cells[i], base);
    board.palaces[i].f.forEach(function (f, k) {
      var to = f[1];
      if (to < 0) return;
      var target = cells[to].querySelector('[data-name="' + f[0] + '"]');
      var mark = h("i", { "class": "fly f" + k, "data-k": "fly", "data-m": String(k) }, t.fly + t.m[k]);
      (target || cells[to].querySelector(".stars")).appendChild(mark);
      var end = centreOf(cells[to], base);
      var ln = document.createElementNS(SVG, "line");
      ln.setAttribute("x1", from[0]); ln.setAttribute("y1", from[1]);
      ln.setAttribute("x2", end[0] + (k - 1.5) * 4); ln.setAttribute("y2", end[1] + (k - 1.5) * 4);
      ln.setAttribute("class", "f" + k);
      ln.setAttribute("style", "stroke:currentColor;stroke-width:1.5;stroke-dasharray:" + (k === 3 ? "4 2" : "none"));
      svg.appendChild(ln);
      list.appendChild(h("li", { "class": "f" + k }, t.m[k] + " " + f[0] + " → " + board.palaces[to].p));
    });
  }
  function indexOfPalace(s) {
    for (var i = 0; i < 12; i++) if (s.indexOf(board.palaces[i].p) === 0) return i;
    return -1;
  }
  // overlay writes each period role on its natal palace and marks the
  // period's 四化 on their stars.
  function overlay(d) {
    (d.palaces || []).forEach(function (line, r) {
      var eq = line.indexOf(" = "), colon = line.indexOf(":", eq);
      if (eq < 0 || colon < 0) return;
      var i = indexOfPalace(line.slice(eq + 3, colon));
      if (i < 0) return;
      cells[i].querySelector(".ovs").appendChild(h("div", { "class": "ov", "data-k": "period-role" }, line.slice(0, eq)));
      if (r === 0) cells[i].classList.add("plife");
    });
    (d.sihua || []).forEach(function (it) {
      var sp = it.indexOf(" "), sp2 = it.indexOf(" ", sp + 1);
      var k = mutIndex(it.slice(0, sp)), name = it.slice(sp + 1, sp2), i = indexOfPalace(it.slice(sp2 + 1));
      if (i < 0 || k < 0) return;
      var target = cells[i].querySelector('[data-name="' + name + '"]');
      if (target) target.appendChild(h("i", { "class": "pm f" + k, "data-k": "period-sihua" }, t.m[k]));
    });
  }
  // periodTitle: a decade tool's "3: 25-34 福德 己丑"; a year or finer
  // period's date, stem-branch, nominal age and decade.
  function periodTitle(d) {
    if (d.nominalAge == null) return d.decade || "";
    var s = [];
    if (d.lunarDate) s.push(d.lunarDate);
    if (d.stem && d.branch) s.push(d.stem + (board.lang === "en-US" ? "-" : "") + d.branch);
    s.push(t.age + " " + d.nominalAge);
    if (d.decade) s.push(d.decade);
    return s.join(" · ");
  }
  McpApp.on("result", function (d, raw) {
    app.textContent = "";
    app.className = "";
    if (raw.isError) { app.appendChild(h("p", { "class": "error" }, (raw.content && raw.content[0] && raw.content[0].text) || "error")); return; }
    board = (raw._meta || {})["ziwei/board"];
    if (!board) { app.appendChild(h("p", { "class": "error" }, L["en-US"].nodata)); return; }
    t = L[board.lang] || L["zh-CN"];
    document.documentElement.lang = board.lang;
    var basics = d && d.soulPalace ? d : board.basics || {};
    var period = !(d && d.soulPalace) && d && d.palaces;
    if (period) app.appendChild(h("p", { id: "period", "data-k": "period" }, periodTitle(d)));
    var grid = h("div", { id: "board" });
    cells = [];
    for (var i = 0; i < 12; i++) { cells.push(cell(i)); grid.appendChild(cells[i]); }
    grid.appendChild(centre(basics));
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("id", "lines");
    grid.appendChild(svg);
    app.appendChild(grid);
    app.appendChild(h("ul", { id: "flights" }));
    if (period) overlay(d);
    selected = -1;
  });
  // The lines follow the cells when the host resizes the frame.
  window.addEventListener("resize", function () { if (selected >= 0) select(selected); });
  McpApp.start("ziwei-chart", "1");
})();
