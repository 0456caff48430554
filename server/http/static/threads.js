// One thread as a card: comments (markdown rendered by the server), decision, the code it
// was written against when that code changed or went away, and what can be done with it:
// reply, resolve, reopen, edit, delete, move (re-attach an orphan). Closed threads start
// collapsed. `ui` is the page's state the cards share (which are expanded, edited, ...).
import { state } from "./state.js";
import { button, el, lines, me, op, rendered, say } from "./util.js";

const HEALTH_TEXT = { anchored: "anchored", drifted: "⚠ drifted: the code changed", orphaned: "✖ orphaned: code gone" };

function field(label, control, key) {
  control.dataset.key = key;
  const wrap = el("label", "inline", label + " ");
  wrap.append(control);
  return wrap;
}

export function isExpanded(t, ui) {
  return ui.expanded.has(t.id) ? ui.expanded.get(t.id) : t.status === "open";
}

export function threadCard(t, ui) {
  const expanded = isExpanded(t, ui);
  const card = el("article", `thread health-${t.health} status-${t.status}${expanded ? "" : " collapsed"}`);
  card.dataset.id = t.id;
  card.tabIndex = -1;
  card.setAttribute("aria-label", `${t.tag} thread on ${lines(t.line_start, t.line_end)}, ${t.status}, ${t.health}`);
  card.append(header(t, ui, expanded));
  if (!expanded) return card;
  const body = el("div", "thread-body");
  if (t.written_against !== undefined) body.append(writtenAgainst(t));
  body.append(comments(t, ui));
  if (t.decision) {
    const d = t.decision;
    const box = el("div", "decision");
    box.append(el("strong", null, `Decision (${d.status}) by ${d.decider}: `), rendered("div", "md", d.html));
    body.append(box);
  }
  if (ui.confirming.has(t.id)) body.append(confirmDelete(t, ui));
  if (ui.moving.has(t.id) || (t.health === "orphaned" && t.status === "open")) body.append(moveForm(t, ui));
  body.append(t.status === "open" ? openActions(t, ui) : closedActions(t, ui));
  card.append(body);
  return card;
}

function header(t, ui, expanded) {
  const head = el("header");
  const toggle = button(expanded ? "▾" : "▸", "toggle", () => toggleCard(t, ui), `${expanded ? "Collapse" : "Expand"} thread`);
  toggle.setAttribute("aria-expanded", String(expanded));
  const short = el("code", "short-id", t.short_id || t.id);
  short.title = `${t.id} (limpet show ${t.short_id || t.id})`;
  head.append(toggle, short, el("span", `tag tag-${t.tag}`, t.tag), el("span", "badge health", HEALTH_TEXT[t.health]),
              el("span", "badge status", t.status),
              el("span", "where muted", `${lines(t.line_start, t.line_end)}${t.symbol ? ` · ${t.symbol}` : ""}`));
  if (!expanded) {
    const first = t.title || "";
    head.append(el("span", "title", first.length > 90 ? `${first.slice(0, 89)}…` : first));
    if (t.decision) head.append(el("span", "decision-brief", `✓ ${t.decision.summary.split("\n")[0].slice(0, 60)}`));
    head.append(el("span", "muted small", `${t.comments.length} comment${t.comments.length > 1 ? "s" : ""}`));
    return head;
  }
  const tools = el("span", "tools");
  tools.append(button("Edit", "quiet", () => { ui.editing.add(t.id); ui.rerender(); }, "Edit the first comment"),
               button(t.health === "orphaned" ? "Re-attach…" : "Move…", "quiet", () => {
                 ui.moving.add(t.id);
                 ui.rerender();
                 fillMoveForms(ui);
                 document.querySelector(`[data-key="${CSS.escape(`${t.id}:move-file`)}"]`)?.focus();
               }, t.health === "orphaned" ? "Re-attach to code" : "Move to other lines"),
               button("Delete", "quiet danger", () => { ui.confirming.add(t.id); ui.rerender(); }, "Delete thread"));
  head.append(tools);
  return head;
}

export function toggleCard(t, ui) {
  ui.expanded.set(t.id, !isExpanded(t, ui));
  ui.rerender();
}

function writtenAgainst(t) {
  const box = el("details", "written-against");
  box.open = true;
  const w = t.written_against;
  if (!w) {
    box.append(el("summary", null, "The code it was written against was not kept"));
    return box;
  }
  box.append(el("summary", null, `Written against ${w.file}:${w.line_start}–${w.line_end} (${w.at.slice(0, 10)})`));
  const pre = el("pre", "hl snippet");
  w.html.forEach((markup, i) => {
    const row = el("div", "snip-row");
    row.append(el("span", "ln", String(w.line_start + i)), rendered("span", "src", markup));
    pre.append(row);
  });
  box.append(pre);
  return box;
}

function comments(t, ui) {
  const list = el("ol", "comments");
  t.comments.forEach((c, i) => {
    const li = el("li");
    const meta = el("div", "meta");
    meta.append(el("strong", null, c.author), el("span", "muted", ` ${c.author_type} · ${c.created_at.slice(0, 16).replace("T", " ")}`));
    if (c.edited_at) meta.append(el("span", "muted", " · edited"));
    li.append(meta);
    if (i === 0 && ui.editing.has(t.id)) li.append(editForm(t, c, ui));
    else li.append(rendered("div", "md", c.html));
    list.append(li);
  });
  return list;
}

