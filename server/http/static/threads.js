// One thread as a card: its comments and decision, and forms to reply, resolve and reopen.
import { me, op, say } from "./app.js";

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function button(text, cls, onClick) {
  const b = el("button", cls, text);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

function field(label, control, key) {
  control.dataset.key = key;
  const wrap = el("label", "inline", label + " ");
  wrap.append(control);
  return wrap;
}

const HEALTH_TEXT = { anchored: "anchored", drifted: "⚠ drifted: the code changed", orphaned: "✖ orphaned: code gone" };

export function threadCard(t, refresh) {
  const card = el("article", `thread health-${t.health} status-${t.status}`);
  card.dataset.id = t.id;
  const where = t.line_start === t.line_end ? `line ${t.line_start}` : `lines ${t.line_start}–${t.line_end}`;
  card.setAttribute("aria-label", `${t.tag} thread on ${where}, ${t.status}, ${t.health}`);

  const head = el("header");
  head.append(el("span", `tag tag-${t.tag}`, t.tag), el("span", `badge health`, HEALTH_TEXT[t.health]),
              el("span", `badge status`, t.status), el("span", "where muted", `${where}${t.symbol ? ` · ${t.symbol}` : ""}`));
  card.append(head);

  const comments = el("ol", "comments");
  for (const c of t.comments) {
    const li = el("li");
    const meta = el("div", "meta");
    meta.append(el("strong", null, c.author), el("span", "muted", ` ${c.author_type} · ${c.created_at}`));
    li.append(meta, el("div", "body", c.body));
    comments.append(li);
  }
  card.append(comments);
  if (t.decision) {
    const d = t.decision;
    card.append(el("p", "decision", `Decision (${d.status}) by ${d.decider}: ${d.summary}`));
  }
  card.append(t.status === "open" ? openActions(t, refresh) : closedActions(t, refresh));
  return card;
}

async function act(name, args, done, refresh) {
  try {
    await op(name, args);
    say(done);
    await refresh();
  } catch (e) {
    say(e.message, true);
  }
}

function openActions(t, refresh) {
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
        async () => { reply.value = ""; await refresh(); });
  });
  const decision = el("input");
  decision.maxLength = 10000;
  const resolveForm = el("form", "resolve");
  const wontfix = button("Won't fix", null, () => resolve(true));
  resolveForm.append(field("Decision", decision, `${t.id}:decision`), el("button", null, "Resolve"), wontfix);
  const resolve = (isWontfix) => {
    const args = { thread_id: t.id, wontfix: isWontfix, author: me() };
    if (decision.value.trim()) args.decision = decision.value.trim();
    act("comment_resolve", args, isWontfix ? "Closed as won't fix" : "Resolved", async () => {
      decision.value = "";
      await refresh();
    });
  };
  resolveForm.addEventListener("submit", (e) => { e.preventDefault(); resolve(false); });
  box.append(replyForm, resolveForm);
  return box;
}

function closedActions(t, refresh) {
  const box = el("div", "actions");
  box.append(button("Reopen", null, () => act("comment_reopen", { thread_id: t.id, author: me() }, "Reopened", refresh)));
  return box;
}
