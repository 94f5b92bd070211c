// Measures how long a page takes to open in headless Chromium:
//
//	node --experimental-websocket scripts/pageload.mjs PAGE.html [RUNS]
//
// Per run it prints the main thread's CPU time up to the load event
// (DevTools Performance.getMetrics in thread ticks: all tasks, script,
// layout, style), which a loaded machine disturbs little, and the
// wall-clock marks of the page's own script (data-parsed, data-ready);
// then the medians. The README's page-open figures come from it.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const page = "file://" + resolve(process.argv[2]);
const runs = +(process.argv[3] || 5);

async function once() {
  const dir = mkdtempSync(join(tmpdir(), "pl-"));
  const chrome = spawn("chromium", ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--user-data-dir=" + dir,
    "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1", "--window-size=1280,900", "about:blank"],
    { stdio: ["ignore", "ignore", "pipe"] });
  try {
    const port = await new Promise((ok, fail) => {
      let buf = "";
      const t = setTimeout(() => fail(new Error("no DevTools port")), 120000);
      chrome.stderr.on("data", (d) => {
        buf += d;
        const m = buf.match(/DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//);
        if (m) { clearTimeout(t); ok(m[1]); }
      });
    });
    const list = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    const ws = new WebSocket(list.find((x) => x.type === "page").webSocketDebuggerUrl);
    await new Promise((ok) => ws.addEventListener("open", ok));
    let id = 0;
    const pending = new Map(), waiters = [];
    ws.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.id && pending.has(m.id)) { pending.get(m.id)(m.result); pending.delete(m.id); }
      if (m.method) { waiters.filter((w) => w.method === m.method).forEach((w) => w.ok(m.params)); }
    });
    const send = (method, params = {}) => new Promise((ok) => { id++; pending.set(id, ok); ws.send(JSON.stringify({ id, method, params })); });
    const event = (method) => new Promise((ok) => waiters.push({ method, ok }));
    await send("Page.enable");
    await send("Performance.enable", { timeDomain: "threadTicks" });
    const loaded = event("Page.loadEventFired");
    await send("Page.navigate", { url: page });
    await loaded;
    const metrics = Object.fromEntries((await send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
    const r = await send("Runtime.evaluate", { returnByValue: true, expression:
      `(() => { const n = performance.getEntriesByType("navigation")[0], s = document.getElementById("selftest");
        return { ready: s ? +s.dataset.ready : -1, parsed: s ? +s.dataset.parsed : -1, dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd,
          classes: document.querySelectorAll("#class-list > article").length, bytes: document.documentElement.outerHTML.length }; })()` });
    ws.close();
    const ms = (k) => Math.round(1000 * (metrics[k] || 0));
    return { cpuTask: ms("TaskDuration"), cpuScript: ms("ScriptDuration"), cpuLayout: ms("LayoutDuration"), cpuStyle: ms("RecalcStyleDuration"), ...r.result.value };
  } finally {
    chrome.kill();
    await new Promise((ok) => chrome.on("exit", ok));
    rmSync(dir, { recursive: true, force: true });
  }
}

const all = [];
for (let i = 0; i < runs; i++) { const r = await once(); all.push(r); console.log(JSON.stringify(r)); }
const med = (k) => { const v = all.map((r) => r[k]).sort((a, b) => a - b); return v[v.length >> 1]; };
console.log("median", JSON.stringify(Object.fromEntries(["cpuTask", "cpuScript", "cpuLayout", "cpuStyle", "parsed", "ready", "dcl", "load"].map((k) => [k, Math.round(med(k))]))));
