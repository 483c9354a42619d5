"""The engine behind the public modules: five stages, in the order data flows, and three metric
folders.

The stages:

- ``text``: sacrebleu's tokenizers, ``str`` -> int32 token ids (``_tokenize``, compiled, and its
  twin ``_tokenize_py``; the Unicode tables of ``intl``);
- ``intern``: sequences of any hashable tokens (NLTK, evaluate, MATLAB) -> ids -> statistics rows
  (``_intern`` / ``_intern_py``);
- ``count``: n-gram counting and clipping over id spans -> int64 statistics rows (``_kernel`` /
  ``_kernel_py``); packing of token-id inputs (``_pack``); prepared-reference and self-BLEU
  tables (``_ref_tables``, ``_self_table``); ``ids``, ``references``;
- ``recipes``: each mirrored library's BLEU float recipe, rows -> scores (``sacrebleu``,
  ``nltk``; the compiled versions ``_sacrebleu_scores`` and ``_nltk_scores`` follow them and
  their twins call them);
- ``resample``: the significance tests' resampling draws and libm over arrays (``_resample``).

The metric folders, each a metric's own engine:

- ``bleu``: BLEU's fused paths from text to statistics rows, tokenizing with ``text`` and counting
  with ``count`` in one call (``_text_rows`` / ``_text_rows_py``); ``resampler``, how the
  significance tests score BLEU's rows;
- ``chrf``: chrF and chrF++ from text to statistics rows and scores (``_chrf`` / ``_chrf_py``),
  ``recipe`` (its float recipe), ``resampler``;
- ``ter``: TER's tokenizer (``tercom``), edit counts (``_ter`` / ``_ter_py``, ``edits``) and
  ``recipe`` (sums, score, ``TERResampler``).

Beside them: ``threads`` and ``pools`` (worker threads for long batches), ``validate`` (argument
checks), ``results`` and ``stats`` (score, signature and statistics objects), ``streaming``.

``choice`` decides, once, between the compiled modules and their twins (``TURBOBLEU_IMPL``); each
package's ``chosen.py`` then names its own pairs, those that only some calls need loaded on first
use. Each compiled module's twin is its readable specification, with the same
functions and parameters. C helpers that several compiled modules share are inline functions in
``.pxd`` files (``count/ngram_keys``, ``count/batch_table``, ``recipes/sacrebleu_row``,
``recipes/fsum``), so that hot loops never call across modules; calls made once per line or
segment go through a module's own ``.pxd`` (``count/_kernel``, ``text/_tokenize``).
"""
