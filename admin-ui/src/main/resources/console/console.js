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
  if (response.status === 401) {
    signOut();
  }
  return { status: response.status, ok: response.ok, json };
}

const PAGES = [
  ["flags.html", "Flags"],
  ["migrations.html", "Migrations and indexes"],
  ["rollback.html", "Rollback"],
  ["bursts.html", "Reset bursts"],
];

// Every page calls this first: no token, back to sign-in; otherwise draw the navigation.
export async function page() {
  if (!token()) {
    location.href = "/console/";
    return null;
  }
  const who = await api("/api/whoami");
  if (!who.ok) {
    return null;
  }
  const current = location.pathname.split("/").pop();
  const nav = document.querySelector("nav");
  nav.setAttribute("aria-label", "Console pages");
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
  nav.replaceChildren(list);
  document.querySelector(".who").textContent = "Signed in as " + who.json.operator;
  return who.json.operator;
}

// Builds elements without innerHTML so nothing from the database is ever parsed as markup.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
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

export function when(instant) {
  return instant ? new Date(instant).toLocaleString() : "";
}

export function showMessage(container, kind, text, items = []) {
  container.replaceChildren(el("div", { class: kind, role: kind === "error" ? "alert" : "status" },
    el("p", {}, text), items.length ? el("ul", {}, items.map(i => el("li", {}, i))) : null));
}
