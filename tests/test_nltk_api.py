"""turbobleu.nltk: NLTK's own examples, the seed values, NLTK's quirks one by one, and the promise
that built-in smoothing runs on the fast path (no per-sentence Fractions, no Python-level
counting) for ordinary input."""

from __future__ import annotations

import doctest
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import numpy as np
import pytest

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

from turbobleu import nltk as tb  # noqa: E402
from turbobleu import patching  # noqa: E402
from turbobleu._engine.recipes import nltk as _nltk_recipe  # noqa: E402  (after importorskip)

HYP1 = (
    "It is a guide to action which ensures that the military always obeys the commands of the party"
).split()
HYP2 = (
    "It is to insure the troops forever hearing the activity guidebook that party direct"
).split()
REF1 = (
    "It is a guide to action that ensures that the military will forever heed Party commands"
).split()
REF2 = (
    "It is the guiding principle which guarantees the military forces always being under "
    "the command of the Party"
).split()
REF3 = ("It is the practical guide for the army always to heed the directions of the party").split()


def both(name: str, *args, **kwargs):
    """(turbobleu's result, NLTK's result) of the same call."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(tb, name)(*args, **kwargs), getattr(nltk_bleu, name)(*args, **kwargs)


# -- seeds and NLTK's documented values -----------------------------------------------------------


def test_seed_004_sentence_bleu_of_the_blog_example() -> None:
    lower_split = lambda text: text.lower().split()  # noqa: E731  (the blog's tokenizer)
    refs = [lower_split(" ".join(r)) for r in (REF1, REF2, REF3)]
    value = tb.sentence_bleu(refs, lower_split(" ".join(HYP1)))
    assert value == 0.5045666840058485
    assert type(value) is float


def test_seed_004_modified_precisions() -> None:
    refs = [[w.lower() for w in r] for r in (REF1, REF2, REF3)]
    bad = "it it it it it it it it it it it it it".split()
    assert float(tb.modified_precision(refs, bad, 1)) == 0.07692307692307693
    assert float(tb.modified_precision(refs, [w.lower() for w in HYP1], 1)) == 0.9444444444444444


def test_reference_values_of_every_smoothing_method() -> None:
    sf = tb.SmoothingFunction()
    against_ref1 = [
        0.41180376356915777,
        0.41180376356915777,
        0.4452945001507636,
        0.41180376356915777,
        0.41180376356915777,
        0.4905328138015114,
        0.41358958106633686,
        0.4905328138015114,
    ]
    for i, want in enumerate(against_ref1):
        assert tb.sentence_bleu([REF1], HYP1, smoothing_function=getattr(sf, f"method{i}")) == want
    assert (
        tb.sentence_bleu([REF1, REF2, REF3], HYP2, smoothing_function=sf.method1)
        == 0.03703131191121491
    )
    assert (
        tb.sentence_bleu([REF1, REF2, REF3], HYP2, smoothing_function=sf.method7)
        == 0.14758356058214836
    )
    with pytest.raises(AssertionError, match="requires non-zero precision for bigrams"):
        tb.sentence_bleu([REF1, REF2, REF3], HYP2, smoothing_function=sf.method6)


def test_nltk_docstring_examples_run_against_turbobleu() -> None:
    """Every docstring example of nltk/translate/bleu_score.py, with turbobleu's names."""
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for test in finder.find(nltk_bleu):
        test.globs = dict(vars(tb))
        examples += len(test.examples)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            runner.run(test, out=lambda text: None)
    assert examples >= 90
    assert runner.failures == 0, f"{runner.failures} of {runner.tries} doctest examples failed"


def test_nltk_bleu_doctest_file_passes_under_the_patch() -> None:
    path = Path(nltk_bleu.__file__).parent.parent / "test" / "bleu.doctest"
    if not path.is_file():
        pytest.skip("nltk's bleu.doctest is not installed")
    with patching.patched("nltk"):
        result = doctest.testfile(
            str(path), module_relative=False, verbose=False, optionflags=doctest.ELLIPSIS
        )
    assert result.attempted >= 4 and result.failed == 0


# -- quirks, one by one --------------------------------------------------------------------------


