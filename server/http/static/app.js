// limpet's web page: file tree, source with threads beside their lines, the current review,
// live updates. Uses only the JSON API under /api; builds DOM nodes, never HTML strings.
import { highlightLine, languageOf } from "./highlight.js";
import { renderMarkdown } from "./markdown.js";
import { threadCard } from "./threads.js";

const $ = (id) => document.getElementById(id);
const state = { file: null, lines: [], threads: [], selStart: null, selEnd: null, review: null, reported: "null" };

// -- API --------------------------------------------------------------------------------------
export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  };
  const res = await fetch(path, { credentials: "same-origin", ...init });
  const data = await res.json().catch(() => ({}));
  if (!res.ok || data.error) {
    const err = data.error || {};
    throw new Error(err.message || (typeof err === "string" ? err : `HTTP ${res.status}`));
  }
  return data;
}

export async function op(name, args) {
  return (await api(`/api/ops/${name}`, args)).result;
}

export function say(message, isError = false) {
  const box = $("status");
  box.textContent = message;
  box.className = isError ? "toast error" : "toast";
  clearTimeout(say.timer);
  say.timer = setTimeout(() => { box.textContent = ""; }, isError ? 8000 : 3000);
}

export function me() {
  return $("me").value.trim() || "human";
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function debounce(fn, ms) {
  let timer;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

// -- file tree --------------------------------------------------------------------------------
async function loadTree() {
  const data = await api("/api/files");
  $("workspace-name").textContent = data.workspace;
  const root = { dirs: new Map(), files: [] };
  for (const f of data.files) {
    const parts = f.path.split("/");
    let node = root;
    for (const dir of parts.slice(0, -1)) {
      if (!node.dirs.has(dir)) node.dirs.set(dir, { dirs: new Map(), files: [] });
      node = node.dirs.get(dir);
    }
    node.files.push({ ...f, name: parts[parts.length - 1] });
  }
  const tree = $("tree");
  const open = new Set([...tree.querySelectorAll("details[open]")].map((d) => d.dataset.dir));
  tree.replaceChildren(renderDir(root, "", open, tree.childElementCount === 0));
}

function hasThreads(node) {
  return node.files.some((f) => f.threads && f.threads.total) || [...node.dirs.values()].some(hasThreads);
}

// First render: top-level folders and folders holding threads start open; later renders keep
// whatever the reader opened or closed.
function renderDir(node, prefix, open, first) {
  const ul = el("ul", "tree-list");
  for (const [name, child] of [...node.dirs.entries()].sort()) {
    const path = prefix + name + "/";
    const details = el("details");
    details.dataset.dir = path;
    details.open = first ? (!prefix || hasThreads(child)) : open.has(path);
    details.append(el("summary", null, name + "/"), renderDir(child, path, open, first));
    ul.appendChild(el("li")).append(details);
  }
  for (const f of node.files) ul.appendChild(el("li")).append(fileButton(f));
  return ul;
}

function fileButton(f) {
  const c = f.threads || {};
  const button = el("button", "file");
  button.type = "button";
  button.dataset.path = f.path;
  if (f.path === state.file) button.setAttribute("aria-current", "page");
  button.append(el("span", "name", f.name));
  if (c.total) {
    const health = c.open_orphaned ? "orphaned" : c.open_drifted ? "drifted" : c.open ? "anchored" : "closed";
    const badge = el("span", `count health-${health}`, String(c.total));
    const words = [`${c.total} thread${c.total > 1 ? "s" : ""}`, `${c.open || 0} open`];
    if (c.drifted) words.push(`${c.drifted} drifted`);
    if (c.orphaned) words.push(`${c.orphaned} orphaned`);
    badge.title = words.join(", ");
    button.setAttribute("aria-label", `${f.path}: ${words.join(", ")}`);
    button.append(badge);
  }
  if (!f.exists) button.classList.add("gone");
  button.addEventListener("click", () => navigate(f.path));
  return button;
}

// -- source view --------------------------------------------------------------------------------
function filters() {
  const args = {};
  for (const key of ["status", "tag", "author"]) {
    const value = $(`filter-${key}`).value.trim();
    if (value) args[key] = value;
  }
  return args;
}

async function openFile(path, line) {
  if (path !== state.file) {
    state.file = path;
    state.selStart = state.selEnd = null;
    $("add-form").hidden = true;
    $("new-thread").hidden = false;
    report(null);  // the page now shows this file (seed 003's activeFile)
  }
  await loadFile();
  for (const b of document.querySelectorAll("button.file")) {
    b.toggleAttribute("aria-current", b.dataset.path === path);
  }
  if (line) scrollToLine(line);
}

async function loadFile() {
  const path = state.file;
  if (!path) return;
  const [source, list] = await Promise.all([
    api(`/api/file?path=${encodeURIComponent(path)}`).catch((e) => ({ error: e.message })),
    op("comment_list", { file: path, ...filters() }),
  ]);
  if (path !== state.file) return;
  state.lines = source.text != null ? source.text.replace(/\n$/, "").split("\n") : [];
  state.threads = list.threads;
  $("file-title").textContent = path;
  const open = list.threads.filter((t) => t.status === "open").length;
  $("file-summary").textContent = source.error ? `(${source.error})`
    : source.binary ? "(binary file)" : `${state.lines.length} lines · ${list.count} threads, ${open} open`;
  keepingForms(() => renderCode());
}

function renderCode() {
  const code = $("code");
  const lang = languageOf(state.file || "");
  const byEnd = new Map();
  const orphans = [];
  for (const t of state.threads) {
    if (t.health === "orphaned" || t.line_end > state.lines.length) { orphans.push(t); continue; }
    if (!byEnd.has(t.line_end)) byEnd.set(t.line_end, []);
    byEnd.get(t.line_end).push(t);
  }
  const marked = new Map();
  for (const t of state.threads) {
    if (t.health === "orphaned") continue;
    for (let n = t.line_start; n <= t.line_end; n++) marked.set(n, t.health);
  }
  const frag = document.createDocumentFragment();
  let hl = null;
  state.lines.forEach((text, i) => {
    const n = i + 1;
    const row = el("div", "row");
    row.dataset.line = n;
    row.id = `L${n}`;
    row.tabIndex = -1;
    if (marked.has(n)) row.classList.add("has-thread", `mark-${marked.get(n)}`);
    if (state.selStart && n >= state.selStart && n <= state.selEnd) row.classList.add("sel");
    const gutter = el("span", "ln");
    gutter.dataset.n = n;
    gutter.setAttribute("aria-hidden", "true");
    const result = highlightLine(text, lang, hl);
    hl = result.state;
    const src = el("span", "src");
    src.append(...result.nodes);
    row.append(gutter, src);
    frag.append(row);
    if (byEnd.has(n)) {
      const box = el("div", "threads-at");
      box.dataset.after = n;
      for (const t of byEnd.get(n)) box.append(threadCard(t, refresh));
      frag.append(box);
    }
  });
  code.replaceChildren(frag);
  const fileOrphans = $("file-orphans");
  fileOrphans.hidden = orphans.length === 0;
  fileOrphans.replaceChildren(el("h3", null, "Orphaned here (code gone)"), ...orphans.map((t) => threadCard(t, refresh)));
}

// Re-rendering must not eat a reply being typed: keep values and focus of keyed fields.
function keepingForms(render) {
  const values = new Map();
  for (const f of document.querySelectorAll("[data-key]")) values.set(f.dataset.key, f.value);
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  const main = $("source");
  const scroll = main.scrollTop;
  render();
  for (const f of document.querySelectorAll("[data-key]")) {
    if (values.has(f.dataset.key)) f.value = values.get(f.dataset.key);
  }
  if (focused) document.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
  main.scrollTop = scroll;
}

function scrollToLine(line) {
  const row = $(`L${line}`);
  if (!row) return;
  row.scrollIntoView({ block: "center" });
  row.classList.remove("flash");
  void row.offsetWidth;
  row.classList.add("flash");
  row.focus({ preventScroll: true });
}

// -- selecting lines, adding threads ----------------------------------------------------------------
function markLines(start, end) {
  state.selStart = Math.min(start, end);
  state.selEnd = Math.max(start, end);
  for (const row of document.querySelectorAll("#code .row")) {
    const n = +row.dataset.line;
    row.classList.toggle("sel", n >= state.selStart && n <= state.selEnd);
  }
  $("add-where").textContent = `${state.file}, lines ${state.selStart}–${state.selEnd}`;
}

function setSelection(start, end) {
  markLines(start, end);
  $("add-start").value = state.selStart;
  $("add-end").value = state.selEnd;
  $("add-form").hidden = false;
}

function lineOf(node) {
  const elem = node && (node.nodeType === 1 ? node : node.parentElement);
  if (!elem || !$("code").contains(elem)) return null;
  const row = elem.closest(".row");
  if (row) return +row.dataset.line;
  const box = elem.closest(".threads-at");
  return box ? +box.dataset.after : null;
}

function selectedText(range, first, last) {
  const parts = [];
  for (let n = first; n <= last; n++) {
    const src = $(`L${n}`)?.querySelector(".src");
    if (!src) continue;
    const r = document.createRange();
    r.selectNodeContents(src);
    if (n === first && src.contains(range.startContainer)) r.setStart(range.startContainer, range.startOffset);
    if (n === last && src.contains(range.endContainer)) r.setEnd(range.endContainer, range.endOffset);
    parts.push(r.toString());
  }
  return parts.join("\n");
}

async function report(selection) {
  const body = { selection, active_file: state.file };
  const key = JSON.stringify(body);
  if (key === state.reported) return;
  state.reported = key;
  await api("/api/selection", body).catch((e) => say(e.message, true));
}

function onSelectionChange() {
  const sel = window.getSelection();
  if (!sel || sel.isCollapsed || !sel.rangeCount) {
    if (!$("add-form").contains(document.activeElement)) report(null);
    return;
  }
  const range = sel.getRangeAt(0);
  let first = lineOf(range.startContainer);
  let last = lineOf(range.endContainer);
  if (first === null || last === null) return;
  let text = selectedText(range, first, last);
  if (last > first && range.endOffset === 0 && text.endsWith("\n")) { last -= 1; text = text.slice(0, -1); }
  if (!text.trim()) return;
  setSelection(first, last);
  report({ file: state.file, line_start: first, line_end: last, text });
}

function onGutterClick(event) {
  const gutter = event.target.closest(".ln");
  if (!gutter || !state.file) return;
  const n = +gutter.dataset.n;
  if (event.shiftKey && state.selStart) setSelection(state.selStart === n ? n : state.selStart, n);
  else setSelection(n, n);
  const text = state.lines.slice(state.selStart - 1, state.selEnd).join("\n");
  report({ file: state.file, line_start: state.selStart, line_end: state.selEnd, text });
  $("add-body").focus();
}

async function onAdd(event) {
  event.preventDefault();
  const args = {
    file: state.file, line_start: +$("add-start").value, line_end: +$("add-end").value,
    body: $("add-body").value, tag: $("add-tag").value, author: me(), author_type: "human",
  };
  try {
    const { thread } = await op("comment_add", args);
    $("add-body").value = "";
    $("add-form").hidden = true;
    say(`Thread added on lines ${thread.line_start}–${thread.line_end}`);
    await refresh();
  } catch (e) {
    say(e.message, true);
  }
}

// -- orphans, review ------------------------------------------------------------------------------
async function loadOrphans() {
  const { threads } = await op("comment_list", { health: "orphaned", ...filters() });
  $("orphans-panel").hidden = threads.length === 0;
  $("orphans").replaceChildren(...threads.map((t) => {
    const button = el("button", "link", `${t.file}:${t.line_start} — ${t.comments[0]?.body.split("\n")[0] || ""}`);
    button.type = "button";
    button.addEventListener("click", () => navigate(t.file, t.line_start));
    const li = el("li");
    li.append(button);
    return li;
  }));
}

async function loadReview() {
  const review = await api("/api/review");
  state.review = review;
  const box = $("review");
  $("review-meta").textContent = review.updated_at ? `Updated ${review.updated_at}` : "";
  if (!review.content) { box.replaceChildren(el("p", "muted", "No review yet.")); return; }
  const unused = [...review.references];
  box.replaceChildren(renderMarkdown(review.content, (label) => {
    const i = unused.findIndex((r) => r.text === label);
    const ref = i >= 0 ? unused.splice(i, 1)[0] : null;
    const button = el("button", `ref health-${ref ? ref.health : "orphaned"}`, label);
    button.type = "button";
    if (!ref) { button.disabled = true; return button; }
    const moved = ref.file !== label.split(":")[0] || String(ref.line) !== label.split(":").pop().split("-")[0];
    if (moved) button.append(el("span", "now", ` → ${ref.file}:${ref.line}`));
    button.title = ref.health === "orphaned" ? "Orphaned: this code is gone (last known place)"
      : `${ref.health}: now ${ref.file}:${ref.line}`;
    button.addEventListener("click", () => navigate(ref.file, ref.line));
    return button;
  }));
}

// -- navigation, live updates --------------------------------------------------------------------------
function navigate(file, line) {
  const hash = `#${encodeURIComponent(file)}${line ? `:${line}` : ""}`;
  if (location.hash === hash) route();
  else location.hash = hash;
}

function route() {
  const m = /^#(.+?)(?::(\d+))?$/.exec(location.hash);
  if (m) openFile(decodeURIComponent(m[1]), m[2] ? +m[2] : null).catch((e) => say(e.message, true));
}

export async function refresh() {
  await Promise.all([loadTree(), loadOrphans(), loadFile(), loadReview()]).catch((e) => say(e.message, true));
}

function connect() {
  const live = $("live");
  const events = new EventSource("/api/events");
  events.addEventListener("ready", () => { live.textContent = "● live"; live.classList.add("on"); });
  events.addEventListener("change", debounce(refresh, 120));
  events.onerror = () => { live.textContent = "● offline"; live.classList.remove("on"); };
}

async function start() {
  const info = await api("/api/info");
  $("me").value = localStorage.getItem("limpet.me") || info.author;
  $("me").addEventListener("change", () => localStorage.setItem("limpet.me", me()));
  $("filters").addEventListener("change", () => { loadFile(); loadOrphans(); });
  $("filters").addEventListener("submit", (e) => e.preventDefault());
  $("filter-author").addEventListener("input", debounce(() => { loadFile(); loadOrphans(); }, 300));
  $("add-form").addEventListener("submit", onAdd);
  $("add-cancel").addEventListener("click", () => { $("add-form").hidden = true; });
  for (const id of ["add-start", "add-end"]) {
    $(id).addEventListener("change", () => markLines(+$("add-start").value || 1, +$("add-end").value || 1));
  }
  $("new-thread").addEventListener("click", () => {
    setSelection(state.selStart || 1, state.selEnd || 1);
    $("add-start").focus();
    $("add-start").select();
  });
  $("code").addEventListener("click", onGutterClick);
  document.addEventListener("selectionchange", debounce(onSelectionChange, 150));
  window.addEventListener("hashchange", route);
  await refresh();
  route();
  connect();
  document.body.dataset.ready = "true";
}

start().catch((e) => say(e.message, true));
