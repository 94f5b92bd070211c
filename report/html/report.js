(function () {
  "use strict";
  var errors = [];
  window.addEventListener("error", function (e) { errors.push(String(e.message || e)); });
  document.addEventListener("securitypolicyviolation", function (e) { errors.push("CSP: " + e.violatedDirective); });

  var data = { parsers: [], outcomes: [], levels: [], areas: [], rows: {} };
  try {
    data = JSON.parse(document.getElementById("report-data").textContent);
  } catch (e) {
    errors.push("data: " + e);
  }

  var sel = {
    parser: document.getElementById("f-parser"),
    outcome: document.getElementById("f-outcome"),
    level: document.getElementById("f-level"),
    area: document.getElementById("f-area")
  };

  function fill(select, values) {
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

  function words(s, sep) {
    return (s || "").split(sep).filter(function (w) { return w !== ""; });
  }
  function show(el, on) {
    if (on) { el.classList.remove("hidden"); } else { el.classList.add("hidden"); }
  }

  // apply shows what the four filters select and returns the number of
  // verdict rows left visible.
  function apply() {
    var p = sel.parser.value, o = sel.outcome.value, l = sel.level.value, a = sel.area.value;
    var rows = 0, checks = 0;
    document.querySelectorAll("article.card:not(.finding)").forEach(function (card) {
      var any = false;
      card.querySelectorAll("div.check").forEach(function (chk) {
        var ok = (!l || chk.dataset.l === l) && (!a || words(chk.dataset.a, /\s+/).indexOf(a) >= 0);
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
    document.querySelectorAll("article.finding").forEach(function (f) {
      show(f, (!p || words(f.dataset.ps, /\s+/).indexOf(p) >= 0) && (!a || words(f.dataset.a, /\s+/).indexOf(a) >= 0) && !o && !l);
    });
    document.querySelectorAll("tr.req").forEach(function (tr) {
      show(tr, (!l || tr.dataset.l === l) && (!a || tr.dataset.a === a));
    });
    document.querySelectorAll(".overview tbody tr").forEach(function (tr) {
      show(tr, !p || tr.dataset.p === p);
    });
    document.getElementById("f-status").textContent = rows + " verdict rows in " + checks + " checks shown";
    return { rows: rows, checks: checks };
  }

  Object.keys(sel).forEach(function (k) { sel[k].addEventListener("change", apply); });
  document.getElementById("f-clear").addEventListener("click", function () {
    Object.keys(sel).forEach(function (k) { sel[k].value = ""; });
    apply();
  });

  document.querySelectorAll("button.copy").forEach(function (b) {
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

  document.getElementById("filters").hidden = false;

  // A fragment "#selftest=parser:NAME,outcome:violation" sets the filters
  // and writes the result into the selftest element, for automated tests
  // of the page in a headless browser.
  var hash = decodeURIComponent(location.hash.replace(/^#/, ""));
  var result = apply();
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
    // The stylesheet sets the body's margin to 0: a blocked stylesheet
    // leaves the browser's 8px.
    if (getComputedStyle(document.body).marginTop !== "0px") { errors.push("stylesheet not applied"); }
    var out = document.getElementById("selftest");
    var expect = sel.parser.value && !sel.outcome.value && !sel.level.value && !sel.area.value ? data.rows[sel.parser.value] || 0 : -1;
    out.textContent = "selftest rows=" + result.rows + " checks=" + result.checks + " expect=" + expect + " errors=" + errors.length + (errors.length ? " " + errors.join(" | ") : "");
    out.hidden = false;
  }
})();
