import { api, el, loadFailed, page, showMessage, svg, when } from "/console/console.js";

const main = document.getElementById("main");
const SERIES = [["requests", "#0a58ca"], ["unavailable", "#dc6803"], ["resets", "#b42318"]];
const UNITS = { requests: "requests", unavailable: "503s", resets: "resets" };

// A span of seconds as the axes and captions write it: "0.3 s", "45 s", "2.5 min".
function span(seconds) {
  return seconds >= 120 ? `${(seconds / 60).toFixed(1)} min` : `${seconds.toFixed(seconds < 10 ? 1 : 0)} s`;
}

// One small line chart per series: the instance's per-heartbeat requests, 503s and resets served, with
// its axes written on it: the peak and 0 on the y axis with the unit, and on the x axis how long ago
// the first point was and the last ("now" for a live instance; a silent one's last beat is dated).
function sparkline(view, field, color, heartbeatSeconds) {
  const r = view.report;
  const width = 220, height = 54, left = 26, right = 4, top = 4, bottom = 13;
  const values = r.traffic.map(sample => sample[field]);
  const peak = Math.max(0, ...values);
  const max = Math.max(1, peak);
  const plotWidth = width - left - right, plotHeight = height - top - bottom;
  const step = values.length > 1 ? plotWidth / (values.length - 1) : 0;
  const points = values.map((v, i) => [left + i * step, top + plotHeight - plotHeight * v / max]);
  const total = values.reduce((sum, v) => sum + v, 0);
  const lastAgo = view.gone || view.stale ? view.secondsSinceSeen : 0;
  const firstAgo = lastAgo + Math.max(values.length - 1, 0) * heartbeatSeconds;
  const end = lastAgo ? `−${span(lastAgo)}` : "now";
  const unit = `${UNITS[field]}/beat`;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img",
    class: `sparkline sparkline-${field}`, "data-total": total,
    "aria-label": `${r.instanceId}: ${UNITS[field]} per ${heartbeatSeconds} s heartbeat, 0 to ${peak}, `
      + `from −${span(firstAgo)} to ${end}` });
  root.append(svg("title", {}, `${r.instanceId}: ${total} ${UNITS[field]} over ${values.length} heartbeats (peak ${peak})`));
  const axis = { stroke: "#98a2b3", "stroke-width": 1 };
  root.append(svg("line", { x1: left, y1: top, x2: left, y2: top + plotHeight, ...axis }));
  root.append(svg("line", { x1: left, y1: top + plotHeight, x2: width - right, y2: top + plotHeight, ...axis }));
  const label = (cls, x, y, anchor, text) =>
    svg("text", { class: cls, x, y, "text-anchor": anchor, "font-size": 9, fill: "#475467" }, text);
  root.append(label("y-max", left - 3, top + 7, "end", String(peak)),
    label("y-min", left - 3, top + plotHeight, "end", "0"),
    label("y-unit", left + 3, top + 8, "start", unit));
  if (values.length) {
    root.append(label("x-start", left, height - 2, "start", `−${span(firstAgo)}`),
      label("x-end", width - right, height - 2, "end", end));
  }
  if (values.length === 1) {
    // One beat so far (or the last one before it went silent): a dot, since a line needs two points.
    root.append(svg("circle", { cx: points[0][0], cy: points[0][1].toFixed(1), r: 2, fill: color }));
  } else if (values.length) {
    root.append(svg("polyline", { points: points.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" "),
      fill: "none", stroke: color, "stroke-width": 1.5 }));
  }
  return el("div", { class: "spark" }, root,
    el("small", { class: `scale scale-${field}` }, `peak ${peak} ${unit}, ${total} in all`));
}

// The gates a live instance applies now. A gone or stale instance's are only what it last reported:
// shown grey and marked last-known, never green, since nobody knows what it applies (or would, on waking).
function gates(view) {
  const entries = Object.entries(view.report.gates);
  if (view.gone || view.stale) {
    return el("span", { class: "last-known" }, "last known: ",
      entries.map(([gate, on]) => `${gate} ${on ? "on" : "off"}`).join(", "));
  }
  return entries.map(([gate, on]) => el("span", { class: on ? "on" : "off" }, `${gate} ${on ? "on" : "off"} `));
}

// Connections in use against the most the pool may open (database.maxSize), and how full that is.
function pool(r) {
  const share = r.poolSize > 0 ? Math.round(100 * r.poolActive / r.poolSize) : 0;
  return el("td", { class: `pool ${share >= 90 ? "bad" : ""}` }, `${r.poolActive} / ${r.poolSize} max`, el("br"),
    el("small", {}, `${share}% in use`));
}

