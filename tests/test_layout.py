"""The engine's shape: no import cycles, no compiled module importing a twin, and every compiled
module's public functions present in its pure-Python twin with the same parameters."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

import pytest

import turbobleu
from turbobleu._engine import choice as _choice
from turbobleu._engine.compiled_modules import COMPILED, twin_of

PACKAGE = Path(turbobleu.__file__).parent

# (compiled module, its twin), from the one list setup.py builds.
PAIRS = [(name, twin_of(name)) for name in COMPILED]
# Compiled-only diagnostics, which report on C memory the twin does not have.
COMPILED_ONLY = {
    "turbobleu._engine.count._kernel": {"table_slots_of"},
    "turbobleu._engine.count._pack": set(),
    "turbobleu._engine.count._ref_tables": set(),
    "turbobleu._engine.count._self_table": set(),
    "turbobleu._engine.text._tokenize": {"intl_char_of"},
    "turbobleu._engine.bleu._text_rows": {"sentence_table_bytes"},
    "turbobleu._engine.intern._intern": {"Interner", "sentence_table_bytes", "set_str_hash_mask"},
    "turbobleu._engine.count._pairwise": set(),
    "turbobleu._engine.chrf._chrf": set(),
    "turbobleu._engine.recipes._sacrebleu_scores": set(),
    "turbobleu._engine.recipes._nltk_scores": set(),
    "turbobleu._engine.recipes._pycocoevalcap_scores": set(),
    "turbobleu._engine.resample._resample": set(),
    "turbobleu._engine.resample._draws": set(),
    "turbobleu._engine.ter._ter": set(),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _sources() -> Iterator[Tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")) + sorted(PACKAGE.rglob("*.pyx")):
        yield _module_name(path), path


def _imports(name: str, path: Path, known: Set[str]) -> Set[str]:
    """The package modules that ``path`` imports (at the top or inside functions)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: Set[str] = set()
    if path.suffix == ".pyx":  # not Python syntax: read the import lines
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.match(
                r"\s*(?:from\s+([\w.]+)\s+c?import\s+\(?([\w ,]*)|import\s+([\w.]+))", line
            )
            if m:
                pairs = [
                    (m.group(1) or m.group(3), n.strip().split(" ")[0])
                    for n in (m.group(2) or "").split(",")
                ]
                for module, leaf in pairs:
                    found.add(f"{module}.{leaf}" if f"{module}.{leaf}" in known else module)
        return found & known
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = (
                package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            )
            module = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                leaf = f"{module}.{alias.name}"
                found.add(leaf if leaf in known else module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return (found & known) - {name}


def _graph() -> Dict[str, Set[str]]:
    paths = dict(_sources())
    return {name: _imports(name, path, set(paths)) for name, path in paths.items()}


def _cycles(graph: Dict[str, Set[str]]) -> List[List[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    found: List[List[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_no_import_cycle_among_the_package_modules() -> None:
    graph = _graph()
    assert "turbobleu.bleu" in graph and "turbobleu._engine.choice" in graph
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# Private top-level helpers the engine may use (no public API in them).
# leaf helpers that import nothing of turbobleu (the engine's tokenizer registry words its
# missing-extra error with _extras' install hint)
ENGINE_MAY_IMPORT = {"turbobleu", "turbobleu._typing", "turbobleu._log", "turbobleu._extras"}


def test_the_engine_imports_no_public_module() -> None:
    """Arrows go from the public modules down into ``_engine``, never up (the public
    ``result``, ``stats`` and ``tokenizers`` re-export what the engine defines)."""
    graph = _graph()
    engine = [name for name in graph if name.startswith("turbobleu._engine")]
    assert "turbobleu._engine.text.registry" in engine
    upward = {
        name: sorted(
            m
            for m in graph[name]
            if not m.startswith("turbobleu._engine") and m not in ENGINE_MAY_IMPORT
        )
        for name in engine
    }
    assert {name: up for name, up in upward.items() if up} == {}


def test_each_compiled_module_is_chosen_once_in_its_own_package() -> None:
    """No hub: each package's ``chosen.py`` names its own pairs, and together they name every
    module of ``compiled_modules.COMPILED`` once."""
    named: List[str] = []
    for path in sorted(PACKAGE.glob("_engine/*/chosen.py")):
        stages = re.findall(r'(?:loaded|on_first_use)\(\s*"([\w.]+)"', path.read_text("utf-8"))
        assert stages, f"{path} names no module"
        for stage in stages:
            assert stage.split(".")[0] == path.parent.name, f"{path} names {stage}"
        named += ["turbobleu._engine." + stage for stage in stages]
    assert sorted(named) == sorted(COMPILED)


def test_a_misspelt_stage_fails_when_it_is_named() -> None:
    with pytest.raises(ValueError, match="not in compiled_modules.COMPILED"):
        _choice.on_first_use("count._kernal", "a typo")


def test_no_compiled_module_imports_a_twin() -> None:
    graph = _graph()
    pyx = [name for name, path in _sources() if path.suffix == ".pyx"]
    if not pyx:
        pytest.skip("the .pyx sources are not installed with this build (a wheel)")
    assert len(pyx) == len(PAIRS)
    offenders = {name: sorted(m for m in graph[name] if m.endswith("_py")) for name in pyx}
    assert offenders == {name: [] for name in pyx}


def _parameters(fn: object) -> List[Tuple[str, object, object]]:
    return [(p.name, p.kind, p.default) for p in inspect.signature(fn).parameters.values()]


def _public(module: object) -> Dict[str, object]:
    return {
        name: value
        for name, value in vars(module).items()
        if not name.startswith("_")
        and (
            inspect.isfunction(value)
            or inspect.isclass(value)
            or inspect.isbuiltin(value)
            or callable(value)
        )
        and getattr(value, "__module__", None) == module.__name__
    }


@pytest.mark.parametrize("compiled_name,twin_name", PAIRS)
def test_each_twin_has_the_compiled_modules_functions_and_signatures(
    compiled_name: str, twin_name: str
) -> None:
    if _choice.implementation != "cython":
        pytest.skip("the compiled modules are not in use (TURBOBLEU_IMPL=python or not built)")
    compiled = importlib.import_module(compiled_name)
    twin = importlib.import_module(twin_name)
    shared = set(twin.__all__)
    assert set(_public(compiled)) - COMPILED_ONLY[compiled_name] == shared
    assert shared <= set(_public(twin))
    for name in sorted(shared):
        c_fn, p_fn = getattr(compiled, name), getattr(twin, name)
        if inspect.isclass(c_fn):
            continue  # classes: their methods are compared by the tests that use them
        assert _parameters(c_fn) == _parameters(p_fn), name