def test_short_hypotheses_add_one_to_the_denominator() -> None:
    got, want = both(
        "corpus_bleu", [[["a", "b"]], [["c", "d", "e", "f"]]], [["a", "b"], ["c", "d", "e", "f"]]
    )
    assert got == want == 0.7598356856515925


def test_no_unigram_match_returns_int_zero_or_a_list_of_int_zeros() -> None:
    got, want = both("sentence_bleu", [["x", "y"]], ["a", "b"])
    assert got == want == 0 and type(got) is int is type(want)
    got, want = both("sentence_bleu", [["x", "y"]], ["a", "b"], [(0.5, 0.5), (1.0,)])
    assert got == want == [0, 0] and all(type(v) is int for v in got)


def test_a_one_element_list_of_weights_gives_a_scalar() -> None:
    got, want = both("sentence_bleu", [REF1], HYP1, [(0.25, 0.25, 0.25, 0.25)])
    assert got == want and isinstance(got, float)


def test_method0_warning_text_category_and_count() -> None:
    def caught(module):
        with warnings.catch_warnings(record=True) as records:
            warnings.simplefilter("always")
            module.sentence_bleu([["a", "b", "c"]], ["a", "x", "c", "y"])
        return [(r.category, str(r.message)) for r in records]

    ours, theirs = caught(tb), caught(nltk_bleu)
    assert ours == theirs and len(ours) == 3  # orders 2, 3 and 4
    assert ours[0] == (UserWarning, _nltk_recipe.ZERO_ORDER_MESSAGE.format(2))


def test_method0_warning_shows_once_per_message_under_the_default_filter() -> None:
    """NLTK warns from one source line, so Python's default filter shows each text once; the
    fast path and the SmoothingFunction method share one call site for the same effect."""
    with warnings.catch_warnings(record=True) as records:
        warnings.simplefilter("default")
        for _ in range(3):
            tb.sentence_bleu([["a", "b", "c"]], ["a", "x", "c", "y"])
            tb.SmoothingFunction().method0([tb.Fraction(1, 4), tb.Fraction(0, 3)])
    assert [str(r.message) for r in records] == [
        _nltk_recipe.ZERO_ORDER_MESSAGE.format(n) for n in (2, 3, 4)
    ]


def test_exceptions_match_nltk() -> None:
    cases = [
        ("corpus_bleu", ([], [])),  # ZeroDivisionError: Fraction(0, 0)
        ("corpus_bleu", ([[["a"]]], [["a"], ["b"]])),  # AssertionError: lengths differ
        ("sentence_bleu", ([], ["a", "b"])),  # KeyError(('a',))
        ("sentence_bleu", ([], [])),  # ValueError from min()
        ("sentence_bleu", ([["a"]], [["x"], "a"])),  # TypeError: unhashable list
        ("sentence_bleu", ([["a", "b"]], ["a", "b"], np.array([0.25] * 4), None, True)),
    ]
    for name, args in cases:
        errors = []
        for module in (tb, nltk_bleu):
            with pytest.raises(Exception) as info, warnings.catch_warnings():
                warnings.simplefilter("ignore")
                getattr(module, name)(*args)
            errors.append((info.type, info.value.args))
        assert errors[0] == errors[1], f"{name}{args!r}: {errors}"


def test_strings_are_sequences_of_characters() -> None:
    got, want = both("sentence_bleu", ["the cat sat"], "the cat sat on")
    assert got == want


def test_auto_reweigh_only_for_the_default_tuple() -> None:
    for weights in ((0.25, 0.25, 0.25, 0.25), [0.25, 0.25, 0.25, 0.25], (0.5, 0.5)):
        got, want = both("sentence_bleu", [["a", "b", "c"]], ["a", "b"], weights, None, True)
        assert got == want, weights


def test_fraction_keeps_the_values_it_was_given() -> None:
    f = tb.Fraction(6, 8)
    g = nltk_bleu.Fraction(6, 8)
    assert (f.numerator, f.denominator) == (g.numerator, g.denominator) == (6, 8)
    assert float(f) == float(g) == 0.75
    assert (tb.Fraction(0, 5) == 0) == (nltk_bleu.Fraction(0, 5) == 0)
    assert repr(tb.Fraction(6, 8, _normalize=True)) == repr(
        nltk_bleu.Fraction(6, 8, _normalize=True)
    )
    assert tb.Fraction(6, 8, _normalize=True).numerator == 3


