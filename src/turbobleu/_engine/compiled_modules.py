"""The compiled modules, listed once: ``setup.py`` builds these, the layout and packaging tests
and the wheel check expect them. Each ``<package>.<name>`` is built from ``<name>.pyx`` beside
its pure-Python twin ``<name>_py.py`` (same public names and signatures) and its stub
``<name>.pyi``. This file imports nothing: ``setup.py`` runs it before turbobleu is installed.
"""

COMPILED = (
    "turbobleu._engine.count._kernel",
    "turbobleu._engine.count._pack",
    "turbobleu._engine.count._ref_tables",
    "turbobleu._engine.count._self_table",
    "turbobleu._engine.count._pairwise",
    "turbobleu._engine.chrf._chrf",
    "turbobleu._engine.text._tokenize",
    "turbobleu._engine.bleu._text_rows",
    "turbobleu._engine.intern._intern",
    "turbobleu._engine.recipes._sacrebleu_scores",
    "turbobleu._engine.recipes._nltk_scores",
    "turbobleu._engine.recipes._pycocoevalcap_scores",
    "turbobleu._engine.resample._resample",
    "turbobleu._engine.resample._draws",
    "turbobleu._engine.ter._ter",
)


def twin_of(module: str) -> str:
    """The pure-Python twin's module name."""
    return module + "_py"


def source_of(module: str) -> str:
    """The ``.pyx`` path, relative to the repository root."""
    return "src/" + module.replace(".", "/") + ".pyx"
