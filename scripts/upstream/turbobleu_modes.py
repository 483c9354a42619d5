"""A pytest plugin that runs sacrebleu's or NLTK's own test suite against turbobleu.

Loaded with ``-p turbobleu_modes --turbobleu-mode MODE`` (``scripts/upstream/suites.py`` does
this; it lives outside ``tests/`` so the README's ``pytest`` never loads it). MODE is one of:

- ``sacrebleu-dropin``: ``sacrebleu`` and every ``sacrebleu.X`` import resolve to
  ``turbobleu.sacrebleu`` and ``turbobleu.sacrebleu.X`` (a finder placed first on
  ``sys.meta_path``), so the real sacrebleu is never imported; checked again when the session
  ends;
- ``sacrebleu-patch``: the real sacrebleu with ``turbobleu.patch("sacrebleu")``;
- ``nltk-dropin``: ``nltk.translate.bleu_score`` is ``turbobleu.nltk`` (``nltk.data`` and the
  rest of NLTK stay NLTK's);
- ``nltk-patch``: the real NLTK with ``turbobleu.patch("nltk")``.

Tests that need a download are deselected by node id, each with its reason (``DESELECTED``).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.metadata
import importlib.util
import sys
from types import ModuleType
from typing import Dict, List, Optional, Sequence, Tuple

import pytest

MODES = ("sacrebleu-dropin", "sacrebleu-patch", "nltk-dropin", "nltk-patch")

# Node ids (relative to the unpacked suite's root; a parametrized test by its function's id) ->
# why the test does not run here. Every one needs the network, which CI may not have.
DESELECTED: Dict[str, Dict[str, str]] = {
    "sacrebleu": {
        "test/test_api.py::test_api_get_source": (
            "reads lines of wmt19, mtnt1.1/train and wmt19/google/ar, which sacrebleu downloads"
        ),
        "test/test_api.py::test_api_get_reference": (
            "reads lines of wmt19, mtnt1.1/train and wmt19/google/ar, which sacrebleu downloads"
        ),
        "test/test_dataset.py::test_maybe_download": "downloads 10 random test sets",
        "test/test_dataset.py::test_process_to_text": "downloads 10 random test sets",
        "test/test_dataset.py::test_get_files_and_fieldnames": (
            "get_files() downloads every test set to convert it to text"
        ),
        "test/test_dataset.py::test_source_and_references": "reads every test set (downloads)",
        "test/test_dataset.py::test_wmt22_references": (
            "fieldnames() of wmt22 parses its XML files (downloads)"
        ),
    },
    "nltk": {
        "nltk/test/unit/translate/test_bleu.py::TestBLEUvsMteval13a": (
            "reads models/wmt15_eval from nltk_data, which needs nltk.download()"
        ),
    },
}

# The names test_bleu.py imports from nltk.translate.bleu_score: under both NLTK modes each must
# be turbobleu.nltk's object once the test module is imported.
NLTK_NAMES = (
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "modified_precision",
    "sentence_bleu",
)


class _ExistingModule(importlib.abc.Loader):
    """Loads an already imported module under another name (nothing is executed again)."""

    def __init__(self, module: ModuleType) -> None:
        self.module = module

    def create_module(self, spec: object) -> ModuleType:
        return self.module

    def exec_module(self, module: ModuleType) -> None:
        pass


class AliasFinder(importlib.abc.MetaPathFinder):
    """Resolves ``alias`` and ``alias.X`` to the modules ``target`` and ``target.X``."""

    def __init__(self, alias: str, target: str) -> None:
        self.alias, self.target = alias, target

    def find_spec(
        self, fullname: str, path: Optional[Sequence[str]], target: Optional[ModuleType] = None
    ) -> Optional[importlib.machinery.ModuleSpec]:
        if fullname != self.alias and not fullname.startswith(self.alias + "."):
            return None
        ours = self.target + fullname[len(self.alias) :]
        try:
            module = importlib.import_module(ours)
        except ModuleNotFoundError as exc:
            if exc.name is not None and not ours.startswith(exc.name):
                raise  # something ``ours`` imports is missing, not ``ours`` itself
            raise ModuleNotFoundError(
                f"drop-in: {fullname!r} maps to {ours!r}, which does not exist", name=fullname
            ) from exc
        return importlib.util.spec_from_loader(fullname, _ExistingModule(module))


def foreign_modules(alias: str, target: str) -> List[str]:
    """The names ``alias`` / ``alias.X`` in ``sys.modules`` that are not ``target``'s modules."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if (name == alias or name.startswith(alias + "."))
        and not (
            getattr(module, "__name__", "") == target
            or getattr(module, "__name__", "").startswith(target + ".")
        )
    )


def install_sacrebleu_dropin() -> AliasFinder:
    """Route every ``sacrebleu`` import to ``turbobleu.sacrebleu``; the real sacrebleu must not
    have been imported before (its modules would be used instead)."""
    already = foreign_modules("sacrebleu", "turbobleu.sacrebleu")
    if already:
        raise pytest.UsageError(f"sacrebleu-dropin: the real sacrebleu is imported: {already}")
    finder = AliasFinder("sacrebleu", "turbobleu.sacrebleu")
    sys.meta_path.insert(0, finder)
    importlib.import_module("sacrebleu")
    return finder


