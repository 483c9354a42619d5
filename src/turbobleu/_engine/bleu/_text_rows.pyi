"""Type stubs for the compiled ``_text_rows.pyx``: the signatures of its pure-Python twin
``_text_rows_py.py`` (``_engine/buffer_types.py`` says why and how they are checked), and its test
hook."""

from turbobleu._engine.bleu._text_rows_py import corpus_row as corpus_row
from turbobleu._engine.bleu._text_rows_py import gleu_stats as gleu_stats
from turbobleu._engine.bleu._text_rows_py import sentence_row as sentence_row
from turbobleu._engine.bleu._text_rows_py import sentence_score_parts as sentence_score_parts

def sentence_table_bytes() -> int:
    """The memory of the single-sentence n-gram table this thread keeps now (a test hook)."""
