"""The harness that runs sacrebleu's and NLTK's own suites on turbobleu (scripts/upstream/):
the README's ``pytest`` never collects or loads it, its drop-in mappings resolve to turbobleu's
modules, and its fetch and unpack steps tell an unreachable index (skip) from a wrong file
(failure). The suites themselves run in .ci/run (scripts/upstream_suites.sh): they need the
package index."""

from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
import tarfile
import textwrap
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parent.parent
HARNESS = ROOT / "scripts" / "upstream"

pytestmark = pytest.mark.skipif(not HARNESS.is_dir(), reason="no scripts/upstream/ tree")


def _load(name: str) -> ModuleType:
    """The harness module ``name`` (under a private name: its dataclasses need an entry)."""
    qualified = f"_upstream_harness_{name}"
    if qualified not in sys.modules:
        spec = importlib.util.spec_from_file_location(qualified, HARNESS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[qualified] = module
        spec.loader.exec_module(module)
    return sys.modules[qualified]


def _run_python(code: str) -> subprocess.CompletedProcess:
    """Runs ``code`` in a fresh interpreter that finds the plugin and this turbobleu."""
    env = dict(os.environ)
    src = str(Path(importlib.util.find_spec("turbobleu").origin).parent.parent)  # type: ignore
    env["PYTHONPATH"] = os.pathsep.join([str(HARNESS), src, env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_main_run_collects_only_tests():
    """The plugin maps ``sacrebleu`` to turbobleu for a whole session: the README's plain
    ``pytest`` must neither collect nor load it."""
    try:
        import tomllib
    except ImportError:  # before 3.11
        tomllib = pytest.importorskip("tomli", reason="reading TOML needs tomli before 3.11")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert config["tool"]["pytest"]["ini_options"]["testpaths"] == ["tests"]
    harness_files = sorted(p.name for p in HARNESS.iterdir())
    assert "turbobleu_modes.py" in harness_files
    assert not [n for n in harness_files if n.startswith("test_") or n.endswith("_test.py")]
    assert not [n for n in harness_files if n == "conftest.py"]
    assert not (ROOT / "conftest.py").exists()
    assert "turbobleu_modes" not in (ROOT / "tests" / "conftest.py").read_text(encoding="utf-8")


def test_ci_runs_the_upstream_suites():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert any(line.endswith("scripts/upstream_suites.sh") for line in ci)
    assert (ROOT / "scripts" / "upstream_suites.sh").stat().st_mode & 0o111


def test_the_work_folder_is_ignored_by_git():
    assert "build/" in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    suites = _load("suites")
    assert suites.DEFAULT_DIR == ROOT / "build" / "upstream"


def test_the_sacrebleu_dropin_resolves_every_import_to_turbobleu():
    pytest.importorskip("sacrebleu")
    proc = _run_python(
        """
        import sys
        import turbobleu_modes as m
        m.install_sacrebleu_dropin()
        import sacrebleu, sacrebleu.metrics.bleu
        from sacrebleu.metrics import BLEU
        import turbobleu.sacrebleu as fast
        import turbobleu.sacrebleu.metrics.bleu as fast_bleu
        assert sacrebleu is fast and sacrebleu.metrics.bleu is fast_bleu
        assert BLEU is fast.BLEU
        assert sys.modules["sacrebleu.metrics"] is fast.metrics
        try:
            import sacrebleu.no_such_module
        except ModuleNotFoundError as exc:
            assert "turbobleu.sacrebleu.no_such_module" in str(exc), exc
        else:
            raise AssertionError("a missing module imported")
        assert m.foreign_modules("sacrebleu", "turbobleu.sacrebleu") == []
        print("ok")
        """
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_the_sacrebleu_dropin_refuses_a_real_sacrebleu_imported_before():
    pytest.importorskip("sacrebleu")
    proc = _run_python(
        """
        import sacrebleu
        import turbobleu_modes as m
        assert m.foreign_modules("sacrebleu", "turbobleu.sacrebleu")[0] == "sacrebleu"
        try:
            m.install_sacrebleu_dropin()
        except Exception as exc:
            print(type(exc).__name__, exc)
        """
    )
    assert proc.stdout.startswith("UsageError sacrebleu-dropin: the real sacrebleu"), proc.stderr


def test_the_nltk_dropin_replaces_bleu_score_only():
    pytest.importorskip("nltk")
    proc = _run_python(
        """
        import turbobleu_modes as m
        m.install_nltk_dropin()
        from nltk.translate.bleu_score import corpus_bleu, SmoothingFunction
        import nltk.data, nltk.translate
        import turbobleu.nltk as fast
        assert corpus_bleu is fast.corpus_bleu and SmoothingFunction is fast.SmoothingFunction
        assert nltk.translate.bleu_score is fast
        assert nltk.data.__name__ == "nltk.data" and nltk.data.find.__module__ == "nltk.data"
        print("ok")
        """
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_the_nltk_check_rejects_nltks_own_functions():
    nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
    modes = _load("turbobleu_modes")
    module = ModuleType("fake_test_bleu")
    module.corpus_bleu = nltk_bleu.corpus_bleu  # type: ignore[attr-defined]
    with pytest.raises(pytest.UsageError, match="corpus_bleu"):
        modes._check_nltk_names("nltk-patch", [SimpleNamespace(module=module)])
    import turbobleu.nltk as fast

    module.corpus_bleu = fast.corpus_bleu  # type: ignore[attr-defined]
    modes._check_nltk_names("nltk-patch", [SimpleNamespace(module=module)])


def test_deselection_matches_a_test_its_parameters_and_its_methods():
    modes = _load("turbobleu_modes")
    key = "test/test_api.py::test_api_get_source"
    assert modes._matches(key, key)
    assert modes._matches(key + "[wmt19-de-en-1-a-b]", key)
    assert modes._matches("t.py::TestX::test_y", "t.py::TestX")
    assert not modes._matches(key + "_other", key)
    assert all(reason for rules in modes.DESELECTED.values() for reason in rules.values())


def _tarball(path: Path, top: str, members: dict) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(f"{top}/{name}")
            if data is None:  # a symbolic link
                info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))


def test_unpack_writes_only_the_regular_test_files(tmp_path):
    suites = _load("suites")
    sdist = suites.Sdist("lib", "1.0", "0" * 64, "test", ("test/test_a.py",))
    archive = tmp_path / sdist.filename
    _tarball(
        archive,
        sdist.top,
        {"test/test_a.py": b"a", "test/data/x.bin": b"x", "lib/core.py": b"c", "test/link": None},
    )
    root = suites.unpack(archive, sdist, tmp_path / "out")
    written = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert written == ["test/data/x.bin", "test/test_a.py"]
    assert not (root / "test" / "link").exists()


def test_unpack_refuses_a_member_that_leaves_its_folder(tmp_path):
    suites = _load("suites")
    sdist = suites.Sdist("lib", "1.0", "0" * 64, "test", ("test/test_a.py",))
    archive = tmp_path / sdist.filename
    _tarball(archive, sdist.top, {"test/test_a.py": b"a", "test/../../escape.py": b"e"})
    with pytest.raises(ValueError, match="unexpected member name"):
        suites.unpack(archive, sdist, tmp_path / "out")
    assert not (tmp_path / "escape.py").exists()


def _fake_pip(tmp_path: Path, body: str) -> str:
    """An executable standing in for ``python -m pip download ... --dest DIR``."""
    script = tmp_path / "fake-python"
    script.write_text(
        '#!/bin/sh\nwhile [ "$#" -gt 0 ]; do [ "$1" = --dest ] && dest=$2; shift; done\n' + body,
        encoding="utf-8",
    )
    script.chmod(0o755)
    return str(script)


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell script stands in for pip")
def test_fetch_skips_when_pip_cannot_download(tmp_path):
    suites = _load("suites")
    with pytest.raises(suites.IndexUnreachable, match="pip download failed"):
        suites.fetch(tmp_path / "dist", python=_fake_pip(tmp_path, "exit 1\n"))


@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell script stands in for pip")
def test_fetch_fails_on_a_file_with_another_sha256(tmp_path):
    suites = _load("suites")
    body = "".join(f'echo tampered > "$dest/{s.filename}"\n' for s in suites.SDISTS)
    with pytest.raises(ValueError, match="sha256"):
        suites.fetch(tmp_path / "dist", python=_fake_pip(tmp_path, body))
    assert not list((tmp_path / "dist").glob("*.tar.gz"))


def test_main_skips_with_exit_status_0_without_the_index(tmp_path, monkeypatch, capsys):
    suites = _load("suites")

    def unreachable(dist_dir: Path, python: str = sys.executable):
        raise suites.IndexUnreachable("no route to host")

    monkeypatch.setattr(suites, "fetch", unreachable)
    assert suites.main(["--dir", str(tmp_path)]) == 0
    assert "could not be reached: the upstream suites are skipped" in capsys.readouterr().out
