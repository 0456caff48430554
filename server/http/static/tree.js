// The sidebar: orphaned threads first (they need someone), then the file tree with thread
// counts and health, a filter and a "files with threads" view. The open file is revealed.
import { state } from "./state.js";
import { $, api, el, hashOf, op } from "./util.js";

// The tree arrives a page at a time (a big checkout shows its first files at once), and is
// then patched from change events: only the files a change names, plus the files with
// threads when another process changed threads (which files, the event does not say).
let loading = null;  // the full load in progress, if any (a second call joins it)

export function loadTree() {
  loading = loading || loadAllPages().finally(() => { loading = null; });
  return loading;
}

async function loadAllPages() {
  let files = [];
  let cursor = null;
  let pages = 0;
  do {
    const data = await api(`/api/files?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    $("workspace-name").textContent = data.workspace;
    files = files.concat(data.files);
    cursor = data.nextCursor;
    pages += 1;
    if (pages === 1 || !cursor || pages % 5 === 0) {  // draw early, then now and then
      state.files = files;
      renderTree();
    }
  } while (cursor);
}

export async function updateTree(change) {
  if (change === null || loading) return loadTree();
  const named = [...new Set([...change.files, ...change.saved])];
  if (named.length > 500) return loadTree();
  const rows = new Map();
  if (named.length) {
    const query = named.map((p) => `path=${encodeURIComponent(p)}`).join("&");
    for (const f of (await api(`/api/files?${query}`)).files) rows.set(f.path, f);
  }
  let threaded = null;
  if (change.store) {
    threaded = new Set();
    let cursor = null;
    do {
      const data = await api(`/api/files?threaded=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      for (const f of data.files) { threaded.add(f.path); rows.set(f.path, f); }
      cursor = data.nextCursor;
    } while (cursor);
  }
  patchFiles(rows, threaded);
  renderTree();
}

// rows: the fresh state of some files; threaded (when known): every file that has threads.
function patchFiles(rows, threaded) {
  const kept = [];
  for (const f of state.files) {
    const row = rows.get(f.path) || (threaded && !threaded.has(f.path) && f.threads && f.threads.total
      ? { ...f, threads: {} } : f);
    rows.delete(f.path);
    if (row.exists || (row.threads && row.threads.total)) kept.push(row);
  }
  for (const row of rows.values()) if (row.exists || (row.threads && row.threads.total)) kept.push(row);
  kept.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  state.files = kept;
}

function visible() {
  const needle = state.filter.trim().toLowerCase();
  return state.files.filter((f) => (!state.onlyThreads || (f.threads && f.threads.total))
    && (!needle || f.path.toLowerCase().includes(needle)));
}

export function renderTree() {
  const files = visible();
  const root = { dirs: new Map(), files: [] };
  for (const f of files) {
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
  const narrowed = !!state.filter.trim() || state.onlyThreads;
  const mode = narrowed ? "all" : tree.dataset.rendered ? "kept" : "first";
  tree.replaceChildren(files.length ? renderDir(root, "", open, mode) : el("p", "muted small", "No file matches."));
  tree.dataset.rendered = "true";
  const withThreads = state.files.filter((f) => f.threads && f.threads.total).length;
  $("tree-count").textContent = `${files.length} of ${state.files.length} files · ${withThreads} with threads`;
  if (state.file) reveal(state.file, false);
}

function hasThreads(node) {
  return node.files.some((f) => f.threads && f.threads.total) || [...node.dirs.values()].some(hasThreads);
}

// First render: top-level folders and folders holding threads start open; later renders keep
// what the reader opened or closed; a filtered tree shows every match.
function renderDir(node, prefix, open, mode) {
  const ul = el("ul", "tree-list");
  for (const [name, child] of [...node.dirs.entries()].sort()) {
    const path = prefix + name + "/";
    const details = el("details");
    details.dataset.dir = path;
    details.open = mode === "all" || (mode === "first" ? (!prefix || hasThreads(child)) : open.has(path));
    details.append(el("summary", null, name + "/"), renderDir(child, path, open, mode));
    ul.appendChild(el("li")).append(details);
  }
  for (const f of node.files) ul.appendChild(el("li")).append(fileLink(f));
  return ul;
}

function fileLink(f) {
  const c = f.threads || {};
  const link = el("a", "file");
  link.href = hashOf(f.path);
  link.dataset.path = f.path;
  if (f.path === state.file) link.setAttribute("aria-current", "page");  // see reveal
  link.append(el("span", "name", f.name));
  if (c.total) {
    const health = c.open_orphaned ? "orphaned" : c.open_drifted ? "drifted" : c.open ? "anchored" : "closed";
    const badge = el("span", `count health-${health}`, String(c.total));
    const words = [`${c.total} thread${c.total > 1 ? "s" : ""}`, `${c.open || 0} open`];
    if (c.drifted) words.push(`${c.drifted} drifted`);
    if (c.orphaned) words.push(`${c.orphaned} orphaned`);
    badge.title = words.join(", ");
    link.setAttribute("aria-label", `${f.path}: ${words.join(", ")}`);
    link.append(badge);
  }
  if (!f.exists) link.classList.add("gone");
  return link;
}

// Open the folders down to `path`, mark it current and scroll it into the sidebar's view.
export function reveal(path, scroll = true) {
  for (const a of document.querySelectorAll("#tree a.file")) {
    if (a.dataset.path === path) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const link = document.querySelector(`#tree a.file[data-path="${CSS.escape(path)}"]`);
  if (!link) return;
  for (let d = link.closest("details"); d; d = d.parentElement.closest("details")) d.open = true;
  if (scroll) link.scrollIntoView({ block: "nearest" });
}

export async function loadOrphans(filters) {
  const { threads, nextCursor } = await op("comment_list", { health: "orphaned", limit: 100, ...filters });
  const panel = $("orphans-panel");
  panel.hidden = threads.length === 0;
  $("orphans-title").textContent = `Orphaned threads (${threads.length}${nextCursor ? "+" : ""})`;
  $("orphans").replaceChildren(...threads.map((t) => {
    const link = el("a", "orphan", `${t.file}:${t.line_start}`);
    link.href = hashOf(t.file);
    link.dataset.id = t.id;
    link.append(el("span", "muted", ` — ${(t.comments[0]?.body || "").split("\n")[0].slice(0, 60)}`));
    link.addEventListener("click", () => { state.focusId = t.id; });
    return el("li").appendChild(link).parentElement;
  }));
}
