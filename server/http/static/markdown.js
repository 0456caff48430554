// A small markdown renderer for reviews that builds DOM nodes (never innerHTML), so review
// text cannot inject markup. Blocks: headings, fenced code, lists, quotes, rules, paragraphs.
// Inline: code, **bold**, *italic*, [text](http link) and limpet references [`file:line`][].

const REF = /^\[(`?)([^\[\]`\s][^\[\]`\n]*?):(\d{1,9})(?:-(\d{1,9}))?\1\]\[\]/;
const INLINE = /\[`?[^\[\]\n]+?`?\]\[\]|`[^`\n]+`|\*\*[^*\n]+\*\*|\*[^*\n]+\*|_[^_\n]+_|\[[^\]\n]+\]\([^)\s]+\)/g;

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function inline(parent, text, makeRef) {
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) parent.append(text.slice(last, m.index));
    const tok = m[0];
    const ref = REF.exec(tok);
    if (ref) {
      const label = ref[4] ? `${ref[2]}:${ref[3]}-${ref[4]}` : `${ref[2]}:${ref[3]}`;
      parent.append(makeRef(label));
    } else if (tok.startsWith("`")) parent.append(el("code", null, tok.slice(1, -1)));
    else if (tok.startsWith("**")) inline(parent.appendChild(el("strong")), tok.slice(2, -2), makeRef);
    else if (tok.startsWith("*") || tok.startsWith("_")) inline(parent.appendChild(el("em")), tok.slice(1, -1), makeRef);
    else if (tok.startsWith("[")) {
      const [, label, href] = /^\[([^\]]+)\]\(([^)]+)\)$/.exec(tok);
      if (/^(https?:|mailto:)/i.test(href)) {
        const a = el("a", null, label);
        a.href = href;
        a.rel = "noopener noreferrer";
        a.target = "_blank";
        parent.append(a);
      } else parent.append(tok);
    } else parent.append(tok);
    last = m.index + tok.length;
  }
  if (last < text.length) parent.append(text.slice(last));
}

// makeRef(label) -> Node: the caller decides what a reference looks like and does.
export function renderMarkdown(source, makeRef) {
  const root = document.createDocumentFragment();
  const lines = source.replace(/\r\n/g, "\n").split("\n");
  let para = [];
  let list = null;
  const endPara = () => {
    if (para.length) { inline(root.appendChild(el("p")), para.join(" "), makeRef); para = []; }
  };
  const endList = () => { list = null; };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if ((m = /^ {0,3}(```|~~~)/.exec(line))) {
      endPara(); endList();
      const code = [];
      for (i++; i < lines.length && !lines[i].trim().startsWith(m[1]); i++) code.push(lines[i]);
      root.appendChild(el("pre")).appendChild(el("code", null, code.join("\n")));
    } else if ((m = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line))) {
      endPara(); endList();
      inline(root.appendChild(el(`h${Math.min(m[1].length + 1, 6)}`)), m[2], makeRef);
    } else if ((m = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line))) {
      endPara();
      const ordered = /\d/.test(m[1]);
      if (!list || list.ordered !== ordered) list = { node: root.appendChild(el(ordered ? "ol" : "ul")), ordered };
      inline(list.node.appendChild(el("li")), m[2], makeRef);
    } else if ((m = /^\s*>\s?(.*)$/.exec(line))) {
      endPara(); endList();
      inline(root.appendChild(el("blockquote")), m[1], makeRef);
    } else if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endPara(); endList();
      root.appendChild(el("hr"));
    } else if (!line.trim()) {
      endPara(); endList();
    } else {
      endList();
      para.push(line.trim());
    }
  }
  endPara();
  return root;
}
