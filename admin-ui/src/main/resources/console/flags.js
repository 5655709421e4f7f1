import { api, el, fleetNote, loadFailed, page, showMessage, table, when } from "/console/console.js";

const main = document.getElementById("main");

// The flip waited for every instance's heartbeat: say who applies the new value and who does not.
function confirmationSummary(confirmation) {
  if (!confirmation) return "no fleet view to confirm it (see Fleet)";
  const each = confirmation.instances.map(i => i.confirmed
    ? `${i.instanceId} applied it after ${i.secondsAfterFlip.toFixed(1)} s`
    : i.gone ? `${i.instanceId} gone (no database session; not counted)`
      : `${i.instanceId} NOT confirmed${i.stale ? " (stale: frozen or cut off)" : ""}`);
  const verdict = confirmation.everyInstanceConfirmed
    ? `every instance confirmed within ${confirmation.secondsToLastConfirmation.toFixed(1)} s`
    : "NOT every instance confirmed";
  return `${verdict}: ${each.join(", ")}`;
}

function flagCard(flag, unmet) {
  const id = flag.gate;
  const message = el("div", { id: `message-${id}`, "aria-live": "polite" });
  const reason = el("input", { type: "text", id: `reason-${id}`, name: "reason", required: true });
  const value = el("select", { id: `value-${id}`, name: "value" },
    el("option", { value: "on" }, "on"), el("option", { value: "off" }, "off"),
    el("option", { value: "clear" }, "clear (use the environment default)"));
  const force = el("input", { type: "checkbox", id: `force-${id}`, name: "force" });
  const form = el("form", { id: `form-${id}` },
    el("label", { for: `value-${id}` }, "New value"), value,
    el("label", { for: `reason-${id}` }, "Reason (required, kept in the history)"), reason,
    el("div", {}, force, " ", el("label", { for: `force-${id}`, style: "display:inline" },
      "Force past unmet preconditions or stale instances (the history records it)")),
    el("button", { type: "submit", id: `apply-${id}` }, "Apply"), message);
  // The flip waits for every instance's heartbeat: say so, and take no second click meanwhile.
  async function flip(forced) {
    const apply = form.querySelector(`#apply-${id}`);
    apply.disabled = true;
    const started = Date.now();
    const waiting = () => showMessage(message, "notice",
      `Waiting for every instance to apply it: ${((Date.now() - started) / 1000).toFixed(0)} s so far…`);
    waiting();
    const ticker = setInterval(waiting, 1000);
    const reply = await api("/api/flags", { method: "POST",
      body: { gate: id, value: value.value, reason: reason.value, force: forced } });
    clearInterval(ticker);
    apply.disabled = false;
    if (reply.ok) {
      const every = reply.json.confirmation?.everyInstanceConfirmed;
      await render(`${id}: ${reply.json.forced ? "FORCED " : ""}${reply.json.action} (${reply.json.oldValue ? "on" : "off"} → ${reply.json.newValue ? "on" : "off"}); `
        + confirmationSummary(reply.json.confirmation), every ? "notice" : "warning");
    } else if (reply.json?.error === "instances_stale") {
      staleOffer(reply.json);
    } else {
      showMessage(message, "error", reply.json?.message ?? `refused (${reply.status})`, reply.json?.missing ?? []);
      message.querySelector("div").id = `refusal-${id}`;
    }
  }
  // A stale instance cannot confirm: the server said so at once and changed nothing. Name it, and offer
  // the forced flip, which does not wait for it.
  function staleOffer(refusal) {
    const forceIt = el("button", { type: "button", id: `force-stale-${id}` },
      "Flip anyway, forced (do not wait for the stale instance)");
    forceIt.addEventListener("click", () => flip(true));
    message.replaceChildren(el("div", { class: "warning", role: "alert", id: `stale-${id}` },
      el("p", {}, `Not flipped: ${refusal.missing.length === 1 ? "an instance is" : "instances are"} stale. `
        + "A stale instance (frozen or cut off) cannot confirm the flip, so the flip would only wait for it."),
      el("ul", {}, refusal.missing.map(m => el("li", {}, m))),
      forceIt));
  }
  form.addEventListener("submit", event => {
    event.preventDefault();
    flip(force.checked);
  });
  const state = flag.effective ? "on" : "off";
  return el("section", { class: "card", "aria-labelledby": `title-${id}` },
    el("h2", { id: `title-${id}` }, `${id} `, el("span", { class: state, id: `state-${id}` }, state)),
    el("p", {}, `Capability ${flag.capability}. Environment default (${flag.environmentVariable}): `,
      flag.environmentDefault ? "on" : "off", ". Override: ",
      flag.override === null ? "none" : (flag.override ? "on" : "off"),
      flag.updatedBy ? ` (last set by ${flag.updatedBy}, ${when(flag.updatedAt)})` : ""),
    unmet && unmet.length ? el("details", {}, el("summary", {}, `${unmet.length} precondition(s) for turning it on are unmet`),
      el("ul", {}, unmet.map(u => el("li", {}, u)))) : null,
    form);
}

let retry;

async function render(notice, kind = "notice") {
  clearTimeout(retry);
  const [flags, history, instances] = await Promise.all([api("/api/flags"), api("/api/flags/history?limit=50"),
    api("/api/instances")]);
  if (!flags.ok || !history.ok) {
    retry = loadFailed(main, flags.ok ? history : flags, "The flags", () => render());
    return;
  }
  const content = [fleetNote(instances) ?? ""];
  if (notice) content.push(el("div", { class: kind, role: "status", id: "notice" }, notice));
  for (const flag of flags.json.flags) content.push(flagCard(flag, flags.json.unmet[flag.gate]));
  content.push(el("h2", {}, "History"));
  const rows = history.json.map(h => [when(h.changedAt), h.gate, h.operator, h.action,
    `${h.oldValue ? "on" : "off"} → ${h.newValue ? "on" : "off"}`, h.forced ? "yes: " + h.unmet.join("; ") : "no", h.reason]);
  const historyTable = table(["When", "Gate", "Who", "Action", "Effective", "Forced", "Why"], rows);
  historyTable.id = "history";
  content.push(historyTable);
  main.replaceChildren(...content);
}

if (await page()) await render();
