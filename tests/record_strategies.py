"""Hypothesis strategies for the model's records: any value the types admit (and JSON carries)."""

from __future__ import annotations

from hypothesis import strategies as st

from limpet.model import (
    AUTHOR_TYPES,
    HEALTHS,
    STATUSES,
    TAGS,
    Anchor,
    Comment,
    Decision,
    HistoryEvent,
    Snapshot,
    Thread,
)

text = st.text(max_size=40)
stamps = st.sampled_from(["2026-11-22T10:00:00Z", "2026-11-22T10:05:00.123Z", "2026-12-01T00:00:00+02:00"])
names = st.text(min_size=1, max_size=12)
lines = st.integers(min_value=1, max_value=10_000)
json_scalars = st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.floats(allow_nan=False, allow_infinity=False) | text
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                           max_leaves=4)
# What a history entry's details may hold as read (limpet.model's plain_numbers: floats below 1e16)
plain_scalars = st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | \
    st.floats(min_value=-9.999e15, max_value=9.999e15) | text
plain_values = st.recursive(plain_scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                            max_leaves=4)
hexes = st.text("0123456789abcdef", min_size=0, max_size=32)
sketches = st.lists(st.integers(0, 2**32 - 1), max_size=4).map(lambda v: "".join(f"{x:08x}" for x in v))


@st.composite
def anchors(draw) -> Anchor:
    start = draw(lines)
    return Anchor(
        file=draw(st.sampled_from(["src/auth.py", "app.ts", "a b/ü.rs"])), line_start=start,
        line_end=start + draw(st.integers(0, 50)), start_character=draw(st.integers(0, 200)),
        end_character=draw(st.integers(0, 200)), selected_text=draw(text), content_hash=draw(hexes),
        symbol=draw(st.none() | names), symbol_kind=draw(st.none() | st.sampled_from(["function", "method"])),
        symbol_name=draw(st.none() | names), position=draw(st.sampled_from(["symbol", "lines", "file"])),
        symbol_start=draw(st.none() | lines), symbol_end=draw(st.none() | lines),
        start_byte=draw(st.integers(0, 10**6)), end_byte=draw(st.integers(0, 10**6)),
        text_hash=draw(hexes), origin_hash=draw(hexes), fingerprint=draw(sketches),
        symbol_tokens=draw(st.integers(0, 999)), prefix=draw(text), suffix=draw(text), lost_text=draw(text),
    )


comments = st.builds(Comment, id=names, body=text.filter(bool) | st.just("x"), author=names,
                     author_type=st.sampled_from(AUTHOR_TYPES), created_at=stamps, edited_at=st.none() | stamps)
decisions = st.builds(Decision, summary=text, decider=names, decided_at=stamps,
                      status=st.sampled_from(["resolved", "wontfix"]))
history_events = st.builds(HistoryEvent, at=stamps, event=st.sampled_from(["created", "replied", "moved"]),
                           by=st.none() | names, details=st.dictionaries(text, plain_values, max_size=3))
snapshots = st.builds(Snapshot, at=stamps, file=names, line_start=lines, line_end=lines, text=text, gone=st.booleans())


@st.composite
def threads(draw) -> Thread:
    return Thread(
        id=f"c_{draw(st.integers(1, 10**17))}", anchor=draw(anchors()), health=draw(st.sampled_from(HEALTHS)),
        status=draw(st.sampled_from(STATUSES)), tag=draw(st.sampled_from(TAGS)), author=draw(names),
        author_type=draw(st.sampled_from(AUTHOR_TYPES)), created_at=draw(stamps), updated_at=draw(stamps),
        comments=tuple(draw(st.lists(comments, min_size=1, max_size=3))),
        ai_meta=draw(st.none() | st.dictionaries(text, json_values, max_size=3)),
        resolved_at=draw(st.none() | stamps), decision=draw(st.none() | decisions),
        anchor_method=draw(st.sampled_from(["created", "exact", "moved_by_user"])),
        anchor_confidence=draw(st.floats(0, 1)), history=tuple(draw(st.lists(history_events, max_size=3))),
        snapshots=draw(st.dictionaries(st.sampled_from(["created", "resolved"]), snapshots, max_size=2)),
    )
