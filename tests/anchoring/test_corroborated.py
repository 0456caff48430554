"""A function gone whose successor no one sign tells, but several agree on (texar 1a7fa601:
`soft_sequence_embedding` moved to another module as `soft_embedding_lookup`, its docstring
reworded; df3053cb: `get_timing_signal_1d` taken into a class as `get_position_embedding`, its
docstring dropped and two parameters turned into fields; ffmpeg-python 6887ad8b: `filter_multi`
renamed `filter_multi_output` in its module and rewritten). The old name is gone from every
changed file, the successor declares at least half of the old parameters, and

* moved: it is the one new function alike by 0.4 (name-blind), every other new one far less,
  and its name keeps most of the old words or its own statements are mostly old ones;
* renamed in place: it is the one function its scope gained while losing only the old one,
  its name extends the old name, and it declares as many parameters, most as they were.

Any sign missing, a rival as alike, an old name still called, another gone function that
reads as like it: orphaned (a safe orphan beats a wrong place)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, reanchor
from limpet.anchoring._corroborated import name_words, parameters

OTHER = 'def other_helper(x):\n    """Adds one."""\n    return x + 1\n'
BLEND = '''def soft_row_blend(table, weights):
    """Mixes rows of a table by soft weights.

    Args:
        table: An array of shape `[rows, dim]` holding the row vectors.
        weights: An array of shape `[batch, rows]` holding the weights.

    Returns:
        An array of shape `[batch, dim]`.

    Example::

        logits = model(inputs)
        mixed = soft_row_blend(table, softmax(logits))
    """
    return np.tensordot(weights, table, [1, 0])
'''
LOOKUP = '''def {name}({params}):
    """Transforms soft ids (e.g., a probability distribution over ids) into
    embeddings, by mixing the embedding vectors with the soft weights.

    Args:
        table: An array of shape `[num_classes] + embedding-dim` holding the
            embedding vectors; it can have more than one dimension.
        soft_ids: An array of weights (probabilities) used to mix the
            embedding vectors.

    Returns:
        An array of shape `shape(soft_ids)[:-1] + shape(table)[1:]`: if
        `shape(soft_ids) = [batch, time, vocab]` and `shape(table) = [vocab, dim]`,
        the result has shape `[batch, time, dim]`.

    Example::

        logits = model(inputs)
        mixed = {name}(table, softmax(logits))
    """
    return np.tensordot(soft_ids, table, [-1, 0])
'''
GONE_LOOKUP = LOOKUP.format(name="soft_lookup", params="table, soft_ids")


def _workspace(before: dict[str, str], after: dict[str, str], path: str, first: int, last: int):
    before_b = {p: t.encode() for p, t in before.items()}
    after_b = {p: t.encode() for p, t in after.items()}
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before_b.items()}, before_b.get)
    anchor = create_anchor(path, before_b[path], first, last)
    index.update({p: content_hash(b) for p, b in after_b.items()}, after_b.get)
    return anchor, reanchor(anchor, after_b.get(path), index)


def _move(name="soft_blend_lookup", params="table, soft_ids", rival=None, still_called=False, gone_there=False):
    head = "import numpy as np\n\n\n"
    before = {"pkg/utils.py": head + OTHER + "\n\n" + BLEND,
              "pkg/lookup.py": head + (GONE_LOOKUP if gone_there else OTHER.replace("other", "lookup"))}
    new = LOOKUP.format(name=name, params=params)
    if rival is not None:
        new += "\n\n" + LOOKUP.format(name=rival, params=params)
    call = "\n\ndef caller(t, w):\n    return soft_row_blend(t, w)\n" if still_called else ""
    after = {"pkg/utils.py": head + OTHER + call, "pkg/lookup.py": head + new}
    anchor, rel = _workspace(before, after, "pkg/utils.py", 9, 24)
    assert anchor.symbol == "soft_row_blend"
    return rel


def test_a_function_moved_and_renamed_with_its_docstring_reworded_follows_to_its_one_successor():
    rel = _move()
    assert (rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end, rel.method, rel.health) == \
        ("pkg/lookup.py", 4, 24, "moved", "drifted")
    assert rel.anchor.symbol == "soft_blend_lookup"


def test_it_stays_orphaned_when_the_old_name_is_still_called():
    assert _move(still_called=True).health == "orphaned"


def test_it_stays_orphaned_when_the_parameters_were_replaced():
    assert _move(params="matrix, soft_ids").health == "orphaned"


def test_it_stays_orphaned_when_the_name_keeps_too_few_of_the_old_words():
    assert _move(name="mix_vectors").health == "orphaned"  # (and its statements are not mostly old ones)


def test_it_stays_orphaned_when_another_new_function_is_as_alike():
    assert _move(rival="soft_blend_lookup_v2").health == "orphaned"


def test_it_stays_orphaned_when_a_function_gone_from_the_other_file_reads_as_like_it():
    assert _move(gone_there=True).health == "orphaned"  # (that one's successor, renamed in its file)


TIMING = '''def timing_signal(length, channels, low=1.0, high=1.0e4):
    """Gets sinusoids of different frequencies, one pair per channel.

    Each channel of the input is incremented by a sinusoid of a different frequency and
    phase, which lets attention learn absolute and relative positions. We use a geometric
    sequence of timescales from `low` to `high`; the number of timescales is half the
    channels, and for each one both sin(t / timescale) and cos(t / timescale) are made.

    Args:
        length: scalar, length of the signal.
        channels: scalar, size of the embeddings.
        low: the smallest timescale.
        high: the largest timescale.

    Returns:
        A list of `length` rows of `channels` values.
    """
    position = list(range(length))
    count = channels // 2
    log_timescale_increment = math.log(float(high) / float(low)) / (count - 1)
    inverse_timescales = [low * math.exp(i * -log_timescale_increment) for i in range(count)]
    scaled_positions = [[p * v for v in inverse_timescales] for p in position]
    sines = [[math.sin(x) for x in row] for row in scaled_positions]
    cosines = [[math.cos(x) for x in row] for row in scaled_positions]
    signal = [s + c for s, c in zip(sines, cosines)]
    return signal
'''
EMBEDDER = '''class SinusoidEmbedder:
    def __init__(self, low=1.0, high=1.0e4):
        self.low = low
        self.high = high

    def position_embedding(self, {params}):
        position = list(range(length))
        count = channels // 2
        log_timescale_increment = math.log(float(self.high) / float(self.low)) / (count - 1)
        inverse_timescales = [self.low * math.exp(i * -log_timescale_increment) for i in range(count)]
        scaled_positions = [[p * v for v in inverse_timescales] for p in position]
        sines = [[math.sin(x) for x in row] for row in scaled_positions]
        cosines = [[math.cos(x) for x in row] for row in scaled_positions]
        signal = [s + c for s, c in zip(sines, cosines)]
        return signal
'''


def _into_class(params="length, channels", extra=""):
    head = "import math\n\n\n"
    before = {"nn/layers.py": head + OTHER + "\n\n" + TIMING, "nn/embedders.py": head + OTHER}
    after = {"nn/layers.py": head + OTHER, "nn/embedders.py": head + OTHER + "\n\n" + EMBEDDER.format(params=params)
             + extra}
    anchor, rel = _workspace(before, after, "nn/layers.py", 9, 34)
    assert anchor.symbol == "timing_signal"
    return rel


def test_a_function_taken_into_a_class_its_docstring_dropped_follows_its_statements():
    rel = _into_class()
    assert (rel.anchor.file, rel.anchor.symbol, rel.anchor.line_start, rel.method) == \
        ("nn/embedders.py", "SinusoidEmbedder.position_embedding", 14, "moved")


def test_statements_kept_without_the_parameters_are_no_successor():
    assert _into_class(params="size, width").health == "orphaned"


def test_statements_kept_twice_are_no_one_successor():
    twin = "\n\n" + EMBEDDER.replace("SinusoidEmbedder", "CosineEmbedder").format(params="length, channels")
    assert _into_class(extra=twin).health == "orphaned"


MANY = '''def filter_many(nodes, name, *args, **kwargs):
    """Apply a custom filter to many input streams.

    Unlike ``apply_filter`` it takes several streams; it cannot be used as an operator.
    """
    return FilterNode(nodes, name, *args, **kwargs)
'''
OUTPUTS = '''def {name}(streams, name, *args, **kwargs):
    """Apply a custom filter with one or more outputs.

    To reference an output, use ``.stream(i)`` or ``[i]``.
    """
    return FilterNode(streams, name, args=args, kwargs=kwargs, max_inputs=None)
'''
APPLY_BEFORE = '''def apply_filter(node, name, *args, **kwargs):
    """Apply a custom single-input filter (see ``filter_many`` for several)."""
    return FilterNode([node], name, *args, **kwargs)
'''
APPLY_AFTER = '''def apply_filter(streams, name, *args, **kwargs):
    """Apply a custom filter."""
    return {call}(streams, name, *args, **kwargs).stream()
'''
SETPTS = 'def setpts(node, expr):\n    return apply_filter(node, "setpts", expr)\n'


def _swap(new_names: list[str], old_mentioned: bool = False, params: str = "streams, name, *args, **kwargs"):
    head = "from .nodes import FilterNode\n\n\n"
    before = head + APPLY_BEFORE + "\n\n" + MANY + "\n\n" + SETPTS
    news = "\n\n".join(OUTPUTS.format(name=n).replace("streams, name, *args, **kwargs):", params + "):", 1)
                         for n in new_names)
    apply_after = APPLY_AFTER.format(call=new_names[0]) if not old_mentioned else APPLY_BEFORE
    after = head + news + "\n\n" + apply_after + "\n\n" + SETPTS
    anchor, rel = _workspace({"filters.py": before}, {"filters.py": after}, "filters.py", 9, 14)
    assert anchor.symbol == "filter_many"
    return rel


def test_the_one_function_a_module_gained_under_an_extended_name_is_the_old_one_renamed():
    rel = _swap(["filter_many_outputs"])
    assert (rel.anchor.symbol, rel.anchor.line_start, rel.anchor.line_end, rel.method) == \
        ("filter_many_outputs", 4, 9, "renamed")


@pytest.mark.parametrize("params", ["streams, name", "streams, label, *args, **kwargs", "streams, name, *args"])
def test_a_swap_whose_parameters_are_not_mostly_kept_stays_orphaned(params):
    assert _swap(["filter_many_outputs"], params=params).health == "orphaned"


def test_a_swap_whose_old_name_is_still_written_stays_orphaned():
    assert _swap(["filter_many_outputs"], old_mentioned=True).health == "orphaned"


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["filter_many_outputs", "filter_outputs", "many_filter_streams", "split_outputs",
                                 "filter_many_v2", "outputs"]), min_size=1, max_size=2, unique=True))
def test_a_swap_tells_only_one_new_function_whose_name_extends_the_old(new_names):
    rel = _swap(new_names)
    if len(new_names) == 1 and {"filter", "many"} < name_words(new_names[0]):
        assert (rel.health, rel.anchor.symbol) == ("drifted", new_names[0])
    else:  # a name that drops an old word, or two new functions: not told
        assert rel.health == "orphaned"


def test_parameters_are_read_as_declared_without_defaults_or_receivers():
    assert parameters("(self, length, channels=2, *args, **kwargs):") == ["length", "channels", "*args", "**kwargs"]
    assert parameters("(&mut self, x: i32) -> bool") == ["x: i32"]
    assert parameters("(String s, Map<K, V> m)") == ["String s", "Map<K, V> m"]
    assert parameters("") == []
