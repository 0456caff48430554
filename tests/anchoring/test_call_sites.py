"""A method renamed while its parameters changed follows its new name when every row that named it
(its declaration in an interface and in each implementation, its calls) was rewritten in place
into a row that reads the same up to the name and has the one new name there (leakcanary
dc5ec42e: `onReset()` and `onCountChanged(count)` merged into `onChange(change)`). A split (its
calls divided between two new names), a call left under the old name, a new symbol that still
names the old one, a long body rewritten, a type: orphaned."""

from __future__ import annotations

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, reanchor


def _relocate(before: dict[str, str], after: dict[str, str], file: str, row: str, rows: int = 1):
    """The thread written on the symbol whose declaration is `row` of `file`, `rows` rows long."""
    old = {p: t.encode() for p, t in before.items()}
    new = {p: t.encode() for p, t in after.items()}
    index = WorkspaceIndex()
    index.update({p: content_hash(b) for p, b in old.items()}, old.get)
    first = before[file].split("\n").index(row) + 1
    anchor = create_anchor(file, old[file], first, first + rows - 1)
    index.update({p: content_hash(b) for p, b in new.items()}, new.get)
    return reanchor(anchor, new.get(file), index)


def _where(rel, after: dict[str, str]) -> str:
    return after[rel.anchor.file].split("\n")[rel.anchor.line_start - 1].strip()


KOTLIN_BEFORE = {
    "Listener.kt": """package demo

interface Listener {
    fun onCountChanged(count: Int)

    /** Called once the heap dump is done. */
    fun onReset()
}
""",
    "QuietListener.kt": """package demo

class QuietListener : Listener {

    override fun onCountChanged(count: Int) {}

    override fun onReset() {}
}
""",
    "Trigger.kt": """package demo

class Trigger(private val listener: Listener) {
    fun retained(count: Int) {
        log("retained $count")
        listener.onCountChanged(count)
    }

    fun dumped() {
        listener.onReset()
    }

    fun cleared() = listener.onReset()
}
""",
}

KOTLIN_AFTER = {
    "Listener.kt": """package demo

sealed class Change {
    data class Count(val count: Int) : Change()
    object Reset : Change()
}

interface Listener {
    /** Called on every change of the retained objects. */
    fun onChange(change: Change)
}
""",
    "QuietListener.kt": """package demo

class QuietListener : Listener {

    override fun onChange(change: Change) {}

    companion object {
        fun create(): Listener = QuietListener()
    }
}
""",
    "Trigger.kt": """package demo

class Trigger(private val listener: Listener) {
    fun retained(count: Int) {
        log("retained $count")
        listener.onChange(Count(count))
    }

    fun dumped() {
        listener.onChange(Reset)
    }

    fun cleared() = listener.onChange(Reset)
}
""",
}


def test_an_interface_declaration_follows_its_rename_through_every_implementation_and_call():
    rel = _relocate(KOTLIN_BEFORE, KOTLIN_AFTER, "Listener.kt", "    fun onReset()")
    assert (rel.health, rel.method, _where(rel, KOTLIN_AFTER)) == ("drifted", "renamed", "fun onChange(change: Change)")


def test_an_implementation_with_no_body_follows_it_too():
    rel = _relocate(KOTLIN_BEFORE, KOTLIN_AFTER, "QuietListener.kt", "    override fun onReset() {}")
    assert (rel.method, _where(rel, KOTLIN_AFTER)) == ("renamed", "override fun onChange(change: Change) {}")


def test_two_methods_merged_into_one_each_follow_it():
    rel = _relocate(KOTLIN_BEFORE, KOTLIN_AFTER, "QuietListener.kt", "    override fun onCountChanged(count: Int) {}")
    assert _where(rel, KOTLIN_AFTER) == "override fun onChange(change: Change) {}"


def test_a_call_left_under_the_old_name_keeps_it_orphaned():
    after = dict(KOTLIN_AFTER, **{"Trigger.kt": KOTLIN_AFTER["Trigger.kt"].replace(
        "fun cleared() = listener.onChange(Reset)", "fun cleared() = listener.onReset()")})
    assert _relocate(KOTLIN_BEFORE, after, "Listener.kt", "    fun onReset()").health == "orphaned"


