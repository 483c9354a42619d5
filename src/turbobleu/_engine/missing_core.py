"""The warning ``import turbobleu`` gives on CPython when the compiled core cannot be imported
(an install from the sdist without a C compiler, a broken build) and ``TURBOBLEU_IMPL`` did not
ask for the pure-Python twin: the scores stay the same, the speed drops to sacrebleu's, and
without this warning only ``turbobleu.implementation`` would tell.

It is given once per process, and not by the ``turbobleu`` command (its console script or
``python -m turbobleu``) unless ``TURBOBLEU_WARN_MISSING_CORE=1`` asks: a command run many times
from a script would repeat it on every call.

``warnings`` is imported here, on the path that warns, and not with turbobleu (it costs a
plain ``import turbobleu`` time that most runs never need).
"""

from __future__ import annotations

import os
import sys

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import FrameType
    from typing import Optional, Tuple

# The package folder: frames inside it are turbobleu's, not the importer's.
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
# Set to "1" to have the command give the warning too.
COMMAND_ENV = "TURBOBLEU_WARN_MISSING_CORE"
# Whether this process was warned already.
_warned = False


def applies() -> bool:
    """Whether a missing compiled core deserves a warning here: on CPython only (on PyPy and
    other interpreters the pure-Python twin is the design, and there is nothing to compile)."""
    return sys.implementation.name == "cpython"


def message(module: str, error: ImportError) -> str:
    """The warning's text: a short first line, then what failed (``module`` and ``error``'s
    text), the fix, and how to choose the twin without the warning."""
    return (
        "turbobleu's compiled core is missing: running the pure-Python twin (same scores, slower)."
        f"\nCause: importing {module} failed ({error})."
        "\nFix: install a compiled wheel, or install a C compiler and reinstall turbobleu:"
        "\n  pip install --force-reinstall --no-cache-dir turbobleu  (in a checkout: pip install .)"
        "\nTo use the twin on purpose, without this warning: set TURBOBLEU_IMPL=python."
    )


def _importer() -> Tuple[int, Optional[FrameType]]:
    """The ``stacklevel`` that points the warning at the first frame outside turbobleu (the
    user's ``import turbobleu`` line), and that frame. The warnings module does not count
    importlib's own frames, so neither does this."""
    level = 0
    frame: Optional[FrameType] = sys._getframe(1)  # warn()'s frame: level 1
    while frame is not None:
        filename = frame.f_code.co_filename
        if not ("importlib" in filename and "_bootstrap" in filename):
            level += 1
            if not filename.startswith(_PACKAGE_DIR):
                return level, frame
        frame = frame.f_back
    return level + 1, None


def _is_command(importer: Optional[FrameType]) -> bool:
    """Whether turbobleu is being imported by its command: ``python -m turbobleu`` (runpy
    imports the package) or the console script (a ``__main__`` file named turbobleu, with the
    suffixes of the Windows launchers)."""
    if importer is None:
        return False
    name = importer.f_globals.get("__name__")
    if name == "runpy":
        return True
    if name != "__main__":
        return False
    # The launcher's script may be <dir>/turbobleu, turbobleu-script.py, or turbobleu.exe's
    # embedded __main__.py.
    parts = importer.f_code.co_filename.replace("\\", "/").lower().split("/")
    for part in parts[-2:]:
        for suffix in ("-script.pyw", "-script.py", ".exe", ".py"):
            if part.endswith(suffix):
                part = part[: -len(suffix)]
                break
        if part == "turbobleu":
            return True
    return False


def warn(module: str, error: ImportError) -> None:
    """One ``RuntimeWarning`` per process: the compiled ``module`` failed to import with
    ``error`` (none in the command unless ``TURBOBLEU_WARN_MISSING_CORE=1``)."""
    global _warned
    if _warned:
        return
    stacklevel, importer = _importer()
    if _is_command(importer) and os.environ.get(COMMAND_ENV, "").strip() != "1":
        return
    _warned = True
    import warnings

    warnings.warn(message(module, error), RuntimeWarning, stacklevel=stacklevel)
