// The open file: its code (highlighted by the server), threads beside their lines, orphans of
// this file below, selecting lines (reported for get_selection) and the new-thread form, which
// opens right under the selected lines so it never covers other threads.
import { focusCard } from "./keys.js";
import { state, ui } from "./state.js";
import { fillMoveForms, threadCard } from "./threads.js";
import { $, api, el, op, rendered, say } from "./util.js";

const addForm = $("add-form");

export function filters() {
  const args = {};
  for (const key of ["status", "tag", "author"]) {
    const value = $(`filter-${key}`).value.trim();
    if (value) args[key] = value;
  }
  return args;
}

export async function openFile(path, line) {
  if (path !== state.file) {
    state.file = path;
    state.selStart = state.selEnd = null;
    addForm.hidden = true;
    report(null);  // the page now shows this file (get_selection's activeFile)
  }
  $("home").hidden = true;
  $("file").hidden = false;
  await loadFile();
  if (line) scrollToLine(line);
}

export async function loadFile() {
  const path = state.file;
  if (!path) return;
  const view = await api(`/api/view?${new URLSearchParams({ path, ...filters() })}`);
  if (path !== state.file) return;
  state.view = view;
  $("file-title").textContent = path;
  $("file-summary").textContent = view.missing ? "(deleted: its threads are kept)"
    : view.binary ? "(binary file)" : view.too_large ? "(too large to show)"
      : `${view.lines.length} lines · ${view.language} · ${view.count} threads, ${view.open} open`;
  keepingForms(renderCode);
  focusPending();
}

export function focusPending() {
  if (!state.focusId) return;
  const card = document.querySelector(`article.thread[data-id="${CSS.escape(state.focusId)}"]`);
  if (card) {
    state.focusId = null;
    focusCard(card);
  }
}

export function renderCode() {
  const view = state.view;
  if (!view) return;
  const byEnd = new Map();
  const orphans = [];
  const marked = new Map();
  for (const t of view.threads) {
    if (t.health === "orphaned" || t.line_end > view.lines.length) { orphans.push(t); continue; }
    if (!byEnd.has(t.line_end)) byEnd.set(t.line_end, []);
    byEnd.get(t.line_end).push(t);
    for (let n = t.line_start; n <= t.line_end; n++) if (marked.get(n) !== "drifted") marked.set(n, t.health);
  }
  const frag = document.createDocumentFragment();
  view.html.forEach((markup, i) => {
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
    row.append(gutter, rendered("span", "src", markup));
    frag.append(row);
    if (byEnd.has(n)) {
      const box = el("div", "threads-at");
      box.dataset.after = n;
      for (const t of byEnd.get(n)) box.append(threadCard(t, ui));
      frag.append(box);
    }
  });
  const code = $("code");
  code.replaceChildren(frag);
  if (!view.lines.length) code.append(el("p", "muted empty", view.error || "Nothing to show."));
  placeAddForm();
  const fileOrphans = $("file-orphans");
  fileOrphans.hidden = orphans.length === 0;
  fileOrphans.replaceChildren(el("h3", null, "Orphaned here (code gone)"), ...orphans.map((t) => threadCard(t, ui)));
}

// Re-rendering must not eat a reply being typed: keep values and focus of keyed fields, the
// current thread and the scroll position.
export function keepingForms(render) {
  const values = new Map();
  for (const f of document.querySelectorAll("#source [data-key]")) values.set(f.dataset.key, f.value);
  const active = document.activeElement;
  const focusedKey = active && active.dataset ? active.dataset.key : null;
  const current = document.querySelector("article.thread.current");
  const currentId = current ? current.dataset.id : null;
  const focusedCard = active && active.matches && active.matches("article.thread");
  const main = $("source");
  const scroll = main.scrollTop;
  render();
  for (const f of document.querySelectorAll("#source [data-key]")) {
    if (values.has(f.dataset.key)) f.value = values.get(f.dataset.key);
  }
  const card = currentId && document.querySelector(`article.thread[data-id="${CSS.escape(currentId)}"]`);
  if (card) card.classList.add("current");
  if (focusedKey) document.querySelector(`[data-key="${CSS.escape(focusedKey)}"]`)?.focus({ preventScroll: true });
  else if (focusedCard && card) card.focus({ preventScroll: true });
  main.scrollTop = scroll;
}

