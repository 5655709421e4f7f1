import { api, el, fleetNote, loadFailed, page, showMessage } from "/console/console.js";

const main = document.getElementById("main");

// A rollback other than a dry run waits for every instance to confirm the gate off: show that it is
// waiting and for how long, and take no second click meanwhile.
async function run(body, output) {
  const buttons = [...document.querySelectorAll("#rollback-form button")];
  buttons.forEach(b => { b.disabled = true; });
  const started = Date.now();
  const waiting = () => output.replaceChildren(el("div", { class: "notice", role: "status", id: "rollback-waiting" },
    el("progress", { "aria-label": "waiting for confirmations" }),
    ` ${body.dryRun ? "Preparing the dry run" : "Waiting for every instance to confirm the gate off"}: `
      + `${((Date.now() - started) / 1000).toFixed(0)} s so far…`));
  waiting();
  const ticker = setInterval(waiting, 1000);
  let reply;
  try {
    reply = await api("/api/rollback", { method: "POST", body });
  } finally {
    clearInterval(ticker);
    buttons.forEach(b => { b.disabled = false; });
  }
  if (!reply.ok) {
    showMessage(output, "error", reply.json?.message ?? `refused (${reply.status})`, reply.json?.missing ?? []);
    return;
  }
  const r = reply.json;
  const partial = r.confirmation && !r.confirmation.everyInstanceConfirmed;
  output.replaceChildren(el("div", { class: partial ? "warning" : "notice", role: "status" },
    el("p", {}, `Mode ${r.mode}. Gate change: `, r.gateChange ? `${r.gateChange.oldValue ? "on" : "off"} → off` : "none",
      `. Schema rolled back: ${r.schemaRolledBack ? "yes" : "no"}.`),
    el("p", {}, r.next),
    r.blockers?.length ? el("p", { id: "blockers" }, `Would block the schema rollback now: ${r.blockers.join(", ")}`) : "",
    partial ? el("p", { id: "unconfirmed" }, `${body.force && r.schemaRolledBack ? "FORCED past" : "Not confirmed"}: `
      + `${r.confirmation.instances.filter(i => !i.confirmed && !i.gone).map(i => i.instanceId).join(", ")}`) : ""),
    r.sql ? el("pre", { id: "rollback-sql" }, r.sql) : "");
}

let retry;

async function render() {
  clearTimeout(retry);
  // Without the ledger the page cannot say whether the tag is there: no form until it can.
  const [migrations, instances] = await Promise.all([api("/api/migrations"), api("/api/instances")]);
  if (!migrations.ok) {
    retry = loadFailed(main, migrations, "The rollback's ledger", render);
    return;
  }
  const tag = migrations.json.rollbackTag;
  const present = migrations.json.rollbackTagPresent;
  const reason = el("input", { type: "text", id: "reason", required: true });
  const confirm = el("input", { type: "text", id: "confirm", autocomplete: "off" });
  const force = el("input", { type: "checkbox", id: "force" });
  const output = el("div", { id: "output", "aria-live": "polite" });
  const form = el("form", { id: "rollback-form" },
    el("label", { for: "reason" }, "Reason (required, audited)"), reason,
    el("label", { for: "confirm" }, "To roll the schema back, type yes"), confirm,
    el("div", {}, force, " ", el("label", { for: "force", style: "display:inline" },
      "Force past instances that did not confirm the gate off (frozen or cut off; the audit names them)")),
    el("button", { type: "button", id: "dry-run" }, "Dry run: show the SQL"),
    el("button", { type: "button", id: "gate-off" }, "Turn the gate off only"),
    el("button", { type: "submit", id: "roll-back", class: "danger" }, "Turn the gate off and roll the schema back"));
  form.querySelector("#dry-run").addEventListener("click", () => run({ dryRun: true, reason: reason.value }, output));
  form.querySelector("#gate-off").addEventListener("click", () => run({ reason: reason.value }, output));
  form.addEventListener("submit", event => {
    event.preventDefault();
    if (confirm.value.trim() !== "yes") {
      showMessage(output, "error", "Type yes in the confirmation field to roll the schema back.");
      return;
    }
    run({ confirm: "yes", reason: reason.value, force: force.checked }, output);
  });
  main.replaceChildren(
    fleetNote(instances) ?? "",
    el("p", {}, "Rollback first turns the incremental gate off for every relay instance (an override, recorded in the flag history), ",
      `waits until every instance has seen it, then rolls the schema back to the Liquibase tag ${tag}. A dry run changes nothing.`),
    el("p", {}, "Tag in the ledger: ", el("strong", { class: present ? "ok" : "bad" }, present ? "present" : "missing")),
    form, output);
}

if (await page()) await render();
