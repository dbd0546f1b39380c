// Shared helpers: the API client (token, JSON, errors), DOM building and
// number formatting. Everything lives under the global `RF`.
"use strict";
const RF = {};

RF.token = new URLSearchParams(location.search).get("token");

/** Calls the control port's REST API; resolves to the parsed JSON (or null). */
RF.api = async function (method, path, body) {
  const headers = {};
  if (RF.token) headers["Authorization"] = "Bearer " + RF.token;
  const init = { method, headers };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = text; }
  if (!res.ok) {
    const msg = data && data.error ? data.error : (typeof data === "string" ? data : res.statusText);
    throw new Error(res.status + ": " + msg);
  }
  return data;
};

/** The WebSocket URL of a path, carrying the token. */
RF.wsUrl = function (path) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const sep = path.includes("?") ? "&" : "?";
  const tok = RF.token ? sep + "token=" + encodeURIComponent(RF.token) : "";
  return proto + "//" + location.host + path + tok;
};

/** Creates an element: el("div", {class: "x"}, child, "text", ...). */
RF.el = function (tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined) continue;
    e.append(c instanceof Node ? c : String(c));
  }
  return e;
};

/** Creates an SVG element with attributes. */
RF.svg = function (tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
};

/** 1234567 → "1.23 M", with an optional unit. */
RF.si = function (x, unit) {
  unit = unit || "";
  if (x === null || x === undefined || !isFinite(x)) return "–";
  const a = Math.abs(x);
  const steps = [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"]];
  for (const [f, p] of steps) if (a >= f) return (x / f).toPrecision(3) + " " + p + unit;
  if (a === 0) return "0" + (unit ? " " + unit : "");
  if (a < 1e-3) return x.toExponential(2) + (unit ? " " + unit : "");
  return (+x.toPrecision(3)) + (unit ? " " + unit : "");
};

RF.pct = (x) => (x === null || x === undefined || !isFinite(x)) ? "–" : (100 * x).toFixed(x < 0.1 ? 1 : 0) + " %";

/** Shows an error at the bottom of the page for a few seconds. */
RF.showError = function (msg) {
  const box = document.getElementById("error");
  box.textContent = String(msg);
  box.hidden = false;
  clearTimeout(RF._errTimer);
  RF._errTimer = setTimeout(() => { box.hidden = true; }, 6000);
};

/** A tagged PMT JSON ({type, value}) as plain JS, for display. */
RF.plain = function (p) {
  if (p === null || typeof p !== "object" || !("type" in p)) return p;
  const v = p.value;
  switch (p.type) {
    case "null": return null;
    case "list": case "tuple": return (v || []).map(RF.plain);
    case "pair": return [RF.plain(v[0]), RF.plain(v[1])];
    case "map": {
      const o = {};
      if (Array.isArray(v)) for (const [k, x] of v) o[typeof k === "string" ? k : JSON.stringify(RF.plain(k))] = RF.plain(x);
      else for (const k in v) o[k] = RF.plain(v[k]);
      return o;
    }
    default: return v;
  }
};

/** Renders a plain value: scalar as text, object as a key/value table,
 *  list of objects as a table. */
RF.renderValue = function (v, depth) {
  depth = depth || 0;
  if (Array.isArray(v) && v.length > 0 && v.every((r) => r && typeof r === "object" && !Array.isArray(r))) {
    const cols = [];
    for (const r of v) for (const k of Object.keys(r)) if (!cols.includes(k)) cols.push(k);
    // Identifying columns first (maps arrive with their keys sorted).
    const first = ["id", "name", "icao", "callsign"];
    cols.sort((a, b) => (first.includes(b) ? 1 : 0) - (first.includes(a) ? 1 : 0) || first.indexOf(a) - first.indexOf(b));
    return RF.el("table", { class: "kv" },
      RF.el("tr", {}, cols.map((c) => RF.el("th", { text: c }))),
      v.slice(0, 500).map((r) => RF.el("tr", {}, cols.map((c) => RF.el("td", { text: RF.short(r[c]) })))));
  }
  if (v && typeof v === "object" && !Array.isArray(v)) {
    const entries = Object.entries(v);
    // A nested map of plain values reads best on one line.
    if (depth > 0 && entries.every(([, x]) => x === null || typeof x !== "object")) {
      return document.createTextNode(entries.map(([k, x]) => `${k}: ${RF.short(x)}`).join(" · "));
    }
    return RF.el("table", { class: "kv" },
      entries.map(([k, x]) => RF.el("tr", {}, RF.el("th", { text: k }), RF.el("td", {}, RF.renderValue(x, depth + 1)))));
  }
  return document.createTextNode(RF.short(v));
};

RF.short = function (v) {
  if (v === undefined || v === null) return "";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(+v.toPrecision(6));
  if (Array.isArray(v) && v.length > 16) return "[" + v.slice(0, 16).map(RF.short).join(", ") + ", … (" + v.length + ")]";
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
};