export function scrollToLine(line) {
  const row = $(`L${line}`);
  if (!row) return;
  row.scrollIntoView({ block: "center" });
  row.classList.remove("flash");
  void row.offsetWidth;
  row.classList.add("flash");
  row.focus({ preventScroll: true });
}

// -- selecting lines, adding threads ----------------------------------------------------------
function markLines(start, end) {
  state.selStart = Math.min(start, end);
  state.selEnd = Math.max(start, end);
  for (const row of document.querySelectorAll("#code .row")) {
    const n = +row.dataset.line;
    row.classList.toggle("sel", n >= state.selStart && n <= state.selEnd);
  }
  $("add-where").textContent = `${state.file}, lines ${state.selStart}–${state.selEnd}`;
}

function placeAddForm() {
  if (addForm.hidden || !state.selEnd) return;
  const row = $(`L${Math.min(state.selEnd, state.view ? state.view.lines.length : state.selEnd)}`);
  if (row && row.nextSibling !== addForm) row.after(addForm);
}

export function setSelection(start, end) {
  markLines(start, end);
  fillMoveForms(ui);
  $("add-start").value = state.selStart;
  $("add-end").value = state.selEnd;
  addForm.hidden = false;
  placeAddForm();
}

export function openAdd() {
  if (!state.file || !state.view) return;
  setSelection(state.selStart || 1, state.selEnd || state.selStart || 1);
  $("add-body").focus();
}

export function closeAdd() {
  addForm.hidden = true;
  $("source").append(addForm);  // out of the code, so a re-render leaves it alone
}

function lineOf(node) {
  const elem = node && (node.nodeType === 1 ? node : node.parentElement);
  if (!elem || !$("code").contains(elem) || addForm.contains(elem)) return null;
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

export async function report(selection) {
  const body = { selection, active_file: state.file };
  const key = JSON.stringify(body);
  if (key === state.reported) return;
  state.reported = key;
  await api("/api/selection", body).catch((e) => say(e.message, true));
}

export function onSelectionChange() {
  const sel = window.getSelection();
  if (!sel || sel.isCollapsed || !sel.rangeCount) {
    if (!addForm.contains(document.activeElement)) report(null);
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

export function onGutterClick(event) {
  const gutter = event.target.closest(".ln");
  if (!gutter || !state.file || !$("code").contains(gutter)) return;
  const n = +gutter.dataset.n;
  if (event.shiftKey && state.selStart) setSelection(state.selStart === n ? n : state.selStart, n);
  else setSelection(n, n);
  const text = state.view.lines.slice(state.selStart - 1, state.selEnd).join("\n");
  report({ file: state.file, line_start: state.selStart, line_end: state.selEnd, text });
  $("add-body").focus();
}

export async function onAdd(event) {
  event.preventDefault();
  const args = {
    file: state.file, line_start: +$("add-start").value, line_end: +$("add-end").value,
    body: $("add-body").value, tag: $("add-tag").value, author: $("me").value.trim() || "human", author_type: "human",
  };
  try {
    const { thread } = await op("comment_add", args);
    $("add-body").value = "";
    closeAdd();
    say(`Thread added on lines ${thread.line_start}–${thread.line_end}`);
    state.focusId = thread.id;
    await ui.refresh();
  } catch (e) {
    say(e.message, true);
  }
}

export function installSource() {
  addForm.addEventListener("submit", onAdd);
  $("add-cancel").addEventListener("click", closeAdd);
  for (const id of ["add-start", "add-end"]) {
    $(id).addEventListener("change", () => { markLines(+$("add-start").value || 1, +$("add-end").value || 1); placeAddForm(); });
  }
  $("new-thread").addEventListener("click", openAdd);
  $("code").addEventListener("click", onGutterClick);
  ui.selection = () => (state.file && state.selStart ? { file: state.file, start: state.selStart, end: state.selEnd } : null);
}
