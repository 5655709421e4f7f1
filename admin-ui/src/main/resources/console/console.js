// Shared by every console page: the operator token (kept in sessionStorage, sent as a Bearer header,
// never a cookie), the anti-CSRF header the admin port requires on mutations, and the navigation.
const TOKEN_KEY = "buzz-operator-token";

export function token() {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  location.href = "/console/";
}

export async function api(path, { method = "GET", body } = {}) {
  const headers = { "Authorization": "Bearer " + token() };
  if (method !== "GET") {
    headers["X-Buzz-Operator"] = "1";
    headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let json = null;
  try { json = await response.json(); } catch (e) { json = null; }
  // A stored token that is wrong is answered 401, or 429 once this address sent too many wrong ones.
  if (response.status === 401 || (response.status === 429 && json && json.error === "admin_throttled")) {
    signOut();
  }
  const retryAfter = Number(response.headers.get("Retry-After")) || null;
  return { status: response.status, ok: response.ok, json, retryAfter };
}

// What every page shows when the API cannot answer (the database is out, say): the server's own words,
// and that the page tries again by itself, so the operator need not reload during an outage.
export function loadFailed(container, reply, what, retry) {
  const seconds = Math.min(Math.max(reply.retryAfter ?? 5, 1), 30);
  const why = reply.json?.message ?? `HTTP ${reply.status}`;
  container.replaceChildren(el("div", { class: "error", role: "alert", id: "load-failed" },
    el("p", {}, `${what} could not be loaded: ${why}. Trying again every ${seconds} s.`)));
  return setTimeout(retry, seconds * 1000);
}

// The instances a gate flip or a rollback waits for, as GET /api/instances lists them: a stale one will
// not confirm (the flip is refused until forced), a gone one is not counted. Null when all is well.
export function fleetNote(instances) {
  if (!instances.ok) {
    return el("p", { class: "warning", id: "fleet-note" },
      `Fleet unknown (${instances.json?.message ?? `HTTP ${instances.status}`}): a flip may not be confirmed.`);
  }
  const named = views => views.map(v => v.report.instanceId).join(", ");
  const stale = instances.json.instances.filter(v => v.stale && !v.gone);
  const gone = instances.json.instances.filter(v => v.gone);
  if (!stale.length && !gone.length) return null;
  return el("div", { class: "warning", id: "fleet-note", role: "status" },
    stale.length ? el("p", {}, `${stale.length} instance(s) stale (${named(stale)}): frozen or cut off, `
      + "they cannot confirm a gate change; a flip is refused until forced.") : null,
    gone.length ? el("p", {}, `${gone.length} instance(s) gone (${named(gone)}): not counted for confirmations; `
      + "forget them on the Fleet page.") : null);
}

const PAGES = [
  ["fleet.html", "Fleet"],
  ["flags.html", "Flags"],
  ["migrations.html", "Migrations and indexes"],
  ["rollback.html", "Rollback"],
  ["bursts.html", "Reset bursts"],
];

// The header every page shares: the page's name (the part of <title> before " · "), who is signed in,
// and the navigation. Pages hold only their <main>, so the shell is written once, here.
export function shell() {
  const header = document.createElement("header");
  const title = document.createElement("h1");
  title.textContent = document.title.split(" · ")[0];
  const who = document.createElement("p");
  who.className = "who";
  who.setAttribute("aria-live", "polite");
  const nav = document.createElement("nav");
  nav.setAttribute("aria-label", "Console pages");
  header.append(title, who, nav);
  document.body.prepend(header);
  return header;
}

// Every signed-in page calls this first: no token, back to sign-in; otherwise draw the shell.
export async function page() {
  if (!token()) {
    location.href = "/console/";
    return null;
  }
  const header = shell();
  const who = await api("/api/whoami");
  if (!who.ok) {
    return null;
  }
  const current = location.pathname.split("/").pop();
  const list = document.createElement("ul");
  for (const [href, label] of PAGES) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = "/console/" + href;
    link.textContent = label;
    if (href === current) link.setAttribute("aria-current", "page");
    item.append(link);
    list.append(item);
  }
  const out = document.createElement("li");
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Sign out";
  button.addEventListener("click", signOut);
  out.append(button);
  list.append(out);
  header.querySelector("nav").replaceChildren(list);
  header.querySelector(".who").textContent = "Signed in as " + who.json.operator;
  return who.json.operator;
}

// Builds elements without innerHTML so nothing from the database is ever parsed as markup.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    // Through the CSSOM: the Content-Security-Policy refuses style attributes, not style properties.
    else if (key === "style") node.style.cssText = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function table(headers, rows) {
  return el("table", {},
    el("thead", {}, el("tr", {}, headers.map(h => el("th", { scope: "col" }, h)))),
    el("tbody", {}, rows.map(cells => el("tr", {}, cells.map(c => el("td", {}, c))))));
}

// Every time the console shows names its zone (the browser's, e.g. "UTC" or "GMT+1"), so an operator
// comparing it with a log line or a colleague's screen knows which clock it is.
export function when(instant) {
  return instant ? new Date(instant).toLocaleString(undefined, { timeZoneName: "short" }) : "";
}

export function showMessage(container, kind, text, items = []) {
  container.replaceChildren(el("div", { class: kind, role: kind === "error" ? "alert" : "status" },
    el("p", {}, text), items.length ? el("ul", {}, items.map(i => el("li", {}, i))) : null));
}

const SVG = "http://www.w3.org/2000/svg";

// As el(), for SVG charts.
export function svg(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}
