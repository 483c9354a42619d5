"""Tokenizers 13a and none against sacrebleu's own, token for token.

sacrebleu tokenizes ``line.lower()`` (when lowercasing) then ``tokenizer(line.rstrip()).split()``.
Checked on every line of every WMT23 file (when ../shared is present), on the fixture, on
hand-picked edge cases and on generated text from all of Unicode, biased toward what 13a treats
specially.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import List

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
from tokenizer_support import (
    REAL_FILES,
    assert_every_shared_file_swept,
    assert_tokenize_strings_like,
)

import turbobleu
from conftest import (
    compiled_tokenize,
    first_token_difference,
    read_lines,
    requires_compiled,
    requires_wmt23,
    twin_and_compiled,
)
from turbobleu._engine.text import _tokenize_py
from turbobleu._engine.text import chosen as _text_impl

COMPILED = compiled_tokenize()
MODULES = twin_and_compiled(_tokenize_py)
needs_compiled = requires_compiled(COMPILED)

SACRE = {"13a": Tokenizer13a(), "none": NoneTokenizer()}
CODES = {"13a": _text_impl.tokenize.TOK_13A, "none": _text_impl.tokenize.TOK_NONE}


def sacre_tokens(lines: List[str], name: str, lowercase: bool) -> List[List[str]]:
    tokenizer = SACRE[name]
    return [tokenizer((line.lower() if lowercase else line).rstrip()).split() for line in lines]


# -- real text -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", REAL_FILES)
@pytest.mark.parametrize("name", ["13a", "none"])
def test_real_lines_tokenize_like_sacrebleu(path: Path, name: str) -> None:
    """The active implementation's ``tokenize_strings`` on every line, both lowercase settings."""
    lines = read_lines(path)
    wants = {lowercase: sacre_tokens(lines, name, lowercase) for lowercase in (False, True)}
    assert_tokenize_strings_like(lines, CODES[name], wants, str(path))


@requires_wmt23
def test_every_shared_file_is_covered() -> None:
    assert_every_shared_file_swept()


# -- edge cases ------------------------------------------------------------------------------
EDGE_LINES = [
    "",
    " ",
    "\n",
    "-\n",
    "a-\nb",
    "a\nb",
    "<skipped>",
    "a<skipped>b",
    "<SKIPPED>",
    "<skip ped>",
    "&quot;&amp;&lt;&gt;",
    "&amp;quot;",
    "&amp;lt;",
    "&QUOT;",
    "&apos;",
    "&",
    "&&amp;;",
    "2019.",
    "2019. ",
    "1,000",
    "3.14",
    ".5 ,5",
    "a.,b",
    "5-",
    "a-b",
    "x--y",
    "a--3",
    "1-2",
    "-5",
    "it's",
    "Hello, world.",
    "(a)[b]{c}",
    "$5.00",
    "e.g.",
    "...",
    "U.S.A.",
    "a/b\\c",
    "10:30",
    "“quoted” — …",
    "١٢٣.",
    "x\u00a0y",
    "x\u2028y",
    "x\u3000y",
    "x\x85y",
    "x\x1cy",
    "x\u200by",
    "x\ufeffy",
    "trailing \u2029",
    "\t tabs\t",
    "İstanbul ΑΣ1",
    "ǅ ß ﬁ",
    "a" * 2000 + ".",
    "\x00\x01\x7f",
    "\U0001f600 emoji.",
    "mixed-\nhyphen-\n",
    "end with -",
    # a word with one trailing mark (the compiled fast path) and its near misses
    'word, word. 9, 9. a9. 9a, ,, a,, .a, é. x,(y) z." ab- a-. -, 1a.b',
    "Ω, 中. \U0001f600,",
    "well-known, 3-4 a3-b x-3, -9. a-9-b. e-mail- 2019-, -,",
]


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", ["13a", "none"])
def test_edge_cases(module, name: str, lowercase: bool) -> None:
    got = module.tokenize_strings(EDGE_LINES, CODES[name], lowercase)
    want = sacre_tokens(EDGE_LINES, name, lowercase)
    assert got == want, first_token_difference(got, want, EDGE_LINES)


