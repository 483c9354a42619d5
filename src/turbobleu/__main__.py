"""``python -m turbobleu``: the ``turbobleu`` command."""

import sys

from turbobleu.cli import main

sys.exit(main())