def install_nltk_dropin() -> ModuleType:
    """Make ``nltk.translate.bleu_score`` turbobleu.nltk (in sys.modules and as the attribute
    of ``nltk.translate``); NLTK itself is imported (``nltk.data`` stays its own)."""
    import nltk.translate  # imports NLTK's bleu_score too: it is replaced below

    import turbobleu.nltk as fast

    sys.modules["nltk.translate.bleu_score"] = fast
    nltk.translate.bleu_score = fast  # type: ignore[attr-defined]
    return fast


def _mode(config: pytest.Config) -> Optional[str]:
    return config.getoption("turbobleu_mode")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--turbobleu-mode",
        choices=MODES,
        default=None,
        help="which turbobleu stand-in the upstream suite runs against",
    )


def pytest_configure(config: pytest.Config) -> None:
    mode = _mode(config)
    if mode is None:
        raise pytest.UsageError(f"turbobleu_modes: --turbobleu-mode is required, one of {MODES}")
    import turbobleu
    from turbobleu.patching import is_patched

    if mode == "sacrebleu-dropin":
        install_sacrebleu_dropin()
    elif mode == "nltk-dropin":
        install_nltk_dropin()
    else:
        library = mode.split("-")[0]
        turbobleu.patch(library)
        if not is_patched(library):
            raise pytest.UsageError(f"{mode}: turbobleu.patch({library!r}) did not take effect")


def pytest_report_header(config: pytest.Config) -> List[str]:
    import turbobleu

    mode = _mode(config)
    assert mode is not None
    library = mode.split("-")[0]
    try:  # the installed distribution's version (its modules are not imported for it)
        installed = importlib.metadata.version(library)
    except importlib.metadata.PackageNotFoundError:
        installed = "not installed"
    return [
        f"turbobleu mode: {mode} (turbobleu {turbobleu.__version__}, implementation "
        f"{turbobleu.implementation}; {library} installed: {installed})"
    ]


def _deselection(mode: str) -> Dict[str, str]:
    return DESELECTED[mode.split("-")[0]]


def _matches(nodeid: str, key: str) -> bool:
    return nodeid == key or nodeid.startswith((key + "[", key + "::"))


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: List[pytest.Item]
) -> None:
    mode = _mode(config)
    assert mode is not None
    rules = _deselection(mode)
    keep: List[pytest.Item] = []
    dropped: List[pytest.Item] = []
    used = set()
    for item in items:
        key = next((k for k in rules if _matches(item.nodeid, k)), None)
        if key is None:
            keep.append(item)
        else:
            dropped.append(item)
            used.add(key)
    # A rule that matched nothing is stale (a renamed test or file) unless its file failed to
    # import (a drop-in that lacks a module the file needs).
    collected_files = {item.nodeid.split("::")[0] for item in items}
    stale = []
    for key in rules:
        file = key.split("::")[0]
        if key not in used and (file in collected_files or not (config.rootpath / file).is_file()):
            stale.append(key)
    if stale:
        raise pytest.UsageError(f"{mode}: deselection rules that match no test: {stale}")
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    for key in sorted(used):
        if reporter is not None:
            reporter.write_line(f"deselected {key}: {rules[key]}")
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = keep
    if mode.startswith("nltk"):
        _check_nltk_names(mode, keep)


def _check_nltk_names(mode: str, items: Sequence[pytest.Item]) -> None:
    """Under both NLTK modes the test module's functions must be turbobleu.nltk's."""
    import turbobleu.nltk as fast

    modules = {id(m): m for m in (getattr(i, "module", None) for i in items) if m is not None}
    wrong: List[Tuple[str, str]] = [
        (module.__name__, name)
        for module in modules.values()
        for name in NLTK_NAMES
        if hasattr(module, name) and getattr(module, name) is not getattr(fast, name)
    ]
    if not modules or wrong:
        raise pytest.UsageError(f"{mode}: not turbobleu.nltk's functions: {wrong or 'no module'}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    mode = _mode(session.config)
    problem = None
    if mode == "sacrebleu-dropin":
        foreign = foreign_modules("sacrebleu", "turbobleu.sacrebleu")
        if foreign:
            problem = f"the real sacrebleu was imported during the run: {foreign}"
    elif mode in ("sacrebleu-patch", "nltk-patch"):
        from turbobleu.patching import is_patched

        if not is_patched(mode.split("-")[0]):
            problem = f"turbobleu.patch({mode.split('-')[0]!r}) was undone during the run"
    elif mode == "nltk-dropin" and sys.modules.get("nltk.translate.bleu_score") is not (
        sys.modules.get("turbobleu.nltk")
    ):
        problem = "nltk.translate.bleu_score is no longer turbobleu.nltk"
    if problem is not None:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(f"{mode}: {problem}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