# -- generated text --------------------------------------------------------------------------
SPECIAL_PIECES = [
    "&",
    ";",
    "<",
    ">",
    "-",
    ".",
    ",",
    "'",
    '"',
    "0",
    "7",
    "9",
    " ",
    "  ",
    "\n",
    "\t",
    "\r",
    "<skipped>",
    "&quot;",
    "&amp;",
    "&lt;",
    "&gt;",
    "&QUOT;",
    "&AMP;",
    "-\n",
    "\x85",
    "\xa0",
    "\u2028",
    "\u2029",
    "\u3000",
    "\x1c",
    "\x1f",
    "\u1680",
    "\u200a",
    "\u200b",
    "\ufeff",
    "İ",
    "Σ",
    "ß",
    "a",
    "b",
    "Ab",
]
any_char = st.characters(blacklist_categories=("Cs",))  # all of Unicode but surrogates
pieces = st.one_of(st.sampled_from(SPECIAL_PIECES), any_char, st.text(any_char, max_size=4))
lines_text = st.lists(pieces, max_size=30).map("".join)


@pytest.mark.parametrize("module", MODULES)
@given(lines=st.lists(lines_text, min_size=1, max_size=6), lowercase=st.booleans())
@settings(max_examples=300)
def test_generated_text_13a(module, lines: List[str], lowercase: bool) -> None:
    assert module.tokenize_strings(lines, module.TOK_13A, lowercase) == sacre_tokens(
        lines, "13a", lowercase
    )


@pytest.mark.parametrize("module", MODULES)
@given(lines=st.lists(lines_text, min_size=1, max_size=6), lowercase=st.booleans())
def test_generated_text_none(module, lines: List[str], lowercase: bool) -> None:
    assert module.tokenize_strings(lines, module.TOK_NONE, lowercase) == sacre_tokens(
        lines, "none", lowercase
    )


@needs_compiled
@given(
    lines=st.lists(lines_text, min_size=0, max_size=8),
    lowercase=st.booleans(),
    kind=st.sampled_from([0, 1]),
)
def test_compiled_ids_equal_twin_ids(lines: List[str], lowercase: bool, kind: int) -> None:
    """Both interners give ids 0, 1, 2, ... in order of first appearance, so the arrays agree."""
    compiled = COMPILED.tokenize(lines, kind, lowercase, COMPILED.Vocab())
    twin = _tokenize_py.tokenize(lines, kind, lowercase, _tokenize_py.Vocab())
    for c, t, dtype in zip(compiled, twin, (np.int32, np.int64)):
        assert c.dtype == t.dtype == dtype
        assert c.tolist() == t.tolist()


@pytest.mark.parametrize("module", MODULES)
def test_frozen_vocabulary_maps_unknown_tokens_to_minus_one(module) -> None:
    vocab = module.Vocab()
    ids, offsets = module.tokenize(["the cat sat", ""], module.TOK_13A, False, vocab)
    assert ids.tolist() == [0, 1, 2] and offsets.tolist() == [0, 3, 3]
    assert len(vocab) == 3 and vocab.token(1) == "cat"
    ids, offsets = module.tokenize(["the dog sat .", "cat"], module.TOK_13A, False, vocab, True)
    assert ids.tolist() == [0, -1, 2, -1, 1] and offsets.tolist() == [0, 4, 5]
    assert len(vocab) == 3  # frozen: nothing was added
    with pytest.raises(KeyError):
        vocab.token(3)


@pytest.mark.parametrize("module", MODULES)
def test_many_distinct_tokens_survive_vocabulary_growth(module) -> None:
    lines = [" ".join(f"w{i}x{j}" for j in range(50)) for i in range(200)]
    vocab = module.Vocab()
    ids, offsets = module.tokenize(lines, module.TOK_NONE, False, vocab)
    assert ids.tolist() == list(range(10_000)) and len(vocab) == 10_000
    assert vocab.token(9_999) == "w199x49" and vocab.token(0) == "w0x0"
    again, _ = module.tokenize(lines[::-1], module.TOK_NONE, False, vocab, True)
    assert again.tolist() == [
        i for row in range(199, -1, -1) for i in range(row * 50, row * 50 + 50)
    ]


