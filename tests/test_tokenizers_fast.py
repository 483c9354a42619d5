"""Tokenizers intl, zh and char against sacrebleu's own, token for token.

The oracle is sacrebleu's BLEU preprocessing itself (``BLEU(tokenize=...)._preprocess_segment``:
lowercase if asked, rstrip, tokenize), split on whitespace. Checked on every line of every WMT23
file (when ../shared is present) and the fixture, lowercase off and on; on hand-picked edge cases;
and on generated text drawn from all of Unicode, biased toward what each tokenizer treats
specially (punctuation, symbols and numbers of every script, combining marks, zero-width and
unusual whitespace characters, zh's quirky ranges).

The real-data sweep runs the active implementation (TURBOBLEU_IMPL); it reads every 5th line of
the WMT23 files unless TURBOBLEU_TEST_FULL=1. Edge cases and generated text run both the
compiled module and the twin in every run.
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Tuple

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizer_support import (
    REAL_FILES,
    assert_every_shared_file_swept,
    assert_tokenize_strings_like,
    sacre_metric,
    sacre_tokens,
    swept_lines,
)

import turbobleu
from conftest import (
    assert_same_score,
    compiled_tokenize,
    compiled_twin_of,
    first_token_difference,
    requires_compiled,
    requires_wmt23,
    twin_and_compiled,
)
from turbobleu._engine.bleu import _text_rows_py
from turbobleu._engine.count import chosen as _count_impl
from turbobleu._engine.text import _tokenize_py
from turbobleu._engine.text import chosen as _text_impl

COMPILED = compiled_tokenize()
MODULES = twin_and_compiled(_tokenize_py)
# Each implementation's (tokenizers, BLEU's fused text paths) modules.
WITH_ROWS = twin_and_compiled(
    _tokenize_py,
    lambda m: (m, _text_rows_py if m is _tokenize_py else compiled_twin_of(_text_rows_py)),
)
NAMES = ("intl", "zh", "char")
CODES = {
    "intl": _text_impl.tokenize.TOK_INTL,
    "zh": _text_impl.tokenize.TOK_ZH,
    "char": _text_impl.tokenize.TOK_CHAR,
}


def sacre_tokens_both(lines: List[str], name: str) -> Tuple[List[List[str]], List[List[str]]]:
    """sacrebleu's tokens with lowercase off and on. A line that lowercasing leaves unchanged
    has the same tokens either way (sacrebleu's only lowercase step is ``line.lower()``), so
    sacrebleu runs once for it: the oracle is the slow part of this test."""
    cased = sacre_tokens(lines, name, False)
    changed = [i for i, line in enumerate(lines) if line.lower() != line]
    lowered = list(cased)
    for i, tokens in zip(changed, sacre_tokens([lines[i] for i in changed], name, True)):
        lowered[i] = tokens
    return cased, lowered


# -- real text -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", REAL_FILES)
@pytest.mark.parametrize("name", NAMES)
def test_real_lines_tokenize_like_sacrebleu(path: Path, name: str) -> None:
    lines = swept_lines(path)
    cased, lowered = sacre_tokens_both(lines, name)
    assert_tokenize_strings_like(
        lines, CODES[name], {False: cased, True: lowered}, f"{path} {name}"
    )


@requires_wmt23
def test_every_shared_file_is_swept() -> None:
    assert_every_shared_file_swept()


# -- edge cases ------------------------------------------------------------------------------
EDGE_LINES = [
    "",
    " ",
    "\n",
    "\t \t",
    "a",
    "  leading",
    "trailing  ",
    " both ",
    # intl: punctuation beside numbers and non-numbers, symbols, line start/end (no padding)
    "2019.",
    "2019. ",
    "2019. Next",
    ".5",
    " .5",
    "a .5",
    "5.",
    "5.a",
    "1,000",
    "3.14",
    "10:30",
    "1-2",
    "-5",
    "5-",
    "it's",
    "e.g.",
    "U.S.A.",
    "...",
    "a...b",
    "?!",
    "(a)",
    "[1]",
    "{x}",
    "$5+3=8",
    "a^b",
    "x|y",
    "~tilde",
    "`tick`",
    "<tag>",
    "50%",
    "#1",
    "@user",
    "a_b",
    "a/b\\c",
    "«Bonjour», dit-il.",
    "„Hallo“, sagte er.",
    "“quoted” — …",
    "¿Qué? ¡Sí!",
    "١٢٣.٤",
    "٣,٥",
    "½ + ¾",
    "x² ≥ 3",
    "€5 £3 ¥2",
    "©2023 ®",
    "→ ← ↑",
    "√2 ∞",
    "°C",
    "§3 ¶2",
    "a·b",
    "a•b",
    "日本語の文。",
    "東京、大阪",
    "「引用」",
    "（括弧）",
    "中文，测试。2019年",
    "中.5 x,y",
    "한국어 문장입니다.",
    "Ελληνικά; ναι",
    "עברית, כן.",
    "हिन्दी।",
    "ไทย",
    "ᠮᠣᠩᠭᠣᠯ",
    # zh's ranges: around U+2000, U+2A6D, Extension A/B ends, compatibility ideographs
    "\u2000a\u2001b",
    "x\u2a6dy\u2a6ez",
    "\u4db5\u4db6\u4dbf",
    "\u9fbb\u9fbc\u9fff",
    "\U00020000\U0002a6d6",
    "\uf900\ufa2d\ufa2e",
    "\uff01\uffef\ufff0",
    "\u3040\u30ff",
    "\u2e80\u2fdf\u2fe0\u2ff0",
    "\u3100\u31a0\u31f0\u3200",
    "\ufe10\ufe30\ufe50",
    # whitespace, zero-width, combining marks, case changes, controls, astral symbols/numbers
    "x\u00a0y",
    "x\u2028y",
    "x\u3000y",
    "x\x85y",
    "x\x1cy",
    "x\u1680y",
    "x\u205fy",
    "x\u200by",
    "x\u200c\u200dy",
    "x\ufeffy",
    "x\u2060y",
    "e\u0301.",
    ".\u0301",
    "a\u20dd",
    "İstanbul ΑΣ1",
    "ǅ ß ﬁ",
    "\x00\x01\x7f",
    "\U0001f600 emoji.",
    "\U0001d7ce.5",
    "\U0001f600\U0001f601",
    "a" * 3000 + ".",
    ". " * 500,
]


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_edge_cases(module, name: str, lowercase: bool) -> None:
    got = module.tokenize_strings(EDGE_LINES, CODES[name], lowercase)
    want = sacre_tokens(EDGE_LINES, name, lowercase)
    assert got == want, first_token_difference(got, want, EDGE_LINES)


# -- generated text --------------------------------------------------------------------------
def _class_samples() -> List[str]:
    """A few code points of each intl class, spread over the whole table (every script)."""
    from turbobleu._engine.text.unicode_classes import intl_classes

    picks = []
    for ranges in intl_classes().by_code().values():
        for first, last in ranges[:: max(1, len(ranges) // 40)]:
            picks.extend({chr(first), chr(last)})
    return picks


WHITESPACE = [chr(cp) for cp in range(0x3001) if chr(cp).isspace()]
ZERO_WIDTH = ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e"]
COMBINING = ["\u0300", "\u0301", "\u0308", "\u0327", "\u05b4", "\u093f", "\u20dd", "\u3099"]
ZH_EDGES = [
    "\u2000",
    "\u2001",
    "\u2026",
    "\u20ac",
    "\u2a6d",
    "\u2a6e",
    "\u4db5",
    "\u4db6",
    "\u4e00",
    "\u9fbb",
    "\u9fbc",
    "\U00020000",
    "\U0002a6d6",
    "\uff0c",
    "\u3002",
]
SPECIAL_PIECES = (
    list(".,-'\"()[]{}!?:;/\\$%&*+<=>@^_`|~#0123456789")
    + WHITESPACE
    + ZERO_WIDTH
    + COMBINING
    + ZH_EDGES
    + _class_samples()
    + ["a", "Z", "İ", "Σ", "ß", "ǅ", "  ", ". ", "5.", ".5", "a.b", "1,5", "x-"]
)
any_char = st.characters(blacklist_categories=("Cs",))  # all of Unicode but surrogates
pieces = st.one_of(st.sampled_from(SPECIAL_PIECES), any_char, st.text(any_char, max_size=4))
lines_text = st.lists(pieces, max_size=30).map("".join)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("name", NAMES)
@given(lines=st.lists(lines_text, min_size=1, max_size=6), lowercase=st.booleans())
@settings(max_examples=200)
def test_generated_text(module, name: str, lines: List[str], lowercase: bool) -> None:
    got = module.tokenize_strings(lines, CODES[name], lowercase)
    assert got == sacre_tokens(lines, name, lowercase)


# Text dense in what the rules look at, next to words, line edges, symbols and Chinese
# characters: for 13a (padded line) and zh (not), marks, digits and hyphens (chunks split at their
# marks, or the rule transducers when marks touch or a digit precedes '-'); for intl (not padded
# either), punctuation, symbols and numbers of several scripts (words split at them, or the
# transducers when two of them touch).
MARK_DENSE = st.text(
    st.sampled_from(list("..,,--00119aab!  \n") + ["\u4e2d", "\xa0", "&"]), max_size=24
)
INTL_DENSE = st.text(
    st.sampled_from(
        list(".,'()$+-01aab  ")
        + ["\u0663", "\u00bc", "\u20ac", "\u00ab", "\u3002", "\xa0", "\u4e2d", "\u2028"]
    ),
    max_size=24,
)


@pytest.mark.parametrize("module", MODULES)
@pytest.mark.parametrize("name", ["13a", "zh", "intl"])
@given(data=st.data())
@settings(max_examples=400)
def test_mark_dense_text(module, name: str, data) -> None:
    lines = data.draw(
        st.lists(INTL_DENSE if name == "intl" else MARK_DENSE, min_size=1, max_size=8)
    )
    code = module.TOK_13A if name == "13a" else CODES[name]
    assert module.tokenize_strings(lines, code, False) == sacre_tokens(lines, name, False)


@requires_compiled(COMPILED)
@given(
    lines=st.lists(lines_text, min_size=0, max_size=8),
    lowercase=st.booleans(),
    name=st.sampled_from(NAMES),
)
def test_compiled_ids_equal_twin_ids(lines: List[str], lowercase: bool, name: str) -> None:
    """Both interners give ids 0, 1, 2, ... in order of first appearance, so the arrays agree."""
    kind = CODES[name]
    compiled = COMPILED.tokenize(lines, kind, lowercase, COMPILED.Vocab())
    twin = _tokenize_py.tokenize(lines, kind, lowercase, _tokenize_py.Vocab())
    for c, t, dtype in zip(compiled, twin, (np.int32, np.int64)):
        assert c.dtype == t.dtype == dtype
        assert c.tolist() == t.tolist()


@requires_compiled(COMPILED)
@given(
    refs=st.lists(lines_text, min_size=0, max_size=6),
    hyps=st.lists(lines_text, min_size=0, max_size=6),
    name=st.sampled_from(NAMES),
)
def test_compiled_ids_equal_twin_ids_with_a_frozen_vocabulary(
    refs: List[str], hyps: List[str], name: str
) -> None:
    """As scoring uses them: references intern, hypotheses then look up (unknown tokens: -1),
    through the compiled one-character cache as well as the hash table."""
    kind = CODES[name]
    vocabs = (COMPILED.Vocab(), _tokenize_py.Vocab())
    got = [
        COMPILED.tokenize(lines, kind, False, vocabs[0], frozen)[0].tolist()
        for lines, frozen in ((refs, False), (hyps, True), (refs + hyps, False))
    ]
    want = [
        _tokenize_py.tokenize(lines, kind, False, vocabs[1], frozen)[0].tolist()
        for lines, frozen in ((refs, False), (hyps, True), (refs + hyps, False))
    ]
    assert got == want


@requires_compiled(COMPILED)
def test_lowercasing_in_c_is_str_lower_for_every_code_point() -> None:
    """``tokenize(..., lowercase=True)`` lowercases most lines in C, code point by code point
    (outside the GIL); str.lower() is the oracle, for every code point of this Python's Unicode
    database. U+0130 and U+03A3, whose lowercase is not one code point's own, send their line
    to str.lower(): checked in the contexts that matter (a final sigma, a dotted capital I)."""
    skip = {0x130, 0x3A3}
    lines = [
        " ".join(
            chr(c)
            for c in range(start, min(start + 256, 0x110000))
            if c not in skip and not chr(c).isspace()
        )
        for start in range(0, 0x110000, 256)
    ]
    lines += ["ΟΔΟΣ ΟΔΟΣ.", "ΣΑΣ Σ", "İSTANBUL İ", "Straße ǅ ǈ ẞ", "MIXED ΟΔΟΣ İi ß"]
    vocab = COMPILED.Vocab()
    ids, offsets = COMPILED.tokenize(lines, COMPILED.TOK_NONE, True, vocab)
    for i, line in enumerate(lines):
        got = [vocab.token(t) for t in ids[offsets[i] : offsets[i + 1]].tolist()]
        assert got == line.lower().split(), (i, line[:40])

    # and a str subclass keeps its own lower()
    class Shouting(str):
        def lower(self) -> str:
            return "shh"

    vocab = COMPILED.Vocab()
    ids, _ = COMPILED.tokenize([Shouting("LOUD")], COMPILED.TOK_NONE, True, vocab)
    assert [vocab.token(t) for t in ids.tolist()] == ["shh"]


@requires_compiled(COMPILED)
def test_a_vocabulary_after_a_large_one_starts_empty() -> None:
    """A finished vocabulary's memory is reused by the next one: it must hold nothing of it."""
    big = COMPILED.Vocab()
    COMPILED.tokenize(
        [f"w{i} x{i} y{i}" for i in range(20_000)], _text_impl.tokenize.TOK_13A, False, big
    )
    assert len(big) == 60_000
    del big
    fresh = COMPILED.Vocab()
    assert len(fresh) == 0
    ids, _ = COMPILED.tokenize(["x5 w1 x5 new"], _text_impl.tokenize.TOK_13A, False, fresh, True)
    assert ids.tolist() == [-1, -1, -1, -1]  # frozen and empty: every token unknown
    ids, _ = COMPILED.tokenize(["x5 w1 x5 new"], _text_impl.tokenize.TOK_13A, False, fresh)
    assert ids.tolist() == [0, 1, 0, 2] and [fresh.token(i) for i in range(3)] == [
        "x5",
        "w1",
        "new",
    ]


@requires_compiled(COMPILED)
def test_a_vocabulary_after_one_of_many_characters_knows_none_of_them() -> None:
    """The one-character cache (char, zh) is kept with the spare memory and must come back
    empty: characters spread over many 1024-character blocks, then other text."""
    chars = "".join(chr(c) for c in range(0x4E00, 0x9FA5, 7)) + "!?.,abc\u3002"
    big = COMPILED.Vocab()
    COMPILED.tokenize([chars, chars[::-1]], _text_impl.tokenize.TOK_CHAR, False, big)
    del big
    lines = ["\u4e00\u4e07 b ! \u3002", "a \u4e00 ?"]
    for kind in (_text_impl.tokenize.TOK_CHAR, _text_impl.tokenize.TOK_ZH):
        fresh = COMPILED.Vocab()
        ids, _ = COMPILED.tokenize(lines, kind, False, fresh)
        assert (
            ids.tolist()
            == _tokenize_py.tokenize(lines, kind, False, _tokenize_py.Vocab())[0].tolist()
        )
        del fresh


@given(
    hyp=lines_text,
    refs=st.lists(lines_text, min_size=1, max_size=3),
    name=st.sampled_from(NAMES),
    lowercase=st.booleans(),
)
def test_sentence_bleu_on_generated_text(
    hyp: str, refs: List[str], name: str, lowercase: bool
) -> None:
    """The fused one-sentence path (tokenize + count) with each tokenizer, score for score."""
    got = turbobleu.sentence_bleu(hyp, refs, tokenize=name, lowercase=lowercase)
    want = sacrebleu.sentence_bleu(hyp, refs, tokenize=name, lowercase=lowercase)
    assert_same_score(got, want, name)


# -- the tokenizer objects -------------------------------------------------------------------
TOKENIZER_LINES = ["Hello, world. 2019. ", "a-\nb ", "中文，测试。 ", "x\u3000y\t", "5. ", "  "]


@pytest.mark.parametrize("name", NAMES + ("13a", "none"))
def test_calling_a_tokenizer_is_sacrebleus_call(name: str) -> None:
    """``tokenizer(line)`` equals sacrebleu's tokenizer object on the line as given (trailing
    whitespace included, where intl and 13a can differ from the right-stripped line)."""
    ours = turbobleu.get_tokenizer(name)
    theirs = sacre_metric(name, False).tokenizer
    for line in TOKENIZER_LINES + EDGE_LINES[:40]:
        assert ours(line) == " ".join(theirs(line).split()), repr(line)
        assert ours.split(line) == theirs(line.rstrip()).split(), repr(line)


@pytest.mark.parametrize("modules", WITH_ROWS)
def test_unknown_tokenizer_code_is_refused(modules) -> None:
    module, rows = modules
    with pytest.raises(ValueError, match="unknown tokenizer code 99"):
        module.tokenize(["a"], 99, False, module.Vocab())
    with pytest.raises(ValueError, match="unknown tokenizer code -1"):
        rows.sentence_row("a", ["a"], -1, False, 4)


@pytest.mark.parametrize("modules", WITH_ROWS)
@pytest.mark.parametrize("name", NAMES)
def test_sentence_row_equals_batch_statistics(modules, name: str) -> None:
    """sentence_row and tokenize+count agree for every tokenizer (lines with every feature)."""
    from turbobleu._engine.count import _kernel_py

    module, text_rows = modules
    kernel = _count_impl.kernel if module is not _tokenize_py else _kernel_py
    refs = EDGE_LINES[8:55]
    hyps = EDGE_LINES[55:102]
    vocab = module.Vocab()
    ref_ids, ref_off = module.tokenize(refs, CODES[name], True, vocab)
    hyp_ids, hyp_off = module.tokenize(hyps, CODES[name], True, vocab, True)
    rows = np.zeros((len(hyps), 10), dtype=np.int64)
    kernel.count_stats(
        hyp_ids, hyp_off, ref_ids, ref_off, np.arange(len(hyps) + 1, dtype=np.int64), 4, rows
    )
    for i, (hyp, ref) in enumerate(zip(hyps, refs)):
        assert text_rows.sentence_row(hyp, [ref], CODES[name], True, 4) == rows[i].tolist()
