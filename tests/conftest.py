"""Shared test helpers: where the real data lives, how to read it, and the Hypothesis profiles.

Test modules import the helpers with ``from conftest import ...`` (pytest puts ``tests/`` on
``sys.path`` for its rootdir conftest, so this is the module pytest itself loaded).
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple

import pytest
from hypothesis import HealthCheck, settings

import turbobleu

TESTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = TESTS_DIR.parent
# Real WMT23 system outputs, shared next to the repository; optional.
SHARED_DATA = REPO_ROOT.parent / "shared" / "data" / "wmt23"
# A small excerpt of SHARED_DATA in the same layout, always present
# (made by tests/fixtures/make_fixtures.py).
FIXTURE_DATA = TESTS_DIR / "fixtures" / "wmt23-mini"

HAVE_SHARED_DATA = SHARED_DATA.is_dir()
requires_wmt23 = pytest.mark.skipif(
    not HAVE_SHARED_DATA, reason=f"shared WMT23 data not found at {SHARED_DATA}"
)

IMPLEMENTATION = turbobleu.implementation
# The full WMT23 matrix (every system of every pair, every line) is most of the suite's time,
# mostly in the reference libraries, and the pure-Python twins are ~100x slower than the compiled
# path: both builds run a documented subset (every pair and option against the libraries on real
# data) unless TURBOBLEU_TEST_FULL=1 asks for everything (.ci/run does, for the compiled build).
FULL_MATRIX = os.environ.get("TURBOBLEU_TEST_FULL", "").strip() not in ("", "0")
# Every system of every WMT23 pair also against the slowest oracles (NLTK, evaluate's scripts).
LONG_TESTS = os.environ.get("TURBOBLEU_LONG_TESTS", "").strip() not in ("", "0")


def _twin_lines() -> Optional[int]:
    """How many lines of each WMT23 file a run of the pure-Python twins reads: the README's
    run takes the first 400 (the twins are ~100x slower than the compiled modules and the same
    differentials run on every line with the compiled build); TURBOBLEU_TEST_TWIN_LINES=all
    (a local run before a release) or TURBOBLEU_TEST_FULL=1 reads every line. None: every line."""
    value = os.environ.get("TURBOBLEU_TEST_TWIN_LINES", "").strip()
    if value and value != "all" and not (value.isdigit() and int(value) > 0):
        raise ValueError(
            f"TURBOBLEU_TEST_TWIN_LINES must be a positive number of lines or 'all', got {value!r}"
        )
    if IMPLEMENTATION != "python" or FULL_MATRIX or value == "all":
        return None
    return int(value) if value else 400


TWIN_LINES = _twin_lines()

# -- Hypothesis ------------------------------------------------------------------------------
# "ci" (the default) is derandomized so that every run checks the same examples; "thorough" is for
# a long local hunt (HYPOTHESIS_PROFILE=thorough).
settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=100,
    print_blob=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
settings.register_profile(
    "thorough",
    derandomize=False,
    deadline=None,
    max_examples=3000,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# -- reading line files ----------------------------------------------------------------------
@lru_cache(maxsize=None)
def _read_lines_cached(path: str) -> Tuple[str, ...]:
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the file's final newline ends the last line; it does not start a new one
    return tuple(lines)


def read_lines(path: os.PathLike) -> List[str]:
    """The lines of a text file as ``open(path).read().split('\\n')`` gives them, minus the empty
    string after the final newline. Lines are not stripped (the API tests use them as they are)."""
    return list(_read_lines_cached(str(path)))


# -- corpora: <root>/<pair>/hyp.<system>.<lang> and ref.<name>.<lang> ------------------------
@dataclass(frozen=True)
class Corpus:
    """One language pair: its systems' outputs and its references (file names, loaded lazily)."""

    source: str  # "wmt23" or "fixture"
    directory: Path
    systems: Tuple[str, ...]
    references: Tuple[str, ...]
    lang: str

    @property
    def name(self) -> str:
        return f"{self.source}/{self.directory.name}"

    @property
    def cut(self) -> bool:
        """Whether this run reads only the first TWIN_LINES lines of the files."""
        return self.source == "wmt23" and TWIN_LINES is not None

    def _lines(self, file_name: str) -> List[str]:
        lines = read_lines(self.directory / file_name)
        return lines[:TWIN_LINES] if self.cut else lines

    def hypotheses(self, system: str) -> List[str]:
        return self._lines(f"hyp.{system}.{self.lang}")

    def reference_streams(self, names: Tuple[str, ...]) -> List[List[str]]:
        return [self._lines(f"ref.{name}.{self.lang}") for name in names]

    def __str__(self) -> str:
        return self.name


def _middle(file_name: str) -> str:
    return file_name.split(".", 1)[1].rsplit(".", 1)[0]


