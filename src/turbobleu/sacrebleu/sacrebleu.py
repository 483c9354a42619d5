"""``sacrebleu.sacrebleu``: the command line's module (``main``, ``parse_args``), running the
``turbobleu`` command (``turbobleu.cli``): sacrebleu's options and output for BLEU, chrF and TER
on local files. Test sets are not downloaded: ``-t``, ``--echo``, ``--download`` and the
options that need test-set metadata are refused with a message.
"""

from __future__ import annotations

import logging

from turbobleu._typing import TYPE_CHECKING
from turbobleu.cli import main as _cli_main
from turbobleu.cli import parse_args as _cli_parse_args

if TYPE_CHECKING:
    import argparse
    from typing import Optional, Sequence

__all__ = ["main", "parse_args", "sacrelogger"]

# sacrebleu's logger (the command writes its own notes to stderr).
sacrelogger = logging.getLogger("sacrebleu")


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    """The command's options from ``argv`` (default: ``sys.argv[1:]``, as sacrebleu reads them),
    checked as the ``turbobleu`` command checks them."""
    return _cli_parse_args(argv)


def main(argv: Optional[Sequence[str]] = None) -> None:
    """Runs the command on ``argv`` (default: ``sys.argv[1:]``). Like sacrebleu's ``main``, it
    returns nothing when it succeeds and exits the program (``SystemExit``) with the command's
    status when it fails."""
    status = _cli_main(argv)
    if status:
        raise SystemExit(status)
