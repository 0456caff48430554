"""limpet.spark in local mode: one task per repository, the same rows as an export."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from limpet.server.core import Service


def _java() -> None:
    """Spark needs a JVM: Debian's headless JRE, installed as the page tests install Chromium."""
    if shutil.which("java"):
        return
    env = {"DEBIAN_FRONTEND": "noninteractive", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}
    apt = shutil.which("apt-get") or "apt-get"
    if subprocess.run([apt, "install", "-y", "default-jre-headless"], env=env, capture_output=True).returncode:
        subprocess.run([apt, "update"], env=env, check=True, capture_output=True)
        subprocess.run([apt, "install", "-y", "default-jre-headless"], env=env, check=True, capture_output=True)


@pytest.fixture(scope="module")
def spark():
    from pyspark.sql import SparkSession

    _java()
    was = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = sys.executable  # the executors' Python: this one, with limpet installed
    session = (SparkSession.builder.master("local[1]").appName("limpet-test")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "1")
               .config("spark.pyspark.python", sys.executable).config("spark.pyspark.driver.python", sys.executable)
               .config("spark.driver.memory", "512m").getOrCreate())
    yield session
    session.stop()
    if was is None:
        os.environ.pop("PYSPARK_PYTHON", None)
    else:
        os.environ["PYSPARK_PYTHON"] = was


def test_a_dataframe_of_three_repositories_one_task_each(spark, workspace, tmp_path):
    from limpet.spark import threads_dataframe

    roots = []
    for name in ("alpha", "beta", "gamma"):
        root = tmp_path / name
        shutil.copytree(workspace, root)
        svc = Service(root)
        svc.add("main.go", 5, 7, f"{name}: return an error", tag="FIXME")
        svc.add("src/app.ts", 2, 2, f"{name}: token ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", tag="NOTE")
        roots.append(root)
    df = threads_dataframe(spark, roots)
    assert df.rdd.getNumPartitions() == 3
    rows = sorted(df.select("repository", "tag", "language", "split", "body").collect())
    assert [(r.repository, r.tag, r.language) for r in rows] == [
        (n, t, lang) for n in ("alpha", "beta", "gamma") for t, lang in (("FIXME", "go"), ("NOTE", "typescript"))]
    assert all("ghp_" not in r.body for r in rows) and {r.split for r in rows} <= {"train", "validation", "test"}
    only = threads_dataframe(spark, roots[:1], tag="FIXME")
    assert [r.body for r in only.select("body").collect()] == ["alpha: return an error"]


def test_bad_arguments_are_refused_on_the_driver(spark, workspace):
    from limpet.model import InvalidArgument
    from limpet.spark import threads_dataframe

    with pytest.raises(InvalidArgument) as err:
        threads_dataframe(spark, [workspace], since="yesterday")
    assert err.value.field == "since"
    with pytest.raises(InvalidArgument) as err:
        threads_dataframe(spark, [workspace], split_shares=(0.5, 0.5, 0.5))
    assert err.value.field == "split_shares"
