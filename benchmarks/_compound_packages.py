"""The package lists of the compound-change sets (benchmarks/compound.py): which releases of
which projects each set is built from, and the source roots that keep a pair of releases under
compound.py's MAX_PAIR_BYTES. Every list holds projects in no other list, the held-out list
(heldout.py) and the public benchmark's six repositories. Sets a to f here; g to j, with the
shared helpers imported from here, in _compound_packages_g_to_j.py."""

from __future__ import annotations

from benchmarks._heldout_fetch import JS, TS, Package

NATIVE = (".java", ".kt", ".swift", ".c", ".cc", ".cpp", ".hpp", ".h")


def _v(text: str) -> tuple[str, ...]:
    return tuple(text.split())


PACKAGES: tuple[Package, ...] = (
    Package("pypi", "werkzeug", "python", _v("1.0.1 2.0.3 2.1.2 2.2.3 2.3.8 3.0.6 3.1.9"), ("src", "tests")),
    Package("pypi", "marshmallow", "python", _v(
        "3.10.0 3.12.2 3.14.1 3.16.0 3.18.0 3.20.2 3.22.0 3.24.2 3.26.1 4.0.1 4.1.2 4.2.4 4.4.0"), ("src", "tests")),
    Package("pypi", "starlette", "python", _v(
        "0.21.0 0.23.1 0.25.0 0.27.0 0.29.0 0.31.1 0.33.0 0.35.1 0.37.2 0.39.2 0.41.3 0.44.0 0.46.2 0.48.0 "
        "0.50.0"), ("starlette", "tests")),
    Package("pypi", "pybind11", "cpp", _v("2.6.2 2.7.1 2.8.1 2.9.2 2.10.4 2.11.2 2.12.1 2.13.6 3.0.4 3.1.0"),
            ("include",), (".h",), wheel=True, h_language="cpp"),
    Package("pypi", "greenlet", "cpp", _v("1.1.3 2.0.2 3.0.3 3.1.1 3.2.4 3.3.2 3.4.0 3.5.6"), ("src",),
            (".c", ".cpp", ".hpp", ".h"), h_language="cpp"),
    Package("pypi", "kiwisolver", "cpp", _v("1.2.0 1.3.2 1.4.4 1.4.5 1.4.7 1.4.9 1.5.1"), ("kiwi", "py", "src"),
            (".cpp", ".h"), h_language="cpp"),
    Package("pypi", "ujson", "c", _v("4.3.0 5.0.0 5.2.0 5.4.0 5.6.0 5.8.0 5.10.0 5.12.1 6.0.0 6.1.0"),
            ("src", "lib", "python"), (".c", ".h"), h_language="c"),
    Package("npm", "knex", "javascript", _v(
        "0.21.21 0.95.15 1.0.7 2.0.0 2.1.0 2.2.0 2.3.0 2.4.2 2.5.1 3.0.1 3.1.0 3.2.10 3.3.0"), ("lib",), JS),
    Package("npm", "rxjs", "typescript", _v("6.5.5 6.6.7 7.0.1 7.1.0 7.2.0 7.3.1 7.4.0 7.5.7 7.6.0 7.7.0 7.8.2"),
            ("src",), TS),
    Package("npm", "expo-modules-core", "swift", _v(
        "0.11.10 0.12.0 0.13.4 1.0.4 1.1.1 1.2.7 1.3.2 1.5.13 1.6.0 1.7.0 1.8.0 1.9.0 1.10.0 1.11.14 1.12.26 "
        "2.0.6 2.1.4 2.2.3"), ("ios", "android", "common"), NATIVE, h_language="cpp"),
    Package("npm", "react-native-screens", "kotlin", _v(
        "3.20.0 3.22.1 3.24.0 3.26.0 3.28.0 3.30.1 3.32.0 3.34.1 3.36.0 4.0.0 4.2.0 4.4.0 4.6.0 4.8.0 4.10.0 "
        "4.12.0 4.14.1 4.16.0 4.18.0 4.20.0"), ("android", "cpp", "common"), NATIVE, h_language="cpp"),
    Package("npm", "react-native-webview", "java", _v(
        "11.0.3 11.4.6 11.9.0 11.14.4 11.18.2 11.23.1 11.26.1 12.1.0 12.4.0 13.0.0 13.2.3 13.4.0 13.6.4 13.8.7 "
        "13.10.7 13.12.5 13.14.2 13.16.2"), ("android",), (".java", ".kt")),
)