async function act(name, args, done, ui, after) {
  try {
    await op(name, args);
    if (after) after();
    say(done);
    await ui.refresh();
  } catch (e) {
    say(e.message, true);
  }
}

function editForm(t, c, ui) {
  const text = el("textarea");
  text.rows = 4;
  text.maxLength = 10000;
  text.value = c.body;
  const form = el("form", "edit");
  form.append(field("Comment", text, `${t.id}:edit`), el("button", "primary", "Save"),
              button("Cancel", null, () => { ui.editing.delete(t.id); ui.rerender(); }));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    act("edit_comment", { filePath: t.file, commentId: t.id, text: text.value, author: me() }, "Comment edited", ui,
        () => ui.editing.delete(t.id));
  });
  return form;
}

function confirmDelete(t, ui) {
  const box = el("div", "confirm");
  box.setAttribute("role", "alert");
  const replies = t.comments.length - 1;
  box.append(el("span", null, `Delete this thread${replies ? ` and its ${replies} repl${replies > 1 ? "ies" : "y"}` : ""} for good?`),
             button("Delete", "danger", () => act("delete_comment", { filePath: t.file, commentId: t.id, author: me() },
                                                   "Thread deleted", ui, () => ui.confirming.delete(t.id))),
             button("Keep", null, () => { ui.confirming.delete(t.id); ui.rerender(); }));
  return box;
}

function moveForm(t, ui) {
  const form = el("form", "move");
  const sel = ui.selection();
  const file = el("input");
  file.value = sel ? sel.file : t.file;
  file.size = 24;
  const start = el("input");
  const end = el("input");
  // An orphan's last lines may lie past the end of its file now: they fill the form only when
  // the open file still has them; otherwise only a selection does.
  const shown = state.view && state.file === t.file && state.view.lines;
  const orphan = t.health === "orphaned" && !(shown && t.line_end <= shown.length);
  for (const [input, value] of [[start, sel ? sel.start : t.line_start], [end, sel ? sel.end : t.line_end]]) {
    input.type = "number";
    input.min = 1;
    input.required = true;
    if (sel || !orphan) input.value = value;
    else input.placeholder = "select";
  }
  const verb = t.health === "orphaned" ? "Re-attach" : "Move";
  form.append(el("span", "muted small", `${verb} to (select lines in the code to fill these in):`),
              field("File", file, `${t.id}:move-file`), field("lines", start, `${t.id}:move-start`),
              field("to", end, `${t.id}:move-end`), el("button", "primary", verb));
  if (ui.moving.has(t.id)) form.append(button("Cancel", null, () => { ui.moving.delete(t.id); ui.rerender(); }));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    act("move_comment", { commentId: t.id, sourceFile: t.file, targetFile: file.value.trim(),
                          targetLine: +start.value, targetEndLine: +end.value, author: me() },
        `Thread ${verb === "Move" ? "moved" : "re-attached"} to ${file.value.trim()}:${start.value}`, ui,
        () => ui.moving.delete(t.id));
  });
  return form;
}

// Selecting lines fills the open move / re-attach forms ("select lines to fill these in").
export function fillMoveForms(ui) {
  const sel = ui.selection();
  if (!sel) return;
  for (const form of document.querySelectorAll("form.move")) {
    const [file, start, end] = ["move-file", "move-start", "move-end"].map((k) => form.querySelector(`[data-key$=":${k}"]`));
    file.value = sel.file;
    start.value = sel.start;
    end.value = sel.end;
  }
}

export function resolveThread(t, ui, wontfix = false) {
  const decision = document.querySelector(`[data-key="${CSS.escape(`${t.id}:decision`)}"]`);
  const args = { thread_id: t.id, wontfix, author: me() };
  if (decision && decision.value.trim()) args.decision = decision.value.trim();
  return act("comment_resolve", args, wontfix ? "Closed as won't fix" : "Resolved", ui, () => {
    if (decision) decision.value = "";
  });
}

function openActions(t, ui) {
  const box = el("div", "actions");
  const reply = el("textarea");
  reply.rows = 1;
  reply.maxLength = 10000;
  const replyForm = el("form", "reply");
  replyForm.append(field("Reply", reply, `${t.id}:reply`), el("button", null, "Reply"));
  replyForm.addEventListener("submit", (e) => {
    e.preventDefault();
    if (!reply.value.trim()) return say("Write a reply first", true);
    act("comment_reply", { thread_id: t.id, body: reply.value, author: me(), author_type: "human" }, "Reply added",
        ui, () => { reply.value = ""; });
  });
  reply.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); replyForm.requestSubmit(); }
  });
  const decision = el("input");
  decision.maxLength = 10000;
  const resolveForm = el("form", "resolve");
  resolveForm.append(field("Decision", decision, `${t.id}:decision`), el("button", null, "Resolve"),
                     button("Won't fix", null, () => resolveThread(t, ui, true)));
  resolveForm.addEventListener("submit", (e) => { e.preventDefault(); resolveThread(t, ui); });
  box.append(replyForm, resolveForm);
  return box;
}

function closedActions(t, ui) {
  const box = el("div", "actions");
  box.append(button("Reopen", null, () => act("comment_reopen", { thread_id: t.id, author: me() }, "Reopened", ui)));
  return box;
}
