"""Type stubs for the compiled chrF counting ``_chrf.pyx``: the signatures of its pure-Python twin
``_chrf_py.py`` (``_engine/buffer_types.py`` says why and how they are checked)."""

from turbobleu._engine.chrf._chrf_py import corpus_rows as corpus_rows
from turbobleu._engine.chrf._chrf_py import pairwise_scores as pairwise_scores
from turbobleu._engine.chrf._chrf_py import sentence_scores as sentence_scores
