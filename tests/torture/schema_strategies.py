"""Hypothesis strategies for tools/call arguments, generated from a tool's own input schema.

`arguments_for(schema, pool)` draws arguments that are valid, nearly valid or hostile:
every property gets a value that fits its schema (an enum member, an integer within bounds,
a real file or thread id from `pool`...) or, often, a hostile one (wrong type, null, a 1 MB
string, unicode and control characters, negative and huge numbers, path escapes); required
fields go missing, extra fields appear, and sometimes the arguments are not an object at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from hypothesis import strategies as st

__all__ = ["KnownId", "Pool", "arguments_for", "hostile_values", "HUGE_STRINGS"]

MB = 1024 * 1024
# Built once: generating a megabyte character by character would dominate the run.
HUGE_STRINGS = ("x" * MB, "é🦀" * (MB // 2), "\x00\x01\x1b[31m" * (MB // 4), ("../" * (MB // 3)) + "etc/passwd",
                "c_" + "9" * MB)
PATHS = ("../etc/passwd", "/etc/passwd", "~/.ssh/id_rsa", "%2e%2e/%2e%2e/etc/passwd", "..%2fsecret",
         ".git/config", ".limpet/store.json", ".limpet/threads", "src/../../x", "src\\..\\..\\x", "src",
         "does/not/exist.py", "file:///etc/passwd", "src/auth.py\x00.txt", "C:\\Windows\\win.ini", "*", "**/*.py",
         "src/auth.py ", " ", "", "./src/auth.py", "src//auth.py", "\u202esrc/auth.py", "a" * 5000)
NUMBERS = (0, -1, -(2 ** 31), 2 ** 31, 2 ** 53 + 1, 2 ** 63, 10 ** 30, -(10 ** 30), 1.5, -0.0, 1e308, 10_000_001)
UNICODE = ("\u0000", "\ufeff", "\u200b", "\ud7ff", "\U0010ffff", "🦀" * 50, "\r\n\t\x0b\x0c", "\x7f\x80\x9f",
           "ǅ\u0301\u0345", "'; DROP TABLE threads; --", "{{ 7*7 }}", "<script>alert(1)</script>", "$(id)",
           "(a+)+$", "[", "\\", "%s%n", "null", "true", "\ud800 lone surrogate")


@dataclass
class Pool:
    """Real values the fuzzer mixes in so calls also reach past validation. Thread ids grow
    as the run adds threads, so a drawn id is a `KnownId` placeholder, resolved at send time
    (hypothesis needs every draw to be independent of what earlier calls did)."""

    files: list[str]
    thread_ids: list[str] = field(default_factory=list)

    def resolve(self, value: Any) -> Any:
        if isinstance(value, KnownId):
            return self.thread_ids[value.index % len(self.thread_ids)]
        if isinstance(value, dict):
            return {k: self.resolve(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        return value


@dataclass(frozen=True)
class KnownId:
    index: int


def hostile_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.none(), st.booleans(), st.sampled_from(NUMBERS), st.integers(), st.floats(allow_nan=False),
        st.text(max_size=40), st.text(st.characters(codec="utf-8"), max_size=40),
        st.text(st.characters(max_codepoint=31), min_size=1, max_size=20), st.sampled_from(UNICODE),
        st.sampled_from(HUGE_STRINGS), st.sampled_from(PATHS),
    )
    return st.one_of(scalars, st.lists(scalars, max_size=4), st.dictionaries(st.text(max_size=8), scalars,
                                                                            max_size=3))


def _string(name: str, schema: dict[str, Any], pool: Pool) -> st.SearchStrategy[str]:
    lower = name.lower()
    if schema.get("pattern") == r"^c_\d+$" or lower.endswith("id"):
        return st.one_of(st.builds(KnownId, st.integers(0, 2 ** 16)), st.from_regex(r"c_[0-9]{1,20}", fullmatch=True))
    if lower in ("file", "filepath", "sourcefile", "targetfile", "baseuri"):
        return st.one_of(st.sampled_from(pool.files), st.just("."), st.sampled_from(PATHS))
    if lower == "content":  # a review: markdown with references, real and hostile
        ref = st.sampled_from([*pool.files, *PATHS]).map(lambda p: f"[`{p}:3`][]")
        return st.lists(st.one_of(st.text(max_size=30), ref, st.just("\n## Heading\n")), max_size=6).map("".join)
    low, high = schema.get("minLength", 0), min(schema.get("maxLength", 60), 60)
    return st.one_of(st.text(min_size=low, max_size=max(low, high)), st.sampled_from(UNICODE))


def plausible(name: str, schema: dict[str, Any], pool: Pool) -> st.SearchStrategy[Any]:
    """A value that fits `schema` (most of the time: the rest is close to it)."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    if "anyOf" in schema:
        return st.one_of(*(plausible(name, option, pool) for option in schema["anyOf"]))
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of(*(plausible(name, {**schema, "type": k}, pool) for k in kind))
    if kind == "string":
        return _string(name, schema, pool)
    if kind == "integer":
        low, high = schema.get("minimum", -10), schema.get("maximum", 10 ** 6)
        return st.one_of(st.integers(low, min(high, low + 40)), st.integers(low, high))
    if kind == "number":
        return st.floats(schema.get("minimum", -1e6), schema.get("maximum", 1e6))
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        return st.lists(plausible(name, schema.get("items", {}), pool), max_size=3)
    if kind == "object" or "properties" in schema:
        return arguments_for(schema, pool, top=False)
    return hostile_values()


def arguments_for(schema: dict[str, Any], pool: Pool, *, top: bool = True) -> st.SearchStrategy[Any]:
    props: dict[str, Any] = schema.get("properties", {})
    required = set(schema.get("required", []))

    @st.composite
    def draw(draw_: Any) -> Any:
        shape = draw_(st.sampled_from(["valid", "mutated", "mutated", "missing", "extra", "not-an-object"]))
        if shape == "not-an-object" and top:
            return draw_(st.one_of(st.none(), st.lists(hostile_values(), max_size=3), st.text(max_size=20),
                                   st.integers(), st.booleans()))
        args = {}
        for key, sub in props.items():
            if key in required or draw_(st.booleans()):
                args[key] = draw_(plausible(key, sub, pool))
        if shape == "mutated" and props:
            for key in draw_(st.lists(st.sampled_from(sorted(props)), min_size=1, max_size=3, unique=True)):
                args[key] = draw_(hostile_values())
        if shape == "missing" and args:
            for key in draw_(st.lists(st.sampled_from(sorted(args)), min_size=1, unique=True)):
                del args[key]
        if shape == "extra":
            args[draw_(st.sampled_from(["extra", "__proto__", "constructor", "$where", "", "🦀"]))] = draw_(
                hostile_values())
        return args

    return draw()
