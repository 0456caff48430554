"""Near-verbatim twins among the new symbols: a change that adds two copies of the old body at
once (a getter doubled into a source and a target one, a test split into one per screen) leaves
no candidate ahead by a margin. Where the copies differ from each other, the one whose own words
are the old symbol's, else its file's, while its twin brought words new to the file, continues
the old symbol (architecture-samples d402dae4: `clickOnAndroidHomeIcon_OpensNavigation` ->
`tasksScreen_...`, launching the activity the file already tested, beside `statsScreen_...`,
launching one it newly imports). Copies whose own words stand alike (texar fb7b2f82:
`_src_decoder` against `_tgt_decoder`, both fields of the file already) stay orphaned: neither
their names nor their places decide."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, reanchor

# A word of each standing: the old symbol's own, its file's (not the symbol's), new to the file
WORD = {"symbol": "_decoder", "file": "_spare", "new": "_fresh"}
OTHER_WORD = {"symbol": "_decoder", "file": "_backup", "new": "_novel"}  # a second one of a standing
RANK = {"symbol": 2, "file": 1, "new": 0}

HEAD = ("class Reader:\n"
        "    def __init__(self, decoder, spare, backup):\n"
        "        self._decoder = decoder\n"
        "        self._spare = spare\n"
        "        self._backup = backup\n"
        "\n"
        "    def vocab(self):\n"
        "        return self._decoder.vocab\n")
OLD = ("\n    @property\n    def text_tensor_name(self):\n        \"\"\"The name of the text tensor.\"\"\"\n"
       "        return self._decoder.text_tensor_name\n")
COPY = ("\n    @property\n    def {name}(self):\n        \"\"\"The name of the text tensor.\"\"\"\n"
        "        return '{prefix}_' + self.{field}.text_tensor_name\n")
OLD_ROWS = (10, 13)  # the old method's rows (1-based), decorator aside

NAMES = st.from_regex(r"[a-z]{3,8}_text_name", fullmatch=True)


def _reanchor(path: str, before: bytes, after: bytes, rows: tuple[int, int]):
    index = WorkspaceIndex()
    index.update({path: content_hash(before)}, {path: before}.get)
    anchor = create_anchor(path, before, *rows)
    index.update({path: content_hash(after)}, {path: after}.get)
    return anchor, reanchor(anchor, after, index)


def _doubled(first: tuple[str, str], second: tuple[str, str]):
    """The getter replaced by two copies (name, field), in that order."""
    before = (HEAD + OLD).encode()
    after = (HEAD + "".join(COPY.format(name=n, prefix=n[:3], field=f) for n, f in (first, second))).encode()
    anchor, rel = _reanchor("reader.py", before, after, OLD_ROWS)
    assert anchor.symbol == "Reader.text_tensor_name"
    return rel


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(RANK)), st.sampled_from(sorted(RANK)), st.lists(NAMES, min_size=2, max_size=2,
                                                                               unique=True), st.booleans())
def test_the_copy_that_kept_to_the_old_words_is_the_successor_and_a_tie_is_orphaned(mine, theirs, names, swap):
    fields = (WORD[mine], WORD[theirs] if theirs != mine else OTHER_WORD[theirs])
    if fields[0] == fields[1]:
        return  # (two copies both kept to the old symbol's one field: the same code twice)
    copies = list(zip(names, fields, strict=True))
    rel = _doubled(*(reversed(copies) if swap else copies))
    if RANK[mine] == RANK[theirs]:  # neither copy is more the old code's: not its place to guess
        assert rel.health == "orphaned"
    else:  # whichever comes first in the file, whatever the names
        winner = names[0] if RANK[mine] > RANK[theirs] else names[1]
        assert (rel.health, rel.method, rel.anchor.symbol) == ("drifted", "renamed", f"Reader.{winner}")


def test_copies_that_each_use_a_field_the_file_already_had_stay_orphaned():
    rel = _doubled(("source_text_name", "_spare"), ("target_text_name", "_backup"))
    assert rel.health == "orphaned"


def test_a_copy_that_was_already_there_is_never_the_successor_however_well_it_kept_to_the_old_words():
    kept = COPY.format(name="source_text_name", prefix="sou", field="_decoder")
    before = (HEAD + kept + OLD).encode()
    after = (HEAD + kept + COPY.format(name="target_text_name", prefix="tar", field="_decoder")).encode()
    anchor, rel = _reanchor("reader.py", before, after, (15, 18))
    assert anchor.symbol == "Reader.text_tensor_name"
    assert rel.anchor.symbol != "Reader.source_text_name"


KT_HEAD = """package app.tasks

