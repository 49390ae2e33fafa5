// evalgate HTML report: draws the per-item stacked bars and the item table from the
// embedded data, with filters (tag, newly failing, failing, id) and sorting. Every text
// from the suite or the outputs goes through esc() or textContent.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var n = D.id.length;
  var PAGE = 100;
  var overviewWidth = 0; // measured once, and on resize: reading it forces a layout
  var colors = ["#0969da", "#1a7f37", "#bf8700", "#8250df", "#cf222e", "#1b7c83", "#bc4c00", "#6e7781", "#4b6ff0", "#e16f24"];
  var state = { tag: "", newly: false, failing: false, text: "", sort: "suite", page: 0 };
  var view = [];

  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }
  function color(d) { return colors[d % colors.length]; }

  function filter() {
    var out = [];
    var tag = state.tag === "" ? -1 : +state.tag;
    var text = state.text.toLowerCase();
    for (var i = 0; i < n; i++) {
      if (tag >= 0 && D.tagIdx[i].indexOf(tag) < 0) continue;
      if (state.newly && D.flag[i] !== 1) continue;
      if (state.failing && D.status[i] !== 0) continue;
      if (text && D.id[i].toLowerCase().indexOf(text) < 0) continue;
      out.push(i);
    }
    var s = state.sort;
    if (s === "score-asc") out.sort(function (a, b) { return D.score[a] - D.score[b] || a - b; });
    else if (s === "score-desc") out.sort(function (a, b) { return D.score[b] - D.score[a] || a - b; });
    else if (s === "id") out.sort(function (a, b) { return D.id[a] < D.id[b] ? -1 : D.id[a] > D.id[b] ? 1 : 0; });
    else if (s === "drop") out.sort(function (a, b) { return drop(b) - drop(a) || a - b; });
    return out;
  }
  function drop(i) { return D.base[i] === null ? -Infinity : D.base[i] - D.score[i]; }

  function stack(i) {
    var w = D.weighted[i], h = "";
    for (var d = 0; d < w.length; d++) {
      if (w[d] > 0) h += '<span style="width:' + (100 * w[d]).toFixed(1) + "%;background:" + color(d) + '" title="' + esc(D.dims[d]) + " " + w[d] + '"></span>';
    }
    return '<div class="stack">' + h + "</div>";
  }

  function row(i) {
    var st = D.status[i], stText = st === 1 ? "pass" : st === 2 ? "pending" : "fail";
    var cls = st === 1 ? "st-pass" : st === 2 ? "st-pending" : "st-fail";
    var flag = D.flag[i] === 1 ? '<span class="flag newly">newly failing</span>' : D.flag[i] === 2 ? '<span class="flag fixed">newly passing</span>' : "";
    var tags = D.tagIdx[i].map(function (t) { return esc(D.tags[t]); }).join(", ");
    var base = D.base[i] === null ? "" : D.base[i].toFixed(3);
    return '<tr data-i="' + i + '"><td class="bar">' + stack(i) + "</td><td>" + esc(D.id[i]) + "</td><td>" + tags +
      "</td><td>" + D.score[i].toFixed(3) + "</td><td>" + base + '</td><td class="' + cls + '">' + stText + flag +
      '</td><td title="' + esc(D.prompt[i]) + '">' + esc(D.prompt[i]) + '</td><td title="' + esc(D.expected[i]) + '">' + esc(D.expected[i]) +
      '</td><td title="' + esc(D.got[i]) + '">' + esc(D.got[i]) + "</td><td>" + esc(D.why[i]) + "</td></tr>";
  }

  function drawRows() {
    var start = state.page * PAGE, end = Math.min(view.length, start + PAGE), h = [];
    for (var k = start; k < end; k++) h.push(row(view[k]));
    document.getElementById("rows").innerHTML = h.join("");
    var pages = Math.max(1, Math.ceil(view.length / PAGE));
    document.getElementById("page").textContent = "page " + (state.page + 1) + " of " + pages;
    document.getElementById("prev").disabled = state.page === 0;
    document.getElementById("next").disabled = state.page >= pages - 1;
    document.getElementById("count").textContent = view.length + " of " + n + " items";
  }

  // The dashboard view: one stacked column of weighted sub-scores per item, in the
  // current order; with more items than pixels, each column is the mean of its items.
  function drawOverview() {
    var c = document.getElementById("overview");
    if (!overviewWidth) overviewWidth = Math.max(1, c.clientWidth || 800);
    var width = overviewWidth, height = c.height;
    c.width = width;
    var ctx = c.getContext("2d");
    ctx.clearRect(0, 0, width, height);
    var m = view.length;
    if (m === 0) return;
    var cols = Math.min(m, width), bw = width / cols, nd = D.dims.length;
    for (var col = 0; col < cols; col++) {
      var a = Math.floor(col * m / cols), b = Math.max(a + 1, Math.floor((col + 1) * m / cols));
      var y = height;
      for (var d = 0; d < nd; d++) {
        var s = 0;
        for (var k = a; k < b; k++) s += D.weighted[view[k]][d];
        var hgt = (s / (b - a)) * height;
        if (hgt <= 0) continue;
        ctx.fillStyle = color(d);
        ctx.fillRect(col * bw, y - hgt, Math.max(1, bw - (bw > 3 ? 1 : 0)), hgt);
        y -= hgt;
      }
    }
  }

  function render() {
    var t0 = performance.now();
    view = filter();
    if (state.page * PAGE >= view.length) state.page = 0;
    drawRows();
    drawOverview();
    void document.body.offsetHeight; // count the layout of the new rows in the time
    window.evalgateReport.lastRenderMs = performance.now() - t0;
    window.evalgateReport.rows = document.getElementById("rows").children.length;
    window.evalgateReport.shown = view.length;
  }

  window.evalgateReport = { items: n, render: render, state: state };

  var sel = document.getElementById("f-tag");
  D.tags.forEach(function (t, i) {
    var o = document.createElement("option");
    o.value = String(i);
    o.textContent = t;
    sel.appendChild(o);
  });
  var legend = document.getElementById("legend");
  D.dims.forEach(function (d, i) {
    var s = document.createElement("span");
    var sw = document.createElement("span");
    sw.className = "sw";
    sw.style.background = color(i);
    s.appendChild(sw);
    s.appendChild(document.createTextNode(d + " (weight " + D.weights[i] + ")"));
    legend.appendChild(s);
  });
  sel.addEventListener("change", function () { state.tag = sel.value; state.page = 0; render(); });
  document.getElementById("f-newly").addEventListener("change", function (e) { state.newly = e.target.checked; state.page = 0; render(); });
  document.getElementById("f-failing").addEventListener("change", function (e) { state.failing = e.target.checked; state.page = 0; render(); });
  document.getElementById("f-text").addEventListener("input", function (e) { state.text = e.target.value; state.page = 0; render(); });
  var sortSel = document.getElementById("f-sort");
  sortSel.addEventListener("change", function () { state.sort = sortSel.value; render(); });
  Array.prototype.forEach.call(document.querySelectorAll("th[data-sort]"), function (th) {
    th.addEventListener("click", function () {
      var k = th.getAttribute("data-sort");
      state.sort = k === "id" ? "id" : state.sort === "score-asc" ? "score-desc" : "score-asc";
      sortSel.value = state.sort;
      render();
    });
  });
  document.getElementById("prev").addEventListener("click", function () { state.page--; drawRows(); });
  document.getElementById("next").addEventListener("click", function () { state.page++; drawRows(); });
  window.addEventListener("resize", function () { overviewWidth = 0; drawOverview(); });
  render();
  window.evalgateReport.firstRenderAt = performance.now();
})();
