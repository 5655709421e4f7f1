import { api, el, page, showMessage, svg, when } from "/console/console.js";

const main = document.getElementById("main");
const SERIES = [["requests", "#0a58ca"], ["unavailable", "#dc6803"], ["resets", "#b42318"]];

// One small line chart per series: the instance's per-heartbeat requests, 503s and resets served.
function sparkline(instanceId, traffic, field, color) {
  const width = 120, height = 24;
  const values = traffic.map(sample => sample[field]);
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const points = values.map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - (height - 4) * v / max).toFixed(1)}`);
  const total = values.reduce((sum, v) => sum + v, 0);
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    class: `sparkline sparkline-${field}`, "data-total": total });
  root.append(svg("title", {}, `${instanceId}: ${total} ${field === "unavailable" ? "503s" : field} over ${values.length} heartbeats (peak ${Math.max(0, ...values)})`));
  if (values.length === 1) {
    // One beat so far (or the last one before it went silent): a dot, since a line needs two points.
    const [x, y] = points[0].split(",");
    root.append(svg("circle", { cx: x, cy: y, r: 2, fill: color }));
  } else if (values.length) {
    root.append(svg("polyline", { points: points.join(" "), fill: "none", stroke: color, "stroke-width": 1.5 }));
  }
  return root;
}

function gates(report) {
  return Object.entries(report.gates).map(([gate, on]) => el("span", { class: on ? "on" : "off" }, `${gate} ${on ? "on" : "off"} `));
}

function row(view) {
  const r = view.report;
  return el("tr", { id: `instance-${r.instanceId}`, class: view.stale ? "stale" : null },
    el("td", {}, el("code", {}, r.instanceId), view.self ? " (this one)" : null,
      view.stale ? el("span", { class: "bad stale-mark" }, ` STALE: silent ${view.secondsSinceSeen.toFixed(0)} s`) : null),
    el("td", {}, r.host),
    el("td", {}, r.version, el("br"), el("small", {}, `built ${r.build}`)),
    el("td", {}, `${view.secondsSinceSeen.toFixed(1)} s ago`, el("br"), el("small", {}, `up since ${when(r.startedAt)}`)),
    el("td", {}, gates(r), el("br"), el("small", {}, `flags reread ${when(r.flagsReadAt)}`)),
    el("td", { class: r.changeFeedConnected ? "ok" : "bad" }, r.changeFeedConnected ? "connected" : "reconnecting"),
    el("td", {}, `${r.poolActive} / ${r.poolSize}`),
    el("td", {}, `${r.websocketConnections} connections, ${r.websocketSubscriptions} subscriptions`),
    el("td", {}, String(r.incrementalPermitsUsed)),
    el("td", { class: "sparklines" }, SERIES.map(([field, color]) => sparkline(r.instanceId, r.traffic, field, color))));
}

async function render() {
  const reply = await api("/api/instances");
  if (!reply.ok) {
    showMessage(main, "error", "Could not load the fleet view.");
    return;
  }
  const fleet = reply.json;
  const stale = fleet.instances.filter(i => i.stale).length;
  const headers = ["Instance", "Host", "Version", "Last heartbeat", "Gates applied", "Change feed", "Pool in use",
    "WebSocket", "Incremental permits", "Requests · 503s · resets"];
  main.replaceChildren(
    el("p", { id: "fleet-summary" }, `${fleet.instances.length} instance(s), ${stale} stale. Each beats every `
      + `${fleet.heartbeatSeconds} s; ${fleet.staleAfterMissedBeats} missed beats mark it stale.`),
    el("table", { id: "fleet" },
      el("thead", {}, el("tr", {}, headers.map(h => el("th", { scope: "col" }, h)))),
      el("tbody", {}, fleet.instances.map(row))),
    el("p", { class: "legend" }, SERIES.map(([field, color]) =>
      el("span", {}, el("span", { class: "swatch", style: `background:${color}` }), field === "unavailable" ? "503s" : field))));
  setTimeout(render, Math.max(1000, fleet.heartbeatSeconds * 1000));
}

if (await page()) await render();
