import { api, el, loadFailed, page, svg, table, when } from "/console/console.js";

const main = document.getElementById("main");
// One bar per bucket for resets; capacity rejections, timeouts and refused policy changes stacked above;
// bursts shaded red. Refused changes sit next to the resets they would have caused.
function chart(timeline) {
  const width = 900, height = 290, left = 64, bottom = 52, top = 10;
  const buckets = timeline.buckets;
  const max = Math.max(1, ...buckets.map(b => b.resetsServed + b.capacityRejections + b.timeouts + b.policyChangesRefused));
  const step = (width - left - 10) / buckets.length;
  const scale = v => (height - bottom - top) * v / max;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", id: "burst-chart",
    "aria-labelledby": "chart-title chart-desc" });
  root.append(svg("title", { id: "chart-title" }, `Resets served per ${timeline.bucketSeconds / 60} minutes, ${timeline.community}`));
  const total = buckets.reduce((s, b) => s + b.resetsServed, 0);
  const refused = buckets.reduce((s, b) => s + b.policyChangesRefused, 0);
  root.append(svg("desc", { id: "chart-desc" },
    `${total} resets in the last ${timeline.window}; ${timeline.bursts.length} burst bucket(s) at or over ${timeline.threshold} resets a minute; ${refused} policy change(s) refused by the rate limit.`));
  axes(root, timeline, { width, height, left, bottom, top, max });
  buckets.forEach((b, i) => {
    const x = left + i * step;
    if (b.burst) {
      root.append(svg("rect", { x, y: top, width: Math.max(step, 2), height: height - bottom - top, fill: "#fde2e1",
        class: "burst-band", "data-start": b.start }));
    }
    let y = height - bottom;
    for (const [value, color, name] of [[b.resetsServed, b.burst ? "#b42318" : "#0a58ca", "resets"],
      [b.capacityRejections, "#dc6803", "capacity"], [b.timeouts, "#6941c6", "timeouts"],
      [b.policyChangesRefused, "#475467", "refused"]]) {
      if (!value) continue;
      const h = scale(value);
      y -= h;
      const bar = svg("rect", { x: x + 0.5, y, width: Math.max(step - 1, 1), height: h, fill: color, class: `bar-${name}` });
      bar.append(svg("title", {}, `${when(b.start)}: ${value} ${name}`));
      root.append(bar);
    }
    if (b.policyAdvances) {
      root.append(svg("circle", { cx: x + step / 2, cy: height - bottom + 8, r: 3, fill: "#1d1d1f", class: "advance" }));
    }
    if (b.policyChangesAsEntries) {
      const mark = svg("circle", { cx: x + step / 2, cy: height - bottom + 16, r: 3, fill: "none", stroke: "#067647",
        class: "as-entries" });
      mark.append(svg("title", {}, `${when(b.start)}: ${b.policyChangesAsEntries} channel change(s) delivered as entries`));
      root.append(mark);
    }
  });
  return root;
}

// The chart's axes, written on it: the y axis counts events per bucket (ticks at 0, half and the peak),
// the x axis is time, with the first, middle and last bucket's start in the browser's zone.
function axes(root, timeline, { width, height, left, bottom, top, max }) {
  const base = height - bottom;
  const minutes = timeline.bucketSeconds / 60;
  const text = (cls, x, y, anchor, label, extra = {}) =>
    svg("text", { class: cls, x, y, "text-anchor": anchor, "font-size": 11, fill: "#344054", ...extra }, label);
  root.append(svg("line", { x1: left, y1: top, x2: left, y2: base, stroke: "#888" }));
  root.append(svg("line", { x1: left, y1: base, x2: width - 10, y2: base, stroke: "#888" }));
  for (const value of [...new Set([0, Math.round(max / 2), max])]) {
    const y = base - (base - top) * value / max;
    root.append(svg("line", { x1: left - 4, y1: y, x2: left, y2: y, stroke: "#888" }));
    root.append(text("y-tick", left - 6, y + 4, "end", String(value)));
  }
  root.append(text("y-title", 12, (top + base) / 2, "middle", `events per ${minutes} min`,
    { transform: `rotate(-90 12 ${(top + base) / 2})` }));
  const buckets = timeline.buckets;
  const step = (width - left - 10) / Math.max(buckets.length, 1);
  const ticks = [[0, "start"], [Math.floor(buckets.length / 2), "middle"], [buckets.length - 1, "end"]]
    .filter(([i], n, all) => i >= 0 && all.findIndex(([j]) => j === i) === n);
  for (const [i, anchor] of ticks) {
    const x = left + i * step + (anchor === "end" ? step : 0);
    root.append(svg("line", { x1: x, y1: base, x2: x, y2: base + 4, stroke: "#888" }));
    root.append(text("x-tick", x, base + 32, anchor, when(buckets[i].start)));
  }
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  root.append(text("x-title", (left + width) / 2, height - 4, "middle", `time (bucket start, ${zone}) →`));
}

