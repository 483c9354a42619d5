"""turbobleu.pycocoevalcap.Bleu against the real pycocoevalcap 1.2 (``pycocoevalcap.bleu``): the
returned ``(score, scores)`` compared with ``==`` value by value (and by type: lists of Python
floats), what ``verbose`` prints compared as text, and the same exception types for bad input.

Generated data: caption-like dicts with 1-5 references per image, empty and one-word captions,
repeated words, every whitespace character ``str.split`` knows, ids in any order, n from -1 to
6, and pycocoevalcap's other reference-length options (``"shortest"``, ``"average"``, ``None``)
against its ``BleuScorer`` (``Bleu`` always uses ``"closest"``). Also a COCO-like set of 5,000
images with 5 references each, made deterministically (tests/pycocoevalcap_support.py; the
pure-Python twin checks its first 1,000 images unless TURBOBLEU_TEST_FULL=1).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pycocoevalcap_support import caption_set, captured

from conftest import FULL_MATRIX, IMPLEMENTATION, compiled_module

real_bleu = pytest.importorskip(
    "pycocoevalcap.bleu.bleu", reason="pycocoevalcap is not installed (pip install pycocoevalcap)"
)
real_scorer = pytest.importorskip("pycocoevalcap.bleu.bleu_scorer")

from turbobleu import pycocoevalcap as tb  # noqa: E402
from turbobleu._engine.recipes import _pycocoevalcap_scores_py as twin  # noqa: E402

COMPILED_SCORES = compiled_module("recipes._pycocoevalcap_scores")
# The COCO-like set: 5,000 images (pycocoevalcap takes about a second); the pure-Python twin,
# itself as slow as pycocoevalcap, checks the first 1,000 of them unless TURBOBLEU_TEST_FULL=1.
CAPTION_SET_IMAGES = 5000 if IMPLEMENTATION == "cython" or FULL_MATRIX else 1000

Captions = Dict[Any, List[Any]]


def outcome(fn: Callable[[], Any]) -> Tuple[tuple, str]:
    """``("ok", value)`` or ``("raise", exception type)``, and what ``fn`` printed (before it
    raised, if it did)."""

    def run() -> tuple:
        try:
            return ("ok", fn())
        except Exception as exc:  # the point is to compare them
            return ("raise", type(exc))

    return captured(run)


def assert_same(got: Any, want: Any) -> None:
    """Equal with ``==`` and of the same types, list by list and float by float."""
    assert type(got) is type(want), (type(got), type(want))
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want), (len(got), len(want))
        for g, w in zip(got, want):
            assert_same(g, w)
    else:
        assert got == want, (got, want)


def real_scorer_scores(gts: Captions, res: Captions, n: int, option: Any, verbose: int) -> Any:
    """What ``Bleu.compute_score`` does, with another reference-length option."""
    scorer = real_scorer.BleuScorer(n=n)
    for image in gts.keys():
        scorer += (res[image][0], gts[image])
    return scorer.compute_score(option=option, verbose=verbose)


def compare(gts: Captions, res: Captions, n: int = 4, verbose: int = 1, option: Any = "closest"):
    if option == "closest":
        want = outcome(lambda: real_bleu.Bleu(n).compute_score(gts, res, verbose))
    else:
        want = outcome(lambda: real_scorer_scores(gts, res, n, option, verbose))
    got = outcome(lambda: tb.Bleu(n).compute_score(gts, res, verbose, option=option))
    assert got[0][0] == want[0][0], (got, want)
    assert_same(got[0][1], want[0][1])
    assert got[1] == want[1]


# -- generated captions ------------------------------------------------------------------------
# str.split's whitespace: ASCII, the information separators \x1c-\x1f, NEL, NBSP, the Unicode
# spaces and line/paragraph separators; and characters it does not split on (zero width space).
SPACES = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u3000"
WORDS = ["a", "man", "dog", "on", "the", "a\u200bb", "Man", "é", "ß", ".", "riding", "wave"]

word = st.sampled_from(WORDS)
space = st.text(alphabet=SPACES, min_size=1, max_size=2)


@st.composite
def caption(draw: Any) -> str:
    words = draw(st.lists(word, max_size=8))
    gaps = [draw(space) for _ in words]
    text = "".join(w + g for w, g in zip(words, gaps))
    return (draw(st.sampled_from(["", " ", "\t"])) + text) if draw(st.booleans()) else text


@st.composite
def caption_dicts(draw: Any, max_images: int = 6) -> Tuple[Captions, Captions]:
    ids = draw(
        st.lists(
            st.one_of(st.integers(0, 10**6), st.text(max_size=3)),
            unique=True,
            max_size=max_images,
        )
    )
    gts = {i: draw(st.lists(caption(), min_size=1, max_size=5)) for i in ids}
    order = draw(st.permutations(ids))
    res = {i: [draw(caption())] for i in order}
    return gts, res


@given(caption_dicts(), st.integers(-1, 6), st.sampled_from([0, 1, 2]))
def test_generated_captions_equal_pycocoevalcap(data: Any, n: int, verbose: int) -> None:
    gts, res = data
    compare(gts, res, n, verbose)


@given(caption_dicts(), st.sampled_from(["shortest", "average", None]), st.sampled_from([0, 1, 2]))
def test_other_reference_length_options_equal_bleu_scorer(
    data: Any, option: Any, verbose: int
) -> None:
    gts, res = data
    compare(gts, res, 4, verbose, option)


@given(caption_dicts(max_images=3), st.integers(1, 5))
def test_captions_of_another_type_are_split_as_pycocoevalcap_splits_them(data: Any, n: int) -> None:
    """bytes captions (their own .split()) and str subclasses take the token path."""
    gts, res = data

    class Caption(str):
        pass

    as_bytes = (
        {i: [c.encode("utf-8") for c in caps] for i, caps in gts.items()},
        {i: [c.encode("utf-8") for c in caps] for i, caps in res.items()},
    )
    compare(*as_bytes, n)
    compare({i: [Caption(c) for c in caps] for i, caps in gts.items()}, res, n)


# -- fixed cases -------------------------------------------------------------------------------
def test_caption_set_of_5000_images_with_5_references() -> None:
    gts, res = caption_set(5000, 5, seed=0)
    ids = list(gts)[:CAPTION_SET_IMAGES]
    compare({i: gts[i] for i in ids}, {i: res[i] for i in ids})


def test_small_caption_set_with_every_option_and_order() -> None:
    gts, res = caption_set(120, 5, seed=1)
    for n in (1, 2, 3, 4, 5):
        for option in ("closest", "shortest", "average", None):
            compare(gts, res, n, 1, option)


@pytest.mark.parametrize(
    "gts,res",
    [
        ({}, {}),  # no image: every BLEU-k is 0.0 (exp(1 - 1e6))
        ({1: ["a man riding a wave"]}, {1: ["a man riding a wave"]}),  # equal: just below 1
        ({1: ["a b c d e"]}, {1: ["a b c d f"]}),  # no 4-gram match: small but positive
        ({1: ["a b"]}, {1: [""]}),  # empty hypothesis: 0.0
        ({1: [""]}, {1: ["a"]}),  # empty reference
        ({1: ["", ""]}, {1: [""]}),
        ({7: ["the the the the", "the cat"]}, {7: ["the the the the the the"]}),  # clipping
        ({1: ["a b c", "a b c d e"]}, {1: ["a b c d"]}),  # tie: the shorter reference
        ({1: ["x y z"], 2: ["a b c d e f g h"]}, {2: ["a b c d"], 1: ["x y z w v"]}),
    ],
)
def test_edge_cases(gts: Captions, res: Captions) -> None:
    for verbose in (0, 1, 2):
        for option in ("closest", "shortest", "average", None):
            compare(gts, res, 4, verbose, option)


def test_verbose_is_compared_as_pycocoevalcap_compares_it() -> None:
    gts, res = caption_set(20, 3, seed=2)
    for verbose in (True, False, 1.5, 3, -1):
        compare(gts, res, 4, verbose)


@pytest.mark.parametrize(
    "gts,res",
    [
        ({1: ["a"]}, {2: ["a"]}),  # other ids
        ({1: ["a"], 2: ["b"]}, {1: ["a"]}),
        ({1: ["a"]}, {1: ("a",)}),  # not a list
        ({1: ["a"]}, {1: ["a", "b"]}),  # two hypotheses
        ({1: ["a"]}, {1: []}),
        ({1: "a"}, {1: ["a"]}),  # references not a list
        ({1: []}, {1: ["a"]}),  # no reference
        ({1: [None]}, {1: ["a"]}),  # a caption without .split()
        ({1: [3]}, {1: ["a"]}),
        # a None hypothesis: skipped when counting, a TypeError when scoring (after the images
        # before it are printed with verbose=2, and after every later image is counted)
        ({1: ["a"]}, {1: [None]}),
        ({1: ["a"], 2: ["b"], 3: ["c"]}, {1: ["a"], 2: [None], 3: ["c"]}),
        ({1: ["a"], 2: ["b"], 3: []}, {1: ["a"], 2: [None], 3: ["c"]}),
        ({1: ["a"], 2: ["b"], 3: ["c"]}, {1: ["a"], 2: [None], 3: [None]}),
        # pycocoevalcap meets image 1's caption (AttributeError) before image 2's assertion
        ({1: ["a", None], 2: []}, {1: ["a"], 2: ["b"]}),
        ({1: ["a"], 2: []}, {1: [None], 2: ["b"]}),
        # ... and image 1's assertion before image 2's caption
        ({1: [], 2: [None]}, {1: ["a"], 2: ["b"]}),
        (["a"], ["a"]),  # not dicts
    ],
)
def test_bad_input_raises_what_pycocoevalcap_raises(gts: Any, res: Any) -> None:
    for n in (4, 5):
        for verbose in (1, 2):
            compare(gts, res, n, verbose)


def test_assertion_messages_name_the_argument_and_the_image() -> None:
    with pytest.raises(AssertionError, match=r"res\[5\] must hold exactly one caption"):
        tb.Bleu().compute_score({5: ["a"]}, {5: ["a", "b"]})
    with pytest.raises(AssertionError, match=r"gts\['x'\] must hold at least one"):
        tb.Bleu().compute_score({"x": []}, {"x": ["a"]})
    with pytest.raises(AssertionError, match=r"\{2\} only in gts, \{3\} only in res"):
        tb.Bleu().compute_score({1: ["a"], 2: ["b"]}, {1: ["a"], 3: ["b"]})
    with pytest.raises(TypeError, match=r"Bleu\(n=...\) must be an int"):
        tb.Bleu("4").compute_score({1: ["a"]}, {1: ["a"]})
    with pytest.raises(ValueError, match="option must be one of"):
        tb.Bleu().compute_score({1: ["a"]}, {1: ["a"]}, option="longest")


def test_class_surface_matches_pycocoevalcap() -> None:
    ours, theirs = tb.Bleu(), real_bleu.Bleu()
    assert ours.method() == theirs.method() == "Bleu"
    assert ours._n == theirs._n == 4
    assert vars(ours) == vars(theirs)
    gts, res = caption_set(10, 2, seed=3)
    (score, scores), _ = captured(lambda: tb.Bleu(3).compute_score(gts, res))
    assert len(score) == 3 and len(scores) == 3 and all(len(s) == 10 for s in scores)


# -- the compiled per-image recipe -------------------------------------------------------------
@pytest.mark.skipif(COMPILED_SCORES is None, reason="the compiled extension is not built")
def test_compiled_image_scores_equal_the_twin() -> None:
    rng = np.random.default_rng(0)
    images, row_order = 2000, 6
    rows = np.zeros((images, 2 + 2 * row_order), dtype=np.int64)
    testlen = rng.integers(0, 60, images)
    rows[:, 0] = testlen
    rows[:, 1] = rng.integers(0, 60, images)
    for k in range(row_order):
        guess = np.maximum(testlen - k, 0)
        rows[:, 2 + row_order + k] = guess
        rows[:, 2 + k] = (guess * rng.random(images)).astype(np.int64)
    rows[:5, 2:] = 10**12  # large counts stay exact as doubles
    for reflens in (rows[:, 1].astype(np.float64), rng.random(images) * 60):
        for orders in (0, 1, 4, 6):
            got = np.empty((orders, images))
            want = np.empty((orders, images))
            COMPILED_SCORES.image_scores(rows, reflens, orders, got)
            twin.image_scores(rows, reflens, orders, want)
            assert got.tolist() == want.tolist()


@pytest.mark.parametrize(
    "module", [twin] + ([COMPILED_SCORES] if COMPILED_SCORES is not None else []), ids=str
)
def test_image_scores_refuses_buffers_that_do_not_fit(module: Any) -> None:
    rows = np.zeros((3, 10), dtype=np.int64)
    with pytest.raises(ValueError):
        module.image_scores(rows, np.zeros(3), 5, np.empty((5, 3)))
    with pytest.raises(ValueError):
        module.image_scores(rows, np.zeros(2), 4, np.empty((4, 3)))
    with pytest.raises(ValueError):
        module.image_scores(rows, np.zeros(3), 4, np.empty((3, 3)))
    with pytest.raises(ValueError):
        module.image_scores(rows, np.zeros(3), -1, np.empty((0, 3)))