import app.R
{imports}
class AppNavigationTest {{

    @get:Rule var rule = ActivityTestRule(TasksActivity::class.java)

    @Test
    fun clickOnListItem_ShowsList() {{
        onView(withId(R.id.drawer_layout)).perform(open())
        onView(withId(R.id.tasks)).check(matches(isDisplayed()))
    }}
"""
KT_OLD = """
    @Test
    fun clickOnHomeIcon_OpensNavigation() {
        // Check that the drawer is closed at startup
        onView(withId(R.id.drawer_layout)).check(matches(isClosed(Gravity.START)))
        onView(withContentDescription(rule.activity.navigationDescription())).perform(click())
        onView(withId(R.id.drawer_layout)).check(matches(isOpen(Gravity.START)))
    }
"""
KT_COPY = """
    @Test
    fun {name}() {{
        val scenario = ActivityScenario.launch({activity}::class.java)
        // Check that the drawer is closed at startup
        onView(withId(R.id.drawer_layout)).check(matches(isClosed(Gravity.START)))
        onView(withContentDescription(scenario.navigationDescription())).perform(click())
        onView(withId(R.id.drawer_layout)).check(matches(isOpen(Gravity.START)))
    }}
"""


def _split_test(*screens: tuple[str, str], imports: str) -> tuple:
    before = (KT_HEAD.format(imports="") + KT_OLD + "}\n").encode()
    copies = "".join(KT_COPY.format(name=n, activity=a) for n, a in screens)
    after = (KT_HEAD.format(imports=imports) + copies + "}\n").encode()
    anchor, rel = _reanchor("AppNavigationTest.kt", before, after, (15, 21))
    assert anchor.symbol == "AppNavigationTest.clickOnHomeIcon_OpensNavigation"
    return rel


def test_a_test_split_per_screen_follows_the_copy_on_the_screen_the_file_already_tested():
    for order in ((0, 1), (1, 0)):
        copies = [("tasksScreen_clickOnHomeIcon_OpensNavigation", "TasksActivity"),
                  ("statsScreen_clickOnHomeIcon_OpensNavigation", "StatisticsActivity")]
        rel = _split_test(*(copies[i] for i in order), imports="import app.stats.StatisticsActivity\n")
        assert (rel.health, rel.method, rel.anchor.symbol) == \
            ("drifted", "renamed", "AppNavigationTest.tasksScreen_clickOnHomeIcon_OpensNavigation")


def test_a_test_split_into_two_new_screens_is_orphaned():
    rel = _split_test(("statsScreen_clickOnHomeIcon_OpensNavigation", "StatisticsActivity"),
                      ("editScreen_clickOnHomeIcon_OpensNavigation", "EditActivity"),
                      imports="import app.stats.StatisticsActivity\nimport app.edit.EditActivity\n")
    assert rel.health == "orphaned"


def test_of_three_copies_the_one_on_the_screen_the_file_already_tested_is_the_successor():
    rel = _split_test(("statsScreen_clickOnHomeIcon_OpensNavigation", "StatisticsActivity"),
                      ("tasksScreen_clickOnHomeIcon_OpensNavigation", "TasksActivity"),
                      ("editScreen_clickOnHomeIcon_OpensNavigation", "EditActivity"),
                      imports="import app.stats.StatisticsActivity\nimport app.edit.EditActivity\n")
    assert (rel.health, rel.anchor.symbol) == ("drifted", "AppNavigationTest.tasksScreen_clickOnHomeIcon_OpensNavigation")
