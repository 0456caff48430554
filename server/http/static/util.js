// What every part of the page shares: the JSON API, messages, small DOM helpers.
// The page builds DOM nodes from data; the only HTML it inserts is what the server's renderer
// made (markdown-it-py, Pygments: escaped and sanitized there), through `rendered`.

export const $ = (id) => document.getElementById(id);

export function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// Server-rendered HTML only (comment bodies, highlighted code, the review).
export function rendered(tag, cls, markup) {
  const node = el(tag, cls);
  node.innerHTML = markup;
  return node;
}

export function button(text, cls, onClick, label) {
  const b = el("button", cls, text);
  b.type = "button";
  if (label) b.setAttribute("aria-label", label);
  b.addEventListener("click", onClick);
  return b;
}

export function debounce(fn, ms) {
  let timer;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => fn(...args), ms); };
}

// fn once `wait` ms after the first call of a burst, and at most once per `gap` ms: a steady
// stream of calls still runs it (a trailing debounce would wait for the stream to stop).
export function throttle(fn, wait, gap) {
  let timer = null;
  let last = -Infinity;
  return () => {
    if (timer) return;
    const delay = Math.max(wait, last + gap - performance.now());
    timer = setTimeout(() => { timer = null; last = performance.now(); fn(); }, delay);
  };
}

// The server's token for this page, from the page's own HTML: a state-changing call must carry
// it (a page of another origin cannot read it, nor send the header without a preflight).
const TOKEN = document.querySelector('meta[name="limpet-token"]')?.content ?? "";

export async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json", "x-limpet-token": TOKEN },
    body: JSON.stringify(body),
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

export function lines(start, end) {
  return start === end ? `line ${start}` : `lines ${start}–${end}`;
}

export function hashOf(file, line) {
  return `#${encodeURIComponent(file)}${line ? `:${line}` : ""}`;
}

// Typing in a field: page shortcuts must not fire.
export function typing(target) {
  return !!target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}