@pytest.mark.parametrize("module", MODULES)
def test_non_string_line_names_the_argument(module) -> None:
    with pytest.raises(TypeError, match=r"hypotheses\[1\] must be a str, got int"):
        module.tokenize(["a", 3], module.TOK_13A, False, module.Vocab(), False, "hypotheses")


# -- whitespace ------------------------------------------------------------------------------
@needs_compiled
def test_compiled_whitespace_is_pythons_on_every_code_point() -> None:
    wrong = [
        cp
        for cp in range(sys.maxunicode + 1)
        if not 0xD800 <= cp <= 0xDFFF and COMPILED.is_python_space(cp) != chr(cp).isspace()
    ]
    assert not wrong, [hex(cp) for cp in wrong[:20]]


def test_twin_whitespace_is_pythons() -> None:
    for cp in (0x20, 0x85, 0xA0, 0x1C, 0x200B, 0x3000, 0x41):
        assert _tokenize_py.is_python_space(cp) == chr(cp).isspace()


def test_registry_tokenizers_split_like_sacrebleu() -> None:
    line = 'Hello, "world" &amp; 2019. İ'
    for name in ("13a", "none"):
        tok = turbobleu.get_tokenizer(name)
        assert tok.name == name and tok.signature() == name
        for lowercase in (False, True):
            assert tok.split(line, lowercase) == sacre_tokens([line], name, lowercase)[0]
        # Calling a tokenizer gives the tokenized line, as sacrebleu's tokenizers do.
        assert tok(line) == " ".join(SACRE[name](line.rstrip()).split())


# -- sacrebleu's "100 lines that end in a tokenized period" check ------------------------------
@pytest.mark.parametrize("module", MODULES)
@given(
    lines=st.lists(
        st.lists(st.sampled_from(["a", " ", ".", " .", "\u4e2d", "\U0001f600"]), max_size=5).map(
            "".join
        ),
        max_size=12,
    )
)
def test_count_tokenized_periods_is_endswith(module, lines: List[str]) -> None:
    assert module.count_tokenized_periods(lines) == sum(line.endswith(" .") for line in lines)


@pytest.mark.parametrize("module", MODULES)
def test_count_tokenized_periods_names_a_non_string(module) -> None:
    with pytest.raises(TypeError, match=r"lines\[1\] must be a str"):
        module.count_tokenized_periods(["a .", b"b ."])


@pytest.mark.parametrize("periods", [99, 100])
def test_tokenized_period_warning_like_sacrebleu(periods: int, caplog) -> None:
    hyps = ["\u4e2d ."] * (periods // 2) + ["x ."] * (periods - periods // 2) + ["x.", "x . "]
    refs = [["x ."] * len(hyps)]
    with caplog.at_level(logging.WARNING):
        sacrebleu.corpus_bleu(hyps, refs)
    theirs = [r.getMessage() for r in caplog.records]
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        turbobleu.corpus_bleu(hyps, refs)
    ours = [r.getMessage() for r in caplog.records]
    assert ours == theirs and bool(ours) == (periods >= 100)


@pytest.mark.parametrize("module", MODULES)
@given(
    st.lists(
        st.lists(st.sampled_from(["a", "-", "\n", " ", "\t", "\xa0", "\u2028", "\r", "é"])).map(
            "".join
        ),
        max_size=8,
    )
)
def test_newline_in_tail_finds_the_lines_whose_stripped_tail_has_one(module, lines) -> None:
    want = [i for i, line in enumerate(lines) if "\n" in line[len(line.rstrip()) :]]
    assert module.newline_in_tail(lines) == want


@pytest.mark.parametrize("module", MODULES)
def test_newline_in_tail_names_a_line_that_is_not_a_str(module) -> None:
    with pytest.raises(TypeError, match=r"lines\[1\] must be a str, got bytes"):
        module.newline_in_tail(["a\n", b"b"])
