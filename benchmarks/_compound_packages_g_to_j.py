"""The package lists of compound sets g to j (benchmarks/compound.py), built blind: Go and Rust (g),
Java and Python again (h), the outside set's languages but Java, Python and Scala (i), and
languages no other set holds (j). The rules of every list, and sets a to f: _compound_packages.py."""

from __future__ import annotations

from benchmarks._compound_packages import _under, _v
from benchmarks._heldout_fetch import Package

# Set g: blind, Go and Rust, from projects in no other list (the public six hold gin and bat: not here), from
# Debian's orig tarballs where the mirror serves two or more releases. Roots skip vendored crates (suricata's
# rust/vendor), generated tables (goldmark's util/*entities*, micro's internal/config runtime), protobuf and mock
# output (syncthing's: not here), test data and code that moved out of the roots between releases (restic's
# internal/restic -> internal/data).
SURICATA = _under("rust/src", "dns", "http2", "nfs", "mqtt", "ssh", "rfb", "sip", "dhcp", "krb", "snmp", "tftp",
                  "dcerpc", "ntp")
RESTIC = ("cmd/restic", *_under("internal", "repository", "archiver", "restorer", "walker", "fuse", "ui"))
MICRO = ("cmd/micro", "pkg/highlight", *_under("internal", "action", "buffer", "display", "info", "shell", "util",
                                               "views", "screen", "clipboard"))
XTOOLS = ("go/ast/astutil", "go/ast/inspector", "go/cfg", "go/types/typeutil", "go/types/objectpath", "go/buildutil",
          "internal/diff", "internal/event", "internal/jsonrpc2", "refactor/rename", "cmd/digraph", "container/intsets")
COBRA = ("doc", *(f"{n}{t}.go" for n in ("command", "completions", "args", "flag_groups", "active_help", "cobra",
                                          "bash_completions", "bash_completionsV2", "fish_completions",
                                          "powershell_completions", "zsh_completions") for t in ("", "_test")))
