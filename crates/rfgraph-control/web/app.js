// The page's main loop: picks the flowgraph, draws it, opens the live
// WebSocket (reconnecting when it drops) and routes its messages to the
// graph, the per-core loads and the displays.
"use strict";
(function () {
  let ws = null, describe = null, period = 500, retry = null;
  // How long drawing and live updates take, for the browser test's report.
  RF.perf = { draw_ms: 0, updates: 0, update_ms_total: 0, update_ms_max: 0 };

  function setConn(text, cls) {
    const c = document.getElementById("conn");
    c.textContent = text; c.className = "conn " + (cls || "");
  }

  function cores(list) {
    const card = document.getElementById("cores");
    if (!list || !list.length) { card.hidden = true; return; }
    card.hidden = false;
    const area = document.getElementById("core-area");
    area.replaceChildren(...list.map((c, i) => RF.el("div", { class: "core", "data-core": String(i) },
      RF.el("span", { text: (c.core === null || c.core === undefined ? "worker " + i : "core " + c.core) + ` · ${c.blocks.length} blocks` }),
      RF.el("div", { class: "bar" }, RF.el("div", { style: `width:${Math.min(100, 100 * (c.load || 0)).toFixed(1)}%` })),
      RF.el("span", { text: RF.pct(c.load) }))));
  }

  function onMessage(ev) {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === "stats") {
      const t0 = performance.now();
      RF.graph.update(msg);
      RF.lastStats = msg;
      const dt = performance.now() - t0;
      RF.perf.updates++; RF.perf.update_ms_total += dt; RF.perf.update_ms_max = Math.max(RF.perf.update_ms_max, dt);
      cores(msg.cores);
      document.getElementById("graph-info").textContent =
        `${describe.scheduler} · ${describe.blocks.length} blocks · ${msg.state}`;
      document.body.dataset.state = msg.state;
      document.body.dataset.updates = String((+document.body.dataset.updates || 0) + 1);
    } else if (msg.type === "frame") {
      RF.displays.frame(msg);
    }
  }

  function connect() {
    clearTimeout(retry);
    if (ws) { ws.onclose = null; ws.close(); }
    ws = new WebSocket(RF.wsUrl(`/api/flowgraphs/${encodeURIComponent(RF.fg)}/live?period_ms=${period}&frame_ms=100`));
    ws.onopen = () => setConn("live", "live");
    ws.onmessage = onMessage;
    ws.onclose = () => {
      setConn("disconnected, retrying…", "lost");
      retry = setTimeout(connect, 2000);
    };
  }

  async function load(name) {
    RF.fg = name;
    const q = new URLSearchParams(location.search);
    q.set("fg", name);
    history.replaceState(null, "", "?" + q.toString());
    describe = await RF.api("GET", `/api/flowgraphs/${encodeURIComponent(name)}`);
    document.title = `${name} · rfgraph`;
    RF.panel.close();
    const t0 = performance.now();
    RF.graph.draw(describe, (i) => { RF.graph.select(i); RF.panel.open(describe.blocks[i]); });
    RF.perf = { draw_ms: performance.now() - t0, updates: 0, update_ms_total: 0, update_ms_max: 0 };
    RF.displays.setup(describe);
    RF.readings.setup(describe);
    await RF.widgets.load();
    connect();
  }

  async function main() {
    document.getElementById("panel-close").onclick = () => RF.panel.close();
    document.getElementById("fit").onclick = () => RF.graph.fit();
    document.getElementById("period").onchange = (e) => {
      period = +e.target.value;
      if (ws && ws.readyState === 1) ws.send(JSON.stringify({ period_ms: period })); else connect();
    };
    document.getElementById("stop-graph").onclick = async () => {
      if (!confirm(`Stop flowgraph ${RF.fg}?`)) return;
      try { await RF.api("POST", `/api/flowgraphs/${encodeURIComponent(RF.fg)}/stop`); } catch (e) { RF.showError(e.message); }
    };
    let list;
    try { list = await RF.api("GET", "/api/flowgraphs"); } catch (e) { RF.showError(e.message); setConn("no access", "lost"); return; }
    const sel = document.getElementById("graph-select");
    sel.replaceChildren(...list.map((g) => RF.el("option", { value: g.name, text: g.name })));
    sel.onchange = () => load(sel.value);
    if (!list.length) { setConn("no flowgraph served", "lost"); return; }
    const want = new URLSearchParams(location.search).get("fg");
    const first = list.find((g) => g.name === want) || list[0];
    sel.value = first.name;
    await load(first.name);
  }

  window.addEventListener("resize", () => RF.graph.fit());
  main().catch((e) => RF.showError(e.message || e));
})();