// A gone instance (no database session left) can be forgotten; a stale one still holds sessions and blocks.
function forgetForm(r) {
  const reason = el("input", { type: "text", id: `forget-reason-${r.instanceId}`, required: true });
  const output = el("div", { "aria-live": "polite" });
  const form = el("form", { class: "forget" },
    el("label", { for: `forget-reason-${r.instanceId}` }, "Reason (audited)"), reason,
    el("button", { type: "submit", id: `forget-${r.instanceId}` }, "Forget this instance"), output);
  form.addEventListener("submit", async event => {
    event.preventDefault();
    const reply = await api("/api/instances/forget", { method: "POST", body: { instanceId: r.instanceId, reason: reason.value } });
    if (reply.ok) await render(`Forgot ${r.instanceId}.`);
    else showMessage(output, "error", reply.json?.message ?? `refused (${reply.status})`, reply.json?.missing ?? []);
  });
  return form;
}

function state(view) {
  if (view.gone) {
    return el("span", { class: "bad gone-mark" }, " GONE: no database session left; counts for no confirmation");
  }
  if (view.stale) {
    return el("span", { class: "bad stale-mark" },
      ` STALE: silent ${view.secondsSinceSeen.toFixed(0)} s but still connected (frozen or cut off): blocks flips until forced`);
  }
  return null;
}

// The change feed as the instance last reported it. A gone instance's last word is not its state: its
// process is gone, and its feed with it; a stale one has said nothing since, so its report is dated.
function changeFeed(view) {
  const reported = view.report.changeFeedConnected ? "connected" : "reconnecting";
  if (view.gone) {
    return el("td", { class: "bad change-feed" }, "gone", el("br"), el("small", {}, `last reported ${reported}`));
  }
  if (view.stale) {
    return el("td", { class: "bad change-feed" }, "unknown", el("br"),
      el("small", {}, `${reported} ${view.secondsSinceSeen.toFixed(0)} s ago`));
  }
  return el("td", { class: `${view.report.changeFeedConnected ? "ok" : "bad"} change-feed` }, reported);
}

// The sparklines' time axis, written once under them: how many beats they span and how long that is.
function timeScale(traffic, heartbeatSeconds) {
  const beats = traffic.length;
  if (!beats) return el("small", { class: "time-scale" }, "no traffic reported yet");
  return el("small", { class: "time-scale" },
    `time → last ${beats} beat(s), ${span(beats * heartbeatSeconds)}, one point per ${heartbeatSeconds} s`);
}

function row(view, heartbeatSeconds) {
  const r = view.report;
  return el("tr", { id: `instance-${r.instanceId}`, class: view.gone ? "gone" : view.stale ? "stale" : null },
    el("td", {}, el("code", {}, r.instanceId), view.self ? " (this one)" : null, state(view),
      view.gone ? forgetForm(r) : null),
    el("td", {}, r.host),
    el("td", {}, r.version, el("br"), el("small", {}, `built ${r.build}`)),
    el("td", {}, `${view.secondsSinceSeen.toFixed(1)} s ago`, el("br"), el("small", {}, `up since ${when(r.startedAt)}`)),
    el("td", {}, gates(view), el("br"), el("small", {}, `flags reread ${when(r.flagsReadAt) || "never reported"}`)),
    changeFeed(view),
    pool(r),
    el("td", {}, `${r.websocketConnections} connections, ${r.websocketSubscriptions} subscriptions`),
    el("td", {}, String(r.incrementalPermitsUsed)),
    el("td", { class: "sparklines" }, SERIES.map(([field, color]) => sparkline(view, field, color, heartbeatSeconds)),
      timeScale(r.traffic, heartbeatSeconds)));
}

let refresh;

function schemaState(unmet) {
  return unmet.length
    ? el("div", { class: "warning", id: "incremental-schema", role: "status" },
      el("p", {}, `Incremental schema not in place (${unmet.length} item(s)); instances stay ready with the incremental gate off.`),
      el("details", {}, el("summary", {}, "What is missing"), el("ul", {}, unmet.map(u => el("li", {}, u)))))
    : el("p", { id: "incremental-schema", class: "ok" }, "Incremental schema: every changeset and index in place.");
}

// The last fleet the API answered, and when: while the API cannot answer (its database is down, say),
// the page keeps showing it, marked stale, instead of losing the table the operator is reading.
let lastFleet = null;
let lastFleetAt = null;
// The hot standbys as this instance last sampled them (GET /api/standbys); null when it could not say.
let lastStandbys = null;

const STANDBY_STATES = {
  HEALTHY: "serves reads",
  LAGGING: "lags past the bound: serves nothing",
  UNREACHABLE: "does not answer: serves nothing",
  PROMOTED: "promoted: serves nothing",
  STARTING: "not sampled yet",
};

