"""The dataset card of a Parquet export partitioned by split, so `datasets.load_dataset(DIR)`
reads it, split by split, offline.

The Hugging Face `datasets` library (and the Hub) read a folder's README.md front matter:
`configs` names the data files of each split. A folder partitioned by `split` (alone or with
other columns) gets a README.md mapping `train`, `validation` and `test` to their folders (only
the splits that have rows: a split without files is an error there). Other layouts get no card:
`load_dataset` reads them as one `train` split without one, and a file that is not Parquet
among the data makes readers that take the folder whole (pyarrow.dataset, Polars, Spark) try to
read it: with a card, read the folder as `DIR/**/*.parquet` (docs/datasets.md).
"""

from __future__ import annotations

from pathlib import Path

from limpet.exporters._types import SPLITS, ExportOptions

__all__ = ["CARD", "card_text", "write_card"]

CARD = "README.md"


def card_text(present: list[str], options: ExportOptions) -> str:
    prefix = "*/" * options.partition_by.index("split")
    lines = ["---", "configs:", "- config_name: default", "  data_files:"]
    for split in present:
        lines += [f"  - split: {split}", f"    path: \"{prefix}split={split}/**/*.parquet\""]
    lines += [
        "tags:", "- code-review", "- limpet",
        "---", "",
        "# Code review threads (limpet)", "",
        "One row per review thread anchored to source code, written by `limpet export --format parquet`",
        f"(schema `limpet.parquet/2`, Hive-partitioned by {', '.join(options.partition_by)}).",
        "Each row carries `repository`, `commit`, `language` and its split; a repository's rows are all",
        "in one split. Secrets found by detect-secrets are `<SECRET:Type>` placeholders unless the export",
        "kept them. Columns: limpet's docs/export-formats.md. Read the files as `**/*.parquet`.", "",
    ]
    return "\n".join(lines)


def write_card(folder: Path, options: ExportOptions) -> None:
    if "split" not in options.partition_by:
        return
    present = [s for s in SPLITS if any(folder.glob(f"**/split={s}"))]
    (folder / CARD).write_text(card_text(present, options), encoding="utf-8")