# Set b: an independent check, packages in none of set a, the held-out list and the public six.
PACKAGES_B: tuple[Package, ...] = (
    Package("pypi", "flask", "python", _v("1.1.4 2.0.3 2.1.3 2.2.5 2.3.3 3.0.3 3.1.0 3.1.3"), ("src", "tests")),
    Package("pypi", "sqlparse", "python", _v("0.2.4 0.3.0 0.3.1 0.4.0 0.4.2 0.4.4 0.5.0 0.5.1 0.5.3 0.6.0"),
            ("sqlparse", "tests")),
    Package("pypi", "pyparsing", "python", _v("3.0.0 3.0.5 3.0.9 3.1.0 3.1.2 3.1.4 3.2.0 3.2.3 3.3.0 3.3.3"),
            ("pyparsing", "tests")),
    Package("pypi", "more-itertools", "python", _v(
        "8.0.0 8.14.0 9.0.0 9.1.0 10.0.0 10.2.0 10.3.0 10.4.0 10.5.0 10.6.0 10.7.0 10.8.0 11.0.0 11.1.0 11.2.1"),
        ("more_itertools", "tests")),
    Package("pypi", "psutil", "c", _v("5.6.7 5.7.3 5.8.0 5.9.0 5.9.4 5.9.8 6.0.0 6.1.1 7.0.0 7.1.0 7.1.3 7.2.2"),
            ("psutil",), (".c", ".h"), h_language="c"),
    Package("pypi", "pikepdf", "cpp", _v(
        "5.6.1 6.0.2 6.2.9 7.0.0 7.2.0 8.0.0 8.5.0 8.10.0 8.15.1 9.0.0 9.5.0 9.11.0 10.0.0 10.5.0 10.10.0 10.18.0"),
        ("src",), (".cpp", ".h"), h_language="cpp"),  # src/qpdf/ became src/core/ in 7.0.0
    Package("npm", "mocha", "javascript", _v(
        "7.2.0 8.4.0 9.2.2 10.0.0 10.2.0 10.4.0 10.6.0 10.8.2 11.0.1 11.3.0 11.7.0 12.0.0"), ("lib",), JS),
    Package("npm", "@reduxjs/toolkit", "typescript", _v(
        "1.5.0 1.6.0 1.7.0 1.8.0 1.9.0 1.9.7 2.0.0 2.2.0 2.4.0 2.6.0 2.8.0 2.10.0 2.12.0 2.14.0"), ("src",), TS),
    Package("npm", "react-native-gesture-handler", "kotlin", _v(
        "2.0.0 2.3.0 2.6.0 2.9.0 2.12.0 2.14.0 2.16.0 2.18.0 2.20.0 2.22.0 2.24.0 2.26.0 2.28.0 2.30.0 3.0.0"),
        ("android",), (".java", ".kt")),
    Package("npm", "expo-image", "swift", _v(
        "1.0.0 1.2.0 1.3.0 1.5.0 1.8.0 1.10.0 1.12.0 1.13.0 2.0.0 2.1.0 2.3.0 2.4.0 3.0.0 55.0.0 56.0.0 57.0.0"),
        ("ios", "android"), NATIVE),
    Package("npm", "react-native-reanimated", "cpp", _v(
        "2.3.0 2.5.0 2.8.0 2.10.0 2.12.0 2.14.4 2.17.0 3.0.2 3.3.0 3.5.4 3.8.1 3.10.1 3.12.1 3.14.0 3.16.7 "
        "3.19.5"), ("Common", "android"), NATIVE, h_language="cpp"),
)
# Set c: languages sets a and b barely hold (Java, Ruby, PHP, C#, Lua, C, C++), from the upstream tarballs
# Debian's suites keep (benchmarks/_debian_fetch.py): bullseye .. sid, one release each, years apart.
# Versions are the orig tarballs' (`+dfsg`/`+ds`: Debian's repack without non-free or vendored files);
# only those the mirror serves are listed (ruby-rack, ruby-thor, lua-penlight, luarocks and scala had one).
# Roots keep each pair's changed files under MAX_PAIR_BYTES (releases years apart touch nearly every file:
# license years, reformatting), so the big projects contribute some of their packages, not all.
LANG3 = ("src/main/java/org/apache/commons/lang3", "src/test/java/org/apache/commons/lang3")
IO = ("src/main/java/org/apache/commons/io", "src/test/java/org/apache/commons/io")
PACKAGES_C: tuple[Package, ...] = (
    Package("debian", "libcommons-lang3-java", "java", _v("3.12.0 3.17.0 3.20.0"),
            tuple(f"{r}/{p}" for r in LANG3 for p in ("builder", "reflect")), (".java",)),
    Package("debian", "commons-io", "java", _v("2.6 2.8.0 2.11.0 2.19.0 2.22.0"),
            tuple(f"{r}/{p}" for r in IO for p in ("input", "monitor", "comparator")), (".java",)),
    Package("debian", "jsoup", "java", _v("1.15.3 1.23.2"),
            ("src/main/java", "src/test/java/org/jsoup/select", "src/test/java/org/jsoup/helper"), (".java",)),
    Package("debian", "redmine", "ruby", _v("5.0.4 6.0.5+ds"), ("app/models", "lib/redmine"), (".rb",)),
    Package("debian", "ruby-addressable", "ruby", _v("2.8.7 2.9.0"), ("lib", "spec"), (".rb",)),
    Package("debian", "mruby", "ruby", _v("3.1.0 3.3.0"), ("mrblib", "mrbgems"), (".rb",)),
    Package("debian", "php-nesbot-carbon", "php", _v("2.65.0 2.73.0 3.10.3"), (
        "src/Carbon/Traits", "src/Carbon/Exceptions", "tests/Carbon", "tests/CarbonInterval", "tests/CarbonPeriod"),
        (".php",)),  # not src/Carbon/Lang: 800 locale tables
    Package("debian", "php-league-commonmark", "php", _v("2.3.9 2.7.0"), ("src", "tests/unit"), (".php",)),
    Package("debian", "composer", "php", _v("2.5.5 2.10.3"), tuple(
        f"src/Composer/{p}" for p in ("Repository", "Util", "DependencyResolver", "Package", "Downloader")), (".php",)),
    Package("debian", "keepass2", "csharp", _v("2.47+dfsg 2.57+dfsg 2.60+dfsg"),
            ("KeePassLib", "KeePass/Ecas", "KeePass/Plugins"), (".cs",)),
    Package("debian", "neovim", "lua", _v("0.4.4 0.7.2 0.10.4 0.12.4"), ("runtime/lua",), (".lua",)),
    Package("debian", "nmap", "lua", _v("7.93+dfsg1 7.95+dfsg"), ("nselib",), (".lua",)),
    Package("debian", "jansson", "c", _v("2.14 2.15.1"), ("src", "test/suites"), (".c", ".h"), h_language="c"),
    Package("debian", "knot-resolver", "c", _v("5.6.0 5.7.5"), ("daemon", "lib", "modules"), (".c", ".h", ".lua"),
            h_language="c"),
    Package("debian", "fmtlib", "cpp", _v("7.1.3+ds1 9.1.0+ds1 10.1.1+ds1 11.1.1+ds1"), ("include/fmt", "src", "test"),
            (".h", ".cc"), h_language="cpp"),
    Package("debian", "yaml-cpp", "cpp", _v("0.6.3 0.7.0+dfsg 0.8.0+dfsg"), (
        "include/yaml-cpp", "src", "test/integration", "test/node"), (".h", ".cpp"), h_language="cpp"),
    Package("debian", "spdlog", "cpp", _v("1.10.0+ds 1.15.2+ds 1.15.3+ds"), ("include/spdlog", "src", "tests"),
            (".h", ".cpp"), h_language="cpp"),
)
# Set d: Java and Python only, the languages of the external method-history benchmark. Java from Debian's
# orig tarballs as set c (only versions the mirror serves; none of set c's three), Python from PyPI as sets
# a and b (consecutive releases; in none of sets a, b, the held-out list and the public six). Roots keep
# each pair under MAX_PAIR_BYTES, as set c's do.
def _under(base: str, *subs: str) -> tuple[str, ...]:
    return tuple(f"{base}/{s}" for s in subs)


