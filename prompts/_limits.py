"""Resource limits for workspace prompt templates (`.limpet/prompts/NAME.md.j2`).

Overrides come from the repository (a pull request can change them). Before one is compiled,
its text is measured (prompts/_template_scan.py): its length, its tags, how deep its blocks
and brackets nest and how long one tag is, against the MAX_TEMPLATE_* limits below, which
keep jinja2's parser and Python's compiler within their recursion and indentation limits and
the compile under a few hundred milliseconds. It is then rendered in a sandbox that also
bounds what a render may cost: the operators that build big values
(`*`, `**`, `+`, `%`, `~`), every call, filter, attribute and item lookup, every `for` loop
step and every chunk of output check a deadline and the sizes below, and exceeding one
raises LimitExceeded (a PARSE_ERROR naming the file and line, like any broken template).

What stays unbounded, honestly: a single C-level step on values within the caps (sorting a
million-item list, a substring search in a megabyte string) runs to completion before the
next check; the size of a value is measured as characters of text plus items of containers,
so a container's other costs (e.g. a str() of a float) are estimated, not measured; and the
deadline is checked between steps, so one step can overrun it by its own cost. Everything
iterates, calls or looks something up at least once per loop step, so no loop outlives the
deadline. Built-in templates are trusted package code and render without these limits.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Mapping
from functools import wraps
from typing import Any

__all__ = [
    "DEADLINE_SECONDS", "MAX_INT_BITS", "MAX_OUTPUT", "MAX_RANGE", "MAX_SIZE",
    "MAX_TEMPLATE_BLOCK_DEPTH", "MAX_TEMPLATE_BRACKET_DEPTH", "MAX_TEMPLATE_CHARS", "MAX_TEMPLATE_TAGS",
    "MAX_TEMPLATE_TAG_TOKENS", "MAX_TEMPLATE_TOKENS",
    "LimitExceeded", "bounded_environment", "render_bounded",
]

# Before compiling (the built-in templates are ~3,000 characters, 75 tags, blocks 5 deep, no
# bracket inside another, 30 tokens in their longest tag).
MAX_TEMPLATE_CHARS = 100_000  # characters of template text
MAX_TEMPLATE_TAGS = 1_000  # {% %} and {{ }} tags
# Tokens inside tags, in all: jinja2 compiles ~5,000 a second here (the text between tags is cheap).
MAX_TEMPLATE_TOKENS = 5_000
MAX_TEMPLATE_BLOCK_DEPTH = 16  # {% if %}/{% for %}/{% macro %}/... inside one another (Python: 100 indents)
MAX_TEMPLATE_BRACKET_DEPTH = 16  # ( [ { inside one another (Python's parser stops at 200)
# Tokens in one tag: a chain of operators or filters nests as deep, and jinja2's optimizer
# walks every subtree of an expression again (a cost quadratic in its depth).
MAX_TEMPLATE_TAG_TOKENS = 48

MAX_SIZE = 1_000_000  # characters of text plus items of containers in one value built by the template
MAX_INT_BITS = 4096  # bits of an integer built by `*`, `**` or `+`
MAX_RANGE = 10_000  # items of range(); jinja2.sandbox.MAX_RANGE (module-global) is left alone
MAX_OUTPUT = 2_000_000  # characters of rendered text
DEADLINE_SECONDS = 5.0  # wall-clock time of one render

# A width or precision of seven digits or more in a %-pattern or a {}-pattern.
_WIDE_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\d{7,}|\d*\.\d{7,})")
_WIDE_BRACE = re.compile(r"\{[^{}]*:[^{}]*\d{7,}[^{}]*\}")


class LimitExceeded(Exception):
    """A workspace template went over a render limit; `line` is set when the template's own
    frames are not on the traceback (limits checked between output chunks)."""

    line: int | None = None


def _weight(value: Any, budget: int = MAX_SIZE) -> int:
    """Characters of text plus items of containers (plus the digits of big integers beyond
    the first), through nested containers; the walk stops as soon as it passes `budget` (so
    it costs at most `budget` steps). Other objects weigh nothing: the template reads them."""
    total, stack = 0, [value]
    while stack and total <= budget:
        item = stack.pop()
        if isinstance(item, (str, bytes)):
            total += len(item)
        elif isinstance(item, int):
            total += item.bit_length() * 3 // 10
        elif isinstance(item, Mapping):
            total += len(item)
            if total <= budget:
                stack.extend(item.keys())
                stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            total += len(item)
            if total <= budget:
                stack.extend(item)
    return total


def _over(what: str, size: int, limit: int = MAX_SIZE) -> None:
    if size > limit:
        raise LimitExceeded(f"{what} would be over {limit:,} (characters of text plus items of "
                            f"containers), the size limit for workspace templates")


def _check_ints(what: str, values: Any) -> None:
    for value in values:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_SIZE:
            raise LimitExceeded(f"{what} got the integer argument {value if value.bit_length() < 64 else 'huge'}, "
                                f"over {MAX_SIZE:,}, the argument limit for workspace templates")


def _int_bits(what: str, bits: int) -> None:
    if bits > MAX_INT_BITS:
        raise LimitExceeded(f"{what} would build an integer of about {bits:,} bits, over {MAX_INT_BITS:,}, "
                            f"the integer limit for workspace templates")


def _check_pattern(pattern: str, regex: re.Pattern[str]) -> None:
    if regex.search(pattern):
        raise LimitExceeded(f"a format width or precision over {MAX_SIZE:,} is over the size limit "
                            f"for workspace templates")


def _sized(value: Any) -> Any:
    """An iterable without a length (a generator from map/select) as a list, weighed as it is
    read, so that what consumes it can be bounded first; anything else as it is."""
    from jinja2 import Undefined

    if isinstance(value, Undefined) or hasattr(value, "__len__") or not hasattr(value, "__iter__"):
        return value
    items, size = [], 0
    for item in value:
        items.append(item)
        size += _weight(item) + 1
        _over("a sequence", size)
    return items


def _estimate(name: str, subject: Any, args: tuple, kwargs: dict) -> int:
    """An upper bound of the size of `subject.name(*args)` / `subject|name(*args)` for the str
    methods and filters that can multiply their input; others are bounded by their input."""
    rest = [*args, *kwargs.values()]
    # A list's items were weighed when they went in: len() keeps append-in-a-loop linear.
    own = len(subject) if isinstance(subject, (list, dict, set)) else _weight(subject)
    base = own + sum(_weight(a) for a in rest)
    if not isinstance(subject, str):
        if name == "join" and isinstance(subject, (list, tuple)):  # the join filter: (items, sep)
            return base + len(subject) * (_weight(args[0]) if args else 0)
        return base
    if name == "join" and args:  # str.join(items): the string is the separator
        return base + len(subject) * len(args[0])
    if name == "replace" and len(args) >= 2 and isinstance(args[0], str) and args[0]:
        return len(subject) + subject.count(args[0]) * _weight(args[1])
    if name == "expandtabs":
        return len(subject) + subject.count("\t") * max([a for a in rest if isinstance(a, int)] or [8])
    if name == "indent":  # filter: indent(width, first, blank); width is an int or a string
        width = rest[0] if rest else 4
        return len(subject) + (subject.count("\n") + 1) * (width if isinstance(width, int) else _weight(width))
    if name == "wordwrap":
        return base + len(subject) * max([_weight(a) for a in rest if isinstance(a, str)] or [1])
    if name in ("format", "format_map"):
        _check_pattern(subject, _WIDE_BRACE if name == "format_map" or "{" in subject else _WIDE_PERCENT)
        return len(subject) + (subject.count("{") + subject.count("%") + 1) * base
    if name in ("center", "ljust", "rjust", "zfill"):
        return base + max([a for a in rest if isinstance(a, int)] or [0])
    return base


def _guard_filter(env: Any, name: str, func: Callable[..., Any]) -> Callable[..., Any]:
    skip = 1 if getattr(func, "jinja_pass_arg", None) is not None else 0  # context/env first

    @wraps(func)  # keeps jinja_pass_arg
    def guarded(*args: Any, **kwargs: Any) -> Any:
        env.check_deadline()
        what = f"the filter {name!r}"
        args = tuple(_sized(a) for a in args)
        _check_ints(what, (*args[skip + 1:], *kwargs.values()))
        if len(args) > skip:
            _over(what, _estimate(name, args[skip], args[skip + 1:], kwargs))
        result = func(*args, **kwargs)
        _over(what, _weight(result))
        return result

    return guarded


def bounded_environment(**options: Any) -> Any:
    """A SandboxedEnvironment with the limits above; `deadline` is set by render_bounded."""
    from jinja2 import nodes
    from jinja2.compiler import CodeGenerator
    from jinja2.sandbox import SandboxedEnvironment

    class BoundedCodeGenerator(CodeGenerator):
        def visit_For(self, node: Any, frame: Any) -> None:
            # Every loop steps through limpet_iter, which checks the deadline.
            if not getattr(node, "limpet_bounded", False):
                node.iter = nodes.Call(nodes.EnvironmentAttribute("limpet_iter"), [node.iter], [], None, None,
                                       lineno=node.iter.lineno)
                node.limpet_bounded = True
            super().visit_For(node, frame)

        def visit_Concat(self, node: Any, frame: Any) -> None:  # `~`, bounded like `+`
            self.write("environment.limpet_concat((")
            for arg in node.nodes:
                self.visit(arg, frame)
                self.write(", ")
            self.write("))")

    class BoundedSandbox(SandboxedEnvironment):
        code_generator_class = BoundedCodeGenerator
        intercepted_binops = frozenset({"*", "**", "+", "%"})
        deadline = float("inf")

        def check_deadline(self) -> None:
            if time.monotonic() > self.deadline:
                raise LimitExceeded(f"rendering took over {DEADLINE_SECONDS:g} s, the time limit for "
                                    f"workspace templates")

        def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
            self.check_deadline()
            _check_binop(operator, left, right)
            result = self.binop_table[operator](left, right)
            if isinstance(result, int) and not isinstance(result, bool):
                _int_bits(f"'{operator}'", result.bit_length())
            return result

        def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
            __self.check_deadline()
            if __obj is __self.limpet_iter:
                return __self.limpet_iter(*args)
            what = f"the call {getattr(__obj, '__name__', 'of a value')!r}"
            if __obj is not _bounded_range:  # range() says so itself
                _check_ints(what, (*args, *kwargs.values()))
            # str.format comes wrapped by the sandbox (__wrapped__ is the bound method)
            receiver = getattr(getattr(__obj, "__wrapped__", __obj), "__self__", None)
            if isinstance(receiver, (str, list, tuple, dict, set)):  # a method of a built-in value
                args = tuple(_sized(a) for a in args)
                _over(what, _estimate(__obj.__name__, receiver, args, kwargs))
            result = super().call(__context, __obj, *args, **kwargs)
            _over(what, _weight(result))
            if isinstance(receiver, (list, dict, set)):  # append/extend/update grew it
                _over(what, len(receiver))
            return result

        def getattr(self, obj: Any, attribute: str) -> Any:
            self.check_deadline()
            return super().getattr(obj, attribute)

        def getitem(self, obj: Any, argument: Any) -> Any:
            self.check_deadline()
            return super().getitem(obj, argument)

        def limpet_iter(self, iterable: Any) -> Any:
            return _DeadlineIterable(self, iterable)

        def limpet_concat(self, values: tuple) -> str:
            self.check_deadline()
            _over("'~'", sum(_weight(v) for v in values))
            result = "".join(map(str, values))
            _over("'~'", len(result))
            return result

    env = BoundedSandbox(**options)
    env.filters = {name: _guard_filter(env, name, func) for name, func in env.filters.items()}
    env.globals["range"] = _bounded_range
    env.globals.pop("lipsum", None)  # lipsum(n) builds n paragraphs: not for workspace templates
    env.finalize = _finalize
    return env


def _check_binop(operator: str, left: Any, right: Any) -> None:
    what = f"'{operator}'"
    numbers = [v for v in (left, right) if isinstance(v, int) and not isinstance(v, bool)]
    if operator == "**" and len(numbers) == 2 and right > 0 and abs(left) > 1:
        _int_bits(what, int(math.log2(abs(left)) * min(right, 2**32)) + 1)
    elif operator == "*":
        if len(numbers) == 2:
            _int_bits(what, left.bit_length() + right.bit_length())
        elif len(numbers) == 1:
            other = right if numbers[0] is left else left
            if hasattr(other, "__len__") and not isinstance(other, Mapping):
                count = numbers[0] if numbers[0] < 2**32 else 2**32
                _over(what, _weight(other) * count if count > 0 else 0)
    elif operator == "+" and not numbers:
        _over(what, _weight(left) + _weight(right))
    elif operator == "%" and isinstance(left, str):
        _check_pattern(left, _WIDE_PERCENT)
        values = right if isinstance(right, tuple) else (right,)
        _check_ints(what, values)
        _over(what, len(left) + (left.count("%") + 1) * _weight(right))


class _DeadlineIterable:
    """Iterates like the wrapped iterable (same length for loop.length) with a deadline check
    per step."""

    def __init__(self, env: Any, iterable: Any) -> None:
        self._env, self._iterable = env, iterable

    def __len__(self) -> int:
        return len(self._iterable)

    def __iter__(self) -> Any:
        for item in self._iterable:
            self._env.check_deadline()
            yield item


def _bounded_range(*args: int) -> range:
    result = range(*args)
    if len(result) > MAX_RANGE:
        raise LimitExceeded(f"range() of {len(result):,} items is over {MAX_RANGE:,}, the range limit "
                            f"for workspace templates")
    return result


def _finalize(value: Any) -> Any:
    _over("an output value", _weight(value, MAX_OUTPUT), MAX_OUTPUT)
    return value


def render_bounded(env: Any, template: Any, context: dict[str, Any]) -> str:
    """Render through generate(), checking the output size and the deadline between chunks."""
    env.deadline = time.monotonic() + DEADLINE_SECONDS
    chunks, size = [], 0
    stream = template.generate(context)
    try:
        for chunk in stream:
            size += len(chunk)
            if size > MAX_OUTPUT:
                raise LimitExceeded(f"the output is over {MAX_OUTPUT:,} characters, the output limit for "
                                    f"workspace templates")
            env.check_deadline()
            chunks.append(chunk)
    except LimitExceeded as exc:
        if exc.line is None:
            exc.line = _suspended_line(stream, template)
        raise
    finally:
        stream.close()
    return "".join(chunks)


def _suspended_line(stream: Any, template: Any) -> int | None:
    """The template line the output stream is suspended at (it yields from the template's
    render function, whose code lines map to template lines)."""
    line, gen = None, stream
    while gen is not None and getattr(gen, "gi_frame", None) is not None:
        if gen.gi_frame.f_code.co_filename == template.filename:
            line = template.get_corresponding_lineno(gen.gi_frame.f_lineno)
        gen = getattr(gen, "gi_yieldfrom", None)
    return line
