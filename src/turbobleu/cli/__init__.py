"""The ``turbobleu`` command line (sacrebleu's, for every metric of the registry): the command
itself is ``cli.command``, BLEU's own paths ``cli.bleu``, options ``cli.options``, files
``cli.io``, tables ``cli.tables``, progress ``cli.progress``. The names below are the command's
entry points (the console script is ``turbobleu.cli:console_main``)."""

from turbobleu.cli.command import InputError, UsageError, console_main, main, parse_args, run
from turbobleu.cli.tables import render

__all__ = ["InputError", "UsageError", "console_main", "main", "parse_args", "render", "run"]
