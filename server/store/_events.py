"""The committed record: a thread is a file of events, one JSON object a line.

    .limpet/threads/c_1763790000000042.jsonl
    {"anchor":{...},"at":"2026-11-22T10:00:00.000Z","body":"Handle expired tokens","by":"claude",...,"event":"created","id":"e_...","schema":2,"seq":0,"tag":"TODO"}
    {"at":"2026-11-22T10:05:00.000Z","body":"Done in 4f2a","by":"alice","by_type":"human","event":"replied","id":"e_...","schema":2,"seq":1}

Events are never changed once written, only appended, and each carries its own id: two
branches that both append to a thread merge as a union (`.limpet/.gitattributes` asks git
for its built-in `union` driver), and even a file left with conflict markers reads as every
event of both sides (marker lines are skipped, duplicates dropped by id). The thread is the
fold of its events in (at, seq, id) order; what each kind does is the core's business
(`apply`, given to the store).

Everything read here is untrusted input (it arrives through git): each line is held to the
read budgets first (size, nesting, a repeated key: _untrusted.py, limpet.model's
READ_BUDGETS), then parsed by a typed model (msgspec, strict: `"5"` is not a line number);
a line that does not pass is skipped and reported with its number, never applied, never
able to break the rest of the file or of the store. A file of more than MAX_EVENTS events is
not read at all (reported). The thread id comes from the file name, never from inside a
record.

Stores written before the event layout (`<id>.json`, schema 1: one document per thread) are
read as one `snapshot` event each (`legacy_event`); the first write converts them.

`fold` makes the thread from its events (the core's steps, linear in events); `stamped` puts a
new event after everything a file holds.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Protocol, get_args

import msgspec
import orjson

from limpet.model import (
    MAX_BODY,
    MAX_EVENTS,
    MAX_MERGES,
    MAX_NESTING,
    MAX_THREAD_FILE_BYTES,
    Anchor,
    AuthorType,
    Snapshot,
    Tag,
    Thread,
    blake2b,
)
from limpet.server.store._untrusted import Refused, check_keys, check_record, nested_deeper

__all__ = ["Apply", "EVENT_KINDS", "Event", "MARKERS", "PAYLOAD", "ParsedFile", "STORE_SCHEMA",
           "checked_event", "conflict_sides", "dump_event", "event_order", "fold", "legacy_event",
           "parse_events", "parse_legacy", "stamped"]


STORE_SCHEMA = 2
MARKERS = (b"<<<<<<<", b"=======", b">>>>>>>", b"|||||||")

# The event kinds, once: the record's `event` field is typed with them (a line of any other
# kind is refused and reported, like any malformed line), and the tuple is read off the type.
# What each kind does to a thread is the core's fold step (core/_edits.py STEPS); adding a
# kind: docs/architecture.md.
Kind = Literal["created", "replied", "edited", "resolved", "reopened", "moved", "deleted", "snapshot"]
EVENT_KINDS: tuple[str, ...] = get_args(Kind)
# \Z, not $: Python's $ also matches before a final newline ("e_1\n" is not an id).
EventId = Annotated[str, msgspec.Meta(pattern=r"^e_[0-9]{1,40}\Z")]
Timestamp = Annotated[str, msgspec.Meta(pattern=r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)\Z")]
Name = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
Body = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_BODY)]
Schema = Annotated[int, msgspec.Meta(ge=1, le=STORE_SCHEMA)]
Seq = Annotated[int, msgspec.Meta(ge=0, le=1_000_000_000)]

# What each kind must carry besides the envelope (id, at, seq, by): its payload's fields (the
# Event struct below types them). Every kind is listed, even one carrying nothing.
PAYLOAD: dict[str, tuple[str, ...]] = {
    "created": ("anchor", "body", "tag", "by_type"),
    "replied": ("body", "by_type"),
    "edited": ("body",),
    "resolved": (),  # decision, wontfix and snapshot are optional
    "reopened": (),
    "moved": ("anchor",),
    "deleted": (),
    "snapshot": ("thread", "mode"),
}
assert tuple(PAYLOAD) == EVENT_KINDS, "each kind's payload is said, in the order of Kind"


class Event(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One thing a person or agent did to a thread. Constructing one checks nothing (msgspec
    checks types and bounds while decoding): `checked_event` is how a new event is built."""

    schema_: Schema = msgspec.field(default=STORE_SCHEMA, name="schema")
    event: Kind
    id: EventId
    at: Timestamp
    seq: Seq
    by: Name
    by_type: AuthorType | None = None  # required for created and replied (the comment's author type)
    anchor: Anchor | None = None  # created, moved: the anchor as a person or agent chose it
    body: Body | None = None  # created, replied, edited
    tag: Tag | None = None  # created
    ai_meta: dict[str, Any] | None = None  # created
    decision: Body | None = None  # resolved
    wontfix: bool = False  # resolved
    snapshot: Snapshot | None = None  # resolved: the code as it was when the thread was resolved
    thread: Thread | None = None  # snapshot: a whole thread (a migrated file, an import)
    mode: Literal["merge", "replace"] | None = None  # snapshot: merge (migration) or replace (import)

    def __post_init__(self) -> None:  # decoding runs it: a line missing what its kind needs is refused
        missing = [name for name in PAYLOAD[self.event] if getattr(self, name) is None]
        if missing:
            raise ValueError(f"a {self.event} event needs {', '.join(missing)}")

    def replace(self, **changes: Any) -> Event:
        return msgspec.structs.replace(self, **changes)


