"""The character tables behind intl and zh, checked against their oracles on every code point.

* intl's \\p{N}, \\p{P}, \\p{S} come from the `regex` package sacrebleu uses. The table the
  tokenizers use in this process must equal what the installed `regex` says for all 0x110000
  code points. The shipped table (src/turbobleu/_engine/text/unicode_tables.py) must equal it
  too when it was generated from the same `regex` release; for another release turbobleu reads
  `regex` at run time instead, and the test that compares the shipped file says to regenerate it.
* zh's set of "Chinese" characters is sacrebleu's ``TokenizerZh._is_chinese_char``, quirks
  included (U+2001..U+2A6D yes, Extension B no).
"""

from __future__ import annotations

import importlib.util
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
import regex
from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

from conftest import REPO_ROOT, compiled_tokenize
from turbobleu._engine.text import _tokenize_py
from turbobleu._engine.text import unicode_classes as _unicode_classes
from turbobleu._engine.text import unicode_tables as _unicode_tables
from turbobleu._engine.text.unicode_classes import NUMBER, PUNCTUATION, SYMBOL

COMPILED = compiled_tokenize()
needs_compiled = pytest.mark.skipif(COMPILED is None, reason="compiled extension not built")
ALL = np.arange(0x110000)


@lru_cache(maxsize=None)
def regex_classes() -> np.ndarray:
    """The class code of every code point according to the installed `regex`, computed here
    with regex.match per property on the string of all code points (independent of the
    module's range extraction)."""
    text = _unicode_classes.all_code_points()
    table = np.zeros(0x110000, dtype=np.uint8)
    for code, prop in ((NUMBER, r"\p{N}"), (PUNCTUATION, r"\p{P}"), (SYMBOL, r"\p{S}")):
        hits = [m.start() for m in regex.finditer(prop, text)]
        assert not table[hits].any(), "regex's N, P and S overlap"
        table[hits] = code
    return table


def describe(got: np.ndarray, want: np.ndarray) -> str:
    bad = np.flatnonzero(got != want)
    return f"{len(bad)} code points differ, first " + ", ".join(
        f"U+{cp:04X} ours {got[cp]} regex {want[cp]}" for cp in bad[:8]
    )


def test_active_intl_table_equals_installed_regex_everywhere() -> None:
    got = _unicode_classes.class_array(_unicode_classes.intl_classes())
    want = regex_classes()
    assert np.array_equal(got, want), describe(got, want)


def test_two_level_table_is_the_flat_table() -> None:
    index, blocks = _unicode_classes.two_level_table()
    looked_up = blocks[index[ALL >> 7].astype(np.int64) * 128 + (ALL & 127)]
    want = regex_classes()
    assert np.array_equal(looked_up, want), describe(looked_up, want)


@needs_compiled
def test_compiled_lookup_equals_installed_regex_everywhere() -> None:
    got = np.fromiter(
        (COMPILED.intl_class_of(cp) for cp in range(0x110000)), dtype=np.uint8, count=0x110000
    )
    want = regex_classes()
    assert np.array_equal(got, want), describe(got, want)


@needs_compiled
def test_compiled_splitter_lookup_is_class_plus_whitespace_everywhere() -> None:
    """What the intl splitter reads per character (the flat BMP table, the two-level one above
    it): the class of every code point, plus 8 on Python's whitespace."""
    got = np.fromiter(
        (COMPILED.intl_char_of(cp) for cp in range(0x110000)), dtype=np.uint8, count=0x110000
    )
    spaces = np.array([chr(cp).isspace() for cp in range(0x110000)])
    want = regex_classes() | np.where(spaces, 8, 0).astype(np.uint8)
    assert np.array_equal(got, want), describe(got, want)


def test_twin_lookup_equals_installed_regex() -> None:
    """The twin's bisect lookup on every class boundary and a stride of everything else."""
    want = regex_classes()
    edges = np.flatnonzero(np.diff(want)) + np.array([[0], [1]])
    sample = np.unique(np.concatenate([edges.ravel(), ALL[::61]]))
    wrong = [cp for cp in sample.tolist() if _tokenize_py.intl_class_of(cp) != want[cp]]
    assert not wrong, [f"U+{cp:04X}" for cp in wrong[:10]]