def discover_corpora(root: Path, source: str) -> List[Corpus]:
    """Every pair directory under ``root`` that has at least one system and a reference."""
    corpora = []
    if not root.is_dir():
        return corpora
    for directory in sorted(p for p in root.iterdir() if p.is_dir()):
        hyps = sorted(p.name for p in directory.glob("hyp.*"))
        refs = sorted(p.name for p in directory.glob("ref.*"))
        if not hyps or not refs:
            continue
        lang = hyps[0].rsplit(".", 1)[1]
        corpora.append(
            Corpus(
                source,
                directory,
                tuple(_middle(h) for h in hyps),
                tuple(_middle(r) for r in refs),
                lang,
            )
        )
    return corpora


def all_corpora() -> List[Corpus]:
    """The fixture pairs (always) followed by the WMT23 pairs (when the shared data is present)."""
    return discover_corpora(FIXTURE_DATA, "fixture") + discover_corpora(SHARED_DATA, "wmt23")


def chosen_systems(
    corpus: Corpus, every: bool = FULL_MATRIX, every_fixture_system: bool = True
) -> Tuple[str, ...]:
    """The systems of ``corpus`` a run checks against a slow oracle: all of them when ``every``
    (the full matrix, or a module's own long-test switch) or, with ``every_fixture_system``,
    when ``corpus`` is a small fixture pair; else the pair's first system."""
    if every or (every_fixture_system and corpus.source == "fixture"):
        return corpus.systems
    return corpus.systems[:1]


def system_cases(every: bool = FULL_MATRIX) -> List[Any]:
    """Test parameters ``(corpus, system)``, id ``<corpus>/<system>``: ``chosen_systems`` of
    every corpus (the fixture pairs, then the WMT23 pairs)."""
    return [
        pytest.param(corpus, system, id=f"{corpus.name}/{system}")
        for corpus in all_corpora()
        for system in chosen_systems(corpus, every)
    ]


def data_files(root: Path) -> List[Path]:
    """Every text file of every pair under ``root`` (sources, hypotheses and references)."""
    if not root.is_dir():
        return []
    return sorted(p for p in root.glob("*/*") if p.is_file())


def unique_data_files(root: Path) -> List:
    """Test parameters: every source, reference and system file under ``root``, once per distinct
    content (several pairs share the English source); other files are not the data set's."""
    seen, params = set(), []
    for path in data_files(root):
        if not path.name.startswith(("source.", "ref.", "hyp.")):
            continue
        content = path.read_bytes()
        if content not in seen:
            seen.add(content)
            params.append(pytest.param(path, id=f"{root.name}/{path.parent.name}/{path.name}"))
    return params


def first_token_difference(got: List[List[str]], want: List[List[str]], lines: List[str]) -> str:
    """Where two tokenizations of ``lines`` first differ (an assertion message)."""
    for i, (g, w) in enumerate(zip(got, want)):
        if g != w:
            return f"line {i} {lines[i]!r}:\n  turbobleu {g!r}\n  sacrebleu {w!r}"
    return f"{len(got)} lines tokenized, {len(want)} expected"


# -- implementations -------------------------------------------------------------------------
def compiled_module(stage: str) -> Optional[object]:
    """The compiled module ``turbobleu._engine.<stage>`` (``"count._pack"``), or None when the
    extension was not built."""
    try:
        return importlib.import_module(f"turbobleu._engine.{stage}")
    except ImportError:
        return None


def compiled_twin_of(twin: ModuleType) -> Optional[ModuleType]:
    """The compiled module built beside the pure-Python twin ``twin`` (``count._kernel`` for
    ``count._kernel_py``), or None when the extension was not built."""
    name = twin.__name__
    if not name.endswith("_py"):
        raise ValueError(f"twin: {name} is not a pure-Python twin (its name ends in _py)")
    return compiled_module(name[: -len("_py")].replace("turbobleu._engine.", "", 1))


def requires_compiled(module: Optional[object]) -> pytest.MarkDecorator:
    """Skip when ``module`` (a compiled module or one of its functions) is None: not built."""
    return pytest.mark.skipif(module is None, reason="compiled extension not built")


def _identity(module: ModuleType) -> Any:
    return module


def twin_and_compiled(twin: ModuleType, pick: Callable[[ModuleType], Any] = _identity) -> List[Any]:
    """Test parameters that run a test on both implementations of one module: ``pick(twin)``
    with id "twin" and ``pick(compiled)`` with id "compiled", the latter skipped (None) when the
    extension was not built. ``pick`` chooses what the test gets: the module by default, or
    some of its functions (``lambda m: m.corpus_totals``)."""
    compiled = compiled_twin_of(twin)
    return [
        pytest.param(pick(twin), id="twin"),
        pytest.param(
            None if compiled is None else pick(compiled),
            id="compiled",
            marks=requires_compiled(compiled),
        ),
    ]


def built_implementations(
    twin: ModuleType, pick: Callable[[ModuleType], Any] = _identity
) -> List[Any]:
    """``pick(twin)`` and, when the extension was built, ``pick(compiled)``: for a test that
    checks both in one go."""
    compiled = compiled_twin_of(twin)
    return [pick(twin)] + ([] if compiled is None else [pick(compiled)])


def compiled_kernel() -> Optional[object]:
    """``turbobleu._engine.count._kernel``, or None when the extension was not built."""
    return compiled_module("count._kernel")


