"""An anchor's text is compared with every candidate of a step: a long one (a crafted 1 MB
`selected_text` on a function renamed among 1,200 cost ~42 s of CPU) is compared through its
fingerprint and hashes only past MAX_COMPARED_TEXT, and within it is split into lines and words
once, not once a candidate. A thread on a whole large function still follows a rename."""

from __future__ import annotations

import time

import msgspec
import pytest

from limpet.anchoring import create_anchor, reanchor
from limpet.anchoring._fingerprint import blind_similarity, similarity
from limpet.model import MAX_COMPARED_TEXT

FUNCTIONS = 1_200


def _function(i: int, name: str = "f", statements: int = 3) -> str:
    body = "".join(f"    x{k} = helper(a, b, {i}, {k})\n" for k in range(statements))
    return f"def {name}{i:04d}(a, b):\n{body}    return x0\n\n\n"


def _file(target: str, functions: int = FUNCTIONS) -> str:
    return "".join(target if i == functions // 2 else _function(i) for i in range(functions))


def _cpu(anchor, source: str):
    start = time.process_time()
    found = reanchor(anchor, source.encode())
    return time.process_time() - start, found


@pytest.mark.parametrize("change", ["renamed", "deleted"])
def test_a_megabyte_of_selected_text_costs_a_read_no_more_than_an_honest_anchor(change):
    middle = FUNCTIONS // 2
    before = _file(_function(middle))
    after = _file(_function(middle, "g") if change == "renamed" else "")
    line = 1 + 7 * middle
    honest = create_anchor("m.py", before.encode(), line, line + 4)
    hostile = msgspec.structs.replace(honest, selected_text=honest.selected_text + "a b c d\n" * (1 << 17))
    _cpu(honest, after)  # the engine loaded once
    honest_cpu, expected = _cpu(honest, after)
    hostile_cpu, found = _cpu(hostile, after)
    assert hostile_cpu < 3 * honest_cpu + 0.2, f"{hostile_cpu:.2f} s against {honest_cpu:.2f} s"
    assert (found.health, found.anchor.symbol) == (("drifted", "g0600") if change == "renamed" else
                                                   ("orphaned", "f0600"))
    assert expected.anchor.symbol == found.anchor.symbol  # no other winner


def test_a_thread_on_a_function_longer_than_the_budget_follows_its_rename():
    big = _function(0, "big", statements=MAX_COMPARED_TEXT // 30)
    before = _function(1) + big + _function(2)
    anchor = create_anchor("m.py", before.encode(), 8, 5 + big.count("\n"))
    assert anchor.symbol == "big0000" and len(anchor.selected_text) > MAX_COMPARED_TEXT
    moved = _function(1) + _function(3) + big.replace("def big0000", "def large0000")
    found = reanchor(anchor, moved.encode())
    assert (found.method, found.anchor.symbol, found.anchor.line_start) == ("renamed", "large0000", 15)


def test_a_function_longer_than_the_budget_rewritten_past_its_hashes_is_orphaned_not_guessed():
    big = _function(0, "big", statements=MAX_COMPARED_TEXT // 30)
    before = _function(1) + big
    anchor = create_anchor("m.py", before.encode(), 8, 5 + big.count("\n"))
    rewritten = big.replace("def big0000", "def large0000").replace("helper(a, b, 0, 7)", "other(a)")
    found = reanchor(anchor, (_function(1) + rewritten).encode())
    assert found.health in ("orphaned", "drifted")
    assert found.health == "orphaned" or found.anchor.symbol == "large0000"


@pytest.mark.parametrize("compare", [similarity, lambda a, b: blind_similarity(a, "f1", b, "g1")])
def test_a_text_prepared_once_compares_as_it_did_fresh(compare):
    long = "".join(_function(i) for i in range(40))
    for other in (_function(3), long.replace("helper", "other"), long[:5000], "x", ""):
        first, again = compare(long, other), compare(long, other)
        assert first == again == compare(str(long), str(other))