def test_shipped_table_matches_installed_regex() -> None:
    """Fails when the generated file is wrong for its own `regex` release; skips (with the
    command to run) when another release is installed: then the classes are read from it."""
    shipped = _unicode_classes.shipped_classes()
    if regex.__version__ != _unicode_tables.REGEX_VERSION:
        pytest.skip(
            f"regex {regex.__version__} is installed but _unicode_tables.py was generated "
            f"from regex {_unicode_tables.REGEX_VERSION}; turbobleu reads the installed "
            "regex at run time (the other tests check that). Ship its tables with: "
            "python scripts/gen_unicode_tables.py"
        )
    got = _unicode_classes.class_array(shipped)
    want = regex_classes()
    assert np.array_equal(got, want), (
        f"_unicode_tables.py disagrees with regex {regex.__version__} although it claims to be "
        f"generated from it: {describe(got, want)}. "
        "Regenerate: python scripts/gen_unicode_tables.py"
    )


def test_generator_reproduces_the_shipped_file() -> None:
    if regex.__version__ != _unicode_tables.REGEX_VERSION:
        pytest.skip("the shipped tables come from another regex release (see above)")
    generator = REPO_ROOT / "scripts" / "gen_unicode_tables.py"
    if not generator.is_file():
        pytest.skip(f"{generator} is absent (the suite runs outside a checkout)")
    spec = importlib.util.spec_from_file_location("gen_unicode_tables", generator)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # the file this interpreter imports: the checkout's, or an installed wheel's
    shipped = Path(_unicode_tables.__file__).read_text("utf-8")
    assert module.render() == shipped


def test_another_regex_release_is_read_at_run_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """If the shipped tables were made by another regex release, the installed one is used."""
    _unicode_classes.intl_classes.cache_clear()
    try:
        monkeypatch.setattr(_unicode_tables, "REGEX_VERSION", "0.0.0")
        classes = _unicode_classes.intl_classes()
        assert classes.source == "regex" and classes.regex_version == regex.__version__
        assert np.array_equal(_unicode_classes.class_array(classes), regex_classes())
    finally:
        _unicode_classes.intl_classes.cache_clear()
    assert _unicode_classes.intl_classes().source == "shipped" or (
        regex.__version__ != _unicode_tables.REGEX_VERSION
    )


def test_without_regex_the_shipped_tables_are_used(monkeypatch: pytest.MonkeyPatch) -> None:
    _unicode_classes.intl_classes.cache_clear()
    try:
        monkeypatch.setitem(sys.modules, "regex", None)  # import regex -> ImportError
        assert _unicode_classes.intl_classes().source == "shipped"
    finally:
        _unicode_classes.intl_classes.cache_clear()


def test_unicode_version_is_recorded() -> None:
    assert (
        _unicode_tables.UNICODE_VERSION == _unicode_classes.classes_from_regex().unicode_version
        or regex.__version__ != _unicode_tables.REGEX_VERSION
    )
    assert float(_unicode_tables.UNICODE_VERSION) >= 14.0


def test_no_whitespace_is_in_an_intl_class() -> None:
    spaces = [cp for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF and chr(cp).isspace()]
    assert not regex_classes()[spaces].any()


# -- zh ---------------------------------------------------------------------------------------
@lru_cache(maxsize=None)
def sacrebleu_zh_set() -> np.ndarray:
    is_chinese = TokenizerZh._is_chinese_char.__wrapped__  # the function behind its lru_cache
    return np.fromiter((is_chinese(chr(cp)) for cp in range(0x110000)), dtype=bool, count=0x110000)


def test_zh_ranges_are_sacrebleus_set_everywhere() -> None:
    ours = np.zeros(0x110000, dtype=bool)
    for first, last in _tokenize_py.ZH_RANGES:
        ours[first : last + 1] = True
    want = sacrebleu_zh_set()
    assert np.array_equal(ours, want), [hex(cp) for cp in np.flatnonzero(ours != want)[:10]]
    # The quirks themselves, spelled out.
    assert want[0x2001] and want[0x201C] and want[0x20AC] and want[0x2A6D]
    assert not want[0x2000] and not want[0x2A6E] and not want[0x20000] and not want[0x3041]


@needs_compiled
def test_compiled_zh_set_everywhere() -> None:
    got = np.fromiter(
        (COMPILED.is_zh_char_of(cp) for cp in range(0x110000)), dtype=bool, count=0x110000
    )
    want = sacrebleu_zh_set()
    assert np.array_equal(got, want), [hex(cp) for cp in np.flatnonzero(got != want)[:10]]


def test_twin_zh_lookup() -> None:
    want = sacrebleu_zh_set()
    sample = list(range(0x10000)) + list(range(0x10000, 0x110000, 97))
    wrong = [cp for cp in sample if _tokenize_py.is_zh_char_of(cp) != want[cp]]
    assert not wrong, [hex(cp) for cp in wrong[:10]]
