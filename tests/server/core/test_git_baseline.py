"""A process that never saw the workspace before a change asks git what it was: the files
changed since the version a thread was anchored to are searched first, and their earlier
versions say which symbols are new, as for a process that watched the change."""

from __future__ import annotations

from pathlib import Path

from gitrepo import commit_all, git, git_init
from reanchor_fixtures import parse_fixture

from limpet.model import content_hash
from limpet.server.core import Service
from limpet.server.store import GitHistory

FIXTURES = Path(__file__).parents[2] / "anchoring" / "fixtures" / "reanchor" / "compound"


def _write(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _fixture(name: str) -> dict:
    return parse_fixture(FIXTURES / name)


def test_history_finds_the_commit_that_held_a_version(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _write(root, {"src/a.py": b"x = 1\n", "src/b.py": b"y = 1\n"})
    git_init(root)
    first = git(root, "rev-parse", "HEAD").stdout.strip()
    _write(root, {"src/a.py": b"x = 2\n"})
    commit_all(root, "edit a")
    (root / "src" / "b.py").unlink()
    _write(root, {"src/c.py": b"z = 1\n"})  # untracked
    history = GitHistory.open(root)
    assert history is not None
    assert history.commit_holding("src/a.py", content_hash(b"x = 1\n")) == first
    assert history.commit_holding("src/a.py", content_hash(b"never committed\n")) is None
    assert history.changed_since(first) == {"src/a.py", "src/b.py", "src/c.py"}
    assert history.read(first, "src/b.py") == b"y = 1\n"
    assert history.read(first, "src/c.py") is None
    assert history.read(first, "src") is None  # a folder is no file, and the reader stays in step:
    assert history.read(first, "src/a.py") == b"x = 1\n"
    history.close()


def test_the_version_every_thread_knew_is_their_common_ancestor(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _write(root, {"a.py": b"a = 0\n"})
    git_init(root)
    base = git(root, "rev-parse", "HEAD").stdout.strip()
    commits = []
    for branch in ("one", "two"):
        git(root, "checkout", "-qb", branch, base)
        _write(root, {f"{branch}.py": b"x = 1\n"})
        commit_all(root, branch)
        commits.append(git(root, "rev-parse", "HEAD").stdout.strip())
    history = GitHistory.open(root)
    assert history is not None
    assert history.oldest([commits[0], base]) == base  # in one line: the older
    assert history.oldest(commits) == base  # on two branches: where they part
    assert history.oldest([]) is None
    history.close()


def test_history_of_a_workspace_inside_a_repository(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / "app").mkdir(parents=True)
    _write(repo, {"app/m.py": b"a = 1\n", "other/n.py": b"b = 1\n"})
    git_init(repo)
    base = git(repo, "rev-parse", "HEAD").stdout.strip()
    _write(repo, {"app/m.py": b"a = 2\n", "other/n.py": b"b = 2\n"})
    history = GitHistory.open(repo / "app")
    assert history is not None
    assert history.changed_since(base) == {"m.py"}  # workspace-relative, the workspace only
    assert history.read(base, "m.py") == b"a = 1\n"
    assert history.commit_holding("m.py", content_hash(b"a = 1\n")) == base
    history.close()


def test_no_repository_no_history(tmp_path: Path) -> None:
    assert GitHistory.open(tmp_path) is None


def _twins_after_a_commit(root: Path, name: str, *, with_git: bool,
                          reworded: tuple[tuple[bytes, bytes], ...] = ()) -> tuple[str, tuple]:
    spec = _fixture(name)
    for old, new in reworded:  # words of the after version replaced by others
        spec["after"] = {rel: data.replace(old, new) for rel, data in spec["after"].items()}
    _write(root, spec["before"])
    if with_git:
        git_init(root)
    file, start, end = spec["anchor"]
    thread = Service(root).add(file, start, end, "a note on the twin")
    if with_git:
        commit_all(root, "thread")
    _write(root, spec["after"])
    for rel in spec["deleted"]:
        (root / rel).unlink()
    if with_git:
        commit_all(root, "rename both twins")
    return thread.id, spec["expect"]


def test_a_fresh_process_after_a_commit_follows_renamed_twins(tmp_path: Path) -> None:
    """Two near-twin tests renamed together: only the earlier version tells which new one is
    whose (the claims rule); git gives it to a process that never saw it."""
    for name in ("renamed_edited_twins_python.txt", "renamed_edited_twin_of_twin_python.txt"):
        root = tmp_path / name.removesuffix(".txt")
        root.mkdir()
        tid, (file, start, end, health, _method) = _twins_after_a_commit(root, name, with_git=True)
        got = Service(root).get(tid)  # a fresh service: its index never saw the old version
        assert (got.anchor.file, got.anchor.line_start, got.anchor.line_end, got.health) == (file, start, end, health)


def test_without_git_the_twins_own_words_still_tell_them_apart(tmp_path: Path) -> None:
    """No repository: every file counts as changed and no symbol as old, so no claim tells the
    renamed twins apart; where they differ, the dump test still says `post_dump` and `.dump(`,
    the old test's own words, the load test words it never had: the dump test is its successor."""
    for name in ("renamed_edited_twins_python.txt", "renamed_edited_twin_of_twin_python.txt"):
        root = tmp_path / name.removesuffix(".txt")
        root.mkdir()
        tid, (file, start, end, health, _method) = _twins_after_a_commit(root, name, with_git=False)
        got = Service(root).get(tid)
        assert (got.anchor.file, got.anchor.line_start, got.anchor.line_end, got.health) == (file, start, end, health)


def test_without_git_twins_that_both_left_the_old_words_stay_orphaned(tmp_path: Path) -> None:
    """No repository, and the dump test reworded too (`post_serialize`, `.serialize(`): neither
    twin kept a word of the old test the other lacks, so they are too close to tell apart and the
    thread is orphaned rather than put on either."""
    root = tmp_path / "plain"
    root.mkdir()
    tid, _expect = _twins_after_a_commit(root, "renamed_edited_twins_python.txt", with_git=False,
                                         reworded=((b"post_dump", b"post_serialize"), (b").dump(", b").serialize(")))
    assert Service(root).get(tid).health == "orphaned"


def test_a_server_whose_first_call_writes_still_learns_the_change(tmp_path: Path) -> None:
    """A running service records the workspace at its first write, so that later changes are
    known; threads already stale then must not lose the change they have not been placed for."""
    root = tmp_path / "server"
    root.mkdir()
    tid, (file, start, end, health, _method) = _twins_after_a_commit(
        root, "renamed_edited_twins_python.txt", with_git=True)
    service = Service(root)  # long-running: remembers the workspace from its first write on
    service.add(file, 1, 1, "an unrelated note, written first")
    got = service.get(tid)
    assert (got.anchor.file, got.anchor.line_start, got.anchor.line_end, got.health) == (file, start, end, health)
