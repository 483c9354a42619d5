"""The API reference (docs/api.md through mkdocstrings) shows each signature's type hints:
mkdocs.yml asks for them, and a site built by scripts/build_docs.sh, where there is one, has them
on every signature (scripts/check_api_signatures.py, which the build runs too)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
MKDOCS = ROOT / "mkdocs.yml"
CHECKER = ROOT / "scripts" / "check_api_signatures.py"
PAGE = ROOT / "build" / "site" / "api" / "index.html"

pytestmark = pytest.mark.skipif(
    not (MKDOCS.is_file() and CHECKER.is_file()),
    reason="not run from a source checkout (no mkdocs.yml)",
)


def _checker() -> Any:
    spec = importlib.util.spec_from_file_location("check_api_signatures", CHECKER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_mkdocs_asks_for_the_type_hints() -> None:
    yaml = pytest.importorskip("yaml", reason="PyYAML is not installed")
    config = yaml.safe_load(MKDOCS.read_text(encoding="utf-8"))
    plugins = {
        k: v for p in config["plugins"] for k, v in (p.items() if isinstance(p, dict) else [])
    }
    options = plugins["mkdocstrings"]["handlers"]["python"]["options"]
    assert options["show_signature_annotations"] is True
    assert options["separate_signature"] is True  # (the blocks that the check reads)


def test_the_checker_tells_bare_signatures_from_annotated_ones() -> None:
    checker = _checker()
    assert checker.missing_hints("f(a, b=1)") == ["a", "b", "return type"]
    assert checker.missing_hints("turbobleu.x.f(self, a: int, *rest: str, **kw: Any) -> int") == []
    assert checker.missing_hints("BLEU(max_ngram_order: int = 4)") == []  # a class: no return
    assert checker.missing_hints("BLEU(max_ngram_order=4)") == ["max_ngram_order"]
    assert checker.missing_hints("orders: int") == []  # an attribute
    block = (
        '<div class="doc-signature highlight"><pre><span>f</span>(a: <b>int</b>) -&gt; int</pre>'
    )
    assert checker.signatures(block) == ["f(a: int) -> int"]


def test_a_built_site_shows_every_type_hint() -> None:
    if not PAGE.is_file():
        pytest.skip("no built site (scripts/build_docs.sh builds it into build/site)")
    if PAGE.stat().st_mtime < MKDOCS.stat().st_mtime:
        pytest.skip("the built site is older than mkdocs.yml: rebuild it (scripts/build_docs.sh)")
    count, problems = _checker().check(PAGE.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems[:20])
    assert count >= 50
