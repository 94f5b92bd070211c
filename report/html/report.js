(function () {
  "use strict";
  var started = performance.now();
  var errors = [];
  window.addEventListener("error", function (e) { errors.push(String(e.message || e)); });
  document.addEventListener("securitypolicyviolation", function (e) { errors.push("CSP: " + e.violatedDirective); });

  var data = { parsers: [], outcomes: [], levels: [], areas: [], reqs: [], rows: {}, findings: [] };
  try {
    data = JSON.parse(document.getElementById("report-data").textContent);
  } catch (e) {
    errors.push("data: " + e);
  }

  function $(id) { return document.getElementById(id); }
  function all(q) { return Array.prototype.slice.call(document.querySelectorAll(q)); }
  // The filters; a page without a run or without findings lacks some.
  var sel = {
    parser: $("f-parser"), outcome: $("f-outcome"), level: $("f-level"), area: $("f-area"),
    req: $("f-req"), side: $("f-side"), sort: $("f-sort")
  };
  Object.keys(sel).forEach(function (k) { if (!sel[k]) { delete sel[k]; } });
  function val(k) { return sel[k] ? sel[k].value : ""; }

  function fill(select, values) {
    if (!select) { return; }
    (values || []).forEach(function (v) {
      var o = document.createElement("option");
      o.value = v.v;
      o.textContent = v.l;
      o.dataset.n = v.n;
      select.appendChild(o);
    });
  }
  fill(sel.parser, data.parsers);
  fill(sel.outcome, data.outcomes);
  fill(sel.level, data.levels);
  fill(sel.area, data.areas);
  fill(sel.req, data.reqs);

  function words(s) {
    return (s || "").split(/\s+/).filter(function (w) { return w !== ""; });
  }
  function has(list, w) { return words(list).indexOf(w) >= 0; }
  function show(el, on) {
    if (on) { el.classList.remove("hidden"); } else { el.classList.add("hidden"); }
  }

  // applyRun filters the conformance run's sections and returns the
  // number of verdict rows left visible.
  function applyRun() {
    var p = val("parser"), o = val("outcome"), l = val("level"), a = val("area");
    var rows = 0, checks = 0;
    all("article.card:not(.finding)").forEach(function (card) {
      var any = false;
      card.querySelectorAll("div.check").forEach(function (chk) {
        var ok = (!l || chk.dataset.l === l) && (!a || has(chk.dataset.a, a));
        var n = 0;
        chk.querySelectorAll("tr.vrow").forEach(function (tr) {
          var vis = ok && (!p || tr.dataset.p === p) && (!o || tr.dataset.o === o);
          show(tr, vis);
          if (vis) { n++; }
        });
        show(chk, n > 0);
        if (n > 0) { any = true; checks++; rows += n; }
      });
      show(card, any);
    });
    all("tr.req").forEach(function (tr) {
      show(tr, (!l || tr.dataset.l === l) && (!a || tr.dataset.a === a));
    });
    // The parser filter applies to every section: overview rows, chart
    // marks and legend, matrix columns.
    all("[data-p]").forEach(function (el) {
      if (el.classList.contains("vrow") || el.tagName === "OPTION") { return; }
      show(el, !p || el.dataset.p === p);
    });
    return { rows: rows, checks: checks };
  }

  // verdicts reads a class's "KEY=verdict ..." attribute.
  function verdicts(el) {
    var m = {};
    words(el.dataset.v).forEach(function (kv) {
      var i = kv.indexOf("=");
      m[kv.slice(0, i)] = kv.slice(i + 1);
    });
    return m;
  }
  var refKey = "";
  (data.parsers || []).forEach(function (o) { if (o.n === data.ref) { refKey = o.v; } });
  var pair = null; // [keyA, keyB] from a matrix cell

  // keepClass says whether the filters keep a class.
  function keepClass(el) {
    var v = verdicts(el), p = val("parser"), side = val("side");
    if (val("req") && !has(el.dataset.r, val("req"))) { return false; }
    if (val("area") && !has(el.dataset.a, val("area"))) { return false; }
    if (pair && v[pair[0]] === v[pair[1]]) { return false; }
    if (!p) { return true; }
    if (!(p in v)) { return false; }
    if (side === "alone") {
      return Object.keys(v).filter(function (k) { return v[k] === v[p]; }).length === 1;
    }
    if (!refKey || p === refKey) { return side !== "with"; }
    return side === "with" ? v[p] === v[refKey] : v[p] !== v[refKey];
  }

  var sortKeys = { files: "files", probes: "probes", findings: "findings" };
  var sorted = ""; // the order the cards are in; "" is the page's own
  function applyDiff() {
    var list = $("class-list");
    if (!list) { return { classes: 0 }; }
    var cards = all("#class-list > article");
    var s = val("sort");
    if (s !== sorted) {
      // Reorder only when the sort changes: moving every card costs.
      cards.sort(function (a, b) {
        if (sortKeys[s]) { return (+b.dataset[sortKeys[s]]) - (+a.dataset[sortKeys[s]]) || a.dataset.i - b.dataset.i; }
        if (s === "sig") {
          var x = a.querySelector(".sig").textContent, y = b.querySelector(".sig").textContent;
          return x < y ? -1 : x > y ? 1 : a.dataset.i - b.dataset.i;
        }
        return a.dataset.i - b.dataset.i;
      });
      cards.forEach(function (c) { list.appendChild(c); });
      sorted = s;
    }
    var n = 0;
    cards.forEach(function (c) {
      var on = keepClass(c);
      show(c, on);
      if (on) { n++; }
    });
    var st = n + " of " + cards.length + " classes shown";
    if (pair) { st += " (the pair " + label(pair[0]) + " / " + label(pair[1]) + ")"; }
    $("c-status").textContent = st;
    return { classes: n };
  }
  function label(key) {
    var l = key;
    (data.parsers || []).forEach(function (o) { if (o.v === key) { l = o.l; } });
    return l;
  }

  function apply() {
    var r = applyRun(), d = applyDiff();
    var st = [];
    if (sel.outcome) { st.push(r.rows + " verdict rows in " + r.checks + " checks"); }
    if ($("class-list")) { st.push(d.classes + " classes"); }
    $("f-status").textContent = st.join(", ") + " shown";
    return { rows: r.rows, checks: r.checks, classes: d.classes };
  }

  // The filter state lives in the fragment: #parser=1&area=2&pair=0.3.
  // A fragment naming an element (a class's permalink, a section) is
  // left to the browser and clears the filters, so that it shows.
  function writeState() {
    var parts = [];
    Object.keys(sel).forEach(function (k) { if (sel[k].value) { parts.push(k + "=" + encodeURIComponent(sel[k].value)); } });
    if (pair) { parts.push("pair=" + pair[0] + "." + pair[1]); }
    history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname + location.search);
  }
  function readState() {
    var h = location.hash.replace(/^#/, "");
    if (h.indexOf("=") < 0 || h.indexOf("selftest=") === 0) {
      if (h && document.getElementById(h)) {
        Object.keys(sel).forEach(function (k) { sel[k].value = ""; });
        pair = null;
      }
      return false;
    }
    Object.keys(sel).forEach(function (k) { sel[k].value = ""; });
    pair = null;
    h.split("&").forEach(function (kv) {
      var i = kv.indexOf("=");
      var k = kv.slice(0, i), v = decodeURIComponent(kv.slice(i + 1));
      if (k === "pair") {
        var ab = v.split(".");
        if (ab.length === 2) { pair = ab; }
      } else if (sel[k]) {
        sel[k].value = v;
        if (sel[k].value !== v) { errors.push("no " + k + " option " + v); }
      }
    });
    return true;
  }

  Object.keys(sel).forEach(function (k) {
    sel[k].addEventListener("change", function () { apply(); writeState(); });
  });
  $("f-clear").addEventListener("click", function () {
    Object.keys(sel).forEach(function (k) { sel[k].value = ""; });
    pair = null;
    apply();
    writeState();
  });
  window.addEventListener("hashchange", function () {
    if (readState()) {
      apply();
      if (pair && $("classes")) { $("classes").scrollIntoView(); }
    }
  });

  all("button.copy").forEach(function (b) {
    b.addEventListener("click", function () {
      var code = b.parentNode.querySelector("code.id");
      var id = code ? code.textContent : "";
      var done = function () { b.textContent = "copied"; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(id).then(done, function () { b.textContent = id; });
      } else {
        b.textContent = id;
      }
    });
  });

  // Downloads: the findings of the classes shown, as JSON lines (the
  // findings format, with the class) or CSV, made in the page.
  function shownRows() {
    var shown = {};
    all("#class-list > article").forEach(function (c) { if (!c.classList.contains("hidden")) { shown[c.id] = true; } });
    return (data.findings || []).filter(function (f) { return shown[f["class"]]; });
  }
  function save(name, type, text) {
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: type }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 0);
  }
  function csvCell(s) {
    s = String(s == null ? "" : s);
    return /[",\r\n]/.test(s) ? "\"" + s.replace(/"/g, "\"\"") + "\"" : s;
  }
  function toCSV(rows) {
    var names = (data.parsers || []).map(function (o) { return o.n; });
    var head = ["class", "signature", "primary", "req", "profile", "agent", "url", "probes", "sources", "trace", "robots_b64"].concat(names);
    var out = [head.map(csvCell).join(",")];
    rows.forEach(function (f) {
      var r = [f["class"], f.signature, (f.req || [])[0] || "", (f.req || []).join(" "), f.profile, f.agent, f.url, f.probes,
        (f.sources || []).join(" "), f.trace, f.robots_b64];
      names.forEach(function (n) { r.push((f.verdicts || {})[n] || ""); });
      out.push(r.map(csvCell).join(","));
    });
    return out.join("\r\n") + "\r\n";
  }
  if ($("dl-jsonl")) {
    $("dl-jsonl").addEventListener("click", function () {
      save("findings.jsonl", "application/x-ndjson", shownRows().map(function (f) { return JSON.stringify(f); }).join("\n") + "\n");
    });
    $("dl-csv").addEventListener("click", function () { save("findings.csv", "text/csv", toCSV(shownRows())); });
  }

  $("filters").hidden = false;
  readState();
  var result = apply();

  // A fragment "#selftest=parser:NAME,outcome:violation" sets the filters
  // and writes the result into the selftest element, for automated tests
  // of the page in a headless browser.
  var hash = decodeURIComponent(location.hash.replace(/^#/, ""));
  var out = $("selftest");
  if (hash.indexOf("selftest=") === 0) {
    hash.slice("selftest=".length).split(",").forEach(function (kv) {
      var i = kv.indexOf(":");
      if (i < 0) { return; }
      var k = kv.slice(0, i), v = kv.slice(i + 1);
      if (sel[k]) {
        // Match an option by its value or its label.
        var found = Array.prototype.filter.call(sel[k].options, function (op) {
          return op.value === v || op.textContent === v || op.dataset.n === v;
        });
        if (found.length === 0) { errors.push("no " + k + " option " + v); return; }
        sel[k].value = found[0].value;
      }
    });
    result = apply();
    var expect = sel.parser && sel.parser.value && !val("outcome") && !val("level") && !val("area") ? data.rows[sel.parser.value] || 0 : -1;
    out.textContent = "selftest rows=" + result.rows + " checks=" + result.checks + " expect=" + expect;
  }
  // The state of the page, for tests in a headless browser: the classes
  // shown and the errors seen (a blocked stylesheet leaves the browser's
  // 8px body margin, which the stylesheet sets to 0).
  if (getComputedStyle(document.body).marginTop !== "0px") { errors.push("stylesheet not applied"); }
  out.dataset.classes = String(result.classes);
  out.dataset.parsed = String(Math.round(started));
  out.dataset.ready = String(Math.round(performance.now()));
  out.dataset.errors = String(errors.length);
  if (hash.indexOf("selftest=") === 0) {
    out.textContent += " errors=" + errors.length + (errors.length ? " " + errors.join(" | ") : "");
    out.hidden = false;
  }
})();