function lag(millis) {
  if (millis === null || millis === undefined) return "unknown";
  return millis < 1000 ? `${millis} ms` : `${(millis / 1000).toFixed(1)} s`;
}

// Reads on hot standbys (runbook 09): each standby with its state and lag, as this instance routes to them.
function standbysSection(view) {
  if (!view) {
    return el("p", { id: "standbys-summary" }, "Hot standbys: this instance did not say (GET /api/standbys failed).");
  }
  const reads = `Reads since start: ${view.reads.standby} on standbys, ${view.reads.primary} on the primary `
    + `(${view.reads.primaryAfterStandby} of them after a standby could not).`;
  if (view.standbys.length === 0) {
    return el("section", { id: "standbys" },
      el("h2", {}, "Hot standbys"),
      el("p", { id: "standbys-summary" }, `None configured: every read runs on the primary. ${reads}`));
  }
  const serving = view.standbys.filter(s => s.state === "HEALTHY").length;
  return el("section", { id: "standbys" },
    el("h2", {}, "Hot standbys"),
    el("p", { id: "standbys-summary" }, `${serving} of ${view.standbys.length} serving reads, as this instance `
      + `sees them; a standby further behind than ${lag(view.maxLagMillis)} serves nothing. ${reads}`),
    el("table", { id: "standby-table" },
      el("thead", {}, el("tr", {}, ["Standby", "State", "Lag", "Replayed", "Sampled", "Why"]
        .map(h => el("th", { scope: "col" }, h)))),
      el("tbody", {}, view.standbys.map(s => el("tr", { class: s.state === "HEALTHY" ? "ok" : "stale" },
        el("td", {}, s.name),
        el("td", { class: "standby-state" }, `${s.state}: ${STANDBY_STATES[s.state] ?? ""}`),
        el("td", {}, lag(s.lagMillis)),
        el("td", {}, s.replayed + (s.replayPaused ? " (replay paused)" : "")),
        el("td", {}, s.sampledAt ? when(new Date(s.sampledAt)) : "never"),
        el("td", {}, s.detail || "—"))))));
}

function staleBanner(message) {
  return el("div", { class: "error", id: "fleet-stale", role: "alert" },
    el("p", {}, `STALE: the fleet could not be reloaded (${message}); below is the fleet as last loaded at `
      + `${when(lastFleetAt)}, retrying every 5 s.`));
}

async function render(notice) {
  clearTimeout(refresh);
  const reply = await api("/api/instances");
  if (!reply.ok) {
    const message = reply.json?.message ?? `HTTP ${reply.status}`;
    if (!lastFleet) {
      refresh = loadFailed(main, reply, "The fleet", render);
      return;
    }
    draw(lastFleet, staleBanner(message));
    refresh = setTimeout(render, 5000);
    return;
  }
  lastFleet = reply.json;
  lastFleetAt = new Date();
  const standbys = await api("/api/standbys");
  lastStandbys = standbys.ok ? standbys.json : null;
  const drawn = draw(lastFleet, notice ? el("div", { class: "notice", role: "status" }, notice) : "");
  refresh = setTimeout(render, drawn ? Math.max(1000, lastFleet.heartbeatSeconds * 1000) : 1000);
}

// Draws the fleet under the banner; returns false when it left the page alone for a form being filled in.

function draw(fleet, banner) {
  // A form being filled in is not redrawn under the operator's hands.
  if (main.contains(document.activeElement) && document.activeElement.tagName === "INPUT") {
    return false;
  }
  const stale = fleet.instances.filter(i => i.stale && !i.gone).length;
  const gone = fleet.instances.filter(i => i.gone).length;
  const headers = ["Instance", "Host", "Version", "Last heartbeat", "Gates applied", "Change feed", "Database pool (used / max)",
    "WebSocket", "Incremental permits", "Requests · 503s · resets"];
  main.replaceChildren(
    banner,
    schemaState(fleet.incrementalSchema.incremental),
    el("p", { id: "fleet-summary" }, `${fleet.instances.length} instance(s), ${stale} stale, ${gone} gone. Each beats every `
      + `${fleet.heartbeatSeconds} s; ${fleet.staleAfterMissedBeats} missed beats mark it stale.`),
    el("table", { id: "fleet" },
      el("thead", {}, el("tr", {}, headers.map(h => el("th", { scope: "col" }, h)))),
      el("tbody", {}, fleet.instances.map(view => row(view, fleet.heartbeatSeconds)))),
    el("p", { class: "legend" }, SERIES.map(([field, color]) =>
      el("span", {}, el("span", { class: "swatch", style: `background:${color}` }), `${UNITS[field]} per heartbeat`))),
    standbysSection(lastStandbys));
  return true;
}

if (await page()) await render();
