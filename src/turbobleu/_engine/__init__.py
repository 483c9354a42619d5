"""The engine behind the public modules, one subpackage per stage, in the order data flows:

- ``text``: sacrebleu's tokenizers, ``str`` -> int32 token ids (``_tokenize``, compiled, and its
  twin ``_tokenize_py``; the Unicode tables of ``intl``);
- ``intern``: sequences of any hashable tokens (NLTK, evaluate, MATLAB) -> ids -> statistics rows
  (``_intern`` / ``_intern_py``);
- ``count``: n-gram counting and clipping over id spans -> int64 statistics rows; packing of
  token-id inputs; prepared-reference and self-BLEU tables (``_kernel`` / ``_kernel_py``,
  ``ids``, ``references``);
- ``recipes``: each mirrored library's float recipe, rows -> scores (``sacrebleu``, ``nltk``; the
  compiled versions follow them and are tested against them).

``impl`` picks the compiled modules or their twins (``TURBOBLEU_IMPL``). Each compiled module's
twin is its readable specification, with the same functions and parameters.
"""
