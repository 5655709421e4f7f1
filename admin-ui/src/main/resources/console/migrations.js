import { api, el, loadFailed, page, showMessage, table, when } from "/console/console.js";

const main = document.getElementById("main");
const yes = flag => el("span", { class: flag ? "ok" : "bad" }, flag ? "yes" : "no");

function progress(build) {
  const [done, total] = build.blocksTotal > 0 ? [build.blocksDone, build.blocksTotal] : [build.tuplesDone, build.tuplesTotal];
  const label = `Building ${build.index || "an index"} on ${build.table}: ${build.phase}`;
  return el("div", { class: "card" }, el("label", { for: `build-${build.pid}` }, label),
    el("progress", { id: `build-${build.pid}`, max: Math.max(total, 1), value: done }, `${done} of ${total}`),
    ` ${total > 0 ? Math.round(100 * done / total) : 0}%`);
}

function pendingCard(changeSet, output) {
  const reason = el("input", { type: "text", id: `reason-${changeSet.id}`, required: true });
  const form = el("form", {},
    el("label", { for: `reason-${changeSet.id}` }, "Why you are recording it (audited)"), reason,
    el("button", { type: "submit" }, `Record ${changeSet.id} as executed`));
  form.addEventListener("submit", async event => {
    event.preventDefault();
    const reply = await api("/api/migrations/record", { method: "POST", body: { id: changeSet.id, reason: reason.value } });
    if (reply.ok) {
      await render(`Recorded ${changeSet.id}.`);
    } else {
      showMessage(output, "error", reply.json?.message ?? `refused (${reply.status})`, reply.json?.missing ?? []);
    }
  });
  return el("section", { class: "card" }, el("h3", {}, `${changeSet.author}:${changeSet.id}`),
    el("p", {}, changeSet.filename), el("pre", {}, changeSet.sql.join(";\n") || "(no SQL)"),
    el("p", {}, "Record it only after you ran this SQL yourself; the relay checks the result where it can."), form);
}

// More pending changesets than fit a screen (a rolled-back schema has twenty and more): one line each,
// opened one at a time, so the list shows what is pending and the SQL of the one being read.
const COLLAPSE_ABOVE = 5;

function pendingList(pending, output) {
  if (!pending.length) return el("p", {}, "None: the ledger is up to date.");
  if (pending.length <= COLLAPSE_ABOVE) return pending.map(c => pendingCard(c, output));
  // One flat list: el() flattens its children one level only, and a nested array would be written as text.
  return [el("p", { id: "pending-collapsed" }, `${pending.length} changesets, each collapsed: open one to read its SQL and record it.`),
    ...pending.map(c => el("details", { class: "pending-changeset", id: `pending-${c.id}` },
      el("summary", {}, `${c.author}:${c.id} (${c.sql.length} statement(s), ${c.filename})`), pendingCard(c, output)))];
}

let refresh;

async function render(notice) {
  clearTimeout(refresh);
  const reply = await api("/api/migrations");
  if (!reply.ok) {
    refresh = loadFailed(main, reply, "The migration ledger", () => render());
    return;
  }
  const m = reply.json;
  const output = el("div", { id: "record-output", "aria-live": "polite" });
  main.replaceChildren(
    notice ? el("div", { class: "notice", role: "status" }, notice) : "",
    output,
    el("h2", {}, "Index builds in progress"),
    m.builds.length ? el("div", { id: "builds" }, m.builds.map(progress)) : el("p", { id: "builds" }, "None."),
    el("h2", {}, "Expected indexes"),
    table(["Index", "Table", "Exists", "Valid", "Ready", "Definition matches", "Definition"],
      m.indexes.map(i => [i.name, i.table, yes(i.exists), yes(i.valid), yes(i.ready), yes(i.matches),
        el("code", {}, i.definition ?? i.expected)])),
    el("h3", {}, "Prebuild statements"),
    el("p", {}, "Run these with psql before migrating a populated database; each builds without blocking writes."),
    el("pre", { id: "prebuild" }, m.indexes.map(i => i.prebuild).join("\n")),
    el("h2", {}, `Pending changesets (${m.pending.length})`),
    // One element: replaceChildren takes nodes, and an array passed to it would be written out as text.
    el("div", { id: "pending" },
      pendingList(m.pending, output)),
    el("h2", {}, "Ledger (databasechangelog)"),
    el("p", {}, `Rollback tag ${m.rollbackTag}: `, el("strong", {}, m.rollbackTagPresent ? "present" : "missing")),
    table(["Order", "Id", "Author", "File", "Executed", "Type", "Tag"],
      m.ledger.map(r => [r.orderexecuted, r.id, r.author, r.filename, when(r.dateexecuted), r.exectype, r.tag ?? ""])));
  clearTimeout(refresh);
  // Follow a running build without the operator reloading; stop once none is running.
  if (m.builds.length) refresh = setTimeout(() => render(), 2000);
}

if (await page()) await render();