let retry;

async function render() {
  clearTimeout(retry);
  const community = document.getElementById("community")?.value ?? "";
  const window = document.getElementById("window")?.value ?? "hour";
  const reply = await api(`/api/bursts?window=${encodeURIComponent(window)}&community=${encodeURIComponent(community)}`);
  if (!reply.ok) {
    retry = loadFailed(main, reply, "The reset timeline", render);
    return;
  }
  const { communities, timeline } = reply.json;
  const communitySelect = el("select", { id: "community" },
    communities.map(c => el("option", { value: c.id, selected: c.id === timeline.communityId }, c.name)));
  const windowSelect = el("select", { id: "window" },
    ["hour", "day", "week"].map(w => el("option", { value: w, selected: w === timeline.window }, `last ${w}`)));
  communitySelect.addEventListener("change", render);
  windowSelect.addEventListener("change", render);
  const legend = el("p", { class: "legend" },
    el("span", {}, el("span", { class: "swatch", style: "background:#0a58ca" }), "resets served"),
    el("span", {}, el("span", { class: "swatch", style: "background:#b42318" }), "resets in a burst"),
    el("span", {}, el("span", { class: "swatch", style: "background:#dc6803" }), "capacity rejections (503)"),
    el("span", {}, el("span", { class: "swatch", style: "background:#6941c6" }), "timeouts"),
    el("span", {}, el("span", { class: "swatch", style: "background:#475467" }), "refused policy changes (429)"),
    el("span", {}, "● policy stamp advance"),
    el("span", {}, "○ channel change delivered as entries (no reset)"));
  const bursts = timeline.bursts.length
    ? el("ul", { id: "bursts" }, timeline.bursts.map(b => el("li", {},
        el("strong", {}, `${when(b.start)}: ${b.resetsServed} resets (peak ${b.peakResetsPerMinute}/min)`),
        b.causes.length ? el("ul", { class: "causes" }, b.causes.map(c => el("li", {},
          `${c.change} in channel ${c.channel} by ${c.actor.slice(0, 12)}… at ${when(c.advancedAt)}`)))
          : el("p", {}, "No policy change recorded just before it."))))
    : el("p", { id: "bursts" }, `No bursts: no minute reached ${timeline.threshold} resets.`);
  // Changes the relay delivered as entries (PROTOCOL 4.4): beside the resets, so an operator sees at a
  // glance that such a change reset nobody.
  const changes = timeline.changesAsEntries;
  const sent = changes.reduce((s, c) => s + c.entriesSent, 0);
  const asEntries = el("div", { id: "changes-as-entries" },
    el("p", { id: "as-entries-summary" }, changes.length
      ? `${changes.length} channel change(s) delivered as entries in the last ${timeline.window}: ${sent} entries sent, no reset.`
      : `No channel change delivered as entries in the last ${timeline.window}.`),
    changes.length ? table(["Changed at", "Channel", "Change", "By", "Entries sent"],
      changes.map(c => [when(c.changedAt), `${c.channelName} (${c.channel.slice(0, 8)}…)`, c.change,
        `${c.actor.slice(0, 12)}…`, c.entriesSent])) : null);
  main.replaceChildren(
    el("div", {}, el("label", { for: "community" }, "Community"), communitySelect,
      el("label", { for: "window" }, "Window"), windowSelect),
    el("div", { class: "chart" }, chart(timeline)), legend,
    el("h2", {}, "Bursts and their causes"), bursts,
    el("h2", {}, "Channel changes delivered as entries"), asEntries,
    el("h2", {}, "Figures"),
    table(["Bucket start", "Resets", "Capacity 503s", "Timeouts", "Policy advances", "Refused policy changes"],
      timeline.buckets.filter(b => b.resetsServed || b.capacityRejections || b.timeouts || b.policyAdvances
          || b.policyChangesRefused)
        .map(b => [when(b.start), b.resetsServed, b.capacityRejections, b.timeouts, b.policyAdvances,
          b.policyChangesRefused])));
}

if (await page()) await render();