_EVENT = msgspec.json.Decoder(Event)
_LEGACY = msgspec.json.Decoder(Thread)


def checked_event(**fields: Any) -> Event:
    """A new event, checked as a line read from disk would be (msgspec.ValidationError naming
    the field otherwise; ValueError naming a field nested past the read budget)."""
    thread = fields.get("thread")
    free = {"ai_meta": fields.get("ai_meta")}  # the values of no fixed shape: measured before any walk
    if isinstance(thread, Thread):
        free["thread"] = [thread.ai_meta, *(h.details for h in thread.history)]
    for name, value in free.items():
        if nested_deeper(value, MAX_NESTING - 1):  # (below the event's own object; the line is measured exactly next)
            raise ValueError(f"nested more than {MAX_NESTING} levels deep - at `$.{name}`")  # as msgspec says
    event = msgspec.convert(_plain(Event(**fields)), Event)
    dump_event(event)  # the line it makes is within the read budgets too (ValueError otherwise)
    return event


def _plain(value: Any, leave_out: tuple[str, ...] = ()) -> Any:
    """JSON-ready builtins; fields of records (events, anchors, threads) left out when None."""
    if isinstance(value, msgspec.Struct):
        out = {}
        for name, key in zip(value.__struct_fields__, value.__struct_encode_fields__, strict=True):
            item = getattr(value, name)
            if item is not None and name not in leave_out:
                out[key] = _plain(item)
        return out
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def event_order(e: Event) -> tuple[str, int, str]:
    return (e.at, e.seq, e.id)


def dump_event(event: Event) -> bytes:
    """One line: sorted keys, no optional field left empty, a trailing newline (deterministic)."""
    record = _plain(event, leave_out=("thread",))
    if not event.wontfix:
        record.pop("wontfix", None)
    if event.thread is not None:
        thread = event.thread.to_record()
        del thread["schema"]  # the line's own schema covers it
        record["thread"] = thread
    line = orjson.dumps(record, option=orjson.OPT_SORT_KEYS) + b"\n"
    check_record(line.strip())  # never write a line no reader could read back
    check_keys(line.strip())
    if _EVENT.decode(line) != event:
        raise ValueError(f"event {event.id} does not read back as written")
    return line


