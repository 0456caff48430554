// The start page: where the workspace stands (open, resolved, drifted, orphaned), the files
// with the most open threads, the latest activity, and how to begin.
import { state } from "./state.js";
import { $, api, el, hashOf } from "./util.js";

function stat(label, value, cls) {
  const box = el("div", `stat ${cls || ""}`);
  box.append(el("span", "value", String(value || 0)), el("span", "label", label));
  return box;
}

function threadLink(t) {
  const link = el("a", "recent");
  link.href = hashOf(t.file);
  link.addEventListener("click", () => { state.focusId = t.id; });
  link.append(el("span", `tag tag-${t.tag}`, t.tag), el("span", "title", t.title || "(empty)"),
              el("span", "muted small", ` ${t.file}:${t.line_start} · ${t.status}${t.health !== "anchored" ? ` · ${t.health}` : ""}`
                + ` · ${t.author} · ${t.updated_at.slice(0, 16).replace("T", " ")}`));
  return link;
}

export async function loadHome() {
  const data = await api("/api/summary");
  if (state.file) return;
  const box = $("home");
  const s = data.status || {};
  const h = data.open_health || {};
  const stats = el("div", "stats");
  stats.append(stat("open", s.open, "open"), stat("resolved", s.resolved), stat("won't fix", s.wontfix),
               stat("drifted (open)", h.drifted, "drifted"), stat("orphaned (open)", h.orphaned, "orphaned"));
  const parts = [el("h2", null, data.workspace), stats];
  if (!data.total) {
    parts.push(el("p", null, "No threads yet. Pick a file on the left and select lines to start one, or let an agent "
      + "add them over MCP (limpet mcp-config --host … prints the config for your agent)."));
  } else {
    const files = el("ol", "top-files");
    for (const f of data.files) {
      const link = el("a", "file");
      link.href = hashOf(f.path);
      link.append(el("span", "name", f.path), el("span", "muted small",
        ` ${f.open || 0} open of ${f.total}${f.drifted ? ` · ${f.drifted} drifted` : ""}${f.orphaned ? ` · ${f.orphaned} orphaned` : ""}`));
      files.append(el("li").appendChild(link).parentElement);
    }
    const recent = el("ol", "recent-list");
    for (const t of data.recent) recent.append(el("li").appendChild(threadLink(t)).parentElement);
    const more = data.file_count > data.files.length ? ` (top ${data.files.length} of ${data.file_count})` : "";
    parts.push(el("h3", null, `Files with threads${more}`), files, el("h3", null, "Latest activity"), recent);
  }
  const tips = el("p", "muted small tips");
  tips.append("Select lines in a file (or click a line number, shift-click to extend) to start a thread. "
    + "Keys: j/k next and previous thread, r reply, x resolve, c comment on the selection, / filter files, ? all shortcuts.");
  parts.push(tips);
  box.replaceChildren(...parts);
}