JAVA_BEFORE = {
    "Sink.java": "interface Sink {\n    void flush();\n\n    void write(byte[] data);\n}\n",
    "FileSink.java": """class FileSink implements Sink {
    public void flush() {
        channel.force(true);
    }

    public void write(byte[] data) {
        channel.write(data);
    }
}
""",
    "Writer.java": """class Writer {
    void close(Sink sink) {
        sink.flush();
    }

    void checkpoint(Sink sink) {
        sink.flush();
    }
}
""",
}


def _java_after(*calls: str) -> dict[str, str]:
    return {
        "Sink.java": "interface Sink {\n    void sync(boolean metadata);\n\n    void write(byte[] data);\n\n"
                     "    void drain(int limit);\n}\n",
        "FileSink.java": """class FileSink implements Sink {
    public void sync(boolean metadata) {
        channel.force(metadata);
    }

    public void write(byte[] data) {
        channel.write(data);
    }

    public void drain(int limit) {
        channel.truncate(limit);
    }
}
""",
        "Writer.java": f"class Writer {{\n    void close(Sink sink) {{\n        sink.{calls[0]};\n    }}\n\n"
                       f"    void checkpoint(Sink sink) {{\n        sink.{calls[1]};\n    }}\n}}\n",
    }


def test_a_java_interface_method_renamed_with_a_parameter_added_follows_its_calls():
    rel = _relocate(JAVA_BEFORE, _java_after("sync(true)", "sync(false)"), "Sink.java", "    void flush();")
    assert (rel.method, rel.anchor.line_start) == ("renamed", 2)


def test_a_method_split_in_two_its_calls_divided_is_orphaned():
    rel = _relocate(JAVA_BEFORE, _java_after("sync(true)", "drain(0)"), "Sink.java", "    void flush();")
    assert rel.health == "orphaned"


PY_BEFORE = {
    "cache.py": """class Cache:
    def __init__(self):
        self.items = {}

    def save(self, key, value):
        self.items[key] = value

    def size(self):
        return len(self.items)
""",
    "app.py": """def warm(cache):
    cache.save("a", 1)


class Loader:
    def load(self, name, data):
        self.cache.save(name, data)
""",
}


def _py_after(body: str, *calls: str) -> dict[str, str]:
    return {
        "cache.py": f"""class Cache:
    def __init__(self):
        self.items = {{}}

    def put(self, key, value, ttl=None):
{body}

    def size(self):
        return len(self.items)
""",
        "app.py": f"""def warm(cache):
    cache.{calls[0]}


class Loader:
    def load(self, name, data):
        self.cache.{calls[1]}
""",
    }


def test_a_python_method_renamed_and_rewritten_follows_its_rewritten_calls():
    after = _py_after("        self.expiry.schedule(key, ttl)", 'put("a", 1, ttl=60)', "put(name, data, ttl=None)")
    rel = _relocate(PY_BEFORE, after, "cache.py", "    def save(self, key, value):", 2)
    assert (rel.method, _where(rel, after)) == ("renamed", "def put(self, key, value, ttl=None):")


def test_a_new_method_that_still_names_the_old_one_forwards_to_it_and_is_no_successor():
    after = _py_after("        self.pending.append(ttl)\n        save(self.path)", 'put("a", 1, ttl=60)', "put(name, data, ttl=None)")
    assert _relocate(PY_BEFORE, after, "cache.py", "    def save(self, key, value):", 2).health == "orphaned"


def test_a_long_body_rewritten_past_recognition_is_not_followed_by_its_calls():
    before = dict(PY_BEFORE, **{"cache.py": PY_BEFORE["cache.py"].replace(
        "        self.items[key] = value\n",
        "        self.items[key] = value\n        self.log.append(key)\n        self.dirty = True\n")})
    after = _py_after("        if ttl:\n            self.expiry.schedule(key, ttl)\n        self.journal.record(value)",
                      'put("a", 1, ttl=60)', "put(name, data, ttl=None)")
    assert _relocate(before, after, "cache.py", "    def save(self, key, value):", 4).health == "orphaned"
