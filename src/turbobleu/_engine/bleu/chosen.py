"""BLEU's fused path, compiled or its twin (``_engine.choice`` decides which)."""

from turbobleu._engine.choice import on_first_use

text_rows = on_first_use(
    "bleu._text_rows", "BLEU's fused paths: lines -> statistics rows (and a sentence's score)"
)
