"""The ImportError of a feature whose optional library is missing: it names the package extra
that installs that library, as the README's list of extras does."""

from __future__ import annotations


def install_hint(extra: str) -> str:
    """How to install ``extra``: published, and from a clone (turbobleu is not on PyPI yet)."""
    return f"pip install 'turbobleu[{extra}]' (from a clone of turbobleu: pip install '.[{extra}]')"


def missing_extra(feature: str, extra: str, error: ImportError, note: str = "") -> ImportError:
    """The error to raise (``from error``) when ``feature`` cannot import what ``extra``
    installs. A missing module stays a ModuleNotFoundError with the same ``name``, so that
    ``except ModuleNotFoundError`` keeps working; any other ImportError (a broken or
    mismatched install) is reported with its own words."""
    install = install_hint(extra)
    if isinstance(error, ModuleNotFoundError) and error.name:
        package = error.name.partition(".")[0]  # pyspark, not pyspark.sql
        message = f"{feature} needs {package}, which is not installed; install it with: "
        return ModuleNotFoundError(message + install + note, name=error.name)
    return ImportError(f"{feature} cannot import what it needs ({error}); try: {install}{note}")
