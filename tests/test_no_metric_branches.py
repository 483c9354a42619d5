"""No reader branches on which metric it holds: the modules that take any metric (the command
line, significance, aggregate and its engines, the rewards, the sacrebleu drop-in's patches)
read the metric interface and the registry, never a metric's identity.

The rule, by AST over each reader module: it must not import a metric's own modules
(``turbobleu.bleu``, ``.chrf``, ``.ter``, ``.gleu``, ``._bleu_scorer``, ``_engine.bleu`` /
``.chrf`` / ``.ter``), name a metric class, score or signature class, compare anything with a
metric's name (``"bleu"``, ``"chrF"``, ``"TER"``, ...), or ask for a metric-only attribute with
``hasattr``/``getattr``. The modules that are one metric's own (``cli/bleu.py`` and the BLEU
streaming path ``cli/stream.py`` it alone calls, ``_patch_bleu.py``, ...), the registry whose
entries name their metrics, and ``turbobleu.evaluate`` (one drop-in per evaluate script, each a
given metric) are not readers.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import List

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "turbobleu"

READERS = [
    "aggregate.py",
    "distributed.py",
    "ray.py",
    "spark.py",
    "significance.py",
    "_metric.py",
    "cli/__init__.py",
    "cli/command.py",
    "cli/io.py",
    "cli/metrics.py",
    "cli/notes.py",
    "cli/options.py",
    "cli/progress.py",
    "cli/tables.py",
    "rewards/__init__.py",
    "rewards/metric_reward.py",
    "rewards/trl.py",
    "rewards/verl.py",
    "rewards/openrlhf.py",
    "sacrebleu/__init__.py",
    "sacrebleu/_patch.py",
    "sacrebleu/_patch_common.py",
    "sacrebleu/_patch_significance.py",
    "sacrebleu/significance.py",
]
# Names kept importable from a reader for code written before the seam; nothing there uses them.
KEPT_NAMES = {
    "aggregate.py": ["imports turbobleu._bleu_scorer"],  # CorpusBLEUScore, stat_columns, ...
}
METRIC_MODULES = {"bleu", "chrf", "ter", "gleu", "_bleu_scorer"}
METRIC_CLASSES = {
    f"{metric}{kind}"
    for metric in ("BLEU", "CHRF", "TER", "GLEU")
    for kind in ("", "Score", "Signature", "Recipe", "Scorer")
}
METRIC_WORDS = {"bleu", "chrf", "chrf++", "chrf2", "chrf2++", "ter", "gleu"}
METRIC_ONLY_ATTRIBUTES = {
    "char_order",
    "word_order",
    "max_ngram_order",
    "smooth_method",
    "effective_order",
    "asian_support",
    "no_punct",
    "normalized",
}


def _imported_metric_module(node: ast.AST) -> str:
    """The metric module ``node`` imports (``turbobleu.<...>.bleu``), or ''."""
    if isinstance(node, ast.ImportFrom):
        names = [node.module or ""]
        if node.level:  # `from . import chrf`: the imported names are modules too
            names += [alias.name for alias in node.names]
    elif isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        return ""
    for name in names:
        parts = name.split(".")
        inside = parts[1:] if parts[0] == "turbobleu" else parts
        if METRIC_MODULES.intersection(inside):
            return name
    return ""


def metric_branches(source: str) -> List[str]:
    """Each place in ``source`` that names a metric: 'line: what'."""
    found = []
    for node in ast.walk(ast.parse(source)):
        what = ""
        module = _imported_metric_module(node)
        if module:
            what = f"imports {module}"
        elif isinstance(node, ast.Name) and node.id in METRIC_CLASSES:
            what = f"names {node.id}"
        elif isinstance(node, ast.Attribute) and node.attr in METRIC_CLASSES:
            what = f"names .{node.attr}"
        elif isinstance(node, ast.Compare):
            words = [
                c.value
                for c in ast.walk(node)
                if isinstance(c, ast.Constant)
                and isinstance(c.value, str)
                and c.value.lower() in METRIC_WORDS
            ]
            what = f"compares with {words[0]!r}" if words else ""
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("hasattr", "getattr")
            and len(node.args) > 1
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in METRIC_ONLY_ATTRIBUTES
        ):
            what = f"{node.func.id}(..., {node.args[1].value!r})"
        if what:
            found.append(f"{getattr(node, 'lineno', '?')}: {what}")
    return found


@pytest.mark.parametrize("reader", READERS)
def test_reader_names_no_metric(reader: str) -> None:
    found = metric_branches((SRC / reader).read_text(encoding="utf-8"))
    assert [place.split(": ", 1)[1] for place in found] == KEPT_NAMES.get(reader, []), found


@pytest.mark.parametrize(
    "source",
    [
        "from turbobleu.chrf import CHRF",
        "from turbobleu._engine.ter import shifts",
        "from . import bleu",
        "import turbobleu.ter",
        "ok = isinstance(metric, BLEU)",
        "ok = type(score) is turbobleu.TERScore",
        "if metric.name == 'chrF': pass",
        "if name in ('bleu', 'ter'): pass",
        "x = hasattr(metric, 'char_order')",
        "x = getattr(metric, 'max_ngram_order', 4)",
    ],
)
def test_the_rule_finds_each_kind(source: str) -> None:
    """The rule can fail: each kind of branch it looks for is found."""
    assert len(metric_branches(source)) >= 1


def test_the_rule_passes_the_interface() -> None:
    source = "entry = get_metric(name)\nscore = entry.metric_class(**options).corpus_score(h, r)\n"
    assert metric_branches(source) == []


def test_every_reader_exists() -> None:
    assert [r for r in READERS if not (SRC / r).is_file()] == []
