"""A method renamed and rewritten at once follows its new name when the rows that named it (its
declaration, its call sites) now read the same with the new name, throughout (architecture-samples
4aff2473: `refreshTasks()` -> `refresh()`, its body the inlined helper's); a small method inlined
where it was called follows into the one function that lost its call and gained its body's words
(architecture-samples f01fcad4: `TasksLocalDataSource.completeTask`). Else orphaned."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, reanchor

_KEYWORDS = {"fun", "val", "var", "class", "object", "return", "override", "suspend", "private", "launch",
             "refresh", "load", "helper", "scope", "withContext", "data", "in", "is", "as", "if", "do"}
NAMES = st.from_regex(r"[a-z][a-zA-Z]{5,11}", fullmatch=True).filter(lambda n: n not in _KEYWORDS)


def _repository(name: str, body: str) -> bytes:
    return f'''package todo.data

class Repository(private val dao: TaskDao, private val network: Network) {{

    fun getTasks(): List<Task> {{
        return dao.getAll()
    }}

    suspend fun {name}() {{
{body}
    }}
}}
'''.encode()


def _callers(names: list[str]) -> bytes:
    calls = "\n\n".join(f"    fun onEvent{i}() {{\n        scope.launch {{ repository.{n}() }}\n    }}"
                        for i, n in enumerate(names))
    return f"package todo.ui\n\nclass Screen(private val repository: Repository) {{\n{calls}\n}}\n".encode()


OLD_BODY = "        loadFromNetwork()"
NEW_BODY = "        withContext(dispatcher) {\n            dao.upsertAll(network.fetch().toLocal())\n        }"


def _follow(old: str, new: str, calls: int, renamed: int):
    before = {"Repository.kt": _repository(old, OLD_BODY), "Screen.kt": _callers([old] * calls)}
    after = {"Repository.kt": _repository(new, NEW_BODY),
             "Screen.kt": _callers([new] * renamed + [old] * (calls - renamed))}
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    anchor = create_anchor("Repository.kt", before["Repository.kt"], 9, 11)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    return reanchor(anchor, after["Repository.kt"], index)


def test_a_method_renamed_and_rewritten_follows_its_references():
    rel = _follow("refreshTasks", "refresh", calls=2, renamed=2)
    assert (rel.health, rel.method, rel.anchor.line_start, rel.anchor.line_end) == ("drifted", "renamed", 9, 13)


@settings(max_examples=40, deadline=None)
@given(NAMES, NAMES, st.integers(0, 4), st.data())
def test_the_thread_follows_the_new_name_only_when_every_reference_took_it(old, new, calls, data):
    if old == new or old in new or new in old:
        return
    renamed = data.draw(st.integers(0, calls))
    rel = _follow(old, new, calls, renamed)
    if renamed == calls and calls >= 2:  # the declaration and at least two calls renamed, none left
        assert (rel.health, rel.anchor.line_start, rel.anchor.line_end) == ("drifted", 9, 13)
    else:
        assert rel.health == "orphaned"


SOURCE = b'''package todo.data.local

class TasksLocalDataSource(private val tasksDao: TasksDao) {

    suspend fun completeTask(taskId: String) =
        tasksDao.updateCompleted(taskId, true)

    suspend fun deleteAllTasks() = tasksDao.deleteTasks()
}
'''


def _repository_calling(*bodies: str) -> bytes:
    methods = "\n\n".join(f"    suspend fun step{i}(taskId: String) {{\n        launch {{ {b} }}\n    }}"
                          for i, b in enumerate(bodies))
    return f"package todo.data\n\nclass Tasks(private val local: TasksLocalDataSource) {{\n{methods}\n}}\n".encode()


def _inline(before_bodies: list[str], after_bodies: list[str]):
    before = {"Local.kt": SOURCE, "Tasks.kt": _repository_calling(*before_bodies)}
    after = {"Tasks.kt": _repository_calling(*after_bodies)}
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    anchor = create_anchor("Local.kt", SOURCE, 5, 6)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    return reanchor(anchor, None, index)


def test_a_small_method_inlined_at_its_one_call_site_follows_into_that_function():
    rel = _inline(["local.completeTask(taskId)", "local.deleteAllTasks()"],
                  ["tasksDao.updateCompleted(taskId = taskId, completed = true)", "local.deleteAllTasks()"])
    assert (rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end, rel.method) == ("Tasks.kt", 4, 6, "moved")


def test_a_small_method_inlined_at_two_call_sites_is_orphaned():
    rel = _inline(["local.completeTask(taskId)", "local.completeTask(taskId)"],
                  ["tasksDao.updateCompleted(taskId = taskId, completed = true)",
                   "tasksDao.updateCompleted(taskId = taskId, completed = true)"])
    assert rel.health == "orphaned"


def test_a_call_replaced_by_unrelated_code_is_no_inlining():
    rel = _inline(["local.completeTask(taskId)", "local.deleteAllTasks()"],
                  ["network.markDone(taskId)", "local.deleteAllTasks()"])
    assert rel.health == "orphaned"


def test_a_caller_that_only_dropped_the_call_leaves_the_one_that_received_the_body():
    """A test that no longer calls the method (it gained none of its words) is no second receiver."""
    rel = _inline(["local.completeTask(taskId)", "local.completeTask(taskId)"],
                  ["tasksDao.updateCompleted(taskId = taskId, completed = true)", "println(taskId)"])
    assert (rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end, rel.method) == ("Tasks.kt", 4, 6, "moved")


def _delegating(name: str, after_body: str):
    """`deleteAllTasks() = tasksDao.deleteTasks()` (two words) inlined into a method `name` that
    called it."""
    def repository(body: str) -> bytes:
        return (f"package todo.data\n\nclass Tasks(private val local: TasksLocalDataSource) {{\n"
                f"    suspend fun {name}() {{\n        launch {{ {body} }}\n    }}\n}}\n").encode()
    before = {"Local.kt": SOURCE, "Tasks.kt": repository("local.deleteAllTasks()")}
    after = {"Tasks.kt": repository(after_body)}
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    anchor = create_anchor("Local.kt", SOURCE, 8, 8)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    return reanchor(anchor, None, index)


def test_a_two_word_body_follows_only_into_a_delegate_of_its_very_name():
    rel = _delegating("deleteAllTasks", "tasksDao.deleteTasks()")
    assert (rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end) == ("Tasks.kt", 4, 6)
    assert _delegating("resetEverything", "tasksDao.deleteTasks()").health == "orphaned"


ACTIVITY = b'''package todo

class TasksActivity : AppCompatActivity() {
    fun obtainViewModel(): TasksViewModel = obtainViewModel(TasksViewModel::class.java)
}
'''


def _fragment(name: str, row: str) -> bytes:
    return (f"package todo\n\nclass {name}Fragment : Fragment() {{\n    override fun onCreateView() {{\n"
            f"        inflate()\n        viewModel = {row}\n    }}\n}}\n").encode()


def test_a_wrapper_inlined_into_its_caller_follows_though_namesakes_calls_went_elsewhere_alike():
    """architecture-samples 570c0b59: each activity's `obtainViewModel()` wrapper inlined into its
    fragment; the other fragments gained `obtainViewModel(AddEditTaskViewModel::class.java)`, the
    same short words (`class`, `java`) but not the long one that tells (`TasksViewModel`)."""
    before = {"TasksActivity.kt": ACTIVITY,
              "TasksFragment.kt": _fragment("Tasks", "(activity as TasksActivity).obtainViewModel()"),
              "AddEditFragment.kt": _fragment("AddEdit", "(activity as AddEditActivity).obtainViewModel()")}
    after = {"TasksActivity.kt": ACTIVITY.replace(ACTIVITY.split(b"\n")[3] + b"\n", b""),
             "TasksFragment.kt": _fragment("Tasks", "obtainViewModel(TasksViewModel::class.java)"),
             "AddEditFragment.kt": _fragment("AddEdit", "obtainViewModel(AddEditTaskViewModel::class.java)")}
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in before.items()}, before.get)
    anchor = create_anchor("TasksActivity.kt", ACTIVITY, 4, 4)
    index.update({p: content_hash(b) for p, b in after.items()}, after.get)
    rel = reanchor(anchor, after["TasksActivity.kt"], index)
    assert (rel.anchor.file, rel.anchor.line_start, rel.anchor.line_end) == ("TasksFragment.kt", 4, 7)