COMPRESS = ("src/main/java/org/apache/commons/compress", "src/test/java/org/apache/commons/compress")
COLL4 = "src/main/java/org/apache/commons/collections4"
NET = ("src/main/java/org/apache/commons/net", "src/test/java/org/apache/commons/net")
PACKAGES_D: tuple[Package, ...] = (
    Package("debian", "libcommons-compress-java", "java", _v("1.22 1.27.1"),
            tuple(f"{r}/{p}" for r in COMPRESS for p in ("compressors", "utils", "changes")), (".java",)),
    Package("debian", "libcommons-codec-java", "java", _v("1.14 1.15 1.18.0"),
            ("src/main/java/org/apache/commons/codec", "src/test/java/org/apache/commons/codec/binary"), (".java",)),
    Package("debian", "libcommons-collections4-java", "java", _v("4.2 4.4"), (
        *_under(COLL4, "map", "list", "bidimap", "set", "bag", "multimap"),
        "src/test/java/org/apache/commons/collections4/map"), (".java",)),
    Package("debian", "commons-pool2", "java", _v("2.8.0 2.11.1 2.12.0"),
            ("src/main/java/org/apache/commons/pool2", "src/test/java/org/apache/commons/pool2"), (".java",)),
    Package("debian", "libcommons-net-java", "java", _v("3.6 3.9.0"),
            tuple(f"{r}/{p}" for r in NET for p in ("ftp", "telnet", "util", "io")), (".java",)),
    Package("debian", "mockito", "java", _v("2.23.0 3.3.0"), ("src/main/java/org/mockito",), (".java",)),
    Package("debian", "junit5", "java", _v("5.9.2 5.10.3"), tuple(f"{m}/src/main/java" for m in (
        "junit-jupiter-engine", "junit-platform-engine", "junit-platform-launcher", "junit-platform-commons")),
        (".java",)),
    Package("debian", "antlr4", "java", _v("4.7.2 4.9.2"), ("tool/src", "runtime/Java/src", "tool-testsuite/test"),
            (".java",)),
    Package("debian", "guava-libraries", "java", _v("31.1 32.0.1"), (
        *_under("guava/src/com/google/common", "base", "io", "primitives"),
        "guava-tests/test/com/google/common/primitives"), (".java",)),
    Package("debian", "picocli", "java", _v("3.9.6 4.6.2"), ("src/main/java/picocli", "picocli-codegen/src/main"),
            (".java",)),  # 4.x split CommandLine.java's nested classes
    Package("pypi", "black", "python", _v(
        "22.1.0 22.6.0 22.12.0 23.3.0 23.9.1 23.12.1 24.2.0 24.8.0 25.1.0 25.9.0 26.1.0"),
        ("src/black", "src/blackd")),  # not tests/: tests/data holds formatter inputs, not code
    Package("pypi", "isort", "python", _v("5.12.0 5.13.2 6.0.0 7.0.0"), ("isort", "tests/unit")),
    Package("pypi", "cattrs", "python", _v(
        "1.7.1 1.8.0 1.10.0 22.1.0 22.2.0 23.1.2 23.2.3 24.1.2 25.1.1 25.3.0 26.1.0"), ("src", "tests")),
    Package("pypi", "structlog", "python", _v(
        "20.1.0 20.2.0 21.1.0 21.5.0 22.1.0 22.3.0 23.1.0 23.3.0 24.1.0 24.4.0 25.1.0 25.5.0"), ("src", "tests")),
    Package("pypi", "anyio", "python", _v("2.2.0 3.0.1 3.3.4 3.6.2 3.7.1 4.0.0 4.2.0 4.4.0 4.6.0 4.8.0 4.10.0 4.12.0"),
            ("src", "tests")),
    Package("pypi", "tornado", "python", _v("5.1.1 6.0.4 6.1 6.2 6.3.3 6.4.2 6.5"), ("tornado",)),
)
# Set e: blind, Java and Python from projects in no other list (sets a-d, the held-out list, the public six).
# The mirror serves few old orig tarballs: only projects with two or more served upstream versions are here.
JODA = "src/main/java/org/joda/time"
PACKAGES_E: tuple[Package, ...] = (
    Package("debian", "libjoda-time-java", "java", _v("2.10.14 2.14.4"), (
        *_under(JODA, "format", "chrono", "field", "tz", "base"), "src/test/java/org/joda/time/field"), (".java",)),
    Package("debian", "httpcomponents-core", "java", _v("4.4.13 4.4.14 4.4.16"),
            _under("httpcore", "src/main", "src/test") + _under("httpcore-nio", "src/main", "src/test"), (".java",)),
    Package("debian", "httpcomponents-client", "java", _v("4.5.11 4.5.13 4.5.14"), (
        "httpclient/src/main", "httpclient/src/test", "httpclient-cache/src", "fluent-hc/src/main", "httpmime/src"),
        (".java",)),
    Package("debian", "libcommons-logging-java", "java", _v("1.2 1.3.0"), ("src/main/java", "src/test/java"),
            (".java",)),
    Package("debian", "maven", "java", _v("3.8.7 3.9.9"), tuple(f"maven-{m}/src" for m in (
        "model-builder", "embedder", "artifact", "resolver-provider", "settings-builder")), (".java",)),
    Package("debian", "maven-plugin-tools", "java", _v("3.6.0 3.7.1 3.10.2"), (
        *(f"maven-plugin-tools-{m}/src" for m in ("annotations", "generators", "api", "java")),
        "maven-plugin-annotations/src", "maven-plugin-plugin/src/main"), (".java",)),
    Package("debian", "maven-javadoc-plugin", "java", _v("3.0.1 3.4.1 3.10.1 3.12.0"),
            ("src/main/java", "src/test/java"), (".java",)),  # not src/it: integration-test fixture projects
    Package("debian", "ant", "java", _v("1.10.13 1.10.15"), ("src/main", "src/tests"), (".java",)),
    Package("debian", "objenesis", "java", _v("3.4 3.6"), ("main/src", "tck/src", "exotic/src"), (".java",)),
    Package("pypi", "urllib3", "python", _v("1.26.20 2.0.7 2.1.0 2.2.3 2.3.0 2.4.0 2.5.0 2.6.3 2.7.0 2.8.0"),
            ("src", "test")),
    Package("pypi", "paramiko", "python", _v("2.11.1 2.12.0 3.0.0 3.1.0 3.2.0 3.3.2 3.4.1 3.5.1 4.0.0"),
            ("paramiko", "tests")),
    Package("pypi", "markdown", "python", _v("3.3.7 3.4.4 3.5.2 3.6 3.7 3.8.2 3.9 3.10.2"), ("markdown", "tests")),
    Package("pypi", "tomlkit", "python", _v("0.7.2 0.9.2 0.10.2 0.11.8 0.12.5 0.13.3 0.14.0 0.15.2"),
            ("tomlkit", "tests")),
    Package("pypi", "alembic", "python", _v("1.8.1 1.9.4 1.10.4 1.11.3 1.12.1 1.13.3 1.14.1 1.15.2 1.16.5"),
            ("alembic", "tests")),
    Package("pypi", "h11", "python", _v("0.9.0 0.10.0 0.11.0 0.12.0 0.13.0 0.14.0 0.15.0 0.16.0"), ("h11",)),
)
# Set f: blind, the languages the other sets hold least (Ruby, PHP, C#, Lua, Swift, Kotlin, C, C++), from
# projects in no other list: Debian's orig tarballs where the mirror serves two or more of the suites'
# releases (it serves only some), PyPI sdists and react-native libraries on npm. Roots skip vendored code
# (rspamd's contrib/, mono's external/), generated parsers and test data, and keep pairs under MAX_PAIR_BYTES.
RAILS = ("activesupport/lib", "activemodel/lib", "activejob/lib", "actioncable/lib")
MONO = ("mcs/mcs", "mcs/tools", *_under("mcs/class", "Mono.Debugger.Soft", "Mono.Options", "Mono.Posix",
                                        "Mono.Security", "System.Net.Http", "System.Data"))
