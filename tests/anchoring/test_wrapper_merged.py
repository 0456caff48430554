"""A one-statement wrapper gone with the sibling it forwarded to follows into the one new function
that holds the sibling's body under a name taken from the wrapper's (leakcanary e5a07bd5:
`hydratedInstanceById(id) = hydrate(record(id))` and `hydrate` merged into `hydrateInstance`).
The callee merely renamed (the new name nothing of the wrapper's), the callee still there, a
wrapper with statements of its own: orphaned."""

from __future__ import annotations

from limpet.anchoring import WorkspaceIndex, content_hash, create_anchor, reanchor

KOTLIN_BEFORE = """package heap

class Parser(private val reader: Reader) {

  fun recordById(id: Long): Record {
    return reader.seek(positions.getValue(id)).readRecord()
  }

  fun hydratedInstanceById(id: Long): Hydrated {
    return hydrate(recordById(id))
  }

  fun hydrate(record: Record): Hydrated {
    val hierarchy = mutableListOf<Layout>()
    var classId = record.classId
    do {
      val layout = layoutOf(classId)
      hierarchy.add(layout)
      classId = layout.superClassId
    } while (classId != 0L)
    val values = hierarchy.map { layout -> layout.fields.map { reader.readValue(it.type) } }
    return Hydrated(record, hierarchy, values)
  }
}
"""


def _kotlin_after(merged: str, keep_callee: bool = False) -> str:
    callee = """
  fun hydrate(record: Record): Hydrated = hydrateAll(listOf(record)).single()
""" if keep_callee else ""
    return f"""package heap

class Parser(private val reader: Reader) {{

  fun retrieve(objectId: Long): Record {{
    return reader.seek(objectPositions.getValue(objectId)).readRecord()
  }}
{callee}
  fun {merged}(record: Record): Hydrated {{
    val hierarchy = mutableListOf<Layout>()
    var classId = record.classId
    do {{
      val layout = layoutOf(classId)
      hierarchy.add(layout)
      classId = layout.superClassId
    }} while (classId != 0L)
    val values = hierarchy.map {{ layout -> layout.fields.map {{ reader.readValue(it.type, idSize) }} }}
    return Hydrated(record, hierarchy, values)
  }}
}}
"""


def _relocate(path: str, before: str, after: str, first: int, last: int):
    index = WorkspaceIndex()
    index.update({path: content_hash(before.encode())}, {path: before.encode()}.get)
    anchor = create_anchor(path, before.encode(), first, last)
    index.update({path: content_hash(after.encode())}, {path: after.encode()}.get)
    return reanchor(anchor, after.encode(), index)


def test_a_wrapper_merged_with_its_callee_under_its_own_name_follows_the_merged_function():
    after = _kotlin_after("hydrateInstance")
    rel = _relocate("Parser.kt", KOTLIN_BEFORE, after, 9, 11)
    assert (rel.method, after.split("\n")[rel.anchor.line_start - 1].strip()) == (
        "renamed", "fun hydrateInstance(record: Record): Hydrated {")


def test_a_wrapper_whose_callee_was_merely_renamed_is_orphaned():
    assert _relocate("Parser.kt", KOTLIN_BEFORE, _kotlin_after("hydrateRecord"), 9, 11).health == "orphaned"


def test_a_wrapper_whose_callee_is_still_there_is_orphaned():
    after = _kotlin_after("hydrateInstance", keep_callee=True)
    assert _relocate("Parser.kt", KOTLIN_BEFORE, after, 9, 11).health == "orphaned"


def test_a_wrapper_with_a_statement_of_its_own_is_no_thin_wrapper():
    before = KOTLIN_BEFORE.replace("    return hydrate(recordById(id))\n",
                                   "    require(id != 0L) { \"null id\" }\n    return hydrate(recordById(id))\n")
    assert _relocate("Parser.kt", before, _kotlin_after("hydrateInstance"), 9, 12).health == "orphaned"


PYTHON_BEFORE = '''class Catalog:
    def __init__(self, store):
        self.store = store

    def load_entry_by_key(self, key):
        return self.load(self.store.fetch(key))

    def load(self, raw):
        fields = raw.decode("utf-8").split(";")
        entry = Entry(fields[0], fields[1])
        for tag in fields[2:]:
            entry.tags.add(tag.strip())
        return entry
'''

PYTHON_AFTER = '''class Catalog:
    def __init__(self, store):
        self.store = store

    def load_entry(self, raw):
        fields = raw.decode(self.encoding).split(";")
        entry = Entry(fields[0], fields[1])
        for tag in fields[2:]:
            entry.tags.add(tag.strip())
        return entry
'''


def test_a_python_wrapper_merged_with_its_callee_follows_the_merged_function():
    rel = _relocate("catalog.py", PYTHON_BEFORE, PYTHON_AFTER, 5, 6)
    assert (rel.method, rel.anchor.line_start, rel.anchor.line_end) == ("renamed", 5, 10)
