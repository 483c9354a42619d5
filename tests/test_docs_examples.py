"""Every Python example of the README and of docs/ runs, and prints what the page says it prints.

The conventions, which the pages follow (docs/architecture.md says them to contributors):

* Each fenced ``python`` block is run on its own, in a fresh namespace, in a temporary folder.
* ``print(...)  # prints: TEXT`` states the line that call prints. The block's output must have
  exactly as many lines as it has such comments, each equal to its TEXT; a TEXT ending in ``...``
  need only start the line.
* An HTML comment on the line before the fence marks a block that is not run as it is:
  ``<!-- fragment: why -->`` (a piece of a larger program: skipped, with the reason),
  ``<!-- requires: pkg ... -->`` (skipped when a package is not installed),
  ``<!-- script -->`` (run as a file in its own interpreter: code behind ``__main__``;
  ``<!-- script: pkg ... -->`` also skips it when a package is not installed),
  ``<!-- tested-by: test_name -->`` (a test of this module runs it with its own harness).
  A mark may end in ``; slow`` (an engine that starts in tens of seconds: Spark, Ray, spawned
  processes): such a block runs only with ``TURBOBLEU_TEST_FULL=1``, keeping the default run
  short.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import re
import subprocess
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from conftest import FULL_MATRIX, REPO_ROOT

DOCS = REPO_ROOT / "docs"
PAGES = [REPO_ROOT / "README.md"] + sorted(DOCS.rglob("*.md"))
_FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.S | re.M)
_MARK = re.compile(r"<!--\s*([\w-]+)(?::\s*([^;]*?))?\s*(;\s*slow)?\s*-->\s*$")
_PRINTS = re.compile(r"#\s*prints:\s?(.*)$")


@dataclass(frozen=True)
class Example:
    page: Path
    line: int
    code: str
    mark: Optional[str]
    argument: str
    slow: bool = False

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(REPO_ROOT)}:{self.line}"


def examples(page: Path) -> List[Example]:
    text = page.read_text(encoding="utf-8")
    found = []
    for match in _FENCE.finditer(text):
        before = text[: match.start()].rstrip("\n").splitlines()
        mark = _MARK.match(before[-1].strip()) if before else None
        found.append(
            Example(
                page,
                text.count("\n", 0, match.start()) + 2,
                match.group(1),
                mark.group(1) if mark else None,
                (mark.group(2) or "") if mark else "",
                bool(mark and mark.group(3)),
            )
        )
    return found


ALL = [example for page in PAGES for example in examples(page)]
KNOWN_MARKS = {None, "fragment", "requires", "script", "tested-by"}


def expected_lines(code: str) -> List[str]:
    lines = [m.group(1).rstrip() for line in code.splitlines() if (m := _PRINTS.search(line))]
    assert "..." not in lines and "" not in lines, "a '# prints:' that checks nothing"
    return lines


def check_output(example: Example, output: str) -> None:
    want = expected_lines(example.code)
    got = output.splitlines()
    assert len(got) == len(want), (
        f"{example.name}: printed {len(got)} lines, the page states {len(want)}:\n{output}"
    )
    for number, (line, text) in enumerate(zip(got, want), 1):
        if text.endswith("..."):
            assert line.startswith(text[:-3]), f"{example.name}, print {number}: {line!r}"
        else:
            assert line == text, f"{example.name}, print {number}: {line!r} != {text!r}"


def run_in_process(code: str, name: str) -> Tuple[Dict[str, object], str]:
    namespace: Dict[str, object] = {"__name__": "__docs_example__"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, name, "exec"), namespace)
    return namespace, out.getvalue()


def run_as_script(code: str, folder: Path) -> str:
    script = folder / "example.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _requirements(example: Example) -> List[str]:
    """The packages an example needs: ``requires: a b`` and ``script: a b`` name them."""
    return example.argument.split() if example.mark in ("requires", "script") else []


@pytest.mark.parametrize("example", ALL, ids=[e.name for e in ALL])
def test_example_runs_and_prints_what_the_page_says(example, tmp_path, monkeypatch):
    assert example.mark in KNOWN_MARKS, f"{example.name}: unknown mark {example.mark!r}"
    if example.mark == "fragment":
        assert example.argument, f"{example.name}: a fragment says why it is one"
        pytest.skip(f"a fragment ({example.argument})")
    if example.mark == "tested-by":
        pytest.skip(f"run by {example.argument}")
    if example.slow and not FULL_MATRIX:
        pytest.skip("a slow example (an engine's start-up): TURBOBLEU_TEST_FULL=1 runs it")
    for package in _requirements(example):
        pytest.importorskip(package, reason=f"{package} is not installed")
    # Worker processes (Spark's, Ray's, spawned ones) import turbobleu as this process does.
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(str(Path(p).resolve()) for p in sys.path if p))
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    monkeypatch.chdir(tmp_path)
    if example.mark == "script":
        output = run_as_script(example.code, tmp_path)
    else:
        _, output = run_in_process(example.code, example.name)
    check_output(example, output)


def test_the_pages_have_examples_and_every_mark_is_known():
    assert len(ALL) >= 30
    assert {e.mark for e in ALL} <= KNOWN_MARKS
    readme = [e for e in ALL if e.page.name == "README.md"]
    assert len(readme) >= 3 and all(e.mark is None for e in readme)
    # Every example that prints states what it prints.
    for example in ALL:
        if example.mark in (None, "script", "requires"):
            prints = len(re.findall(r"^\s*print\(", example.code, re.M))
            assert prints <= len(expected_lines(example.code)), example.name


# -- the TRL example: as written up to the trainer, then a tiny local model --------------------


def test_trl_example_runs_up_to_the_trainer(tmp_path, monkeypatch):
    """The reward part runs as written (datasets only); the trainer runs on a tiny model made
    here (no download), as tests/test_rewards_trl.py does, where TRL is installed."""
    example = next(e for e in ALL if e.mark == "tested-by" and "GRPOTrainer" in e.code)
    assert example.argument == "test_trl_example_runs_up_to_the_trainer"
    pytest.importorskip("datasets", reason="datasets is not installed")
    head, separator, tail = example.code.partition("from trl import")
    assert separator and "GRPOTrainer(" in tail
    monkeypatch.chdir(tmp_path)
    namespace, output = run_in_process(head, example.name)
    assert expected_lines(head), "the reward part states what it prints"
    check_output(replace(example, code=head), output)

    pytest.importorskip("trl", reason="TRL is not installed (pip install trl)")
    pytest.importorskip("transformers")
    pytest.importorskip("tokenizers")
    import trl

    from rewards_support import tiny_llama, word_tokenizer

    data = namespace["data"]
    words = [*data["prompt"], *(r for refs in data["reference"] for r in refs)]
    tokenizer = word_tokenizer(words)
    model = tiny_llama(tokenizer)
    trainer = trl.GRPOTrainer(
        model=model,
        reward_funcs=namespace["reward"],
        args=trl.GRPOConfig(
            output_dir=str(tmp_path / "out"),
            per_device_train_batch_size=2 * len(data),
            num_generations=2,
            max_completion_length=8,
            max_steps=1,
            use_cpu=True,
            report_to=[],
            save_strategy="no",
            seed=0,
        ),
        train_dataset=data,
        processing_class=tokenizer,
    )
    trainer.train()
    assert trainer.reward_func_names == ["bleu_reference"]


# -- pages that are generated or must stay true to the tree --------------------------------------


def _plot_module():
    spec = importlib.util.spec_from_file_location(
        "plot_speedups", REPO_ROOT / "bench" / "plot_speedups.py"
    )
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    sys.modules.setdefault("plot_speedups", module)
    spec.loader.exec_module(module)
    return module


def test_the_chart_and_its_table_are_what_the_results_files_give():
    plot = _plot_module()
    for path, text in plot.outputs().items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path} is out of date: run python bench/plot_speedups.py"
        )


def test_the_speed_ups_in_the_readme_and_the_index_come_from_the_results():
    plot = _plot_module()
    known = {plot.ratio_text(b.geomean) for b in plot.speedups()}
    known |= {plot.ratio_text(b.minimum) for b in plot.speedups()}
    for page in (REPO_ROOT / "README.md", DOCS / "index.md"):
        claimed = set(re.findall(r"\b\d+(?:\.\d)?x\b", page.read_text(encoding="utf-8")))
        assert claimed <= known, f"{page.name}: {sorted(claimed - known)} not from bench/results"


def test_the_readme_is_for_users():
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 250
    assert not re.search(r"\b20\d\d-\d\d-\d\d\b", text), "a date"
    hashes = re.findall(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}\b", text)
    assert not hashes, f"commit hashes: {hashes}"
    for word in ("load average", "target", "not met", "callgrind"):
        assert word not in text.lower(), word
    for link in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (REPO_ROOT / link).is_file(), link


def test_the_module_map_names_every_package_and_public_module():
    """docs/architecture.md's map of src/turbobleu stays true to the tree."""
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    package = REPO_ROOT / "src" / "turbobleu"
    if not package.is_dir():
        pytest.skip("no src/ tree next to the tests (a wheel's test run)")
    for folder in sorted(p for p in package.rglob("*") if p.is_dir() and "__" not in p.name):
        assert f"{folder.name}/" in text, f"the module map misses {folder.relative_to(package)}/"
    for path in sorted(package.rglob("*")):
        if path.suffix not in (".py", ".pyx", ".pxd", ".h") or path.name == "__init__.py":
            continue
        if path.stem.endswith("_py") and path.with_name(path.stem[:-3] + ".pyx").exists():
            continue  # a twin: the map names the rule (<name>_py.py) once
        assert path.name in text or path.stem in text, f"the module map misses {path.name}"
    for named in re.findall(r"\b([\w]+\.(?:py|pyx|pxd|h))\b", text):
        if named in ("setup.py", "conftest.py", "benchlib.py", "plot_speedups.py", "__init__.py"):
            continue
        if (
            named.startswith(("test_", "bench_", "_py."))
            or (REPO_ROOT / "scripts" / named).exists()
        ):
            continue
        assert list(package.rglob(named)), f"the module map names {named}, which is not there"
