"""``python -m turbobleu``: the ``turbobleu`` command."""

from turbobleu.cli import console_main

console_main()
