"""Exports label code with its language; a header's content decides whether it is C or C++."""

from limpet.exporters._excerpt import fence_language


def test_a_cpp_header_is_fenced_as_cpp_and_a_c_header_as_c():
    assert fence_language("include/widget.h", b"namespace ui {\nclass Widget {\npublic:\n  int w;\n};\n}\n") == "cpp"
    assert fence_language("include/util.h", b"#include <stdio.h>\nint add(int a, int b);\n") == "c"


def test_an_unknown_file_is_text():
    assert fence_language("LICENSE") == "text"
