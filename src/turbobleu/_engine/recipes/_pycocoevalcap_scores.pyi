"""Type stubs for ``_pycocoevalcap_scores.pyx``: the signatures of its pure-Python twin
``_pycocoevalcap_scores_py.py`` (``_engine/buffer_types.py`` says why and how they are checked)."""

from turbobleu._engine.recipes._pycocoevalcap_scores_py import image_scores as image_scores
