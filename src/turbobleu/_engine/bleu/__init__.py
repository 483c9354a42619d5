"""BLEU's fused paths from text to statistics rows: a corpus or one sentence tokenized (with
``text``'s tokenizers), counted (with ``count``'s kernel) and, for a sentence, scored, in one
compiled call (``_text_rows``, and its twin ``_text_rows_py``)."""