class ParsedFile:
    """What a thread file holds: its events (deduplicated), and what was wrong with it; filled
    in as the file is read (a plain class: it changes as it is filled)."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.problems: list[str] = []  # one line each, for people
        self.conflicted = False  # git conflict markers were found (both sides were read)
        self.damaged = False  # a line (or a side of a conflict) did not parse
        self.too_new: int | None = None  # a schema this limpet does not read

    def add(self, event: Event, seen: dict[str, Event]) -> None:
        known = seen.get(event.id)
        if known is None:
            seen[event.id] = event
            self.events.append(event)
        elif known != event:  # one id, two contents (edited by hand): keep both, say so
            self.problems.append(f"event {event.id} appears twice with different content; both kept")
            twin = event.replace(id=f"{event.id}{len(self.events):03d}")
            seen[twin.id] = twin
            self.events.append(twin)

    def too_many(self, kept: int) -> None:
        """More events than MAX_EVENTS: none of this file's are read (a fold is a pass over all)."""
        del self.events[kept:]
        self.damaged = True
        self.problems.append(f"more than {MAX_EVENTS:,} events (MAX_EVENTS): not read")

    def refuse(self, record: bytes, where: str, exc: msgspec.DecodeError | Refused) -> None:
        """A record that did not decode: written by a newer limpet (kept, not read), or damaged."""
        newer = None if isinstance(exc, Refused) else _newer_schema(record)
        if newer is not None:
            self.too_new = max(self.too_new or 0, newer)
        else:
            self.damaged = True
            self.problems.append(f"{where}: {_reason(exc)}")


def parse_events(data: bytes, parsed: ParsedFile | None = None) -> ParsedFile:
    """The events of a `.jsonl` thread file; bad lines and markers are skipped and reported."""
    out = parsed or ParsedFile()
    seen = {e.id: e for e in out.events}
    kept = len(out.events)
    if len(data) > MAX_THREAD_FILE_BYTES:
        out.damaged = True
        out.problems.append(f"larger than {MAX_THREAD_FILE_BYTES:,} bytes (MAX_THREAD_FILE_BYTES): not read")
        return out
    if len(data) > 2 * MAX_EVENTS and data.count(b"\n") > 2 * MAX_EVENTS:  # over budget whatever they hold
        out.too_many(kept)
        return out
    for number, line in enumerate(data.split(b"\n"), 1):
        line = line.strip()
        if not line:
            continue
        if line.startswith(MARKERS):
            out.conflicted = True
            continue
        try:
            check_record(line)
            event = _EVENT.decode(line)
            check_keys(line)  # now a repeated key (the decoder kept the last one)
        except (msgspec.DecodeError, Refused) as exc:  # ValidationError is a DecodeError
            out.refuse(line, f"line {number}", exc)
            continue
        out.add(event, seen)
        if len(out.events) > MAX_EVENTS:
            out.too_many(kept)
            return out
    if out.conflicted:
        out.problems.append("git conflict markers: the events of both sides were read; "
                            "the next write to the thread removes the markers")
    return out


def _newer_schema(line: bytes) -> int | None:
    try:
        record = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    version = record.get("schema") if isinstance(record, dict) else None
    if isinstance(version, int) and not isinstance(version, bool) and version > STORE_SCHEMA:
        return version
    return None


def _reason(exc: msgspec.DecodeError | Refused) -> str:
    # msgspec says "Expected `int`, got `str` - at `$.seq`": the place first, as people read it.
    text = str(exc)
    message, sep, where = text.rpartition(" - at `$")
    if not sep:
        return text
    return f"{where.rstrip('`').lstrip('.')}: {message}" if where.rstrip("`") else message


# -- the layout before events: one JSON document per thread (schema 1) -------------------------
def parse_legacy(data: bytes, parsed: ParsedFile | None = None) -> ParsedFile:
    """A `<id>.json` file of the first layout, as snapshot events. A file git left with
    conflict markers is read as both of its sides (each a whole document)."""
    out = parsed or ParsedFile()
    seen = {e.id: e for e in out.events}
    sides = conflict_sides(data)
    if len(sides) > 1:
        out.conflicted = True
        out.problems.append("git conflict markers: both sides of the conflict were read and merged")
    for side in sides:
        try:
            check_record(side)
            thread = _LEGACY.decode(side)
            check_keys(side)
        except (msgspec.DecodeError, Refused) as exc:
            out.refuse(side, "legacy thread file", exc)
            continue
        out.add(legacy_event(thread, side), seen)
    return out


def legacy_event(thread: Thread, data: bytes) -> Event:
    """The snapshot event a legacy document becomes. Its id is made from the document's bytes,
    so every checkout that migrates the same file writes the same line (git sees one change)."""
    digest = int.from_bytes(blake2b(data, digest_size=8).digest(), "big") % 1_000_000
    stamp = "".join(ch for ch in thread.updated_at if ch.isdigit())[:17].ljust(17, "0")
    return Event(event="snapshot", id=f"e_{stamp}{digest:06d}", at=thread.updated_at, seq=0,
                 by=thread.author, by_type=thread.author_type, thread=thread, mode="merge")


