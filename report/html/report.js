(function () {
  "use strict";
  var started = performance.now();
  var errors = [];
  window.addEventListener("error", function (e) { errors.push(String(e.message || e)); });
  document.addEventListener("securitypolicyviolation", function (e) { errors.push("CSP: " + e.violatedDirective); });

  var data = { parsers: [], outcomes: [], levels: [], areas: [], reqs: [], rows: {}, classes: [] };
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
    // Crawler runs (article.crawlrun) have no checks to filter: only the
    // parser filter below applies to them.
    all("article.card:not(.finding):not(.crawlrun)").forEach(function (card) {
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

  // The classes: data.classes holds each class's answers to the filters,
  // in the page's order. The page builds the first few classes; the
  // others wait in templates until they come into view (or a filter, a
  // permalink or a download needs them), so that a run of thousands of
  // findings opens at once.
  var classes = data.classes || [];
  var refKey = "";
  (data.parsers || []).forEach(function (o) { if (o.n === data.ref) { refKey = o.v; } });
  var pair = null; // [keyA, keyB] from a matrix cell
  var step = 25, limit = step; // classes built per screenful, classes to show
  var kept = []; // the classes the filters keep, in the order shown
  var built = {}, waiting = {};
  all("#class-list > article").forEach(function (el) { built[el.id] = el; });
  all("#class-list > template").forEach(function (t) { waiting[t.dataset.c] = t; });
  function build(id) {
    if (!built[id] && waiting[id]) {
      built[id] = waiting[id].content.firstElementChild;
      waiting[id].remove();
      delete waiting[id];
    }
    return built[id];
  }

  var sides = { "": "d", "with": "w", "alone": "s" };
  // keepClass says whether the filters keep a class.
  function keepClass(c) {
    var p = val("parser");
    if (val("req") && c.r.indexOf(val("req")) < 0) { return false; }
    if (val("area") && c.a.indexOf(val("area")) < 0) { return false; }
    if (pair && c.v[pair[0]] === c.v[pair[1]]) { return false; }
    return !p || c[sides[val("side")] || "d"].indexOf(p) >= 0;
  }

  var sortKeys = { files: "files", probes: "probes", findings: "findings", sig: "sig" };
  function applyDiff() {
    var list = $("class-list");
    if (!list) { return { classes: 0 }; }
    var k = sortKeys[val("sort")];
    kept = classes.map(function (c, i) { return i; }).filter(function (i) { return keepClass(classes[i]); });
    if (k) {
      kept.sort(function (a, b) {
        var d = k === "sig" ? classes[a].sig - classes[b].sig : classes[b][k] - classes[a][k];
        return d || a - b;
      });
    }
    // Show the first `limit` kept classes in order; hide every other
    // built one. Only elements out of place move.
    var els = kept.slice(0, limit).map(function (i) { return build(classes[i].id); });
    var want = {}, at = list.firstElementChild;
    els.forEach(function (el) {
      want[el.id] = true;
      show(el, true);
      if (el !== at) { list.insertBefore(el, at); } else { at = at.nextElementSibling; }
    });
    Object.keys(built).forEach(function (id) { if (!want[id]) { show(built[id], false); } });
    var n = Math.min(limit, kept.length);
    var st = kept.length + " of " + classes.length + " classes match";
    if (pair) { st += " (the pair " + label(pair[0]) + " / " + label(pair[1]) + ")"; }
    if (n < kept.length) { st += "; the first " + n + " shown, more as you scroll"; }
    $("c-status").textContent = st;
    $("c-more").hidden = n >= kept.length;
    return { classes: kept.length };
  }
  function more() {
    if (limit < kept.length) {
      limit += step;
      applyDiff();
    }
  }
  if ($("c-more")) {
    $("c-more-btn").addEventListener("click", more);
    if (window.IntersectionObserver) {
      // Observing anew after each step checks again whether the end of
      // the list is still in view (short classes).
      var io = new IntersectionObserver(function (es) {
        if (es.some(function (e) { return e.isIntersecting; }) && limit < kept.length) {
          more();
          io.unobserve($("c-more"));
          io.observe($("c-more"));
        }
      }, { rootMargin: "800px" });
      io.observe($("c-more"));
    }
  }
  // reveal shows the class a permalink names, building the classes up
  // to it; the browser scrolls by itself only to a class built when the
  // page opened.
  function reveal(id, initial) {
    var at = kept.findIndex(function (i) { return classes[i].id === id; });
    if (at < 0 || (initial && built[id] && at < limit)) { return; }
    if (at >= limit) {
      limit = at + 1;
      applyDiff();
    }
    all(".class-card.target").forEach(function (el) { el.classList.remove("target"); });
    $(id).classList.add("target");
    $(id).scrollIntoView();
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
    if (sel.outcome) { st[0] += " shown"; }
    if ($("class-list")) { st.push(d.classes + " classes match"); }
    $("f-status").textContent = st.join(", ");
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
  function clearState() {
    Object.keys(sel).forEach(function (k) { sel[k].value = ""; });
    pair = null;
    limit = step;
  }
  // readState reads the fragment: "filters" for a filter state, "target"
  // for an element's or a class's id (which clears the filters), or "".
  function readState() {
    var h = location.hash.replace(/^#/, "");
    if (h.indexOf("=") < 0 || h.indexOf("selftest=") === 0) {
      if (h && (document.getElementById(h) || waiting[h])) {
        clearState();
        return "target";
      }
      return "";
    }
    clearState();
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
    return "filters";
  }
  // follow applies the fragment: a filter link from the matrix or the
  // area table leads to the classes; a class's permalink builds it.
  function follow(state) {
    if (!state) { return; }
    apply();
    if (state === "target") {
      reveal(location.hash.slice(1), false);
    } else if ((pair || val("area")) && $("classes")) {
      $("classes").scrollIntoView();
    }
  }

  Object.keys(sel).forEach(function (k) {
    sel[k].addEventListener("change", function () { limit = step; apply(); writeState(); });
  });
  $("f-clear").addEventListener("click", function () {
    clearState();
    apply();
    writeState();
  });
  window.addEventListener("hashchange", function () { follow(readState()); });

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

  // Downloads: the findings of the classes the filters keep (built or
  // not), as JSON lines (the findings format, with the class) or CSV,
  // made in the page from a data block read only then.
  var findings = null;
  function shownRows() {
    if (!findings) {
      findings = JSON.parse($("findings-data").textContent);
    }
    var shown = {};
    kept.forEach(function (i) { shown[classes[i].id] = true; });
    return findings.filter(function (f) { return shown[f["class"]]; });
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
  var state = readState();
  var result = apply();
  if (state === "target") { reveal(location.hash.slice(1), true); }

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
  // The layout, for the same tests: the first section shown, which form
  // of the behaviours table shows (the table on a wide screen, a list per
  // parser on a narrow one), how many of its examples show, and whether anything makes the page wider
  // than the window.
  var firstShown = Array.prototype.filter.call(document.querySelectorAll("main > section"), function (s) { return s.offsetHeight > 0; })[0];
  var shows = function (q) { var el = document.querySelector(q); return el && el.offsetParent !== null ? 1 : 0; };
  var examples = Array.prototype.filter.call(document.querySelectorAll(".bx"), function (el) { return el.offsetParent !== null; }).length;
  out.dataset.layout = "first=" + (firstShown ? firstShown.id : "") + " table=" + shows(".bt-wide") + " list=" + shows(".bt-narrow") +
    " examples=" + examples + " overflow=" + (document.documentElement.scrollWidth > window.innerWidth ? 1 : 0);
  if (hash.indexOf("selftest=") === 0) {
    out.textContent += " errors=" + errors.length + (errors.length ? " " + errors.join(" | ") : "");
    out.hidden = false;
  }
})();