PACKAGES_F: tuple[Package, ...] = (
    Package("debian", "puma", "ruby", _v("5.6.5 6.6.0"), ("lib", "test"), (".rb",)),  # not ext/: Ragel output
    Package("debian", "rails", "ruby", _v("6.1.7.10+dfsg 7.2.2.2+dfsg"), RAILS, (".rb",)),
    Package("debian", "ruby-nokogiri", "ruby", _v("1.13.10+dfsg 1.18.2+dfsg 1.19.4+dfsg"), (
        "lib", "ext/nokogiri", *_under("test", "xml", "html4", "html5", "css")), (".rb", ".c", ".h"), h_language="c"),
    Package("debian", "php-monolog", "php", _v("2.9.1 3.9.0"), ("src", "tests"), (".php",)),
    Package("debian", "php-parser", "php", _v("4.15.4 5.4.0"), (*_under(
        "lib/PhpParser", "Builder", "Internal", "Lexer", "Node", "NodeVisitor", "PrettyPrinter"), "test/PhpParser"),
        (".php",)),  # not lib/PhpParser/Parser: generated from the grammar
    Package("debian", "php-guzzlehttp-psr7", "php", _v("2.4.5 2.7.1 2.13.1"), ("src", "tests"), (".php",)),
    Package("debian", "phpunit", "php", _v("9.6.7 11.5.19"), _under("src", "Framework", "Runner", "Util"), (".php",)),
    Package("debian", "mediawiki", "php", _v("1.35.13 1.39.17 1.43.9+dfsg"), _under("includes", "parser", "user"),
            (".php",)),
    Package("pypi", "pythonnet", "csharp", _v("2.5.2 3.0.1 3.0.3 3.0.5 3.1.0 3.2.1"),
            _under("src", "runtime", "embed_tests", "testing"), (".cs",)),
    Package("debian", "mono", "csharp", _v("6.8.0.105+dfsg 6.12.0.199+dfsg 6.14.1+ds2"), MONO, (".cs",)),
    Package("debian", "rspamd", "lua", _v("3.4 3.12.1 4.1.5"), ("lualib", "rules"), (".lua",)),
    Package("debian", "mpv", "lua", _v("0.35.1 0.40.0"), ("player/lua", "TOOLS/lua"), (".lua",)),
    Package("debian", "crawl", "lua", _v("0.28.0 0.34.1"), _under("source/dat", "dlua", "clua"), (".lua",)),
    Package("npm", "@stripe/stripe-react-native", "swift", _v(
        "0.20.0 0.25.0 0.30.0 0.35.1 0.40.0 0.45.0 0.50.3 0.55.1 0.60.0 0.65.1 0.70.0 0.75.0"),
        ("ios", "android/src"), (".swift", ".kt", ".java")),
    Package("npm", "react-native-vision-camera", "kotlin", _v(
        "2.15.6 2.16.8 3.0.0 3.3.1 3.6.17 3.9.2 4.0.5 4.3.2 4.5.3 4.7.3"), ("ios", "android/src", "cpp"),
        (".swift", ".kt", ".java", ".cpp")),  # not .h: the iOS headers are Objective-C
    Package("debian", "libuv1", "c", _v("1.40.0 1.44.2 1.50.0"), ("src/unix", "src/win"), (".c", ".h"), h_language="c"),
    Package("pypi", "bitarray", "c", _v("2.0.1 2.3.7 2.6.2 2.9.3 3.0.0 3.3.2 3.6.1 3.9.2 3.12.3"),
            _under("bitarray", "_bitarray.c", "_util.c", "bitarray.h"), (".c", ".h"), h_language="c"),
    Package("debian", "googletest", "cpp", _v("1.12.1 1.16.0 1.18.0"),
            ("googletest/src", "googletest/include", "googlemock/src"), (".cc", ".h"), h_language="cpp"),
    Package("debian", "cli11", "cpp", _v("2.1.2+ds 2.4.1+ds 2.6.1+ds"), ("include/CLI", "tests"), (".hpp", ".cpp"),
            h_language="cpp"),
    Package("debian", "re2", "cpp", _v("20220601+dfsg 20240702"), ("re2", "util"), (".cc", ".h"), h_language="cpp"),
)