def conflict_sides(data: bytes) -> list[bytes]:
    """The file as each side of a git conflict wrote it ([data] when there is no conflict)."""
    if b"\n<<<<<<<" not in b"\n" + data:
        return [data]
    ours: list[bytes] = []
    theirs: list[bytes] = []
    state = "both"
    for line in data.splitlines(keepends=True):
        if line.startswith(b"<<<<<<<"):
            state = "ours"
        elif line.startswith(b"|||||||") and state == "ours":
            state = "base"
        elif line.startswith(b"=======") and state in ("ours", "base"):
            state = "theirs"
        elif line.startswith(b">>>>>>>") and state == "theirs":
            state = "both"
        elif state == "both":
            ours.append(line)
            theirs.append(line)
        elif state == "ours":
            ours.append(line)
        elif state == "theirs":
            theirs.append(line)
    return [b"".join(ours), b"".join(theirs)]


# -- the fold: a thread from its events ----------------------------------------------------------
class Apply(Protocol):
    """The core's rules for events (limpet.server.core's RULES): one event applied to a thread
    (a write), and the fold's steps on a draft that grows in place (a fold is linear in its
    events: N replies cost N appends, not N copies of ever longer tuples)."""

    def __call__(self, thread: Thread | None, thread_id: str, event: Event, /) -> Thread | None: ...

    def step(self, draft: Any, thread_id: str, event: Event, /) -> Any: ...  # None: no thread (yet, or deleted)

    def done(self, draft: Any, /) -> Thread: ...

    def undeleted(self, draft: Any, deletion: Event, unseen: list[Event], /) -> Any: ...


def fold(apply: Apply, thread_id: str, events: list[Event], problems: list[str]) -> tuple[Thread | None, str, bool]:
    """(the thread, the id of the event that set its committed anchor, whether it was deleted).
    Events apply in (at, seq, id) order; one the rules refuse is reported and skipped. A
    deletion ends the thread, unless the file holds events it did not see (a reply merged in
    from a branch that had the thread: its `seq` is not below the deletion's): then the thread
    stays, with those replies and a `deleted` entry in its history, and a person decides
    (delete it again, or keep it). A snapshot that merges a whole thread costs a pass over it:
    past MAX_MERGES of them, the rest are reported, not applied."""
    draft: Any = None
    key, deleted, merges = "", False, 0
    ordered = sorted(events, key=event_order)
    for event in ordered:
        if deleted:
            break
        if event.event == "snapshot" and event.mode != "replace" and draft is not None:
            merges += 1
            if merges > MAX_MERGES:
                problems.append(f"event {event.id} (snapshot) not applied: more than {MAX_MERGES} merges "
                                "(MAX_MERGES)")
                continue
        if event.event == "deleted":
            unseen = [e for e in ordered if e.seq >= event.seq and e.event != "deleted"]
            if unseen:
                if draft is None:  # the merge brought replies, not the thread they answer
                    problems.append(f"deleted by {event.by} at {event.at}, yet {len(unseen)} later event(s) "
                                    f"({', '.join(sorted({e.event for e in unseen}))}) were merged in: kept in the "
                                    "file, not shown (the deletion removed the thread's text)")
                else:
                    draft = apply.undeleted(draft, event, unseen)
                    continue
        try:
            after = apply.step(draft, thread_id, event)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError) as exc:
            problems.append(f"event {event.id} ({event.event}) not applied: {exc}")
            continue
        deleted = event.event == "deleted"
        if after is not None and (event.anchor is not None or event.event == "snapshot"):
            key = event.id
        draft = after
    return (apply.done(draft) if draft is not None else None), key, deleted


def stamped(event: Event, existing: list[Event]) -> Event:
    """The event placed after everything the writer saw: `seq` one past the highest and `at`
    never before the latest (a clock behind another machine's still orders causally)."""
    if not existing:
        return event
    latest = max(e.at for e in existing)
    seq = max(e.seq for e in existing) + 1
    return event.replace(seq=max(seq, event.seq), at=max(latest, event.at))
