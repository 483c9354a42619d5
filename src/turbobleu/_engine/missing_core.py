"""The warning ``import turbobleu`` gives on CPython when the compiled core cannot be imported
(an install from the sdist without a C compiler, a broken build) and ``TURBOBLEU_IMPL`` did not
ask for the pure-Python twin: the scores stay the same, the speed drops to sacrebleu's, and
without this warning only ``turbobleu.implementation`` would tell.

``warnings`` is imported here, on the path that warns, and not with turbobleu (it costs a
plain ``import turbobleu`` time that most runs never need).
"""

from __future__ import annotations

import os
import sys

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import FrameType
    from typing import Optional

# The package folder: frames inside it are turbobleu's, not the importer's.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def applies() -> bool:
    """Whether a missing compiled core deserves a warning here: on CPython only (on PyPy and
    other interpreters the pure-Python twin is the design, and there is nothing to compile)."""
    return sys.implementation.name == "cpython"


def message(module: str, error: ImportError) -> str:
    """The warning's text: what failed (``module`` and ``error``'s text) and the fixes."""
    return (
        f"turbobleu's compiled core is missing: importing {module} failed ({error}). "
        "turbobleu runs on its pure-Python twin instead: the same scores, many times slower "
        "(about sacrebleu's speed). To fix it, install a C compiler and reinstall turbobleu "
        "(pip install --force-reinstall --no-cache-dir turbobleu, or . from a clone), or "
        "install a compiled wheel; to choose the pure-Python twin deliberately and silence "
        "this warning, set TURBOBLEU_IMPL=python."
    )


def _importer_stacklevel() -> int:
    """The ``stacklevel`` that points the warning at the first frame outside turbobleu (the
    user's ``import turbobleu`` line). The warnings module does not count importlib's own
    frames, so neither does this."""
    level = 0
    frame: Optional[FrameType] = sys._getframe(1)  # warn()'s frame: level 1
    while frame is not None:
        filename = frame.f_code.co_filename
        if not ("importlib" in filename and "_bootstrap" in filename):
            level += 1
            if not filename.startswith(_PACKAGE_DIR):
                return level
        frame = frame.f_back
    return level + 1


def warn(module: str, error: ImportError) -> None:
    """One ``RuntimeWarning``: the compiled ``module`` failed to import with ``error``."""
    import warnings

    warnings.warn(message(module, error), RuntimeWarning, stacklevel=_importer_stacklevel())
