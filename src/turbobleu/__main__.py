"""``python -m turbobleu``: the ``turbobleu`` command."""
import sys

from .cli import main

sys.exit(main())
