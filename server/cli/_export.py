"""`limpet export` and `limpet import`: the library's export and imports (limpet.Workspace)."""

from __future__ import annotations

import sys

import click
import orjson

from limpet import Workspace
from limpet.exporters import FORMATS, PAIR_LABELS, TASKS
from limpet.model import HEALTHS, IMPORT_FORMATS, STATUSES, TAGS, InvalidArgument, LimpetError
from limpet.server.cli._app import fail
from limpet.server.core import utc_now

__all__ = ["export_cmd", "import_cmd"]


@click.command("export")
@click.option("--format", "-f", "fmt", required=True, type=click.Choice(FORMATS),
              help="Output format.")
@click.option("--output", "-o", required=True,
              help="Output path (a folder for partitioned Parquet; a table's path or URI for delta), or - for "
                   "stdout (text formats).")
@click.option("--workspace", "-w", "workspaces", multiple=True, type=click.Path(file_okay=False),
              help="Workspace(s) to export; repeat to put several into one dataset (default: the current one).")
@click.option("--file", "file_glob", default=None, help="Only threads on files matching this path or glob.")
@click.option("--tag", type=click.Choice(TAGS, case_sensitive=False), default=None)
@click.option("--status", type=click.Choice(STATUSES, case_sensitive=False), default=None)
@click.option("--health", type=click.Choice(HEALTHS, case_sensitive=False), default=None)
@click.option("--author", default=None)
@click.option("--since", default=None,
              help="Only threads changed at or after this ISO 8601 date or time (created, replied, resolved, or "
                   "re-anchored to other lines or health): an incremental export's cursor.")
@click.option("--context-lines", type=click.IntRange(0, 20), default=3, show_default=True,
              help="Lines of code around the anchor (JSONL, Markdown).")
@click.option("--task", type=click.Choice(TASKS), default="comments", show_default=True,
              help="JSONL shape: one comment per record, or code-before / thread / code-after pairs.")
@click.option("--all-pairs", is_flag=True,
              help="review-pairs: every thread, also those whose code did not change (default: changed code only).")
@click.option("--partition-by", default="", help="Parquet only: Hive partitions, e.g. repository,split.")
@click.option("--row-group-size", type=int, default=None, help="Parquet: rows per row group (default 65536).")
@click.option("--splits", default=None,
              help="Shares of repositories in train,validation,test, e.g. 80,10,10 (the default): a repository's "
                   "threads all go to one split.")
@click.option("--storage-option", "storage_options", multiple=True, metavar="KEY=VALUE",
              help="delta: an object store's option as delta-rs names it (e.g. AWS_REGION=eu-west-1); repeatable.")
@click.option("--keep-secrets", is_flag=True,
              help="Training formats (jsonl, parquet, delta) redact secrets by default; keep them as they are.")
@click.option("--label", "labels", multiple=True, type=click.Choice(PAIR_LABELS),
              help="review-pairs: only pairs with this label (repeatable).")
@click.option("--max-chars", type=click.IntRange(min=1), default=None,
              help="review-pairs: only pairs whose prompt and completion are at most this long.")
@click.option("--base", default=None,
              help="github-review: the pull request's base (e.g. origin/main); threads on lines its diff does "
                   "not show go in the review's body, not as comments GitHub would refuse.")
@click.option("--json", "as_json", is_flag=True, help="Print the export summary as JSON.")
@click.pass_context
def export_cmd(ctx, fmt, output, workspaces, file_glob, tag, status, health, author, since, context_lines, task,
               all_pairs, partition_by, row_group_size, splits, storage_options, keep_secrets, labels, max_chars,
               base, as_json) -> None:
    """Export threads as JSON, Markdown, JSONL training data, Parquet, Delta, a GitHub review or SARIF."""
    roots = list(workspaces) or [ctx.find_root().obj["workspace"]]
    try:
        if all_pairs and task != "review-pairs":
            raise InvalidArgument("--all-pairs goes with --task review-pairs", field="all_pairs")
        if output == "-" and not _supports_stdout(fmt):
            raise InvalidArgument(f"{fmt} is a binary format: give a file path with --output", field="output")
        if (labels or max_chars) and task != "review-pairs":
            raise InvalidArgument("--label and --max-chars go with --task review-pairs", field="labels")
        more = {"exported_at": utc_now(), "keep_secrets": keep_secrets, "labels": labels, "max_chars": max_chars,
                "storage_options": _storage(storage_options), **_row_groups(row_group_size), **_shares(splits),
                **({"base": base} if base is not None else {})}
        ws = Workspace(roots[0], one_shot=True)  # the others are opened one at a time: memory of the largest
        filters = {"file": file_glob, "tag": tag, "status": status, "health": health, "author": author, "since": since}
        total = ws.count(**filters) if sys.stderr.isatty() and len(roots) == 1 and not file_glob else 0
        out = sys.stdout.buffer if output == "-" else output
        show_bar = sys.stderr.isatty() and total > 1000
        with click.progressbar(length=total, label="exporting", file=sys.stderr) if show_bar else _NoBar() as bar:
            last = [0]

            def progress(done: int) -> None:
                bar.update(done - last[0])
                last[0] = done

            result = ws.export(fmt, out, workspaces=roots[1:], progress=progress, context_lines=context_lines,
                               task=task, all_pairs=all_pairs, partition_by=partition_by, **filters, **more)
    except LimpetError as exc:
        fail(exc, as_json)
        return
    summary = {"format": result.format, "count": result.count, "bytes": result.bytes_written,
               "path": result.path, "secrets_redacted": result.secrets}
    if result.warnings:
        summary["warnings"] = list(result.warnings)
    if as_json:
        click.echo(orjson.dumps(summary).decode(), err=output == "-")
    elif output != "-":
        click.echo(f"exported {result.count} thread(s) to {output} ({result.bytes_written} bytes)", err=True)
    if result.secrets and not as_json:
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(result.secrets.items()))
        click.echo(f"redacted {sum(result.secrets.values())} secret(s): {kinds}", err=True)
    for warning in () if as_json else result.warnings:
        click.echo(f"warning: {warning}", err=True)