def test_assertions_disabled_behave_like_nltk() -> None:
    """Under ``python -O`` NLTK's asserts vanish (unequal lengths are zipped, method6 goes on);
    turbobleu uses assert statements in the same places."""
    code = textwrap.dedent("""
        import warnings
        warnings.simplefilter("ignore")
        import nltk.translate.bleu_score as N
        import turbobleu.nltk as T
        def run(m):
            out = []
            for call in (lambda: m.corpus_bleu([[["a", "b"]], [["c"]]], [["a", "b"]]),
                         lambda: m.sentence_bleu([["a", "b", "x", "y"]], ["a", "b", "c", "d"],
                                                 smoothing_function=m.SmoothingFunction().method6)):
                try:
                    out.append(repr(call()))
                except Exception as e:
                    out.append(type(e).__name__ + repr(e.args))
            return out
        print(run(T) == run(N), run(T))
    """)
    result = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("True"), result.stdout


# -- the fast path is the one taken ------------------------------------------------------------

TYPICAL = ([[REF1, REF2, REF3], [REF1], [REF2, REF3]], [HYP1, HYP2, HYP1[:9]])


@pytest.mark.parametrize("method", range(8))
def test_builtin_smoothing_uses_no_fraction_and_no_python_counting(method, monkeypatch) -> None:
    sf = tb.SmoothingFunction()
    refs, hyps = TYPICAL
    if method == 6:  # method6 needs trigram matches in the corpus (NLTK asserts it)
        refs, hyps = [[REF1]], [HYP1]
    want_corpus = nltk_bleu.corpus_bleu(
        refs, hyps, smoothing_function=getattr(nltk_bleu.SmoothingFunction(), f"method{method}")
    )
    want_sentence = nltk_bleu.sentence_bleu(
        refs[0],
        hyps[0],
        smoothing_function=getattr(nltk_bleu.SmoothingFunction(), f"method{method}"),
    )

    def forbidden(*args, **kwargs):
        raise AssertionError("the fast path was left")

    monkeypatch.setattr(tb, "Fraction", forbidden)
    monkeypatch.setattr(tb, "_stats_nltk_order", forbidden)
    monkeypatch.setattr(tb, "modified_precision", forbidden)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        smoothing = getattr(sf, f"method{method}")
        assert tb.corpus_bleu(refs, hyps, smoothing_function=smoothing) == want_corpus
        assert tb.sentence_bleu(refs[0], hyps[0], smoothing_function=smoothing) == want_sentence


def test_unusual_parameters_leave_the_fast_path_and_still_match() -> None:
    from fractions import Fraction as F

    for kwargs in (
        {"epsilon": F(1, 7)},
        {"k": F(3, 2)},
        {"alpha": F(1, 2)},
        {"k": 0},
        {"alpha": True},
    ):
        for method in (1, 4, 6, 7):

            def call(module):
                sf = getattr(module.SmoothingFunction(**kwargs), f"method{method}")
                try:
                    return repr(
                        module.corpus_bleu([[REF1], [REF2]], [HYP1, HYP2], smoothing_function=sf)
                    )
                except Exception as exc:
                    return type(exc).__name__ + repr(exc.args)

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                assert call(tb) == call(nltk_bleu), (kwargs, method)


def test_overridden_method_in_a_subclass_is_honoured() -> None:
    class Mine(tb.SmoothingFunction):
        def method4(self, p_n, *args, **kwargs):
            return [0.5 if p.numerator == 0 else p for p in p_n]

    class Theirs(nltk_bleu.SmoothingFunction):
        def method4(self, p_n, *args, **kwargs):
            return [0.5 if p.numerator == 0 else p for p in p_n]

    got = tb.sentence_bleu([REF1], HYP2, smoothing_function=Mine().method7)
    want = nltk_bleu.sentence_bleu([REF1], HYP2, smoothing_function=Theirs().method7)
    assert got == want
