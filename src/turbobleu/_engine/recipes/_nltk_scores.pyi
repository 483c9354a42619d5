"""Type stubs for ``_nltk_scores.pyx``: the signatures of its pure-Python twin
``_nltk_scores_py.py`` (``_engine/buffer_types.py`` says why and how they are checked)."""

from turbobleu._engine.recipes._nltk_scores_py import NLTK_METHODS as NLTK_METHODS
from turbobleu._engine.recipes._nltk_scores_py import exact_sum_of as exact_sum_of
from turbobleu._engine.recipes._nltk_scores_py import nltk_sentence_scores as nltk_sentence_scores
from turbobleu._engine.recipes._nltk_scores_py import rat_to_double_of as rat_to_double_of