PACKAGES_G: tuple[Package, ...] = (
    Package("debian", "golang-github-yuin-goldmark", "go", _v("1.5.4 1.7.4 1.8.2"), (
        "ast", "parser", "renderer", "extension", "text", *_under("util", "util.go", "util_cjk.go", "util_safe.go")),
        (".go",)),
    Package("debian", "golang-mvdan-sh", "go", _v("3.6.0 3.8.0 3.12.0 3.13.1 3.14.1"),
            ("syntax", "interp", "expand", "pattern", "shell", "fileutil", "cmd"), (".go",)),
    Package("debian", "golang-go.uber-zap", "go", _v("1.26.0 1.27.0"),
            ("zapcore", "zaptest", "zapio", "zapgrpc", "buffer", "internal", "exp"), (".go",)),
    Package("debian", "golang-github-google-go-cmp", "go", _v("0.5.9 0.6.0 0.7.0"), ("cmp",), (".go",)),
    Package("debian", "golang-github-spf13-cobra", "go", _v("1.6.1 1.8.1 1.10.2"), COBRA, (".go",)),
    Package("debian", "fzf", "go", _v("0.38.0 0.60.3"), ("src",), (".go",)),
    Package("debian", "micro", "go", _v("2.0.8 2.0.14"), MICRO, (".go",)),
    Package("debian", "restic", "go", _v("0.14.0 0.18.0 0.19.1"), RESTIC, (".go",)),
    Package("debian", "golang-golang-x-tools", "go", _v("0.5.0+ds 0.25.0+ds 0.44.0+ds 0.46.0+ds 0.49.0+ds"), XTOOLS,
            (".go",)),  # not go/callgraph, internal/gcimporter: testdata/ packages
    Package("debian", "delve", "go", _v("1.20.2 1.24.0"), ("cmd/dlv", "pkg/terminal", "pkg/locspec", *_under(
        "service", "api", "debugger", "rpc2")), (".go",)),  # not pkg/proc (too big a pair), pkg/dwarf/op (generated)
    Package("debian", "newsboat", "rust", _v("2.36 2.44"),
            _under("rust", "libnewsboat", "libnewsboat-ffi", "strprintf", "regex-rs"), (".rs",)),
    Package("debian", "python-cryptography", "rust", _v("38.0.4 43.0.0 49.0.0"), ("src/rust",), (".rs",)),
    Package("debian", "suricata", "rust", _v("6.0.1 7.0.10 8.0.7"), SURICATA, (".rs",)),
    Package("debian", "gnome-podcasts", "rust", _v("25.2+dfsg 25.3+dfsg"), ("podcasts-data/src", "podcasts-gtk/src"),
            (".rs",)),
    Package("debian", "rust-tiny-skia", "rust", _v("0.8.3 0.11.4"), ("src", "tests"), (".rs",)),
    Package("debian", "rust-sequoia-git", "rust", _v("0.4.0 0.6.0"), ("src", "tests"), (".rs",)),
    Package("debian", "rust-hashbrown", "rust", _v("0.12.3 0.16.1"), ("src", "tests"), (".rs",)),
)
# Set h: blind, Java and Python again (the outside set's languages), from projects in no other list (sets a-g,
# the held-out list, the public six). Java from Debian's orig tarballs where the mirror serves two or more
# releases (most Java sources have one served: commons-text, gson, jackson, asm, jsch ...), Python from PyPI.
# Roots keep each pair under MAX_PAIR_BYTES: most releases touch every file's header or layout.
H2 = "src/main/org/h2"
ZK = "zookeeper-server/src/main/java/org/apache/zookeeper"
ZKT = "zookeeper-server/src/test/java/org/apache/zookeeper"
PDFBOX = "pdfbox/src/main/java/org/apache/pdfbox"
PACKAGES_H: tuple[Package, ...] = (
    Package("debian", "h2database", "java", _v("1.4.197 2.1.214 2.2.220"),
            _under(H2, "engine", "table", "index", "result", "schema", "constraint"), (".java",)),
    Package("debian", "hsqldb", "java", _v("2.7.1 2.7.4"),
            _under("hsqldb/src/org/hsqldb", "persist", "index", "rights", "server", "navigator"), (".java",)),
    Package("debian", "zookeeper", "java", _v("3.8.0 3.9.3"), (
        *_under(ZK, "server/persistence", "server/admin", "server/auth", "server/watch", "server/util",
                "server/quorum", "common", "cli"),
        *_under(ZKT, "server/watch", "server/admin", "common"), "zookeeper-jute/src"), (".java",)),
    Package("debian", "jts", "java", _v("1.19.0+ds 1.20.0+ds"), (
        "modules/core/src/main/java/org/locationtech/jts", "modules/core/src/test/java/org/locationtech/jts/operation"),
        (".java",)),  # not modules/app: the test builder GUI
    Package("debian", "lombok", "java", _v("1.18.34 1.18.42"),
            ("src/core/lombok", "src/utils/lombok", "src/delombok/lombok", "test/core/src"), (".java",)),
    Package("debian", "opsin", "java", _v("2.8.0 2.9.0"),
            ("opsin-core/src/main", "opsin-core/src/test", "opsin-cli/src/main"), (".java",)),
    Package("debian", "libpdfbox2-java", "java", _v("2.0.27 2.0.29"),
            (*_under(PDFBOX, "pdmodel", "pdfparser", "text", "pdfwriter"), "fontbox/src/main"), (".java",)),
    Package("debian", "tomcat9", "java", _v("9.0.43 9.0.70"), _under(
        "java/org/apache", "catalina/realm", "catalina/connector", "coyote/http2", "tomcat/websocket"), (".java",)),
    Package("debian", "jmapviewer", "java", _v("2.16+dfsg 2.25+dfsg"), ("src",), (".java",)),
    Package("debian", "bouncycastle", "java", _v("1.72 1.80"), (
        "pg/src/main/java/org/bouncycastle/openpgp", "tls/src/main/java/org/bouncycastle/jsse"), (".java",)),
    Package("debian", "libphonenumber", "java", _v("8.12.57+ds 8.13.51+ds"), ("java", "metadata", "tools"),
            (".java",)),
    Package("npm", "react-native-svg", "java", _v(
        "12.1.1 12.3.0 12.5.1 13.0.0 13.4.0 13.8.0 13.14.1 14.1.0 15.0.0 15.3.0 15.7.1 15.11.2 15.15.4"),
        ("android/src",), (".java",)),
    Package("pypi", "astroid", "python", _v(
        "2.5.8 2.6.6 2.8.6 2.11.7 2.12.14 2.13.5 2.14.2 2.15.8 3.0.3 3.1.0 3.2.4 3.3.11 4.0.4"), ("astroid", "tests")),
    Package("pypi", "jedi", "python", _v("0.17.2 0.18.0 0.18.1 0.18.2 0.19.0 0.19.1 0.19.2 0.20.0"), ("jedi", "test")),
    Package("pypi", "parso", "python", _v("0.7.1 0.8.0 0.8.1 0.8.2 0.8.3 0.8.4 0.8.5"), ("parso", "test")),
    Package("pypi", "trio", "python", _v(
        "0.19.0 0.20.0 0.21.0 0.22.2 0.23.2 0.24.0 0.25.1 0.26.2 0.27.0 0.29.0 0.31.0"),
        ("trio", "src/trio")),  # src layout from 0.23: that pair has no root in common and is skipped
    Package("pypi", "textual", "python", _v(
        "0.40.0 0.47.1 0.52.1 0.58.1 0.63.6 0.70.0 0.79.1 0.86.3 1.0.0 2.1.2 3.2.0 4.0.0 5.3.0 6.2.1"),
        ("src/textual",)),  # not tests/: too big a pair
    Package("pypi", "mkdocs", "python", _v("1.1.2 1.2.4 1.3.1 1.4.3 1.5.3 1.6.1"), ("mkdocs",)),
    Package("pypi", "rope", "python", _v(
        "0.21.1 0.22.0 0.23.0 1.0.0 1.2.0 1.4.0 1.6.0 1.8.0 1.10.0 1.12.0 1.14.0"), ("rope", "ropetest")),
    Package("pypi", "scrapy", "python", _v("2.10.1 2.11.2 2.12.0 2.13.4 2.14.2 2.15.2"),
            ("scrapy",)),  # older sdists do not download here (pip's metadata step fails); not tests/: too big a pair
)
# Set i: blind, the outside set's other languages (C, C++, C#, Ruby, PHP, Kotlin, Swift, Lua; no Scala: the mirror
# serves one release of scala and of pilon), from projects in no other list (sets a-h, the held-out list, the public
# six). Debian's orig tarballs where the mirror serves two releases or more (at most one of most Ruby, Lua and C#
# sources: the PHP, C, C++ and TeX Live ones here), npm packages that ship native sources (react-native libraries:
# Kotlin, Swift; react-native-windows before 0.61: C#; react-native's and expo's CocoaPods scripts: Ruby; bull's
# Redis scripts: Lua) and PyPI (pycryptodome's C sdist, nanobind's wheel, which ships its C++ sources). Roots skip
# generated code (react-native-iap's nitrogen/, jq's parser and lexer), vendored and table files (jq's decNumber and
# jv_dtoa, dokuwiki's vendor/ and inc/lang) and keep pairs under MAX_PAIR_BYTES.
JQ = _under("src", *(f"{n}.c" for n in (
    "builtin", "bytecode", "compile", "execute", "inject_errors", "jq_test", "jv", "jv_alloc", "jv_aux", "jv_file",
    "jv_parse", "jv_print", "jv_unicode", "linker", "locfile", "main", "util")), *(f"{n}.h" for n in (
    "builtin", "bytecode", "compile", "exec_stack", "jq", "jv", "jv_alloc", "jv_private", "jv_thread", "jv_unicode",
    "linker", "locfile", "util")))
