"""Shared by the tokenizer tests (test_tokenize_13a.py, test_tokenizers_fast.py,
test_tokenizers_mecab.py): the real files they sweep, the lines of each that a run reads,
sacrebleu's tokens as its BLEU makes them, and the check that the sweep covers the shared data."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Dict, List

from sacrebleu.metrics import BLEU as SacreBLEU

from conftest import (
    FIXTURE_DATA,
    FULL_MATRIX,
    SHARED_DATA,
    data_files,
    first_token_difference,
    read_lines,
    unique_data_files,
)
from turbobleu._engine.text import chosen as _text_impl

# Every distinct source, reference and system file of the fixture and of WMT23 (when present).
REAL_FILES = unique_data_files(FIXTURE_DATA) + unique_data_files(SHARED_DATA)
TWIN_STRIDE = 5  # by default the WMT23 sweep reads every 5th line


def swept_lines(path: Path) -> List[str]:
    """The lines of ``path`` that a sweep checks: every line of a fixture file, every
    TWIN_STRIDE-th line of a WMT23 file unless TURBOBLEU_TEST_FULL=1 (the oracle is slow)."""
    lines = read_lines(path)
    if not FULL_MATRIX and SHARED_DATA in path.parents:
        lines = lines[::TWIN_STRIDE]
    return lines


@lru_cache(maxsize=None)
def sacre_metric(name: str, lowercase: bool) -> SacreBLEU:
    return SacreBLEU(tokenize=name, lowercase=lowercase)


def sacre_tokens(lines: List[str], name: str, lowercase: bool) -> List[List[str]]:
    """sacrebleu's tokens of each line, as its BLEU preprocesses a segment."""
    metric = sacre_metric(name, lowercase)
    return [metric._preprocess_segment(line).split() for line in lines]


def assert_same_tokens(got: List[List[str]], want: List[List[str]], lines: List[str], what: str):
    """``got == want``, else fail naming ``what`` and the first line where they differ."""
    assert got == want, f"{what}: " + first_token_difference(got, want, lines)


def assert_tokenize_strings_like(
    lines: List[str], code: int, wants: Dict[bool, List[List[str]]], what: str
) -> None:
    """The active implementation's ``tokenize_strings(lines, code, lowercase)`` equals
    ``wants[lowercase]`` for each lowercase setting given."""
    for lowercase, want in wants.items():
        got = _text_impl.tokenize.tokenize_strings(lines, code, lowercase)
        assert_same_tokens(got, want, lines, f"{what} lowercase={lowercase}")


def assert_every_shared_file_swept() -> None:
    """The shared data is the expected set and REAL_FILES holds (nearly) all of it."""
    assert len(data_files(SHARED_DATA)) == 50  # 8 pairs: sources, references, 4 systems each
    assert sum(1 for p in REAL_FILES if "wmt23/" in p.id) >= 40
