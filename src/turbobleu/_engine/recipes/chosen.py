"""The recipes' compiled modules or their twins (``_engine.choice`` decides which)."""

from turbobleu._engine.choice import on_first_use

sacrebleu_scores = on_first_use(
    "recipes._sacrebleu_scores", "sacrebleu's sentence recipe over statistics rows"
)
nltk_scores = on_first_use("recipes._nltk_scores", "NLTK's sentence recipe over statistics rows")
pycocoevalcap_scores = on_first_use(
    "recipes._pycocoevalcap_scores", "pycocoevalcap's per-image BLEU over statistics rows"
)