LARAVEL = _under("src/Illuminate", "Routing", "Queue", "Collections", "Http", "Validation")
PHPSECLIB = (*_under("phpseclib", "Net", "File", "Math", "Common", "System"), "tests/Unit")
DOKUWIKI = (*_under("inc", "parser", "Ui", "Remote", "Parsing", "Extension", "Action", "ChangeLog", "Form", "Search",
                     "HTTP", "Subscriptions", "Menu", "File", "Cache", "Feed"),
            *_under("inc", *(f"{n}.php" for n in ("common", "media", "template", "auth", "html", "pageutils", "fulltext",
                                                   "parserutils"))))  # not inc/lang, vendor/: tables, third-party
RN_PODS = ("scripts/cocoapods", "scripts/react_native_pods.rb", "scripts/react_native_pods_utils", "sdks/hermes-engine")
PACKAGES_I: tuple[Package, ...] = (
    Package("npm", "react-native-keyboard-controller", "kotlin", _v(
        "1.5.8 1.7.0 1.8.0 1.9.5 1.10.6 1.11.7 1.12.7 1.13.4 1.14.5 1.15.2 1.16.8 1.17.5 1.18.6 1.19.6 1.20.7 "
        "1.21.14 1.22.5"), ("android/src", "ios"), (".kt", ".swift")),
    Package("npm", "react-native-iap", "swift", _v(
        "8.6.7 9.0.4 10.0.3 10.1.3 11.0.7 12.4.14 12.8.5 12.10.8 12.13.2 12.15.2 12.16.4 13.0.4 14.0.0 14.4.47 "
        "14.6.4 15.0.2 15.6.2 16.7.1"), ("android/src", "ios"), (".kt", ".swift")),  # not nitrogen/: generated
    Package("npm", "lottie-react-native", "kotlin", _v(
        "5.1.6 6.0.1 6.1.2 6.2.0 6.3.1 6.4.1 6.5.1 6.6.0 6.7.2 7.0.0 7.1.0 7.2.5 7.3.8 7.4.0 7.5.0"), (
        "src/android", "src/ios", "android/src", "ios"), (".kt", ".java", ".swift")),  # src/ until 5.x
    Package("npm", "react-native-windows", "csharp", _v(
        "0.33.4 0.36.1 0.38.2 0.41.0 0.42.0 0.50.0 0.51.0 0.52.0 0.53.0 0.54.0 0.57.1"), ("ReactWindows",),
        (".cs",)),  # its C# implementation, before the C++ rewrite of 0.61
    Package("npm", "react-native", "ruby", _v(
        "0.72.0 0.73.0 0.74.0 0.75.0 0.76.0 0.77.0 0.78.0 0.79.0 0.80.0 0.81.0 0.82.0 0.83.0 0.84.0 0.85.0 0.86.0 "
        "0.87.0 0.88.1"), RN_PODS, (".rb",)),  # its CocoaPods scripts only
    Package("npm", "expo-modules-autolinking", "ruby", _v(
        "0.5.5 0.8.1 0.10.3 1.0.2 1.1.2 1.2.0 1.5.1 1.7.0 1.10.3 1.11.3 2.0.8 2.1.15 3.0.28 55.0.27 56.0.23 57.0.18 "
        "58.1.0"), ("scripts/ios", "android/expo-gradle-plugin"), (".rb", ".kt")),
    Package("npm", "bull", "lua", _v(
        "3.10.0 3.12.1 3.14.0 3.16.0 3.18.1 3.20.1 3.22.11 3.25.1 3.29.3 4.0.0 4.2.1 4.4.0 4.6.2 4.8.5 4.10.4 4.12.9 "
        "4.14.0 4.16.5"),
        ("lib/commands",), (".lua",)),  # its Redis scripts (bullmq ships them only under dist/, which the truth skips)
    Package("debian", "texlive-bin", "lua", _v(
        "2020.20200327.54578 2022.20220321.62855 2024.20240313.70630+ds 2026.20260303.78225+ds"),
        ("texk/texlive/linked_scripts",), (".lua",)),  # the Lua scripts TeX Live links (cluttex, luaotfload ...)
    Package("debian", "php-laravel-framework", "php", _v("8.83.26+dfsg 10.48.29+dfsg"), LARAVEL, (".php",)),
    Package("debian", "php-phpseclib3", "php", _v("3.0.43 3.0.57"), PHPSECLIB, (".php",)),  # not Crypt: too big a pair
    Package("debian", "php-dompdf", "php", _v("2.0.3+dfsg 3.1.4+dfsg"), ("src", "lib", "tests"), (".php",)),
    Package("debian", "guzzle", "php", _v("7.9.2 7.15.5"), ("src", "tests"), (".php",)),
    Package("debian", "php-ramsey-uuid", "php", _v("4.6.0 4.7.6"), ("src", "tests"), (".php",)),
    Package("debian", "dokuwiki", "php", _v("0.0.20220731.a 2024-02-06b+dfsg"), DOKUWIKI, (".php",)),
    Package("debian", "zabbix", "php", _v("7.0.22+dfsg 7.0.29+dfsg"), ("ui/widgets",), (".php",)),  # its frontend's
    Package("debian", "jq", "c", _v("1.6 1.7.1 1.8.2"), JQ, (".c", ".h"), h_language="c"),
    Package("pypi", "pycryptodome", "c", _v(
        "3.10.1 3.12.0 3.14.1 3.15.0 3.16.0 3.17 3.18.0 3.19.1 3.20.0 3.21.0 3.22.0 3.23.0 3.24.1 4.0.1 4.2.0 4.4.0"),
        ("src",), (".c", ".h"), h_language="c"),
    Package("debian", "ninja-build", "cpp", _v("1.11.1 1.12.1 1.13.2"), ("src",), (".cc", ".h"), h_language="cpp"),
    Package("pypi", "nanobind", "cpp", _v(
        "1.0.0 1.3.2 1.5.2 1.6.2 1.7.0 1.8.0 1.9.2 2.0.0 2.2.0 2.4.0 2.6.1 2.8.0 2.10.2 2.12.0 2.14.0 3.0.1 3.1.0"),
        ("include", "src"), (".h", ".cpp"), wheel=True, h_language="cpp"),  # the wheel ships its C++ sources
)
# Set j: blind, languages no other set holds (Perl, Haskell, OCaml, Erlang, Elixir, R), from projects in no other
# list (sets a-i, the held-out list, the public six): Debian's orig tarballs where the mirror serves two releases or
# more (most lib*-perl, ocaml-*, erlang-* and elixir-* sources have one served, or none: libwww, dancer2, lwt, cohttp,
# jose, luerl, proper, ex_doc, xmonad, shellcheck). Their truth is `_compound_symbols.script_symbols_j`. OCaml's
# `.mli` interfaces are left out (signatures only); Elixir's standard library is taken in its smaller apps.
PERL = (".pm",)
PACKAGES_J: tuple[Package, ...] = (
    Package("debian", "libpath-tiny-perl", "perl", _v("0.144 0.148"), ("lib",), PERL),
    Package("debian", "libplack-perl", "perl", _v("1.0050 1.0051"), ("lib",), PERL),
    Package("debian", "libmojolicious-perl", "perl", _v("9.31+dfsg 9.39+dfsg"), ("lib",), PERL),
    Package("debian", "libdatetime-perl", "perl", _v("1.59 1.65"), ("lib",), PERL),
    Package("debian", "perltidy", "perl", _v("20220613 20250105"), ("lib",), PERL),
    Package("debian", "haskell-megaparsec", "haskell", _v("8.0.0 9.2.2 9.5.0 9.7.0"), ("Text",), (".hs",)),
    Package("debian", "haskell-optparse-applicative", "haskell", _v("0.15.1.0 0.16.1.0 0.18.1.0"), ("src",),
            (".hs",)),
    Package("debian", "haskell-aeson", "haskell", _v("1.4.7.1 2.0.3.0 2.1.2.1 2.2.3.0"), ("src",), (".hs",)),
    Package("debian", "haskell-servant", "haskell", _v("0.19 0.20.2 0.20.3.0"), ("src",), (".hs",)),
    Package("debian", "haskell-conduit", "haskell", _v("1.3.2 1.3.4.3 1.3.6 1.3.6.1"), ("src",), (".hs",)),
    Package("debian", "haskell-hspec-core", "haskell", _v("2.7.1 2.8.5 2.11.9 2.11.16"), ("src",), (".hs",)),
    Package("debian", "ocaml-re", "ocaml", _v("1.9.0 1.10.4 1.14.0"), ("lib",), (".ml",)),
    Package("debian", "ocaml-zarith", "ocaml", _v("1.11 1.12 1.14"), ("z.ml", "q.ml", "big_int_Z.ml"), (".ml",)),
    Package("debian", "ocaml-batteries", "ocaml", _v("3.6.0 3.9.0"), ("src",), (".ml",)),
    Package("debian", "menhir", "ocaml", _v("20201216 20220210+ds 20240715+ds 20260209+ds"), ("src", "lib"),
            (".ml",)),
    Package("debian", "ocaml-fmt", "ocaml", _v("0.8.9 0.9.0"), ("src",), (".ml",)),
    Package("debian", "erlang-p1-tls", "erlang", _v("1.1.22 1.1.26"), ("src",), (".erl", ".hrl")),
    Package("debian", "erlang-p1-pgsql", "erlang", _v("1.1.20 1.1.31"), ("src",), (".erl", ".hrl")),
    Package("debian", "elixir-earmark-parser", "elixir", _v("1.4.44 1.4.46"), ("lib",), (".ex",)),
    Package("debian", "elixir-lang", "elixir", _v("1.14.0.dfsg 1.18.3.dfsg"), (
        "lib/ex_unit/lib", "lib/eex/lib", "lib/logger/lib", "lib/mix/lib/mix/tasks"), (".ex",)),
    Package("debian", "r-cran-stringr", "r", _v("1.5.0 1.5.1"), ("R",), (".R",)),
    Package("debian", "r-cran-tibble", "r", _v("3.1.8+dfsg 3.2.1+dfsg"), ("R",), (".R",)),
    Package("debian", "r-cran-purrr", "r", _v("1.0.1 1.0.4"), ("R",), (".R",)),
    Package("debian", "r-cran-testthat", "r", _v("3.1.6 3.2.3 3.3.2"), ("R",), (".R",)),
    Package("debian", "r-cran-dplyr", "r", _v("1.0.10 1.1.4"), ("R",), (".R",)),
    Package("debian", "r-cran-cli", "r", _v("3.6.0 3.6.4 3.6.6"), ("R",), (".R",)),
    Package("debian", "r-cran-vctrs", "r", _v("0.6.5 0.7.3"), ("R",), (".R",)),
    Package("debian", "r-cran-rlang", "r", _v("1.1.5 1.3.0"), ("R",), (".R",)),
)
