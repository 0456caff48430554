"""Held-out anchoring cases: the package list and the release downloads (PyPI sdists, npm tarballs).

Everything is cached under ~/.cache/limpet-heldout/ (downloads in dl/, unpacked trees in src/).
Consecutive entries of a package's release list form the (parent, commit) pairs.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks._debian_fetch import download as debian_download
from benchmarks._debian_fetch import members as debian_members

CACHE = Path.home() / ".cache" / "limpet-heldout"
PIP = [sys.executable, "-m", "pip"]


@dataclass(frozen=True)
class Package:
    registry: str  # "pypi" | "npm" | "debian" (an orig tarball, benchmarks/_debian_fetch.py)
    name: str
    language: str  # "python" | "javascript" | "typescript"
    versions: tuple[str, ...]
    roots: tuple[str, ...]  # source roots inside the release (after the top folder is stripped)
    exts: tuple[str, ...] = field(default=(".py",))
    wheel: bool = False  # PyPI: take the (pure) wheel, e.g. a header-only library's headers, no build step
    h_language: str = "c"  # what this package's `.h` files are written in (the truth parses them so)

    @property
    def repo(self) -> str:
        return f"{self.registry}/{self.name}"


JS = (".js", ".mjs", ".cjs")
TS = (".ts", ".tsx", ".mts", ".cts")

def _v(text: str) -> tuple[str, ...]:
    return tuple(text.split())


PACKAGES: tuple[Package, ...] = (
    Package("pypi", "attrs", "python", _v(
        "20.1.0 20.2.0 20.3.0 21.1.0 21.2.0 21.3.0 21.4.0 22.1.0 22.2.0 23.1.0 23.2.0 24.1.0 24.2.0 24.3.0 "
        "25.1.0"), ("src", "tests")),
    Package("pypi", "click", "python", _v(
        "7.1.2 8.0.0 8.0.1 8.0.2 8.0.3 8.0.4 8.1.0 8.1.3 8.1.6 8.1.7 8.1.8 8.2.0 8.2.1 8.3.0"), ("src", "tests")),
    Package("pypi", "rich", "python", _v(
        "12.0.0 12.1.0 12.2.0 12.3.0 12.4.0 12.5.0 12.6.0 13.0.0 13.1.0 13.2.0 13.3.0 13.4.0 13.5.0 13.6.0 "
        "13.7.0 13.8.0 13.9.0"), ("rich", "tests")),
    Package("pypi", "httpx", "python", _v(
        "0.15.0 0.16.0 0.17.0 0.18.0 0.19.0 0.20.0 0.21.0 0.22.0 0.23.0 0.24.0 0.25.0 0.26.0 0.27.0 0.28.0"),
        ("httpx", "tests")),
    Package("pypi", "pluggy", "python", _v("0.11.0 0.12.0 0.13.0 0.13.1 1.0.0 1.2.0 1.3.0 1.4.0 1.5.0 1.6.0"),
            ("src", "testing")),
    Package("pypi", "packaging", "python", _v(
        "19.0 19.1 19.2 20.0 20.4 20.7 20.9 21.0 21.3 22.0 23.0 23.1 23.2 24.0 24.1 24.2 25.0"),
        ("src", "packaging", "tests")),
    Package("pypi", "jinja2", "python", _v(
        "2.11.0 2.11.1 2.11.2 2.11.3 3.0.0 3.0.1 3.0.3 3.1.0 3.1.2 3.1.3 3.1.4 3.1.5 3.1.6"), ("src", "tests")),
    Package("npm", "commander", "javascript", _v(
        "5.0.0 5.1.0 6.0.0 6.1.0 6.2.0 6.2.1 7.0.0 7.1.0 7.2.0 8.0.0 8.1.0 8.2.0 8.3.0 9.0.0 9.1.0 9.2.0 9.3.0 "
        "9.4.0 9.5.0 10.0.0 11.0.0 11.1.0 12.0.0 12.1.0 13.0.0 13.1.0 14.0.0"), ("index.js", "lib"), JS),
    Package("npm", "execa", "javascript", _v(
        "4.0.0 4.1.0 5.0.0 5.1.1 6.0.0 6.1.0 7.0.0 7.1.0 7.2.0 8.0.0 9.0.0 9.1.0 9.2.0 9.3.0 9.4.0 9.5.0 "
        "9.6.0"), ("index.js", "lib"), JS),
    Package("npm", "fastify", "javascript",
            tuple(f"4.{i}.0" for i in range(0, 30)), ("fastify.js", "lib", "test"), JS),
    Package("npm", "axios", "javascript",
            tuple(f"1.{i}.0" for i in range(0, 22)), ("index.js", "lib"), JS),
    Package("npm", "mobx", "typescript", _v(
        "6.0.0 6.1.0 6.2.0 6.3.0 6.4.0 6.5.0 6.6.0 6.7.0 6.8.0 6.9.0 6.10.0 6.11.0 6.12.0 6.13.0"), ("src",), TS),
    Package("npm", "@tanstack/query-core", "typescript", _v(
        "5.0.0 5.10.0 5.14.0 5.17.0 5.25.0 5.28.0 5.31.0 5.36.0 5.40.0 5.45.0 5.49.0 5.56.0 5.59.0 5.64.0 "
        "5.66.0 5.69.0 5.72.0 5.76.0 5.80.0 5.83.0 5.89.0"), ("src",), TS),
    Package("npm", "immer", "typescript", _v(
        "8.0.0 9.0.0 9.0.6 9.0.12 9.0.16 9.0.21 10.0.0 10.0.3 10.1.0 10.1.1 10.2.0 11.0.0 11.1.0"), ("src",), TS),
)


def _dl_dir(pkg: Package, cache: Path = CACHE) -> Path:
    return cache / "dl" / f"{pkg.registry}-{pkg.name.replace('/', '__')}"


def download(pkg: Package, version: str, cache: Path = CACHE) -> Path:
    """The cached release archive, downloaded with the registry's own client on a miss."""
    if pkg.registry == "debian":
        return debian_download(pkg, version, cache)
    d = _dl_dir(pkg, cache) / version
    hits = sorted(p for p in d.glob("*") if p.suffix in (".gz", ".tgz", ".zip", ".whl"))
    if hits:
        return hits[0]
    d.mkdir(parents=True, exist_ok=True)
    if pkg.registry == "pypi" and pkg.wheel:
        cmd = [*PIP, "download", "--no-deps", "--only-binary", ":all:", "-q", f"{pkg.name}=={version}", "-d", str(d)]
    elif pkg.registry == "pypi":
        cmd = [*PIP, "download", "--no-deps", "--no-binary", ":all:", "-q", f"{pkg.name}=={version}", "-d", str(d)]
    else:
        cmd = ["npm", "pack", f"{pkg.name}@{version}", "--pack-destination", str(d), "--silent"]
    subprocess.run(cmd, check=True, capture_output=True, cwd=d)
    hits = sorted(p for p in d.glob("*") if p.suffix in (".gz", ".tgz", ".zip", ".whl"))
    if not hits:
        raise RuntimeError(f"no archive for {pkg.repo}=={version}")
    return hits[0]