# Checks of the repository and its packaging, not of an implementation: the README's command
# runs them in its compiled run and skips them in its run of the twins (a forced
# TURBOBLEU_IMPL=python beside a compiled build); an install without the compiled modules runs
# them.
checks_the_repository = pytest.mark.skipif(
    IMPLEMENTATION == "python" and compiled_kernel() is not None,
    reason="checks the repository, not an implementation: the compiled run checks it",
)


def compiled_tokenize() -> Optional[object]:
    """``turbobleu._tokenize``, or None when the extension was not built."""
    try:
        from turbobleu._engine.text import _tokenize
    except ImportError:
        return None
    return _tokenize


def unpatched_around_each_test(
    target: str, before: bool = False, still_patched: Optional[Callable[[], bool]] = None
) -> Any:
    """An autouse fixture for a module whose tests patch ``target``: ``unpatch(target)`` after
    each test (and before it too with ``before``), then, when given, ``assert not
    still_patched()``. Assign it to a module-level name for pytest to find it."""

    @pytest.fixture(autouse=True)
    def unpatched() -> Iterator[None]:
        from turbobleu import patching

        if before:
            patching.unpatch(target)
        yield
        patching.unpatch(target)
        if still_patched is not None:
            assert not still_patched()

    return unpatched


def pytest_report_header(config: pytest.Config) -> List[str]:
    return [
        f"turbobleu implementation: {IMPLEMENTATION} "
        f"(full WMT23 matrix: {FULL_MATRIX}; WMT23 lines: {TWIN_LINES or 'all'}; shared data: "
        f"{SHARED_DATA if HAVE_SHARED_DATA else 'absent'})"
    ]


# -- comparing scores ------------------------------------------------------------------------
# sacrebleu's smoothing methods, each with its default and with explicit values.
SMOOTHINGS: Tuple[Tuple[str, Optional[float]], ...] = (
    ("none", None),
    ("floor", None),
    ("floor", 0.5),
    ("add-k", None),
    ("add-k", 2),
    ("exp", None),
)


def same_typed(a: Any, b: Any) -> bool:
    """Equal values of equal types, recursively through dicts, lists and tuples (floats with
    ==): what a drop-in must return, down to int against float."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_typed(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_typed(x, y) for x, y in zip(a, b))
    return bool(a == b)


def evaluate_streams(references: List[Any]) -> List[List[Any]]:
    """References given per prediction (a list each, or one string each) regrouped into
    sacrebleu's streams, as Hugging Face evaluate's sacrebleu-based scripts do, with their error
    when predictions have different numbers of references."""
    if isinstance(references[0], str):
        references = [[ref] for ref in references]
    per_prediction = len(references[0])
    if any(len(refs) != per_prediction for refs in references):
        raise ValueError("Sacrebleu requires the same number of references for each prediction")
    return [[refs[i] for refs in references] for i in range(per_prediction)]


SCORE_FIELDS = ("score", "counts", "totals", "precisions", "bp", "sys_len", "ref_len")
TER_FIELDS = ("score", "num_edits", "ref_length")
CHRF_FIELDS = ("score",)  # its text names the rest (chrF2++)


def fields_of(score: object) -> Tuple[str, ...]:
    """The compared fields of a BLEU, TER or chrF score (sacrebleu's or turbobleu's)."""
    if hasattr(score, "counts"):
        return SCORE_FIELDS
    return TER_FIELDS if hasattr(score, "num_edits") else CHRF_FIELDS


def score_key(score: object) -> tuple:
    """Every compared field of a score, for a fast exact equality check (floats compare with ==)."""
    return tuple(
        list(v) if isinstance(v, list) else v
        for v in (getattr(score, name) for name in SCORE_FIELDS)
    )


def score_differences(
    got: object, want: object, fields: Optional[Sequence[str]] = None
) -> List[str]:
    """The ``fields`` (and the rendering) where a turbobleu score differs from a sacrebleu score.

    ``fields`` defaults to those of ``want``'s metric (``fields_of``: BLEU, chrF or TER).
    Every comparison is exact: floats with ``==``, lists element by element. The renderings
    (``str``) are compared when every field is the same.
    """
    if fields is None:
        fields = fields_of(want)
    diffs = []
    for name in fields:
        g, w = getattr(got, name), getattr(want, name)
        if isinstance(w, list):
            same = isinstance(g, list) and len(g) == len(w) and all(a == b for a, b in zip(g, w))
        else:
            same = g == w
        if not same:
            diffs.append(f"{name}: turbobleu {g!r} != sacrebleu {w!r}")
    if not diffs and str(got) != str(want):
        diffs.append(f"str: turbobleu {str(got)!r} != sacrebleu {str(want)!r}")
    return diffs


def assert_same_score(
    got: object, want: object, context: str = "", fields: Optional[Sequence[str]] = None
) -> None:
    """Fail, naming each difference, unless ``got`` and ``want`` agree exactly on ``fields``
    (by default those of ``want``'s metric) and in their text (see ``score_differences``)."""
    diffs = score_differences(got, want, fields)
    assert not diffs, (f"{context}: " if context else "") + "; ".join(diffs)
