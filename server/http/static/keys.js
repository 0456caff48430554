// Keyboard: move between threads, act on the current one, close what is open.
// Shortcuts are single keys (no modifier) and never fire while typing in a field, except Esc.
import { $, typing } from "./util.js";

export const SHORTCUTS = [
  ["j / n", "next thread"],
  ["k / p", "previous thread"],
  ["o / Enter", "expand or collapse the current thread"],
  ["r", "reply to the current thread"],
  ["x", "resolve the current thread"],
  ["e", "edit the current thread's first comment"],
  ["m", "move / re-attach the current thread"],
  ["c", "new thread on the selected lines"],
  ["/", "filter files"],
  ["t", "switch the colour theme"],
  ["h", "the start page"],
  ["Esc", "close the form, confirmation or this help"],
  ["?", "show these shortcuts"],
];

export function cards() {
  return [...document.querySelectorAll("#code article.thread, #file-orphans article.thread")];
}

export function currentCard() {
  const active = document.activeElement && document.activeElement.closest
    ? document.activeElement.closest("article.thread") : null;
  return active || document.querySelector("article.thread.current");
}

export function focusCard(card) {
  for (const c of document.querySelectorAll("article.thread.current")) c.classList.remove("current");
  if (!card) return;
  card.classList.add("current");
  card.focus({ preventScroll: true });
  card.scrollIntoView({ block: "center" });
}

function step(delta) {
  const all = cards();
  if (!all.length) return;
  const i = all.indexOf(currentCard());
  focusCard(all[i < 0 ? (delta > 0 ? 0 : all.length - 1) : Math.min(all.length - 1, Math.max(0, i + delta))]);
}

// `page` gives what the keys act on: thread(id), ui, toggle(t), resolve(t), openAdd(), closeForms(), home().
export function installKeys(page) {
  const help = $("help");
  const list = $("help-keys");
  for (const [keys, what] of SHORTCUTS) {
    const row = document.createElement("div");
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = keys;
    dd.textContent = what;
    row.append(dt, dd);
    list.append(row);
  }
  $("help-open").addEventListener("click", () => help.showModal());
  $("help-close").addEventListener("click", () => help.close());

  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") {
      if (help.open) return;  // the dialog closes itself
      if (page.closeForms(event.target)) event.preventDefault();
      return;
    }
    if (typing(event.target) || help.open) return;
    const card = currentCard();
    if (event.key === "Enter" && (!card || event.target !== card)) return;  // Enter on a button is the button's
    const thread = card ? page.thread(card.dataset.id) : null;
    const act = {
      j: () => step(1), n: () => step(1), k: () => step(-1), p: () => step(-1),
      o: () => thread && page.toggle(thread), Enter: () => thread && page.toggle(thread),
      r: () => thread && page.reply(thread), x: () => thread && thread.status === "open" && page.resolve(thread),
      e: () => thread && page.edit(thread), m: () => thread && page.move(thread),
      c: () => page.openAdd(), "/": () => $("file-filter").focus(), t: () => window.limpetTheme.cycle(),
      h: () => page.home(), "?": () => help.showModal(),
    }[event.key];
    if (act) {
      event.preventDefault();
      act();
    }
  });
}
