// A tiny line-by-line syntax highlighter: comments, strings, numbers, keywords.
// Good enough to read code; it never builds HTML from text (DOM nodes only).

const KEYWORDS = {
  python: "and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return self True try while with yield match case",
  js: "async await break case catch class const continue debugger default delete do else export extends false finally for from function if import in instanceof let new null of return static super switch this throw true try typeof undefined var void while with yield interface type enum implements private public protected readonly as",
  go: "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false",
  rust: "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while",
  c: "auto break case char class const continue default delete do double else enum extern float for goto if inline int long namespace new private protected public return short signed sizeof static struct switch template this throw try typedef union unsigned using virtual void volatile while bool true false null nullptr final abstract extends implements import package interface boolean byte String var val fun object override",
  ruby: "alias and begin break case class def defined do else elsif end ensure false for if in module next nil not or redo rescue retry return self super then true undef unless until when while yield require",
  shell: "if then else elif fi case esac for while until do done in function return local export echo exit",
};

const FAMILY = {
  py: "python", pyi: "python", js: "js", mjs: "js", cjs: "js", jsx: "js", ts: "js", tsx: "js",
  go: "go", rs: "rust", c: "c", h: "c", cc: "c", cpp: "c", hpp: "c", cs: "c", java: "c", kt: "c",
  scala: "c", swift: "c", dart: "c", php: "c", zig: "c", rb: "ruby", sh: "shell", bash: "shell",
  zsh: "shell", lua: "shell", ex: "ruby", exs: "ruby",
};

const HASH_COMMENT = new Set(["python", "ruby", "shell"]);

export function languageOf(path) {
  const ext = (path.split(".").pop() || "").toLowerCase();
  return FAMILY[ext] || null;
}

function span(cls, text) {
  const el = document.createElement("span");
  el.className = cls;
  el.textContent = text;
  return el;
}

// Returns {nodes, state}: state carries an open block comment / triple-quoted string.
export function highlightLine(line, lang, state) {
  const nodes = [];
  if (!lang) return { nodes: [document.createTextNode(line)], state: null };
  const words = new Set((KEYWORDS[lang] || "").split(" "));
  let i = 0;
  let plain = "";
  const flush = () => { if (plain) { nodes.push(document.createTextNode(plain)); plain = ""; } };
  if (state) {
    const end = line.indexOf(state.close);
    const stop = end < 0 ? line.length : end + state.close.length;
    nodes.push(span(state.cls, line.slice(0, stop)));
    if (end < 0) return { nodes, state };
    i = stop;
    state = null;
  }
  while (i < line.length) {
    const rest = line.slice(i);
    const ch = line[i];
    let m;
    if ((HASH_COMMENT.has(lang) && ch === "#") || (!HASH_COMMENT.has(lang) && rest.startsWith("//"))
        || (lang === "shell" && rest.startsWith("--"))) {
      flush(); nodes.push(span("tok-comment", rest)); break;
    }
    const block = lang === "python" ? ['"""', "'''"].find((q) => rest.startsWith(q))
      : (!HASH_COMMENT.has(lang) && rest.startsWith("/*") ? "/*" : null);
    if (block) {
      flush();
      const close = block === "/*" ? "*/" : block;
      const cls = block === "/*" ? "tok-comment" : "tok-string";
      const end = line.indexOf(close, i + block.length);
      if (end < 0) { nodes.push(span(cls, rest)); return { nodes, state: { close, cls } }; }
      nodes.push(span(cls, line.slice(i, end + close.length)));
      i = end + close.length;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === "`") {
      flush();
      let j = i + 1;
      while (j < line.length && line[j] !== ch) j += line[j] === "\\" ? 2 : 1;
      nodes.push(span("tok-string", line.slice(i, j + 1)));
      i = j + 1;
      continue;
    }
    if ((m = /^\d[\d_]*(\.\d+)?([eE][+-]?\d+)?/.exec(rest)) && !/[\w$]/.test(line[i - 1] || "")) {
      flush(); nodes.push(span("tok-number", m[0])); i += m[0].length; continue;
    }
    if ((m = /^[A-Za-z_$][\w$]*/.exec(rest))) {
      if (words.has(m[0])) { flush(); nodes.push(span("tok-keyword", m[0])); }
      else plain += m[0];
      i += m[0].length;
      continue;
    }
    plain += ch;
    i += 1;
  }
  flush();
  return { nodes, state };
}
