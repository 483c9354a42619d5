"""The compiled modules' stubs that re-export their pure-Python twins' functions re-export exactly
the twin's ``__all__`` (and its constants), and the compiled module has each of them.

mypy.stubtest (tests/typing) passes over re-exported names; tests/test_layout.py checks that each
compiled function has its twin's parameters. Together with this file, a re-exporting stub is as
checked as one that spells its signatures out."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from typing import Dict, Set

import pytest

import turbobleu
from turbobleu._engine import choice as _choice

ENGINE = Path(turbobleu.__file__).parent / "_engine"
# The stubs that re-export their twin: stub module -> the twin's constants they re-export too.
REEXPORTING = {
    "turbobleu._engine.count._kernel": set(),
    "turbobleu._engine.count._ref_tables": set(),
    "turbobleu._engine.count._self_table": set(),
    "turbobleu._engine.bleu._text_rows": set(),
    "turbobleu._engine.chrf._chrf": set(),
    "turbobleu._engine.recipes._nltk_scores": {"NLTK_METHODS"},
    "turbobleu._engine.recipes._pycocoevalcap_scores": set(),
    "turbobleu._engine.resample._resample": set(),
    "turbobleu._engine.resample._draws": set(),
    "turbobleu._engine.ter._ter": set(),
}


def reexports(stub_text: str, twin: str) -> Set[str]:
    """The names a stub re-exports from ``twin`` (``from twin import name as name``); ValueError
    for an import from the twin that would not re-export (no ``as``, or another name)."""
    found: Set[str] = set()
    for node in ast.walk(ast.parse(stub_text)):
        if isinstance(node, ast.ImportFrom) and node.module == twin:
            for alias in node.names:
                if alias.asname != alias.name:
                    raise ValueError(f"{alias.name} is imported from {twin} but not re-exported")
                found.add(alias.name)
    return found


def _stub_text(module: str) -> str:
    path = ENGINE.parent.parent / (module.replace(".", "/") + ".pyi")
    return path.read_text(encoding="utf-8")


def test_reexports_reads_the_names_and_refuses_a_plain_import() -> None:
    twin = "pkg._x_py"
    assert reexports(f"from {twin} import a as a\nfrom {twin} import b as b\n", twin) == {"a", "b"}
    with pytest.raises(ValueError):
        reexports(f"from {twin} import a\n", twin)


@pytest.mark.parametrize("module", sorted(REEXPORTING))
def test_a_stub_reexports_its_twins_functions(module: str) -> None:
    twin = importlib.import_module(module + "_py")
    names = reexports(_stub_text(module), twin.__name__)
    assert names == set(twin.__all__) | REEXPORTING[module]


@pytest.mark.parametrize("module", sorted(REEXPORTING))
def test_the_compiled_module_has_what_its_stub_reexports(module: str) -> None:
    if _choice.implementation != "cython":
        pytest.skip("the compiled modules are not in use (TURBOBLEU_IMPL=python or not built)")
    compiled = importlib.import_module(module)
    twin = importlib.import_module(module + "_py")
    names = reexports(_stub_text(module), twin.__name__)
    values: Dict[str, object] = {n: getattr(compiled, n, None) for n in names}
    assert None not in values.values(), values
    for name in REEXPORTING[module]:
        assert values[name] == getattr(twin, name), name
