"""A feature whose optional library is missing says which package extra installs it (the
README's promise), in an ImportError that stays a ModuleNotFoundError for a missing module."""

from __future__ import annotations

import importlib
import sys

import pytest

from turbobleu._extras import missing_extra

# (module, the library it imports first, the extra that installs it)
FEATURES = [
    ("turbobleu.spark", "pandas", "spark"),
    ("turbobleu.spark", "pyspark", "spark"),
    ("turbobleu.ray", "ray", "ray"),
    ("turbobleu.distributed", "torch", "torch"),
    ("turbobleu.torchmetrics", "torch", "torchmetrics"),
]


@pytest.mark.parametrize("module, library, extra", FEATURES)
def test_a_missing_library_names_its_extra(
    monkeypatch: pytest.MonkeyPatch, module: str, library: str, extra: str
) -> None:
    if (module, library) == ("turbobleu.spark", "pyspark"):
        pytest.importorskip("pandas", reason="turbobleu.spark imports pandas before pyspark")
    for name in [m for m in sys.modules if m == module or m.startswith(module + ".")]:
        monkeypatch.delitem(sys.modules, name)
    # `import library` and `from library.sub import x` now fail, even where it was imported
    for name in [m for m in sys.modules if m == library or m.startswith(library + ".")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.setitem(sys.modules, library, None)
    with pytest.raises(ModuleNotFoundError) as info:
        importlib.import_module(module)
    message = str(info.value)
    assert message.startswith(f"{module} needs {library}, which is not installed")
    assert f"pip install 'turbobleu[{extra}]'" in message
    assert f"pip install '.[{extra}]'" in message
    assert info.value.name.partition(".")[0] == library


def test_mbrs_metric_names_the_mbr_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import turbobleu.mbr as mbr

    monkeypatch.setattr(mbr, "_MBRS_CLASS", None)
    monkeypatch.setitem(sys.modules, "mbrs", None)
    monkeypatch.setitem(sys.modules, "mbrs.metrics", None)
    with pytest.raises(ModuleNotFoundError, match=r"turbobleu\[mbr\].*setuptools<81"):
        mbr.mbrs_bleu_metric()


def test_a_broken_install_keeps_its_own_words() -> None:
    """An ImportError other than a missing module (a mismatched release, say) is not called
    "not installed"."""
    error = missing_extra("turbobleu.ray", "ray", ImportError("cannot import name 'X' from 'ray'"))
    assert type(error) is ImportError
    assert "cannot import name 'X'" in str(error) and "not installed" not in str(error)
    assert "pip install 'turbobleu[ray]'" in str(error)
