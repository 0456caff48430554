"""Release downloads from Debian's archive: the upstream tarballs Debian source packages keep.

Why Debian: this machine reaches only PyPI, npm and deb.debian.org, and PyPI/npm hold little Ruby,
PHP, C#, Lua or Scala. A Debian source package keeps its project's upstream release unchanged
(`<src>_<upstream version>.orig.tar.{gz,xz,bz2}`, sometimes repacked as `+dfsg`/`+ds` without
non-free or vendored files), and each suite (bullseye, bookworm, trixie, forky, sid) holds its
own upstream version: two to five real releases of one project, years apart.

A `Package(registry="debian", name=<source package>, versions=<upstream versions as in the orig
tarball's name>)` is resolved through the suites' Sources indexes (the pool directory and the
tarball's exact name), then downloaded. Indexes and tarballs are cached under `<cache>/dl/`
(never committed); once a tarball is cached the indexes are not needed again. Stdlib only.
"""

from __future__ import annotations

import functools
import lzma
import re
import shutil
import tarfile
import threading
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from benchmarks._heldout_fetch import Package

MIRROR = "http://deb.debian.org/debian"
SUITES = ("bullseye", "bookworm", "trixie", "forky", "sid")
ORIG = re.compile(r"^ [0-9a-f]{32} \d+ (\S+\.orig\.tar\.(?:gz|xz|bz2))$", re.M)
TIMEOUT = 120
_INDEX_LOCK = threading.Lock()  # fetch_all downloads in threads: read the indexes once


def _fetch(url: str, dest: Path) -> Path:
    """url saved to dest (written whole, then renamed: no half file is ever cached)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    part = dest.with_name(dest.name + ".part")
    with urllib.request.urlopen(url, timeout=TIMEOUT) as r, open(part, "wb") as f:
        shutil.copyfileobj(r, f)
    part.replace(dest)
    return dest


def sources_index(suite: str, cache: Path) -> Path:
    """The suite's main/source/Sources.xz, cached."""
    dest = cache / "dl" / "sources" / f"{suite}.Sources.xz"
    return dest if dest.exists() else _fetch(f"{MIRROR}/dists/{suite}/main/source/Sources.xz", dest)


def _orig_tarballs(cache: Path) -> dict[str, dict[str, str]]:
    with _INDEX_LOCK:
        return _read_indexes(cache)


@functools.cache
def _read_indexes(cache: Path) -> dict[str, dict[str, str]]:
    """source package -> {orig tarball name -> pool directory}, over every suite's index."""
    out: dict[str, dict[str, str]] = {}
    for suite in SUITES:
        text = lzma.decompress(sources_index(suite, cache).read_bytes()).decode("utf-8", "replace")
        for para in text.split("\n\n"):
            name = re.search(r"^Package: (\S+)$", para, re.M)
            where = re.search(r"^Directory: (\S+)$", para, re.M)
            if name and where:
                for tarball in ORIG.findall(para):
                    out.setdefault(name.group(1), {})[tarball] = where.group(1)
    return out


def _dl_dir(pkg: Package, version: str, cache: Path) -> Path:
    return cache / "dl" / f"debian-{pkg.name}" / version


def download(pkg: Package, version: str, cache: Path) -> Path:
    """The cached orig tarball of `pkg` at upstream `version`, downloaded on a miss."""
    d = _dl_dir(pkg, version, cache)
    hits = sorted(d.glob(f"{pkg.name}_{version}.orig.tar.*"))
    hits = [h for h in hits if not h.name.endswith(".part")]
    if hits:
        return hits[0]
    known = _orig_tarballs(cache).get(pkg.name, {})
    names = [t for t in known if re.fullmatch(rf"{re.escape(pkg.name)}_{re.escape(version)}\.orig\.tar\.\w+", t)]
    if not names:
        raise RuntimeError(f"{pkg.name} {version}: no such orig tarball in {', '.join(SUITES)} "
                           f"(known: {', '.join(sorted(known)) or 'none'})")
    tarball = sorted(names)[0]
    try:
        return _fetch(f"{MIRROR}/{known[tarball]}/{tarball}", d / tarball)
    except OSError as e:  # urllib's errors are OSErrors: report them as the other registries do
        raise RuntimeError(f"{pkg.name} {version}: {e}") from e


def members(archive: Path):
    """(path, bytes) for every regular file of an orig tarball, without its top folder when every
    file has the same one (most have; a few, like keepass2's, have none)."""
    with tarfile.open(archive) as t:
        files = [m for m in t.getmembers() if m.isfile()]
        tops = {m.name.split("/", 1)[0] if "/" in m.name else None for m in files}
        strip = len(tops) == 1 and None not in tops
        for m in files:
            f = t.extractfile(m)
            if f is not None:
                yield (m.name.split("/", 1)[1] if strip else m.name.removeprefix("./")), f.read()
