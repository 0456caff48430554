"""Statement-level mapping: statements of an old body found in a new one, tolerating replaced
identifiers and literals; a small method moved under its own simple name follows when most of its
statements map (leakcanary 297fa598: HprofReader.readByte -> HprofRecordReader.readByte, a field
renamed in it), and only then."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, reanchor
from limpet.anchoring._statements import body_statements, mapped_shares

READER_BEFORE = b'''package shark

class HprofReader(private val source: BufferedSource) {
  var position: Long = 0

  fun readShort(): Short {
    position += SHORT_SIZE
    return source.readShort()
  }

  private fun readByte(): Byte {
    position += BYTE_SIZE
    return source.readByte()
  }
}
'''
READER_AFTER = b'''package shark

class HprofReader(private val source: BufferedSource) {
  var position: Long = 0

  fun readShort(): Short {
    position += SHORT_SIZE
    return source.readShort()
  }
}
'''
RECORD_READER = b'''package shark

class HprofRecordReader(private val source: BufferedSource) {
  var bytesRead: Long = 0

  fun readInt(): Int {
    bytesRead += INT_SIZE
    return source.readInt()
  }

  fun readByte(): Byte {
    bytesRead += BYTE_SIZE
    return source.readByte()
  }
}
'''


def _run(before: dict[str, bytes], after: dict[str, bytes], path: str, first: int, last: int):
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    anchor = create_anchor(path, before[path], first, last)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    return reanchor(anchor, after.get(path), index)


def test_statements_map_through_a_renamed_field():
    old = "fun readByte(): Byte {\n  position += BYTE_SIZE\n  return source.readByte()\n}"
    new = "fun readByte(): Byte {\n  bytesRead += BYTE_SIZE\n  return source.readByte()\n}"
    assert mapped_shares(old, new) == (1.0, 1.0)


def test_statements_of_another_shape_do_not_map():
    old = "def f(x):\n    total = sum(x)\n    return total / len(x)\n"
    new = "def f(x):\n    if not x:\n        raise ValueError(x)\n"
    assert mapped_shares(old, new) == (0.0, 0.0)


def test_a_small_method_moved_to_a_new_class_under_its_name_follows_it():
    before = {"HprofReader.kt": READER_BEFORE}
    after = {"HprofReader.kt": READER_AFTER, "HprofRecordReader.kt": RECORD_READER}
    got = _run(before, after, "HprofReader.kt", 11, 14)
    assert got.health == "drifted" and got.anchor.file == "HprofRecordReader.kt"
    assert (got.anchor.line_start, got.anchor.line_end) == (11, 14)


def test_a_method_of_that_name_that_was_already_there_is_not_where_it_went():
    before = {"HprofReader.kt": READER_BEFORE, "HprofRecordReader.kt": RECORD_READER}
    after = {"HprofReader.kt": READER_AFTER, "HprofRecordReader.kt": RECORD_READER.replace(b"INT_SIZE", b"4")}
    got = _run(before, after, "HprofReader.kt", 11, 14)
    assert got.health == "orphaned"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a = b + 1", "return a", "x.y(z)", "if a:", "c = 'v'", "pass"]), min_size=1, max_size=8))
def test_a_body_maps_wholly_onto_itself_and_shares_stay_within_bounds(rows):
    text = "def f():\n" + "\n".join("    " + r for r in rows)
    assert mapped_shares(text, text) == (1.0, 1.0)
    other = "def g():\n    return None\n"
    a, b = mapped_shares(text, other)
    assert 0.0 <= a <= 1.0 and 0.0 <= b <= 1.0


LOSSES_BEFORE = b'''def sequence_softmax_cross_entropy(labels, logits, sequence_length):
    losses = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    losses = mask_sequences(losses, sequence_length, time_major=False)
    losses = tf.reduce_sum(losses, axis=1)
    losses = tf.reduce_mean(losses)
    return losses
'''
LOSSES_AFTER = b'''from losses_utils import mask_and_reduce


def sequence_softmax_cross_entropy(labels, logits, sequence_length):
    losses = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return mask_and_reduce(losses, sequence_length)
'''
UTILS_AFTER = b'''def mask_and_reduce(sequence, sequence_length):
    """Masks out sequence entries beyond the lengths, then sums and averages."""
    sequence = mask_sequences(sequence, sequence_length, time_major=False)
    sequence = tf.reduce_sum(sequence, axis=1)
    sequence = tf.reduce_mean(sequence)
    return sequence
'''


def test_lines_extracted_into_a_new_function_of_another_file_follow_them_there():
    """texar 75aaf9da: three statements taken into mask_and_reduce (losses_utils.py), the
    variable become a parameter (argumentization)."""
    before = {"mle_losses.py": LOSSES_BEFORE}
    after = {"mle_losses.py": LOSSES_AFTER, "losses_utils.py": UTILS_AFTER}
    got = _run(before, after, "mle_losses.py", 3, 5)
    assert got.health == "drifted" and got.anchor.file == "losses_utils.py"
    assert (got.anchor.line_start, got.anchor.line_end) == (3, 5)


def test_lines_deleted_from_a_function_that_stayed_stay_on_it_when_no_new_function_took_them():
    after = {"mle_losses.py": LOSSES_AFTER.replace(b"mask_and_reduce(losses, sequence_length)", b"losses")}
    got = _run({"mle_losses.py": LOSSES_BEFORE}, after, "mle_losses.py", 3, 5)
    assert got.health == "drifted" and got.anchor.file == "mle_losses.py" and got.anchor.line_start == 4


def test_a_method_inlined_into_its_one_caller_follows_into_the_caller():
    before = b'''def run(stream):
    args = get_args(stream)
    return call(args)


def _check(stream):
    if stream is None:
        raise ValueError("no stream")
    if not stream.nodes:
        raise ValueError("empty stream")


def get_args(stream):
    _check(stream)
    return [n.arg for n in stream.nodes]
'''
    after = b'''def run(stream):
    args = get_args(stream)
    return call(args)


def get_args(stream):
    if stream is None:
        raise ValueError("no stream")
    if not stream.nodes:
        raise ValueError("empty stream")
    return [n.arg for n in stream.nodes]
'''
    got = _run({"run.py": before}, {"run.py": after}, "run.py", 6, 10)
    assert got.health == "drifted" and (got.anchor.line_start, got.anchor.line_end) == (6, 11)


def test_a_method_deleted_whose_statements_no_function_received_is_orphaned():
    before = b"def a(x):\n    y = x + 1\n    z = y * 2\n    return z\n\n\ndef b(x):\n    return x\n"
    after = b"def b(x):\n    return x\n"
    got = _run({"m.py": before}, {"m.py": after}, "m.py", 1, 4)
    assert got.health == "orphaned"



def _steps(names: list[str]) -> str:
    return "".join(f"    {n}_total = sum({n}_values)\n    {n}_count = len({n}_values)\n" for n in names)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10))
def test_a_method_renamed_in_place_follows_only_when_most_of_its_statements_went_with_it(kept):
    """A method of twenty statements renamed and edited in place: it follows into the new method
    of its class when 60% or more of its statements went there (names replaced in them), else it
    is orphaned (the rest rewritten: a new method, not the old one edited)."""
    names = [f"metric{i}" for i in range(10)]
    other = [f"other{i}" for i in range(10)]
    before = f"class Report:\n    def summarize_all(self, values):\n{_steps(names).replace('    ', '        ')}" \
             "        return self\n\n    def title(self):\n        return 'report'\n"
    renamed = [n.replace("metric", "measure") for n in names[:kept]]
    new_body = _steps(renamed) + "".join(f"    {o} = self.compute_{o}(values, weights={o}_w)\n" for o in other[kept:] * 2)
    after = f"class Report:\n    def summarize(self, values):\n{new_body.replace('    ', '        ')}" \
            "        return self\n\n    def title(self):\n        return 'report'\n"
    got = _run({"r.py": before.encode()}, {"r.py": after.encode()}, "r.py", 2, 23)
    if kept >= 6:
        assert got.health == "drifted" and got.anchor.line_start == 2
    else:
        assert got.health == "orphaned"


def test_statements_map_through_a_constant_replaced_by_a_literal():
    """architecture-samples 5dec53b4: tests moved to another source set, their constants written
    out (`Task(TITLE1, DESCRIPTION)` -> `Task("TITLE1", "DESCRIPTION1")`, `withItemText(TITLE1)`
    -> `withText("TITLE1")`): a name and a literal are both values to the mapping."""
    old = "fun t() {\n  repository.save(Task(TITLE1, DESCRIPTION))\n  onView(withItemText(TITLE1)).check(matches(isDisplayed()))\n}"
    new = "fun t() {\n  repository.save(Task(\"TITLE1\", \"DESCRIPTION1\"))\n  onView(withText(\"TITLE1\")).check(matches(isDisplayed()))\n}"
    assert mapped_shares(old, new) == (1.0, 1.0)


def test_a_keyword_is_not_a_value():
    assert mapped_shares("def f():\n    return x\n", "def f():\n    yield x\n") == (0.0, 0.0)


ACTIVITY_TEST = b'''package tasks

class TasksActivityTest {
    @Test
    fun showActiveTasks() {
        repository.saveTaskBlocking(Task(TITLE1, DESCRIPTION))
        repository.saveTaskBlocking(Task(TITLE2, DESCRIPTION, true))

        val activityScenario = ActivityScenario.launch(TasksActivity::class.java)

        viewActiveTasks()
        onView(withItemText(TITLE1)).check(matches(isDisplayed()))
        onView(withItemText(TITLE2)).check(doesNotExist())
    }

    @Test
    fun createTask() {
        onView(withId(R.id.add_task_fab)).perform(click())
    }
}
'''
FRAGMENT_TEST = b'''package tasks

class TasksFragmentTest {
    @Test
    fun showActiveTasks() {
        repository.saveTaskBlocking(Task("TITLE1", "DESCRIPTION1"))
        repository.saveTaskBlocking(Task("TITLE2", "DESCRIPTION2", true))

        val activityScenario = ActivityScenario.launch(TasksActivity::class.java)

        onView(withId(R.id.menu_filter)).perform(click())
        onView(withText("TITLE1")).check(matches(isDisplayed()))
        onView(withText("TITLE2")).check(doesNotExist())
    }
}
'''


def test_a_test_moved_to_another_class_with_its_constants_written_out_follows_it():
    before = {"androidTest/TasksActivityTest.kt": ACTIVITY_TEST}
    after = {"androidTest/TasksActivityTest.kt": ACTIVITY_TEST[:ACTIVITY_TEST.index(b"    @Test\n    fun showActive")]
             + ACTIVITY_TEST[ACTIVITY_TEST.index(b"    @Test\n    fun createTask"):],
             "test/TasksFragmentTest.kt": FRAGMENT_TEST}
    got = _run(before, after, "androidTest/TasksActivityTest.kt", 4, 14)
    assert got.health == "drifted" and got.anchor.file == "test/TasksFragmentTest.kt"
    assert (got.anchor.line_start, got.anchor.line_end) == (4, 14)


def test_a_parameter_list_spread_over_rows_is_the_declaration_not_statements():
    kotlin = "fun update(\n    start: Int,\n    end: Int,\n) {\n    apply(start, end)\n}"
    python = "def update(\n    start,\n    end,\n):\n    return apply(start, end)\n"
    assert body_statements(kotlin) == ["apply(start, end)"]
    assert body_statements(python) == ["return apply(start, end)"]
    lambda_ = "val onUpdate = register({ start ->\n    apply(start)\n})"
    assert body_statements(lambda_) == ["apply(start)"]  # a body opened in the first row: its rows count


HEADER_BEFORE = b'''class HeaderGroup(context: Context) : ViewGroup(context) {
    fun updateInsetsLegacy(
        insetStart: Int,
        insetEnd: Int,
    ) {
        applyInsets(insetStart, insetEnd)
    }

    fun applyInsets(
        insetStart: Int,
        insetEnd: Int,
    ) {
        store(insetStart, insetEnd)
    }
}
'''
HEADER_AFTER = b'''class HeaderGroup(context: Context) : ViewGroup(context) {
    fun updateInsets(
        insetStart: Int,
        insetEnd: Int,
    ) {
        // Nothing to do here: only the old renderer reads insets.
    }

    fun updateHeaderState(
        width: Int,
        insetStart: Int,
        insetEnd: Int,
    ) {
        applyInsets(width, insetStart, insetEnd)
    }

    fun applyInsets(
        width: Int,
        insetStart: Int,
        insetEnd: Int,
    ) {
        store(width, insetStart, insetEnd)
    }
}
'''


def test_a_new_method_that_only_shares_the_parameters_is_not_the_renamed_one():
    """react-native-screens 4.6: updatePaddingsFabric(paddingStart, paddingEnd), a call, became
    updateHeaderConfigState(width, height, paddingStart, paddingEnd); a new updatePaddings with the
    old parameters and a comment for a body was taken for it renamed (its parameter rows counted
    as old statements). The thread follows the call."""
    got = _run({"HeaderGroup.kt": HEADER_BEFORE}, {"HeaderGroup.kt": HEADER_AFTER}, "HeaderGroup.kt", 2, 7)
    assert got.health == "drifted" and (got.anchor.line_start, got.anchor.line_end) == (9, 15)


GROUP_BEFORE = b'''class Group:
    """Runs tasks together."""

    def spawn(self, func, *args, name=None):
        """
        Launch a new task in this group.

        :param func: a coroutine function
        :param args: positional arguments to call the function with
        :param name: name of the task, for introspection and debugging
        """
        raise NotImplementedError
'''
GROUP_AFTER = b'''import warnings


class Group:
    """Runs tasks together."""

    def spawn(self, func, *args, name=None):
        """
        Start a new task in this group.

        :param func: a coroutine function
        :param args: positional arguments to call the function with
        :param name: name of the task, for introspection and debugging

        Deprecated: use start_soon.
        """
        warnings.warn("spawn() is deprecated", DeprecationWarning)
        self.start_soon(func, *args, name=name)

    def start_soon(self, func, *args, name=None):
        """
        Start a new task in this group.

        :param func: a coroutine function
        :param args: positional arguments to call the function with
        :param name: name of the task, for introspection and debugging

        Added in 3.0, to replace spawn: it does not wait for the task to start,
        and it is a plain method, so there is nothing to await.
        """
        self._tasks.append(self._backend.create_task(func(*args), name=name))
'''


def test_a_name_kept_on_a_forwarder_in_another_file_is_no_one_place():
    """anyio 3.0: abc/tasks.py's TaskGroup.spawn went to abc/_tasks.py, where spawn is now a
    deprecated forwarder to a new start_soon holding its body; the name alone is not the code."""
    got = _run({"tasks.py": GROUP_BEFORE}, {"_tasks.py": GROUP_AFTER}, "tasks.py", 4, 12)
    assert got.health == "orphaned"


MODE_BEFORE = b'''class Mode:
    def __post_init__(self):
        if self.experimental_string_processing:
            warn(
                "`experimental string processing` has been included in `preview`"
                " and deprecated. Use `preview` instead.",
                Deprecated,
            )

    def key(self):
        return str(self.target)
'''
MODE_AFTER = b'''class Mode:
    def key(self):
        return str(self.target)
'''
CLI_BEFORE = b'''def main(sources, check, quiet):
    report = Report(check=check, quiet=quiet, experimental_string_processing=False)
    for source in sources:
        reformat(source, report)
    return report.return_code
'''
CLI_AFTER = b'''def main(sources, check, quiet, unstable):
    report = Report(check=check, quiet=quiet, experimental_string_processing=False)
    if unstable and not check:
        out(
            "Unstable features change from one release to the next"
            " and are not covered by the stability policy.",
            Warning,
        )
    for source in sources:
        reformat(source, report)
    return report.return_code
'''


def test_rows_with_every_name_and_literal_replaced_are_no_inlined_body():
    """black 24.2: Mode.__post_init__'s deprecation warning was deleted while main() gained a
    warning of its own; `warn(`, a message and a category read as any call, message and name."""
    got = _run({"mode.py": MODE_BEFORE, "cli.py": CLI_BEFORE}, {"mode.py": MODE_AFTER, "cli.py": CLI_AFTER},
               "mode.py", 2, 8)
    assert got.health == "orphaned"


def test_a_deleted_function_whose_rows_a_function_that_never_called_it_gained_alike_is_orphaned():
    """Rows of the same shape (`top=" ",` / `top="-",`) written into a function that never called
    the one deleted: new code of its own, not the deleted body moved there."""
    before = b'''def plain_style():
    return Style(
        top=" ",
        bottom=" ",
        left=" ",
        right=" ",
    )


def make_style(shape):
    return Style(shape=shape)
'''
    after = b'''def make_style(shape):
    if shape == ROUNDED:
        return Style(
            top="-",
            bottom="-",
            left="|",
            right="|",
        )
    return Style(shape=shape)
'''
    got = _run({"style.py": before}, {"style.py": after}, "style.py", 1, 7)
    assert got.health == "orphaned"


def test_a_method_gone_from_two_callers_that_each_took_part_of_it_is_orphaned():
    before = b'''class Cache:
    def put(self, key, value):
        if key is None:
            raise KeyError("no key given")
        self._store(key, value)

    def refresh(self, key):
        self._store(key, self.load(key))

    def _store(self, key, value):
        self.entries[key] = value
        self.stamps[key] = now()
        self.log.debug("stored %s", key)
'''
    after = b'''class Cache:
    def put(self, key, value):
        if key is None:
            raise KeyError("no key given")
        self.entries[key] = value
        self.stamps[key] = now()
        self.log.debug("stored %s", key)

    def refresh(self, key):
        value = self.load(key)
        self.entries[key] = value
        self.stamps[key] = now()
'''
    got = _run({"cache.py": before}, {"cache.py": after}, "cache.py", 10, 13)
    assert got.health == "orphaned"


def test_a_method_of_rows_naming_one_thing_each_is_orphaned_though_a_caller_gained_them():
    """`if err != nil {`, `return err`, `return nil` are rows of any function: a caller that lost
    a call of that name and gained them says nothing of where the method went."""
    before = b'''package store

func (s *Store) check(err error) error {
	if err != nil {
		return err
	}
	return nil
}

func (s *Store) Open(path string) error {
	f, err := os.Open(path)
	s.f = f
	return s.check(err)
}
'''
    after = b'''package store

func (s *Store) Open(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	s.f = f
	return nil
}
'''
    got = _run({"store.go": before}, {"store.go": after}, "store.go", 3, 8)
    assert got.health == "orphaned"
