// evalgate HTML report: draws the per-item stacked bars and the item table from the
// embedded data, with filters (tag, newly failing, failing, id) and sorting; a click on a
// row opens its full texts and per-dimension reasons beneath it. Every text from the
// suite or the outputs goes through esc() or textContent.
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("data").textContent);
  var n = D.id.length;
  var PAGE = 100;
  var overviewWidth = 0; // measured once, and on resize: reading it forces a layout
  var GUTTER = 34; // the overview's left margin, for its score axis
  var state = { tag: "", newly: false, failing: false, text: "", sort: "suite", page: 0 };
  var view = [];
  var open = {}; // the items whose details are shown

  function esc(s) {
    return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  }
  function color(d) { return D.colors[d]; }

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

  // The row's details: the full prompt, expected answer, output and reason, and each
  // dimension's weight, weighted value and reason.
  function detail(i) {
    var cut = D.cut[i], h = '<tr class="detail" id="d-' + i + '"><td colspan="10"><div class="full">';
    var texts = [["Prompt", D.prompt[i], 1], ["Expected", D.expected[i], 2], ["Got", D.got[i], 4]];
    texts.forEach(function (t) {
      h += "<h4>" + t[0] + "</h4><pre>" + (t[1] === "" ? "<i>(empty)</i>" : esc(t[1])) + "</pre>";
      if (cut & t[2]) h += '<p class="cut">cut at ' + D.limit + " characters: the JSON report has the whole text</p>";
    });
    if (D.why[i]) h += "<h4>Why</h4><p>" + esc(D.why[i]) + "</p>";
    h += '<table class="dims"><thead><tr><th>Dimension</th><th>Weight</th><th>Weighted</th><th>Reason</th></tr></thead><tbody>';
    for (var d = 0; d < D.dims.length; d++) {
      var note = D.notes[i] ? D.notes[i][d] : "";
      h += '<tr><td><span class="sw" style="background:' + color(d) + '"></span>' + esc(D.dims[d]) + "</td><td>" + D.weights[d] +
        "</td><td>" + D.weighted[i][d].toFixed(3) + "</td><td>" + esc(note) + "</td></tr>";
    }
    return h + "</tbody></table></div></td></tr>";
  }

  // toggle opens or closes item i's details under its row tr.
  function toggle(tr) {
    var i = +tr.getAttribute("data-i"), next = tr.nextElementSibling;
    if (open[i]) {
      delete open[i];
      if (next && next.classList.contains("detail")) next.remove();
    } else {
      open[i] = true;
      tr.insertAdjacentHTML("afterend", detail(i));
    }
    tr.classList.toggle("open", !!open[i]);
    var btn = tr.querySelector("button.expand");
    btn.setAttribute("aria-expanded", open[i] ? "true" : "false");
    btn.textContent = open[i] ? "▾" : "▸";
  }

  function row(i) {
    var st = D.status[i], stText = st === 1 ? "pass" : st === 2 ? "pending" : "fail";
    var cls = st === 1 ? "st-pass" : st === 2 ? "st-pending" : "st-fail";
    var flag = D.flag[i] === 1 ? '<span class="flag newly">newly failing</span>' : D.flag[i] === 2 ? '<span class="flag fixed">newly passing</span>' : "";
    var tags = D.tagIdx[i].map(function (t) { return esc(D.tags[t]); }).join(", ");
    var base = D.base[i] === null ? "" : D.base[i].toFixed(3);
    var o = !!open[i];
    return '<tr class="item' + (o ? " open" : "") + '" data-i="' + i + '"><td class="bar"><button type="button" class="expand" aria-expanded="' + o +
      '" aria-controls="d-' + i + '" title="show the full texts">' + (o ? "▾" : "▸") + "</button>" + stack(i) + "</td><td>" + esc(D.id[i]) + "</td><td>" + tags +
      "</td><td>" + D.score[i].toFixed(3) + "</td><td>" + base + '</td><td class="' + cls + '">' + stText + flag +
      '</td><td title="' + esc(D.prompt[i]) + '">' + esc(D.prompt[i]) + '</td><td title="' + esc(D.expected[i]) + '">' + esc(D.expected[i]) +
      '</td><td title="' + esc(D.got[i]) + '">' + esc(D.got[i]) + "</td><td>" + esc(D.why[i]) + "</td></tr>" + (o ? detail(i) : "");
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
    var full = overviewWidth, top = 6, height = c.height - top, width = Math.max(1, full - GUTTER);
    c.width = full;
    var ctx = c.getContext("2d");
    ctx.clearRect(0, 0, full, c.height);
    // The score axis: 0, 0.5 and 1, with faint rules across.
    ctx.font = "10px sans-serif";
    ctx.textBaseline = "middle";
    [0, 0.5, 1].forEach(function (v) {
      var y = top + height - v * height;
      ctx.fillStyle = "#59636e";
      ctx.fillText(v.toFixed(1), 4, Math.min(Math.max(y, 6), c.height - 6));
      ctx.fillStyle = "#eaeef2";
      ctx.fillRect(GUTTER, Math.round(y) - (v === 0 ? 1 : 0), width, 1);
    });
    var m = view.length;
    var cap = document.getElementById("overview-caption");
    if (m === 0) { cap.textContent = "No item matches the filters."; return; }
    var cols = Math.min(m, width), bw = width / cols, nd = D.dims.length;
    cap.textContent = "Each column is " + (cols < m ? "the mean of about " + Math.round(m / cols) + " items" : "one item") +
      ", in the table's order (" + m + " items): its height is the score, 0 to 1, split into each dimension's weighted part.";
    for (var col = 0; col < cols; col++) {
      var a = Math.floor(col * m / cols), b = Math.max(a + 1, Math.floor((col + 1) * m / cols));
      var y = top + height;
      for (var d = 0; d < nd; d++) {
        var s = 0;
        for (var k = a; k < b; k++) s += D.weighted[view[k]][d];
        var hgt = (s / (b - a)) * height;
        if (hgt <= 0) continue;
        ctx.fillStyle = color(d);
        ctx.fillRect(GUTTER + col * bw, y - hgt, Math.max(1, bw - (bw > 3 ? 1 : 0)), hgt);
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
  document.getElementById("rows").addEventListener("click", function (e) {
    var tr = e.target.closest("tr.item");
    if (tr) toggle(tr);
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
