// The web display sinks drawn on canvases: spectrum, waterfall, time,
// constellation and number. Each display block describes itself once (its
// `display` reading, in the flowgraph JSON) and streams frames over the
// live WebSocket; a frame replaces the last one, so a slow page only skips
// frames. Drawing happens at most once per animation frame.
"use strict";
RF.displays = (function () {
  const COLORS = ["#60a5fa", "#f87171", "#4ade80", "#facc15", "#c084fc", "#22d3ee", "#fb923c", "#f472b6", "#a3e635", "#e5e7eb"];
  const views = new Map();
  // Rows a waterfall keeps: at ten frames a second, about 13 s of history.
  const ROWS = 128;
  let dirty = new Set(), scheduled = false;

  function fmtHz(f) { return RF.si(f, "Hz"); }

  function sizeCanvas(c) {
    const r = window.devicePixelRatio || 1;
    const w = Math.max(100, Math.round(c.clientWidth * r)), h = Math.max(80, Math.round(c.clientHeight * r));
    if (c.width !== w || c.height !== h) { c.width = w; c.height = h; }
    return [w, h, r];
  }

  function axes(ctx, w, h, r, x0, x1, y0, y1, xfmt, ylab) {
    ctx.fillStyle = "#0b1220"; ctx.fillRect(0, 0, w, h);
    ctx.strokeStyle = "rgba(255,255,255,0.12)"; ctx.fillStyle = "#94a3b8"; ctx.lineWidth = 1;
    ctx.font = `${10 * r}px system-ui, sans-serif`;
    for (let k = 0; k <= 4; k++) {
      const y = (k / 4) * (h - 14 * r);
      ctx.beginPath(); ctx.moveTo(0, y); ctx.lineTo(w, y); ctx.stroke();
      ctx.fillText(String(+(y1 - (y1 - y0) * k / 4).toPrecision(3)) + (k === 0 && ylab ? " " + ylab : ""), 3 * r, y + 11 * r);
    }
    for (let k = 0; k <= 4; k++) {
      const x = (k / 4) * w;
      ctx.beginPath(); ctx.moveTo(x, 0); ctx.lineTo(x, h - 14 * r); ctx.stroke();
      const t = xfmt(x0 + (x1 - x0) * k / 4);
      const tw = ctx.measureText(t).width;
      ctx.fillText(t, Math.min(w - tw - 2, Math.max(2, x - tw / 2)), h - 3 * r);
    }
  }

  function trace(ctx, data, w, h, r, y0, y1, color) {
    const n = data.length;
    if (!n) return;
    const ph = h - 14 * r;
    ctx.strokeStyle = color; ctx.lineWidth = 1.2 * r; ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const x = n === 1 ? w / 2 : (i / (n - 1)) * w;
      const v = data[i] === null ? y0 : data[i];
      const y = ph - ((v - y0) / ((y1 - y0) || 1)) * ph;
      if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }

  function drawFreq(v) {
    const d = v.desc, f = v.frame;
    const [w, h, r] = sizeCanvas(v.canvas);
    const ctx = v.canvas.getContext("2d");
    const c = d.center_hz || 0, span = d.span_hz || 1;
    const y0 = d.y_min !== undefined ? d.y_min : -140, y1 = d.y_max !== undefined ? d.y_max : 10;
    axes(ctx, w, h, r, c - span / 2, c + span / 2, y0, y1, fmtHz, d.units || "dB");
    const db = (f && f.db) || [];
    db.forEach((row, i) => trace(ctx, row, w, h, r, y0, y1, COLORS[i % COLORS.length]));
    if (db[0] && db[0].length) {
      let k = 0;
      db[0].forEach((x, i) => { if (x !== null && x > db[0][k]) k = i; });
      const n = db[0].length;
      const hz = c - span / 2 + (k + 0.5) * span / n;
      v.peak.textContent = `peak ${fmtHz(hz)} · ${(+db[0][k]).toFixed(1)} dB`;
      v.peak.dataset.peakHz = String(hz);
      v.el.dataset.peakHz = String(hz);
    }
  }

  function heat(t) {
    t = Math.min(1, Math.max(0, t));
    const stops = [[0, 4, 12, 40], [0.25, 40, 30, 120], [0.5, 180, 40, 120], [0.75, 250, 140, 40], [1, 252, 252, 190]];
    for (let i = 1; i < stops.length; i++) {
      if (t <= stops[i][0]) {
        const a = stops[i - 1], b = stops[i], u = (t - a[0]) / (b[0] - a[0]);
        return [a[1] + (b[1] - a[1]) * u, a[2] + (b[2] - a[2]) * u, a[3] + (b[3] - a[3]) * u];
      }
    }
    return [252, 252, 190];
  }

  function drawWaterfall(v) {
    const d = v.desc, f = v.frame;
    const row = f && f.db && f.db[0];
    if (!row || !row.length) return;
    const c = v.canvas;
    const [w, h] = sizeCanvas(c);
    const ctx = c.getContext("2d");
    if (!v.img || v.img.width !== row.length) {
      v.img = document.createElement("canvas");
      v.img.width = row.length; v.img.height = ROWS;
      const g = v.img.getContext("2d"); g.fillStyle = "#000"; g.fillRect(0, 0, row.length, ROWS);
    }
    if (v.lastSeq !== f.seq) {
      v.lastSeq = f.seq;
      const g = v.img.getContext("2d");
      g.drawImage(v.img, 0, 0, row.length, ROWS - 1, 0, 1, row.length, ROWS - 1);
      const line = g.createImageData(row.length, 1);
      const lo = d.y_min !== undefined ? d.y_min : -140, hi = d.y_max !== undefined ? d.y_max : 10;
      for (let i = 0; i < row.length; i++) {
        const [R, G, B] = heat(((row[i] === null ? lo : row[i]) - lo) / ((hi - lo) || 1));
        line.data.set([R, G, B, 255], 4 * i);
      }
      g.putImageData(line, 0, 0);
    }
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(v.img, 0, 0, w, h);
  }

  function drawTime(v) {
    const d = v.desc, f = v.frame;
    const [w, h, r] = sizeCanvas(v.canvas);
    const ctx = v.canvas.getContext("2d");
    const ys = (f && f.y) || [];
    let y0 = d.y_min, y1 = d.y_max;
    if (y0 === undefined || y1 === undefined || y0 >= y1) {
      y0 = Infinity; y1 = -Infinity;
      ys.forEach((t) => t.forEach((x) => { if (x !== null) { y0 = Math.min(y0, x); y1 = Math.max(y1, x); } }));
      if (!isFinite(y0)) { y0 = -1; y1 = 1; }
      if (y0 === y1) { y0 -= 1; y1 += 1; }
    }
    const n = ys[0] ? ys[0].length : (d.points || 1);
    const sr = d.sample_rate || 1;
    axes(ctx, w, h, r, 0, n / sr, y0, y1, (t) => RF.si(t, "s"), d.units || "");
    ys.forEach((t, i) => trace(ctx, t, w, h, r, y0, y1, COLORS[i % COLORS.length]));
  }

  function drawConst(v) {
    const d = v.desc, f = v.frame;
    const [w, h, r] = sizeCanvas(v.canvas);
    const ctx = v.canvas.getContext("2d");
    const x0 = d.x_min !== undefined ? d.x_min : -2, x1 = d.x_max !== undefined ? d.x_max : 2;
    const y0 = d.y_min !== undefined ? d.y_min : -2, y1 = d.y_max !== undefined ? d.y_max : 2;
    axes(ctx, w, h, r, x0, x1, y0, y1, (x) => String(+x.toPrecision(3)), "");
    const ph = h - 14 * r;
    ((f && f.re) || []).forEach((re, i) => {
      const im = f.im[i] || [];
      ctx.fillStyle = COLORS[i % COLORS.length];
      for (let k = 0; k < re.length; k++) {
        const x = ((re[k] - x0) / (x1 - x0)) * w, y = ph - ((im[k] - y0) / (y1 - y0)) * ph;
        ctx.fillRect(x - r, y - r, 2 * r, 2 * r);
      }
    });
  }

  function drawNumber(v) {
    const d = v.desc, f = v.frame;
    const vals = (f && f.values) || [];
    v.numbers.replaceChildren(...vals.map((x, i) => {
      const lo = d.min !== undefined ? d.min : 0, hi = d.max !== undefined ? d.max : 1;
      const frac = Math.min(1, Math.max(0, ((x || 0) - lo) / ((hi - lo) || 1)));
      return RF.el("div", {}, RF.el("span", { class: "hint", text: (d.labels && d.labels[i]) || "" }),
        RF.el("div", { class: "number", text: (x === null ? "–" : (+x).toPrecision(5)) + " " + (d.units || "") }),
        d.graph_type === "text" ? null : RF.el("div", { class: "bar" }, RF.el("div", { style: `width:${(100 * frac).toFixed(1)}%` })));
    }));
  }

  const painters = { freq: drawFreq, waterfall: drawWaterfall, time: drawTime, const: drawConst, number: drawNumber };

  function parseHint(s) {
    if (!s || typeof s !== "string") return null;
    let tab = null, idx = 0, rest = s;
    const at = s.indexOf("@");
    if (at >= 0) {
      tab = s.slice(0, at).trim();
      const m = s.slice(at + 1).match(/^\s*(\d+)\s*(?::(.*))?$/);
      if (!m) return { tab, tab_index: 0 };
      idx = +m[1]; rest = m[2] || "";
    }
    const n = rest.split(",").map((x) => parseInt(x, 10));
    if (n.length < 2 || n.some((x) => !isFinite(x))) return tab ? { tab, tab_index: idx } : null;
    return { tab, tab_index: idx, row: n[0], col: n[1], row_span: n[2] || 1, col_span: n[3] || 1 };
  }

  /** Creates a card for every display block of the flowgraph `d`. */
  function setup(d) {
    views.clear();
    const items = [];
    for (const b of d.blocks) {
      if (!b.display || !painters[b.display.kind]) continue;
      const desc = b.display;
      const peak = RF.el("span", { class: "peak" });
      const el = RF.el("div", { class: "display", "data-display": b.name, "data-kind": desc.kind },
        RF.el("div", { class: "title" }, RF.el("span", { text: desc.title || b.name }), peak));
      const v = { name: b.name, desc, frame: null, el, peak, canvas: null, numbers: null };
      if (desc.kind === "number") { v.numbers = RF.el("div"); el.append(v.numbers); } else {
        v.canvas = RF.el("canvas");
        el.append(v.canvas);
        if (desc.labels && desc.inputs > 1) el.append(RF.el("div", { class: "hint" }, desc.labels.slice(0, desc.inputs).map((l, i) =>
          RF.el("span", { style: `color:${COLORS[i % COLORS.length]};margin-right:8px`, text: "■ " + (l || "input " + i) }))));
      }
      views.set(b.name, v);
      items.push({ el, hint: typeof desc.gui_hint === "object" ? desc.gui_hint : parseHint(desc.gui_hint) });
    }
    document.getElementById("displays").hidden = items.length === 0;
    RF.widgets.layout(document.getElementById("display-area"), items);
  }

  /** Takes one frame message from the WebSocket. */
  function frame(msg) {
    const v = views.get(msg.block);
    if (!v) return;
    v.frame = msg.frame;
    v.el.dataset.seq = String(msg.frame && msg.frame.seq);
    dirty.add(v);
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(() => {
        scheduled = false;
        const now = dirty; dirty = new Set();
        for (const x of now) { try { painters[x.desc.kind](x); } catch (e) { console.error(e); } }
      });
    }
  }

  return { setup, frame, parseHint };
})();
