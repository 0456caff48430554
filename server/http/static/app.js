// limpet's web page: the start page, the file tree, the open file with its threads, the
// current review, live updates shared by every tab, keyboard navigation. Talks to /api only.
import { loadHome } from "./home.js";
import { currentCard, focusCard, installKeys } from "./keys.js";
import { connectLive } from "./live.js";
import {
  closeAdd, filters, focusPending, installSource, keepingForms, loadFile, onSelectionChange, openAdd, openFile,
  renderCode,
} from "./source.js";
import { state, ui } from "./state.js";
import { resolveThread, toggleCard } from "./threads.js";
import { loadOrphans, loadTree, renderTree, reveal, updateTree } from "./tree.js";
import { $, api, debounce, el, rendered, say, throttle, typing } from "./util.js";

// -- the review ---------------------------------------------------------------------------------
async function loadReview() {
  const review = await api("/api/review/view");
  const box = $("review");
  $("review-meta").textContent = review.updated_at ? `Updated ${review.updated_at.slice(0, 16).replace("T", " ")}` : "";
  document.querySelector(".layout").classList.toggle("no-review", !!review.empty);
  $("review-title").title = review.empty ? "No review yet: present_review shows one here" : "";
  if (review.empty) { box.replaceChildren(el("p", "muted", "No review yet.")); return; }
  box.replaceChildren(rendered("div", "md", review.html));
}

// -- navigation -----------------------------------------------------------------------------------
function navigate(file, line) {
  const hash = `#${encodeURIComponent(file)}${line ? `:${line}` : ""}`;
  if (location.hash === hash) route();
  else location.hash = hash;
}

function home() {
  state.file = null;
  state.view = null;
  closeAdd();
  $("file").hidden = true;
  $("home").hidden = false;
  reveal("", false);
  return loadHome().catch((e) => say(e.message, true));
}

// `#837668` (a short id, as `limpet list` shows it), `#c_...` or a unique prefix: that thread.
const THREAD_HASH = /^#(c_\d+|\d{6,19})$/;

async function openThread(id) {
  const t = await api(`/api/thread?id=${encodeURIComponent(id)}`);
  state.focusId = t.id;
  location.replace(`#${encodeURIComponent(t.file)}:${t.line}`);
}

function route() {
  const byId = THREAD_HASH.exec(location.hash);
  if (byId) return openThread(byId[1]).catch((e) => say(e.message, true));
  const m = /^#(.+?)(?::(\d+))?$/.exec(location.hash);
  if (!m) return home();
  const path = decodeURIComponent(m[1]);
  return openFile(path, m[2] ? +m[2] : null).then(() => reveal(path)).catch((e) => say(e.message, true));
}

// Links to a thread (orphans, the start page) may point at the file already shown.
function onThreadLink(event) {
  const link = event.target.closest("a[href^='#']");
  if (!link) return;
  if (link.classList.contains("ref")) {  // a review reference: go to its current place
    event.preventDefault();
    navigate(link.dataset.file, +link.dataset.line);
  } else if (link.getAttribute("href") === location.hash) {
    event.preventDefault();
    route();
  }
}

// -- refreshing -----------------------------------------------------------------------------------
export async function refresh() {
  const jobs = [loadTree(), loadOrphans(filters()), loadReview(), state.file ? loadFile() : loadHome()];
  await Promise.all(jobs).catch((e) => say(e.message, true));
}

// What a change touches: the tree and orphans always (counts), the open file when its code
// was saved (re-anchored threads) or its threads changed, the review when it or code changed.
// Drawn 60 ms after a burst starts and at most every 250 ms: agents writing non-stop neither
// starve the page nor see an open page ask the server more than once per 250 ms.
let pending = null;  // changes not drawn yet, merged ("all" after a reconnect: anything may have changed)
const applyChanges = throttle(() => {
  const c = pending === "all" ? null : pending;
  pending = null;
  const jobs = [updateTree(c), loadOrphans(filters())];
  const open = state.file;
  if (!open) jobs.push(loadHome());
  else if (!c || c.store || c.files.includes(open) || c.saved.includes(open)) jobs.push(loadFile());
  if (!c || c.review || c.saved.length) jobs.push(loadReview());
  Promise.all(jobs).catch((e) => say(e.message, true));
}, 60, 250);

function onChange(change) {
  if (change === null || pending === "all") {
    pending = "all";
  } else {
    pending = pending || { files: [], saved: [], store: false, review: false };
    pending.files.push(...change.files);
    pending.saved.push(...change.saved);
    pending.store = pending.store || change.store;
    pending.review = pending.review || change.review;
  }
  applyChanges();
}