def _storage(pairs: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    out = []
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidArgument(f"--storage-option {pair!r} must be KEY=VALUE", field="storage_options")
        out.append((key, value))
    return tuple(out)


def _row_groups(size: int | None) -> dict[str, int]:
    return {} if size is None else {"row_group_size": size}


def _shares(text: str | None) -> dict[str, tuple[float, ...]]:
    if text is None:
        return {}
    try:
        parts = tuple(float(p) for p in text.split(","))
    except ValueError:
        parts = ()
    if len(parts) != 3 or sum(parts) <= 0 or min(parts) < 0:
        raise InvalidArgument(f"--splits {text!r} must be three shares such as 80,10,10", field="split_shares")
    return {"split_shares": tuple(p / sum(parts) for p in parts)}


def _supports_stdout(fmt: str) -> bool:
    from limpet.exporters import get_exporter

    return get_exporter(fmt).supports_stdout


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n: int) -> None:
        pass


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@click.option("--format", "-f", "fmt", type=click.Choice(IMPORT_FORMATS), default="json", show_default=True,
              help="json: a limpet JSON export; github: a pull request's review comments (docs/github.md).")
@click.option("--workspace", "-w", default=None, type=click.Path(file_okay=False), help="Target workspace.")
@click.option("--review-threads", default=None, type=click.Path(exists=True, dir_okay=False),
              help="github: GraphQL reviewThreads JSON, for which threads are resolved.")
@click.option("--overwrite", is_flag=True, help="json: replace threads whose id exists with other content.")
@click.option("--from", "source", default=None,
              help="json: of an export of several workspaces, import this one's threads (default: the target's own).")
@click.option("--json", "as_json", is_flag=True, help="Print the import summary as JSON.")
@click.pass_context
def import_cmd(ctx, file, fmt, workspace, review_threads, overwrite, source, as_json) -> None:
    """Read a JSON export back (lossless), or a pull request's GitHub review comments."""
    try:
        ws = Workspace(workspace or ctx.find_root().obj["workspace"], one_shot=True)
        if fmt == "github":
            _import_github(ws, file, review_threads, as_json)
            return
        if review_threads:
            raise InvalidArgument("--review-threads goes with --format github", field="review_threads")
        report = ws.import_json(sys.stdin.buffer if file == "-" else file, overwrite=overwrite, source=source)
    except LimpetError as exc:
        fail(exc, as_json)
        return
    if as_json:
        click.echo(orjson.dumps(report.to_dict()).decode())
    else:
        click.echo(f"imported {len(report.imported)}, unchanged {len(report.unchanged)}, "
                   f"conflicts {len(report.conflicts)}")
        for tid in report.conflicts:
            click.echo(f"  conflict (kept existing): {tid}", err=True)
    if report.conflicts and not overwrite:
        sys.exit(1)


def _import_github(ws: Workspace, file: str, review_threads: str | None, as_json: bool) -> None:
    report = ws.import_github(sys.stdin.buffer if file == "-" else file, review_threads)
    if as_json:
        click.echo(orjson.dumps(report.to_dict()).decode())
        return
    click.echo(f"imported {len(report.imported)}, updated {len(report.updated)}, "
               f"unchanged {len(report.unchanged)}, left out {len(report.left_out)}")
    for t in report.imported:
        lines = f"{t['line_start']}" + (f"-{t['line_end']}" if t["line_end"] != t["line_start"] else "")
        was = t["from"]
        first, last = was["lines"]
        origin = (f"line {first}" if first == last else f"lines {first}-{last}") \
            + (f" at {was['commit_id'][:7]}" if was["commit_id"] else "")
        notes = [n for n, on in (("outdated", t["outdated"]), ("whole file: anchored at line 1",
                 t["subject_type"] == "file"), ("LEFT side: deleted lines", t["side"] == "LEFT"),
                 ("its commit is not in this clone: found by its diff hunk",
                  t["placed_on"] == "diff_hunk" and t["side"] != "LEFT"),
                 (t["status"], t["status"] != "open")) if on]
        click.echo(f"  {t['thread_id']}  #{t['comment_id']} -> {t['file']}:{lines} {t['health']}"
                   f"  (from {origin}{'; ' + ', '.join(notes) if notes else ''})")
    for left in report.left_out:
        click.echo(f"  left out #{left['comment_id']} {left['path']}: {left['reason']}", err=True)
