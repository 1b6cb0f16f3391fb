#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// The live view's page: one self-contained HTML file (no CDN, no build step) that opens the
/// WebSocket with the token of its own URL and draws each frame it gets — at most one per
/// animation frame, so a burst never queues; elements are updated in place, so nothing flickers.
///
/// The map is SVG: every source is a `circle.source` with `data-id`, `data-x`, `data-z` (its
/// world position) and the classes `virtual` and `paused`, so scripts and tests read what is
/// drawn from the DOM.
enum LivePage {
    /// The page's bytes. An array, not `Data`: `Data` keeps its storage behind a pointer with tag
    /// bits set, which LeakSanitizer cannot follow (it reported the page as leaked in the C tests).
    static let html = Array(text.utf8)

    static let text = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Soundstage live view</title>
<style>
  :root { --bg:#14161a; --panel:#1d2026; --line:#2c313a; --text:#d8dde6; --dim:#8a93a3; --accent:#5ec8ff; --warn:#ffb347; --bad:#ff5f5f; --ok:#6ddc8b; }
  * { box-sizing: border-box; }
  body { margin:0; background:var(--bg); color:var(--text); font:13px/1.35 system-ui, sans-serif; }
  header { display:flex; gap:18px; align-items:baseline; padding:8px 14px; border-bottom:1px solid var(--line); }
  header h1 { font-size:15px; margin:0; font-weight:600; }
  header .stat { color:var(--dim); } header .stat b { color:var(--text); font-weight:600; }
  #status.down { color:var(--bad); } #status.up { color:var(--ok); }
  main { display:grid; grid-template-columns:minmax(420px, 1fr) 430px; gap:10px; padding:10px; height:calc(100vh - 40px); }
  section { background:var(--panel); border:1px solid var(--line); border-radius:6px; padding:8px 10px; overflow:auto; }
  h2 { font-size:12px; text-transform:uppercase; letter-spacing:.06em; color:var(--dim); margin:2px 0 6px; font-weight:600; }
  #mapPanel { display:flex; flex-direction:column; }
  #map { flex:1; width:100%; min-height:360px; background:#101215; border-radius:4px; cursor:crosshair; }
  #map .ring { fill:none; stroke:#2a2f38; stroke-dasharray:3 4; }
  #map .ringLabel { fill:#59616e; font-size:10px; }
  #map .zone { fill:rgba(94,200,255,.05); stroke:rgba(94,200,255,.45); stroke-dasharray:6 4; }
  #map .zoneLabel { fill:rgba(94,200,255,.7); font-size:10px; }
  #map .trail { fill:none; stroke-width:1.5; opacity:.35; }
  #map .source { stroke-width:2; cursor:pointer; }
  #map .source.virtual { fill:none !important; stroke-dasharray:3 2; }
  #map .source.paused { fill:#596070 !important; stroke:#596070 !important; }
  #map .source.selected { stroke:#fff !important; stroke-width:3; }
  #map #listener path { fill:var(--accent); }
  #side { display:grid; grid-template-rows:auto auto auto 1fr; gap:10px; overflow:auto; }
  .row { display:flex; justify-content:space-between; gap:8px; }
  .dim { color:var(--dim); }
  table { width:100%; border-collapse:collapse; } td, th { padding:1px 4px; text-align:left; white-space:nowrap; overflow:hidden; text-overflow:ellipsis; max-width:220px; }
  th { color:var(--dim); font-weight:500; }
  .meterRow { display:grid; grid-template-columns:120px 1fr 52px; gap:6px; align-items:center; margin:2px 0; }
  .meter { position:relative; height:7px; background:#0d0f12; border-radius:2px; overflow:hidden; margin:1px 0; }
  .meter .avg { position:absolute; left:0; top:0; bottom:0; background:linear-gradient(90deg, #3fa36a, #c9d34a 75%, #ff5f5f); }
  .meter .peak { position:absolute; top:0; bottom:0; width:2px; background:#fff; }
  #graph { width:100%; height:70px; background:#101215; border-radius:4px; }
  #log { font-family:ui-monospace, monospace; font-size:11px; color:var(--dim); max-height:140px; overflow:auto; }
  #details table td:first-child { color:var(--dim); vertical-align:top; }
  #details table td { white-space:normal; max-width:none; overflow-wrap:anywhere; }
  .tag { display:inline-block; padding:0 5px; border-radius:3px; font-size:11px; background:#2a2f38; }
  .sceneRow { cursor:pointer; } .sceneRow:hover { color:var(--accent); }
  .tag.virtual { color:var(--warn); } .tag.paused { color:var(--dim); } .tag.playing { color:var(--ok); }
</style>
</head>
<body>
<header>
  <h1>Soundstage live view</h1>
  <span id="status" class="down">connecting…</span>
  <span class="stat">time <b id="time">–</b></span>
  <span class="stat">render <b id="load">–</b></span>
  <span class="stat">underruns <b id="underruns">0</b></span>
  <span class="stat">output <b id="output">–</b></span>
</header>
<main>
  <section id="mapPanel">
    <h2>Map (top-down: x to the right, −z up; centred on the listener) <span id="mapScene"></span> <span class="dim" id="scale"></span></h2>
    <svg id="map" viewBox="-300 -300 600 600" preserveAspectRatio="xMidYMid meet">
      <g id="rings"></g><g id="zones"></g><g id="trails"></g><g id="sources"></g>
      <g id="listener"><path d="M0,-13 L8,9 L0,4 L-8,9 Z"/></g>
    </svg>
  </section>
  <div id="side">
    <section id="voices"><h2>Voices</h2><div id="voiceSummary"></div>
      <table><thead><tr><th>loudest</th><th>dB</th><th>state</th></tr></thead><tbody id="loudest"></tbody></table>
      <div class="dim" style="margin-top:4px">recently stolen or virtualized</div>
      <table><tbody id="stolen"></tbody></table></section>
    <section id="meters"><h2>Meters (dBFS)</h2><div id="meterList"></div></section>
    <section><h2>Render load and underruns</h2><svg id="graph" viewBox="0 0 300 70" preserveAspectRatio="none">
      <polyline id="loadLine" fill="none" stroke="#5ec8ff" stroke-width="1"/><g id="underrunMarks"></g></svg>
      <div class="row dim"><span id="loadNow"></span><span id="viewCost"></span></div></section>
    <section id="sessionPanel"><h2>Sessions</h2>
      <table><thead><tr><th>who</th><th>category</th><th>state</th></tr></thead><tbody id="sessions"></tbody></table>
      <h2 style="margin-top:8px">Events</h2><div id="log"></div>
      <h2 style="margin-top:8px">Selected source</h2><div id="details" class="dim">click a source on the map</div></section>
  </div>
</main>
<script>
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const svgNS = "http://www.w3.org/2000/svg";
const $ = id => document.getElementById(id);
let latest = null, drawn = null, selected = null, scale = 20, mapScene = null;
const trails = new Map();           // source id -> [[x, z], ...] of recent frames
const loads = [];                   // recent render loads (share of a core)
const underrunFrames = [];          // indices in `loads` where underruns happened
window.liveView = { frames: 0, last: null };

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?token=" + encodeURIComponent(token));
  ws.onopen = () => { $("status").textContent = "live"; $("status").className = "up"; };
  // Every frame is merged as it comes (a full one must not be skipped); only the latest is drawn.
  ws.onmessage = event => { try { latest = merge(JSON.parse(event.data)); } catch (error) { console.error(error); } };
  ws.onclose = () => { $("status").textContent = "disconnected: retrying"; $("status").className = "down"; setTimeout(connect, 1000); };
}
function tick() {
  if (latest !== null && latest !== drawn) {
    drawn = latest;
    try { draw(latest); } catch (error) { console.error(error); }
  }
  requestAnimationFrame(tick);
}
function num(value) { return typeof value === "number" ? value : Number(value); }
function fmt(value, digits = 1) { const n = num(value); return Number.isFinite(n) ? n.toFixed(digits) : String(value); }
function hue(name) { let h = 0; for (const c of name || "") h = (h * 31 + c.charCodeAt(0)) % 360; return name ? h : 200; }
function el(tag, attrs, parent) { const e = document.createElementNS(svgNS, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); if (parent) parent.appendChild(e); return e; }
function keyed(parent, key, make) { let e = parent.querySelector(`[data-key="${CSS.escape(String(key))}"]`); if (!e) { e = make(); e.dataset.key = key; parent.appendChild(e); } e.dataset.seen = "1"; return e; }
function sweep(parent) { for (const e of [...parent.children]) { if (e.dataset.seen) delete e.dataset.seen; else e.remove(); } }
function base(file) { return file ? file.split("/").pop() : "(generated)"; }

// One frame in ten is full; the others leave out what changes rarely, kept here from the last full one.
const kept = { sources: new Map(), scenes: [], sessions: [], log: [] };
function merge(frame) {
  if (frame.full) { kept.sessions = frame.sessions; kept.log = frame.log; kept.sources = new Map(); }
  frame.snapshot.scenes.forEach((scene, i) => {
    if (frame.full) {
      kept.scenes[i] = { zones: scene.zones, recentVoiceEvents: scene.recentVoiceEvents };
      for (const s of scene.sources) kept.sources.set(s.id, s);
    } else {
      const k = kept.scenes[i] || { zones: [], recentVoiceEvents: [] };
      scene.zones = k.zones; scene.recentVoiceEvents = k.recentVoiceEvents;
      scene.sources = scene.sources.map(s => {
        const merged = Object.assign({}, kept.sources.get(s.id) || {}, s);
        if (!s.isVirtual) merged.virtualReason = null;
        else if (!merged.virtualReason) merged.virtualReason = "(the reason comes with the next full frame)";
        return merged;
      });
    }
  });
  frame.sessions = kept.sessions; frame.log = kept.log;
  return frame;
}

function draw(frame) {
  window.liveView.frames += 1; window.liveView.last = frame;
  const snap = frame.snapshot;
  // The map shows one scene: the one clicked in Voices, else the first that has sources.
  const shown = mapScene !== null && mapScene < snap.scenes.length ? mapScene : Math.max(0, snap.scenes.findIndex(s => s.sources.length > 0));
  const scene = snap.scenes[shown];
  $("mapScene").textContent = snap.scenes.length > 1 ? "scene " + (shown + 1) + " of " + snap.scenes.length : "";
  $("time").textContent = fmt(snap.time, 2) + " s";
  if (frame.renderLoad != null) { loads.push(frame.renderLoad); if (loads.length > 300) { loads.shift(); underrunFrames.forEach((v, i) => underrunFrames[i] = v - 1); } }
  if (frame.newUnderruns > 0) underrunFrames.push(loads.length - 1);
  while (underrunFrames.length && underrunFrames[0] < 0) underrunFrames.shift();
  $("load").textContent = frame.renderLoad != null ? fmt(frame.renderLoad * 100, 2) + " % of a core" : "–";
  $("underruns").textContent = snap.output.underruns;
  $("output").textContent = snap.output.backend + (snap.output.sink ? " → " + snap.output.sink : "") + (snap.output.muted ? " (muted)" : "") + (snap.output.resting ? " (resting)" : "");
  drawMap(scene);
  drawVoices(snap.scenes);
  drawMeters(snap);
  drawGraph(frame);
  drawSessions(frame);
  drawDetails(snap.scenes);
}

function drawMap(scene) {
  const map = $("map"), sourcesLayer = $("sources"), trailsLayer = $("trails");
  map.dataset.time = scene ? "" : "none";
  if (!scene) { sweep(sourcesLayer); sweep(trailsLayer); return; }
  const L = scene.listener.position;
  // Fit the farthest source (smoothly), at least 5 m.
  let far = 5;
  for (const s of scene.sources) { const p = s.headRelative ? s.position : { x: s.position.x - L.x, z: s.position.z - L.z }; far = Math.max(far, Math.hypot(p.x, p.z)); }
  const target = 270 / (far * 1.1);
  scale = Math.abs(target - scale) / scale > 0.25 ? target : scale + (target - scale) * 0.1;
  $("scale").textContent = "(" + fmt(270 / scale, 0) + " m to the edge)";
  map.dataset.scale = scale;
  // World axes, centred on the listener: x to the right, −z (OpenAL's ahead) up. The listener's
  // arrow turns to where it faces.
  const at = scene.listener.at, yaw = Math.atan2(at.x, -at.z) * 180 / Math.PI;
  $("listener").setAttribute("transform", `rotate(${fmt(yaw, 2)})`);
  $("listener").dataset.yaw = fmt(yaw, 2);
  const place = (x, z) => [(x - L.x) * scale, (z - L.z) * scale];
  // Rings at round distances.
  const rings = $("rings"); const step = [1, 2, 5, 10, 20, 50, 100, 200, 500].find(d => d * scale >= 45) || 1000;
  for (let d = step, i = 0; d * scale <= 300 && i < 8; d += step, i++) {
    keyed(rings, "r" + i, () => el("circle", { class: "ring" })).setAttribute("r", d * scale);
    const label = keyed(rings, "l" + i, () => el("text", { class: "ringLabel" })); label.setAttribute("x", 3); label.setAttribute("y", -d * scale - 2); label.textContent = d + " m";
  }
  sweep(rings);
  const zones = $("zones");
  for (const z of scene.zones) {
    if (z.shape === "sphere") {
      const c = place(z.center.x, z.center.z), g = keyed(zones, "z" + z.name, () => el("circle", { class: "zone" }));
      g.setAttribute("cx", c[0]); g.setAttribute("cy", c[1]); g.setAttribute("r", num(z.radius) * scale);
    } else if (z.shape === "box") {
      const a = place(z.center.x, z.center.z), b = place(z.upper.x, z.center.z), c = place(z.upper.x, z.upper.z), d = place(z.center.x, z.upper.z);
      keyed(zones, "z" + z.name, () => el("polygon", { class: "zone" })).setAttribute("points", [a, b, c, d].map(p => p.join(",")).join(" "));
    } else continue;
    const t = keyed(zones, "t" + z.name, () => el("text", { class: "zoneLabel" }));
    const c = place(z.center.x, z.center.z); t.setAttribute("x", c[0] + 4); t.setAttribute("y", c[1] - 4); t.textContent = z.name + " (" + z.preset + ")";
  }
  sweep(zones);
  for (const s of scene.sources) {
    const world = s.headRelative ? { x: L.x + s.position.x, z: L.z + s.position.z } : s.position;
    const p = place(world.x, world.z);
    const color = `hsl(${hue(s.group)},70%,60%)`;
    const trail = trails.get(s.id) || []; trail.push(p); if (trail.length > 60) trail.shift(); trails.set(s.id, trail);
    keyed(trailsLayer, s.id, () => el("polyline", { class: "trail" })).setAttribute("points", trail.map(q => q.join(",")).join(" "));
    trailsLayer.querySelector(`[data-key="${CSS.escape(String(s.id))}"]`).setAttribute("stroke", color);
    const dot = keyed(sourcesLayer, s.id, () => { const c = el("circle", {}); c.addEventListener("click", () => { selected = Number(c.dataset.id); }); return c; });
    const level = Math.max(0, Math.min(1, (num(s.level) + 60) / 60));
    dot.setAttribute("cx", p[0]); dot.setAttribute("cy", p[1]); dot.setAttribute("r", 4 + 9 * level);
    dot.setAttribute("fill", color); dot.setAttribute("stroke", color);
    dot.setAttribute("class", "source" + (s.isVirtual ? " virtual" : "") + (s.state === "paused" ? " paused" : "") + (s.id === selected ? " selected" : ""));
    dot.dataset.id = s.id; dot.dataset.x = s.position.x; dot.dataset.z = s.position.z; dot.dataset.file = base(s.file);
    let tip = dot.querySelector("title"); if (!tip) tip = el("title", {}, dot);
    tip.textContent = base(s.file) + (s.isVirtual ? " — virtual: " + s.virtualReason : "");
  }
  for (const id of [...trails.keys()]) if (!scene.sources.some(s => s.id === id)) trails.delete(id);
  sweep(sourcesLayer); sweep(trailsLayer);
  map.dataset.time = scene ? String(latestTime()) : "";
}
function latestTime() { return window.liveView.last ? window.liveView.last.snapshot.time : 0; }

function drawVoices(scenes) {
  const summary = scenes.map((s, i) => `<div class="row sceneRow" data-scene="${i}" title="show it on the map"><span>scene ${i + 1}</span><span><b id="real${i}">${s.realVoices}</b> real / ${s.sourceBudget} budget, <b id="virtual${i}">${s.virtualVoices}</b> virtual, ${s.steals} stolen</span></div>`).join("");
  if ($("voiceSummary").innerHTML !== summary) $("voiceSummary").innerHTML = summary;
  const all = scenes.flatMap(s => s.sources).sort((a, b) => num(b.level) - num(a.level)).slice(0, 8);
  $("loudest").innerHTML = all.map(s => `<tr><td title="${escape(s.file || "")}">${escape(base(s.file))}</td><td>${fmt(s.level)}</td><td><span class="tag ${s.isVirtual ? "virtual" : s.state}">${s.isVirtual ? "virtual" : s.state}</span></td></tr>`).join("");
  const events = scenes.flatMap(s => s.recentVoiceEvents).sort((a, b) => b.time - a.time).slice(0, 6);
  $("stolen").innerHTML = events.length ? events.map(e => `<tr><td>${e.kind}</td><td>${escape(base(e.file))}</td><td class="dim">${fmt(e.time, 2)} s</td></tr>`).join("") : `<tr><td class="dim">none</td></tr>`;
}
// A meter with nothing new since the previous frame (scene and group meters update with the
// engine, not every frame) holds its last levels for half a second instead of flickering to −∞.
const heldLevels = new Map();
function meterRow(parent, key, name, levels) {
  const now = performance.now(), held = heldLevels.get(key);
  if (levels) heldLevels.set(key, { levels, at: now });
  else if (held && now - held.at < 500) levels = held.levels;
  const row = keyed(parent, key, () => { const d = document.createElement("div"); d.className = "meterRow"; d.innerHTML = `<span class="name"></span><span class="bars"></span><span class="db dim"></span>`; return d; });
  row.querySelector(".name").textContent = name;
  const bars = row.querySelector(".bars"), avg = levels ? levels.average : [], peak = levels ? levels.peak : [];
  while (bars.children.length < Math.max(1, avg.length)) { const m = document.createElement("div"); m.className = "meter"; m.innerHTML = `<div class="avg"></div><div class="peak"></div>`; bars.appendChild(m); }
  while (bars.children.length > Math.max(1, avg.length)) bars.lastChild.remove();
  [...bars.children].forEach((m, i) => {
    const a = avg.length ? num(avg[i]) : -160, p = peak.length ? num(peak[i]) : -160;
    const w = db => Math.max(0, Math.min(100, (db + 60) / 60 * 100));
    m.dataset.db = fmt(a, 1); m.querySelector(".avg").style.width = w(a) + "%"; m.querySelector(".peak").style.left = w(p) + "%";
  });
  row.querySelector(".db").textContent = avg.length ? fmt(Math.max(...avg.map(num))) : "–";
}
function drawMeters(snap) {
  const list = $("meterList");
  meterRow(list, "output", "output", snap.outputLevels);
  snap.scenes.forEach((s, i) => { meterRow(list, "scene" + i, "scene " + (i + 1), s.levels); s.groups.forEach(g => meterRow(list, "g" + i + g.name, "  " + g.name + (g.muted ? " (muted)" : g.paused ? " (paused)" : ""), g.levels)); });
  sweep(list);
}
function drawGraph(frame) {
  const top = Math.max(0.02, ...loads) * 1.2;
  $("loadLine").setAttribute("points", loads.map((v, i) => `${i},${70 - v / top * 66}`).join(" "));
  const marks = $("underrunMarks"); marks.innerHTML = "";
  for (const i of underrunFrames) el("line", { x1: i, x2: i, y1: 0, y2: 70, stroke: "#ff5f5f", "stroke-width": 1 }, marks);
  $("loadNow").textContent = "scale: " + fmt(top * 100, 1) + " % of a core";
  $("viewCost").textContent = `view: ${frame.view.browsers} browser(s), ${frame.view.dropped} frames dropped`;
}
function drawSessions(frame) {
  $("sessions").innerHTML = frame.sessions.length ? frame.sessions.map(s => `<tr><td>${escape(s.name)}</td><td>${escape(s.category)}</td><td>${s.interrupted ? "<span class='tag virtual'>interrupted</span>" : s.active ? "<span class='tag playing'>active</span>" : "<span class='tag'>inactive</span>"}${s.ducked ? " <span class='tag'>ducked</span>" : ""}</td></tr>`).join("") : `<tr><td class="dim">no sessions reported</td></tr>`;
  const log = frame.log.slice().reverse().map(l => `<div>${new Date(l.time * 1000).toLocaleTimeString()} ${escape(l.text)}</div>`).join("");
  if ($("log").innerHTML !== log) $("log").innerHTML = log;
}
function drawDetails(scenes) {
  const s = scenes.flatMap(x => x.sources).find(x => x.id === selected);
  if (selected === null) return;
  if (!s) { $("details").textContent = "the selected source no longer plays"; return; }
  const rows = [["file", s.file || "(generated)"], ["state", s.isVirtual ? "virtual" : s.state], ["why virtual", s.virtualReason || "–"],
    ["group", s.group || "–"], ["position", `${fmt(s.position.x, 2)}, ${fmt(s.position.y, 2)}, ${fmt(s.position.z, 2)}`],
    ["velocity", `${fmt(s.velocity.x, 2)}, ${fmt(s.velocity.y, 2)}, ${fmt(s.velocity.z, 2)}`], ["level at listener", fmt(s.level) + " dB"],
    ["gain", fmt(s.gain, 3)], ["pitch", fmt(s.pitch, 3)], ["looping", s.looping], ["head-relative", s.headRelative],
    ["spatialized", s.spatialized], ["streaming", s.streaming], ["reference distance", fmt(s.referenceDistance, 2)],
    ["max distance", num(s.maxDistance) > 1e30 ? "∞" : fmt(s.maxDistance, 2)], ["rolloff", fmt(s.rolloffFactor, 2)], ["priority", s.priority]];
  $("details").innerHTML = "<table>" + rows.map(r => `<tr><td>${r[0]}</td><td>${escape(String(r[1]))}</td></tr>`).join("") + "</table>";
}
function escape(text) { return text.replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]); }
$("voiceSummary").addEventListener("click", event => { const row = event.target.closest(".sceneRow"); if (row) mapScene = Number(row.dataset.scene); });
connect();
requestAnimationFrame(tick);
</script>
</body>
</html>
"""#
}