function onStatus(status, role) {
  const live = $("live");
  live.textContent = status === "live" ? "● live" : status === "paused" ? "● paused" : "● offline";
  live.classList.toggle("on", status === "live");
  live.title = role === "leader" ? "Live updates (this tab holds the stream for all tabs)"
    : role === "follower" ? "Live updates (shared with the other tabs)" : "Live updates";
}

// -- keyboard and forms -----------------------------------------------------------------------------
function threadById(id) {
  return state.view ? state.view.threads.find((t) => t.id === id) : null;
}

function withCard(t, fn) {
  if (!ui.expanded.has(t.id) && t.status !== "open") ui.expanded.set(t.id, true);
  else if (ui.expanded.get(t.id) === false) ui.expanded.set(t.id, true);
  ui.rerender();
  const card = document.querySelector(`article.thread[data-id="${CSS.escape(t.id)}"]`);
  if (card) fn(card);
}

function closeForms(target) {
  if (typing(target) && !$("add-form").contains(target)) { target.blur(); return true; }
  const had = ui.editing.size + ui.confirming.size + ui.moving.size;
  ui.editing.clear();
  ui.confirming.clear();
  ui.moving.clear();
  const addOpen = !$("add-form").hidden;
  if (addOpen) closeAdd();
  if (had) ui.rerender();
  const card = currentCard();
  if (card) focusCard(card);
  return had > 0 || addOpen;
}

const page = {
  thread: threadById,
  toggle: (t) => toggleCard(t, ui),
  reply: (t) => (t.status === "open" ? withCard(t, (card) => card.querySelector("[data-key$=':reply']")?.focus())
    : say("Reopen the thread to reply", true)),
  resolve: (t) => resolveThread(t, ui),
  edit: (t) => { ui.editing.add(t.id); withCard(t, (card) => card.querySelector("[data-key$=':edit']")?.focus()); },
  move: (t) => { ui.moving.add(t.id); withCard(t, (card) => card.querySelector("[data-key$=':move-file']")?.focus()); },
  openAdd,
  closeForms,
  home: () => { location.hash = ""; home(); },
};

// The vocabulary comes from the server (limpet.model), never spelled here.
function fillOptions(info) {
  const add = (select, values) => select.append(...values.map((v) => el("option", null, v)));
  add($("filter-status"), info.statuses);
  add($("filter-tag"), info.tags);
  add($("add-tag"), ["NOTE", ...info.tags.filter((t) => t !== "NOTE")]);
}

async function start() {
  ui.refresh = refresh;
  ui.rerender = () => keepingForms(renderCode);
  const info = await api("/api/info");
  fillOptions(info);
  $("me").value = localStorage.getItem("limpet.me") || info.author;
  $("me").addEventListener("change", () => localStorage.setItem("limpet.me", $("me").value.trim()));
  $("filters").addEventListener("change", () => { loadFile(); loadOrphans(filters()); });
  $("filters").addEventListener("submit", (e) => e.preventDefault());
  $("filter-author").addEventListener("input", debounce(() => { loadFile(); loadOrphans(filters()); }, 300));
  state.onlyThreads = localStorage.getItem("limpet.onlyThreads") === "1";
  $("only-threads").checked = state.onlyThreads;
  $("only-threads").addEventListener("change", () => {
    state.onlyThreads = $("only-threads").checked;
    localStorage.setItem("limpet.onlyThreads", state.onlyThreads ? "1" : "0");
    renderTree();
  });
  $("file-filter").addEventListener("input", debounce(() => { state.filter = $("file-filter").value; renderTree(); }, 80));
  $("file-filter").addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      const first = document.querySelector("#tree a.file");
      if (first) { e.preventDefault(); first.click(); }
    }
  });
  installSource();
  installKeys(page);
  document.addEventListener("click", onThreadLink);
  document.addEventListener("selectionchange", debounce(onSelectionChange, 150));
  window.addEventListener("hashchange", route);
  // The tree first: its pages never wait for re-anchoring, while the orphans and the review
  // may (a big checkout's first search for orphans' code), and all share the server's worker.
  await loadTree();
  await Promise.all([loadOrphans(filters()), loadReview()]);
  await route();
  connectLive({ onChange, onStatus });
  document.body.dataset.ready = "true";
  focusPending();
}

start().catch((e) => say(e.message, true));
