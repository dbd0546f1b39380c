// The flowgraph drawn as an SVG: a left-to-right layered layout computed
// once, then live updates that only touch text and attributes (so a graph
// of hundreds of blocks stays cheap to refresh), with pan and zoom.
"use strict";
RF.graph = (function () {
  const W = 176, H = 70, GAP_X = 70, GAP_Y = 18;
  let svg, root, nodes = [], edgesEl = [], describe = null, view = { x: 0, y: 0, k: 1 }, bounds = null;

  /** Layers by longest path over stream and message edges (cycles broken). */
  function layers(n, edges) {
    const succ = Array.from({ length: n }, () => []);
    const indeg = new Array(n).fill(0);
    for (const [a, b] of edges) if (a !== b) { succ[a].push(b); indeg[b]++; }
    const layer = new Array(n).fill(0);
    const queue = [];
    for (let i = 0; i < n; i++) if (indeg[i] === 0) queue.push(i);
    const seen = new Array(n).fill(false);
    let head = 0;
    for (;;) {
      while (head < queue.length) {
        const a = queue[head++];
        seen[a] = true;
        for (const b of succ[a]) {
          layer[b] = Math.max(layer[b], layer[a] + 1);
          if (--indeg[b] === 0) queue.push(b);
        }
      }
      // A cycle: start again from its unseen node with the fewest open inputs.
      let pick = -1;
      for (let i = 0; i < n; i++) if (!seen[i] && !queue.includes(i) && (pick < 0 || indeg[i] < indeg[pick])) pick = i;
      if (pick < 0) break;
      indeg[pick] = 0;
      queue.push(pick);
    }
    return layer;
  }

  /** Orders each layer by the mean position of its neighbours (a few sweeps). */
  function order(n, layer, edges) {
    const maxL = Math.max(0, ...layer);
    const cols = Array.from({ length: maxL + 1 }, () => []);
    for (let i = 0; i < n; i++) cols[layer[i]].push(i);
    const pos = new Array(n).fill(0);
    const pred = Array.from({ length: n }, () => []), succ = Array.from({ length: n }, () => []);
    for (const [a, b] of edges) { pred[b].push(a); succ[a].push(b); }
    const place = () => cols.forEach((c) => c.forEach((v, i) => { pos[v] = i; }));
    place();
    const mean = (list, v) => list.length ? list.reduce((s, u) => s + pos[u], 0) / list.length : pos[v];
    for (let sweep = 0; sweep < 4; sweep++) {
      const down = sweep % 2 === 0;
      const seq = down ? cols.slice(1) : cols.slice(0, -1).reverse();
      for (const c of seq) {
        const key = new Map(c.map((v) => [v, mean(down ? pred[v] : succ[v], v)]));
        c.sort((a, b) => key.get(a) - key.get(b));
        c.forEach((v, i) => { pos[v] = i; });
      }
    }
    return cols;
  }

  function edgePath(x1, y1, x2, y2) {
    const dx = Math.max(30, Math.abs(x2 - x1) / 2);
    return `M${x1},${y1} C${x1 + dx},${y1} ${x2 - dx},${y2} ${x2},${y2}`;
  }

  function applyView() {
    root.setAttribute("transform", `translate(${view.x},${view.y}) scale(${view.k})`);
  }

  function fit() {
    if (!bounds) return;
    const r = svg.getBoundingClientRect();
    const k = Math.min(1, (r.width - 20) / bounds.w, (r.height - 20) / bounds.h);
    view = { k, x: (r.width - bounds.w * k) / 2, y: (r.height - bounds.h * k) / 2 };
    applyView();
  }

  function installPanZoom() {
    let drag = null;
    svg.addEventListener("mousedown", (e) => { drag = { x: e.clientX - view.x, y: e.clientY - view.y, moved: false }; });
    window.addEventListener("mousemove", (e) => {
      if (!drag) return;
      view.x = e.clientX - drag.x; view.y = e.clientY - drag.y; drag.moved = true; applyView();
    });
    window.addEventListener("mouseup", () => { setTimeout(() => { drag = null; }, 0); });
    svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      const r = svg.getBoundingClientRect();
      const mx = e.clientX - r.left, my = e.clientY - r.top;
      const f = Math.exp(-e.deltaY * 0.0015);
      const k = Math.min(4, Math.max(0.1, view.k * f));
      view.x = mx - (mx - view.x) * (k / view.k);
      view.y = my - (my - view.y) * (k / view.k);
      view.k = k;
      applyView();
    }, { passive: false });
    RF.graph.dragging = () => drag && drag.moved;
  }

  /** Draws the graph `d` (the flowgraph JSON); `onSelect(i)` on a click. */
  function draw(d, onSelect) {
    describe = d;
    svg = document.getElementById("graph");
    svg.replaceChildren();
    root = RF.svg("g");
    svg.append(root);
    const n = d.blocks.length;
    const all = d.streams.map((e) => [e.writer, e.reader]).concat(d.messages.map((e) => [e.writer, e.reader]));
    const layer = layers(n, all);
    const cols = order(n, layer, all);
    const xy = new Array(n);
    const tallest = Math.max(1, ...cols.map((c) => c.length));
    cols.forEach((c, li) => {
      const off = (tallest - c.length) * (H + GAP_Y) / 2;
      c.forEach((v, i) => { xy[v] = [li * (W + GAP_X), off + i * (H + GAP_Y)]; });
    });
    bounds = { w: cols.length * (W + GAP_X) - GAP_X, h: tallest * (H + GAP_Y) - GAP_Y };
    document.getElementById("graph-wrap").style.height =
      Math.round(Math.min(window.innerHeight * 0.7, Math.max(200, bounds.h + 60))) + "px";
    const edgeLayer = RF.svg("g");
    root.append(edgeLayer);
    const portY = (i, list, name) => {
      const k = Math.max(0, list.indexOf(name));
      return i[1] + H * (k + 1) / (list.length + 1);
    };
    edgesEl = d.streams.map((e) => {
      const a = xy[e.writer], b = xy[e.reader];
      const ow = d.blocks[e.writer].outputs.map((p) => p.name), ir = d.blocks[e.reader].inputs.map((p) => p.name);
      const p = RF.svg("path", { class: "edge", d: edgePath(a[0] + W, portY(a, ow, e.output), b[0], portY(b, ir, e.input)) });
      p.append(RF.svg("title"));
      p.lastChild.textContent = `${d.blocks[e.writer].name}.${e.output} → ${d.blocks[e.reader].name}.${e.input}`;
      edgeLayer.append(p);
      return p;
    });
    for (const e of d.messages) {
      const a = xy[e.writer], b = xy[e.reader];
      edgeLayer.append(RF.svg("path", { class: "edge msg", d: edgePath(a[0] + W, a[1] + H - 8, b[0], b[1] + H - 8) }));
    }
    nodes = d.blocks.map((b, i) => {
      const g = RF.svg("g", { class: "node" + (b.display ? " display" : ""), transform: `translate(${xy[i][0]},${xy[i][1]})`, "data-block": b.name });
      g.append(RF.svg("rect", { class: "box", width: W, height: H }));
      const t = (cls, y, text) => { const e = RF.svg("text", { class: cls, x: 8, y }); e.textContent = text; g.append(e); return e; };
      t("name", 16, b.name.length > 26 ? b.name.slice(0, 25) + "…" : b.name);
      t("type", 29, shortType(b.type_name));
      const rate = t("rate", 44, "–");
      const meta = t("meta", 57, "");
      g.append(RF.svg("rect", { class: "fill-bg", x: 8, y: H - 8, width: W - 16, height: 4 }));
      const fill = RF.svg("rect", { class: "fill", x: 8, y: H - 8, width: 0, height: 4 });
      g.append(fill);
      const share = RF.svg("rect", { class: "share", x: W - 6, y: H - 4, width: 4, height: 0 });
      g.append(share);
      const title = RF.svg("title");
      g.append(title);
      // The tooltip is written when the pointer arrives, not per update.
      g.addEventListener("mouseenter", () => {
        const s = nodes[i].last;
        title.textContent = s ? `${s.name}: ${s.status}; in ${RF.si(s.in_rate)}/s, out ${RF.si(s.out_rate)}/s, work ${RF.pct(s.work_share)}` : b.name;
      });
      g.addEventListener("click", () => { if (!(RF.graph.dragging && RF.graph.dragging())) onSelect(i); });
      root.append(g);
      return { g, rate, meta, fill, share, title, prev: {}, last: null };
    });
    if (!RF.graph._pz) { installPanZoom(); RF.graph._pz = true; }
    fit();
  }

  function shortType(t) {
    const s = (t || "").replace(/\b[a-z_0-9]+::/g, "");
    return s.length > 30 ? s.slice(0, 29) + "…" : s;
  }

  /** Applies one live statistics message. */
  function update(msg) {
    if (!describe) return;
    const outFill = new Array(nodes.length).fill(0);
    (msg.edges || []).forEach((e, k) => {
      const f = e.fill_fraction || 0;
      outFill[e.writer] = Math.max(outFill[e.writer], f);
      if (edgesEl[k]) edgesEl[k].classList.toggle("full", f >= 0.9);
    });
    (msg.blocks || []).forEach((b, i) => {
      const n = nodes[i];
      if (!n) return;
      const rate = Math.max(b.out_rate || 0, b.in_rate || 0);
      // Only what changed is written: the DOM is the expensive part.
      set(n, "rate", RF.si(rate, "items/s"), (v) => { n.rate.textContent = v; });
      set(n, "meta", "work " + RF.pct(b.work_share) + (describe.blocks[i].outputs.length ? "  fill " + RF.pct(outFill[i]) : ""),
        (v) => { n.meta.textContent = v; });
      set(n, "fillw", ((W - 16) * Math.min(1, outFill[i])).toFixed(0), (v) => { n.fill.setAttribute("width", v); });
      set(n, "high", outFill[i] >= 0.9, (v) => { n.fill.classList.toggle("high", v); });
      const sh = (Math.min(1, b.work_share || 0) * (H - 8)).toFixed(0);
      set(n, "share", sh, (v) => { n.share.setAttribute("height", v); n.share.setAttribute("y", String(H - 4 - v)); });
      set(n, "status", b.status, (v) => {
        n.g.classList.remove("ok", "starving", "blocked", "idle", "done");
        if (v) n.g.classList.add(v);
        n.g.setAttribute("data-status", v || "");
      });
      n.g.dataset.items = String((b.items_produced || 0) + (b.items_consumed || 0));
      n.last = b;
    });
  }

  /** Writes `value` through `write` when it differs from the last one. */
  function set(n, key, value, write) {
    if (n.prev[key] !== value) { n.prev[key] = value; write(value); }
  }

  function select(i) {
    nodes.forEach((n, k) => n.g.classList.toggle("selected", k === i));
  }

  return { draw, update, fit, select };
})();
