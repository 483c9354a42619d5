"""The license: LICENSE holds the Apache License 2.0 as the ASF publishes it, pyproject.toml names
it (PEP 639: an SPDX ``license`` and ``license-files``, which need setuptools 77), and what is built
carries it: the sdist holds LICENSE, a wheel's metadata says ``License-Expression: Apache-2.0`` and
``License-File: LICENSE`` and ships the file in ``.dist-info/licenses``.

From a checkout, a pure-Python wheel and the sdist are built here (with the setuptools installed,
when it is 77 or newer); against an installed wheel (the wheel checks), its own metadata is read.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from email.parser import Parser
from importlib import metadata
from pathlib import Path
from typing import Any, Dict

import pytest

import turbobleu

ROOT = Path(__file__).resolve().parent.parent
LICENSE = ROOT / "LICENSE"
PYPROJECT = ROOT / "pyproject.toml"
# SHA-256 of https://www.apache.org/licenses/LICENSE-2.0.txt.
APACHE_2_SHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"
# (sdist and wheel, with setuptools' build backend, from a copy of the checkout's files)
BUILD = """
import sys
from setuptools import build_meta
out = sys.argv[1]
built = build_meta.build_sdist(out), build_meta.build_wheel(out)
print("built:", *built)  # (the last line: setuptools logs on stdout too)
"""

in_checkout = pytest.mark.skipif(
    not (LICENSE.is_file() and (ROOT / "setup.py").is_file()),
    reason="not run from a source checkout (no LICENSE and setup.py beside the tests)",
)


def _pyproject() -> Dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        tomllib = pytest.importorskip("tomli", reason="reading TOML needs tomli before 3.11")
    with open(PYPROJECT, "rb") as handle:
        return tomllib.load(handle)


def _check_wheel_metadata(text: str) -> None:
    fields = Parser().parsestr(text)
    assert fields["License-Expression"] == "Apache-2.0"
    assert fields.get_all("License-File") == ["LICENSE"]
    assert fields["License"] is None  # (the expression replaces the free-text field)


@in_checkout
def test_the_license_file_is_the_apache_license_2_0() -> None:
    data = LICENSE.read_bytes()
    assert hashlib.sha256(data).hexdigest() == APACHE_2_SHA256
    assert b"Apache License\n                           Version 2.0, January 2004" in data


@in_checkout
def test_pyproject_names_the_license_and_its_file() -> None:
    config = _pyproject()
    project = config["project"]
    assert project["license"] == "Apache-2.0"
    assert project["license-files"] == ["LICENSE"]
    assert not any(c.startswith("License ::") for c in project.get("classifiers", []))
    # setuptools before 77 refuses a string license (and ignores [project] license-files).
    found = [r for r in config["build-system"]["requires"] if re.match(r"setuptools\b", r)]
    assert len(found) == 1
    floor = re.fullmatch(r"setuptools>=(\d+)(?:\.\d+)*", found[0].replace(" ", ""))
    assert floor and int(floor.group(1)) >= 77, found


@in_checkout
def test_the_built_sdist_and_wheel_carry_the_license(tmp_path: Path) -> None:
    setuptools = pytest.importorskip("setuptools", reason="building needs setuptools")
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip(f"setuptools {setuptools.__version__} is older than 77 (the build's floor)")
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("copying the checkout's files needs git and a git checkout")
    tree, out = tmp_path / "tree", tmp_path / "dist"
    out.mkdir()
    copied = subprocess.run(
        ["bash", str(ROOT / "scripts" / "copy_tree.sh"), str(tree)], capture_output=True, text=True
    )
    assert copied.returncode == 0, copied.stderr
    env = {k: v for k, v in os.environ.items() if not k.startswith("TURBOBLEU_")}
    env["TURBOBLEU_PURE_PYTHON"] = "1"  # the metadata is the same; nothing to compile
    built = subprocess.run(
        [sys.executable, "-c", BUILD, str(out)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    sdist_name, wheel_name = built.stdout.splitlines()[-1].split()[1:]
    license_text = LICENSE.read_bytes()
    with tarfile.open(out / sdist_name) as sdist:
        top = sdist_name[: -len(".tar.gz")]
        member = sdist.extractfile(f"{top}/LICENSE")
        assert member is not None and member.read() == license_text
        pkg_info = sdist.extractfile(f"{top}/PKG-INFO")
        assert pkg_info is not None
        _check_wheel_metadata(pkg_info.read().decode("utf-8"))
    with zipfile.ZipFile(out / wheel_name) as wheel:
        info = next(n.split("/")[0] for n in wheel.namelist() if ".dist-info/" in n)
        _check_wheel_metadata(wheel.read(f"{info}/METADATA").decode("utf-8"))
        assert wheel.read(f"{info}/licenses/LICENSE") == license_text


def test_an_installed_wheel_names_its_license() -> None:
    """Run against an installed wheel (the wheel checks): its own metadata and license file."""
    try:
        dist = metadata.distribution("turbobleu")
    except metadata.PackageNotFoundError:
        pytest.skip("turbobleu is not installed (run from the source tree)")
    installed = Path(str(dist.locate_file("turbobleu/__init__.py")))
    if not installed.is_file() or not installed.samefile(turbobleu.__file__):
        pytest.skip("the turbobleu under test is not the installed distribution")
    wheel_metadata = dist.read_text("METADATA")
    if wheel_metadata is None:
        # src/turbobleu.egg-info (left by an in-place build) found first on sys.path: no wheel
        pytest.skip("the distribution found is a source tree's egg-info, not an installed wheel")
    _check_wheel_metadata(wheel_metadata)
    text = dist.read_text("licenses/LICENSE")
    assert text is not None
    assert hashlib.sha256(text.encode("utf-8")).hexdigest() == APACHE_2_SHA256