def _members(archive: Path):
    """(path without the top folder, bytes) for every regular file of the archive."""
    if archive.suffix in (".zip", ".whl"):
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                if not info.is_dir():
                    yield info.filename.split("/", 1)[-1], z.read(info)
        return
    with tarfile.open(archive) as t:
        for m in t.getmembers():
            if m.isfile():
                f = t.extractfile(m)
                if f is not None:
                    yield m.name.split("/", 1)[-1], f.read()


def source_tree(pkg: Package, version: str, cache: Path = CACHE) -> dict[str, str]:
    """Source files (under the package's roots, with its extensions) of one release: path -> text."""
    archive = download(pkg, version, cache)
    out: dict[str, str] = {}
    for path, data in (debian_members if pkg.registry == "debian" else _members)(archive):
        if not path.endswith(pkg.exts) or path.endswith(".d.ts"):
            continue
        if not any(path == r or path.startswith(r + "/") for r in pkg.roots):
            continue
        try:
            out[path] = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="").read()
        except UnicodeDecodeError:
            continue
    return dict(sorted(out.items()))


def fetch_all(packages=PACKAGES, jobs: int = 8, cache: Path = CACHE) -> None:
    """Download every release (in parallel; pip's sdist metadata step is slow)."""
    work = [(p, v) for p in packages for v in p.versions]
    with ThreadPoolExecutor(jobs) as ex:
        for (p, v), fut in zip(work, [ex.submit(download, p, v, cache) for p, v in work], strict=True):
            try:
                fut.result()
            except (subprocess.CalledProcessError, RuntimeError) as e:
                print(f"download failed: {p.repo}=={v}: {e}", file=sys.stderr)


if __name__ == "__main__":
    fetch_all()
