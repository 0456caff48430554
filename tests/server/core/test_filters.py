"""Listing one file checks only the filter's other criteria on that file's threads: the file
was chosen by the store's index, so a page of a big file never looks at every thread."""

from __future__ import annotations

from limpet.server.core import ThreadFilter


def _add(service, file, line, tag, author="ai"):
    return service.add(file, line, line, f"note on {file}:{line}", tag=tag, author=author)


def test_a_file_filter_alone_lists_every_thread_of_the_file(service):
    mine = [_add(service, "src/auth.py", line, "TODO") for line in (3, 10, 12)]
    _add(service, "src/app.ts", 1, "TODO")
    assert [t.id for t in service.threads(ThreadFilter(file="src/auth.py"))] == [t.id for t in mine]


def test_a_file_filter_with_other_criteria_still_applies_them(service):
    todo = _add(service, "src/auth.py", 3, "TODO")
    _add(service, "src/auth.py", 10, "NOTE")
    by_bob = _add(service, "src/auth.py", 12, "NOTE", author="bob")
    _add(service, "src/app.ts", 1, "NOTE")
    assert [t.id for t in service.threads(ThreadFilter(file="src/auth.py", tag="TODO"))] == [todo.id]
    assert [t.id for t in service.threads(ThreadFilter(file="src/auth.py", author="bob"))] == [by_bob.id]
    assert service.threads(ThreadFilter(file="src/auth.py", status="resolved")) == []


def test_apply_with_the_file_chosen_checks_the_rest_only():
    flt = ThreadFilter(file="a.py", tag="TODO")

    class T:  # the filter reads these fields only
        def __init__(self, tag):
            self.tag, self.status, self.author, self.created_at, self.ai_meta = tag, "open", "ai", "", None

    threads = [T("TODO"), T("NOTE")]
    assert list(flt.apply(threads, file_chosen=True)) == threads[:1]
    assert list(ThreadFilter(file="a.py").apply(threads, file_chosen=True)) == threads
