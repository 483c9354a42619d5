"""Type stubs for the compiled TER edit counting ``_ter.pyx``: the signatures of its pure-Python
twin ``_ter_py.py`` (``_engine/buffer_types.py`` says why and how they are checked)."""

from turbobleu._engine.ter._ter_py import corpus_rows as corpus_rows
from turbobleu._engine.ter._ter_py import pair_edits as pair_edits
