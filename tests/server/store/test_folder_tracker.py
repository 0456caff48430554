"""The threads folder's change tracker: always right, and cheap for a command that looks once."""

from __future__ import annotations

from limpet.server.store._loaded import ALL, SMALL_FOLDER_BYTES, DirTracker


def _folder(tmp_path, files: int):
    folder = tmp_path / "threads"
    folder.mkdir()
    for i in range(files):
        (folder / f"c_{i:020d}.events.jsonl").write_text("{}\n")
    return folder


def test_a_small_folder_is_watched_from_the_second_look(tmp_path):
    folder = _folder(tmp_path, 3)
    tracker = DirTracker(folder)
    assert tracker.changed() is ALL and tracker.wd is None  # a one-look command loads no inotify
    (folder / "c_1.events.jsonl").write_text("{}\n")
    assert tracker.changed() is ALL  # nothing was watched in between: everything is looked at again
    (folder / "c_2.events.jsonl").write_text("{}\n")
    assert tracker.changed() == {"c_2.events.jsonl"}


def _big_folder(tmp_path):
    folder = _folder(tmp_path, 1)
    big = 0
    while (folder.stat().st_size <= SMALL_FOLDER_BYTES) and big < 20_000:
        (folder / f"c_9{big:020d}.events.jsonl").write_text("")
        big += 1
    return folder


def test_a_big_folder_is_watched_from_the_first_look(tmp_path):
    folder = _big_folder(tmp_path)
    tracker = DirTracker(folder)
    assert tracker.changed() is ALL and tracker.wd is not None
    (folder / "c_1.events.jsonl").write_text("{}\n")
    assert tracker.changed() == {"c_1.events.jsonl"}


def test_a_process_that_looks_once_never_watches(tmp_path):
    """A CLI command reads the store once and exits: even a big folder is not watched (the
    answer is ALL, which the first look is anyway; inotify's import is most of its cost)."""
    folder = _big_folder(tmp_path)
    tracker = DirTracker(folder, watch=False)
    assert tracker.changed() is ALL and tracker.wd is None
    (folder / "c_1.events.jsonl").write_text("{}\n")
    assert tracker.changed() is ALL and tracker.wd is None
