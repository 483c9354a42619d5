"""``patch("sacrebleu")`` and sacrebleu's own significance tests: after the patch, sacrebleu's
``PairedTest`` (and ``_paired_bs_test``, ``_paired_ar_test``, ``_bootstrap_resample``) resample
with turbobleu and return what unpatched sacrebleu returns: the same columns, signatures and
``Result`` objects (every field ``==``, the same types, the same repr).

Every comparison is against sacrebleu run unpatched in the same test. That turbobleu does the
work is shown by counting calls to ``turbobleu.significance``'s tests (one per metric for all
systems together), and that sacrebleu's code keeps what turbobleu does not recognise by a
subclass whose scores differ from stock ones.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Iterator, List, Tuple

import pytest

sacrebleu = pytest.importorskip("sacrebleu")
import sacrebleu.significance as sb_significance  # noqa: E402
from sacrebleu.metrics import BLEU, CHRF, TER  # noqa: E402
from sacrebleu.significance import _bootstrap_resample as early_bootstrap  # noqa: E402
from sacrebleu.significance import _paired_bs_test as early_bs_test  # noqa: E402

from conftest import all_corpora, unpatched_around_each_test  # noqa: E402
from turbobleu import patching, significance  # noqa: E402
from turbobleu.sacrebleu import _patch_significance  # noqa: E402

never_leave_patched = unpatched_around_each_test("sacrebleu", before=True)

ORIGINAL_CALL = sb_significance.PairedTest.__call__
ORIGINAL_CODE = {
    name: getattr(sb_significance, name).__code__
    for name in ("_paired_bs_test", "_paired_ar_test", "_bootstrap_resample")
}

Named = List[Tuple[str, List[str]]]
Refs = List[List[str]]


def _fixture() -> Any:
    for corpus in all_corpora():
        if corpus.name == "fixture/he-en":
            return corpus
    pytest.skip("the fixture corpus he-en is missing")


def _one_ref() -> Tuple[Named, Refs]:
    """Four systems (one of them the second reference) against one reference."""
    corpus = _fixture()
    first, second = (corpus.hypotheses(name) for name in corpus.systems[:2])
    ref_a, ref_b = corpus.reference_streams(corpus.references[:2])
    mixed = [a if i % 2 else b for i, (a, b) in enumerate(zip(first, second))]
    return [("first", first), ("second", second), ("refB", ref_b), ("mixed", mixed)], [ref_a]


def _two_refs() -> Tuple[Named, Refs]:
    """Three systems against two references."""
    corpus = _fixture()
    first, second = (corpus.hypotheses(name) for name in corpus.systems[:2])
    mixed = [a if i % 3 else b for i, (a, b) in enumerate(zip(first, second))]
    refs = corpus.reference_streams(corpus.references[:2])
    return [("first", first), ("second", second), ("mixed", mixed)], refs


def _metrics() -> Dict[str, Any]:
    return {"b": BLEU(), "c": CHRF(), "c++": CHRF(word_order=2), "t": TER()}


def _paired(named: Named, refs: Any, metrics: Dict[str, Any], *args: Any, **kw: Any) -> Any:
    return sb_significance.PairedTest(named, metrics, refs, *args, **kw)


def _assert_same_results(got: List[Any], want: List[Any], key: str) -> None:
    assert len(got) == len(want), key
    for mine, theirs in zip(got, want):
        assert type(mine) is sb_significance.Result
        assert vars(mine) == vars(theirs), key
        assert [type(v) for v in vars(mine).values()] == [type(v) for v in vars(theirs).values()], (
            key
        )
        assert repr(mine) == repr(theirs), key


def _assert_identical(got: Any, want: Any) -> None:
    (got_sigs, got_scores), (want_sigs, want_scores) = got, want
    assert list(got_scores) == list(want_scores)
    assert list(got_sigs) == list(want_sigs)
    for key in want_sigs:
        assert type(got_sigs[key]) is type(want_sigs[key])
        assert got_sigs[key].format() == want_sigs[key].format()
    assert got_scores["System"] == want_scores["System"]
    for key in list(want_scores)[1:]:
        _assert_same_results(got_scores[key], want_scores[key], key)


@pytest.fixture
def turbo_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[List[str]]:
    """The names of ``turbobleu.significance``'s paired tests as they are called."""
    calls: List[str] = []
    for name in ("paired_bootstrap", "paired_approximate_randomization"):
        real = getattr(significance, name)

        def counted(*args: Any, _real: Callable = real, _name: str = name, **kw: Any) -> Any:
            calls.append(_name)
            return _real(*args, **kw)

        monkeypatch.setattr(significance, name, counted)
    yield calls


CASES = [("bs", 1000, -1), ("ar", 1000, -1), ("ar", 1000, 100)]
DATA = {"one_ref": _one_ref, "two_refs": _two_refs}


@pytest.mark.parametrize("test_type,n_samples,n_conf", CASES)
@pytest.mark.parametrize("data", sorted(DATA))
def test_paired_test_equals_unpatched_sacrebleu(
    data: str, test_type: str, n_samples: int, n_conf: int, turbo_calls: List[str]
) -> None:
    named, refs = DATA[data]()
    want = _paired(named, refs, _metrics(), test_type, n_samples, n_conf)()
    assert turbo_calls == []
    assert list(want[1]) == ["System", "BLEU", "chrF2", "chrF2++", "TER"]
    patching.patch("sacrebleu")
    got = _paired(named, refs, _metrics(), test_type, n_samples, n_conf)()
    _assert_identical(got, want)
    # one turbobleu test per metric, for all systems at once
    assert len(turbo_calls) == 4


def test_cached_references_and_an_early_paired_test(turbo_calls: List[str]) -> None:
    named, refs = _one_ref()

    def cached() -> Dict[str, Any]:
        return {"BLEU": BLEU(references=refs), "TER": TER(references=refs)}

    want = _paired(named, None, cached(), "bs", 1000)()
    early = _paired(named, None, cached(), "bs", 1000)  # created before the patch
    patching.patch("sacrebleu")
    _assert_identical(early(), want)
    _assert_identical(_paired(named, None, cached(), "bs", 1000)(), want)
    assert len(turbo_calls) == 4


def test_functions_imported_before_the_patch(turbo_calls: List[str]) -> None:
    named, refs = _two_refs()
    test = _paired(named, refs, _metrics(), "bs", 500)
    args = (test._baseline_info, "second", named[1][1], refs, test.metrics, 500, -1, 12345)
    want = early_bs_test(*args)
    stats, metric = test._baseline_info["chrF2"][0], test.metrics["chrF2"]
    want_bs = early_bootstrap(stats, metric, 300)
    patching.patch("sacrebleu")
    assert turbo_calls == []
    got = early_bs_test(*args)
    assert len(turbo_calls) == 4
    assert got[0] == want[0] == "second"
    assert list(got[1]) == list(want[1])
    for key in want[1]:
        _assert_same_results([got[1][key]], [want[1][key]], key)
    # sacrebleu's score objects for every resample
    got_bs = early_bootstrap(stats, metric, 300)
    assert got_bs[0] == want_bs[0] == "12345"
    assert len(got_bs[1]) == len(want_bs[1]) == 300
    for mine, theirs in zip(got_bs[1], want_bs[1]):
        assert type(mine) is type(theirs)
        assert vars(mine) == vars(theirs)
        assert [type(v) for v in vars(mine).values()] == [type(v) for v in vars(theirs).values()]
        assert repr(mine) == repr(theirs)


@pytest.mark.parametrize("make", [BLEU, CHRF, TER], ids=lambda m: m.__name__)
def test_corpus_score_bootstrap_equals_unpatched(make: Callable[..., Any]) -> None:
    named, refs = _two_refs()
    want = make().corpus_score(named[1][1], refs, n_bootstrap=200)
    patching.patch("sacrebleu")
    got = make().corpus_score(named[1][1], refs, n_bootstrap=200)
    assert type(got) is type(want)
    assert vars(got) == vars(want)
    assert [type(v) for v in vars(got).values()] == [type(v) for v in vars(want).values()]
    assert str(got) == str(want)


class HalvedBLEU(BLEU):
    """A BLEU whose scores are half the stock ones: turbobleu must leave it to sacrebleu."""

    def _compute_score_from_stats(self, stats: List[int]) -> Any:
        score = super()._compute_score_from_stats(stats)
        score.score /= 2
        return score


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_a_subclass_overriding_the_scoring_keeps_sacrebleus_code(
    test_type: str, turbo_calls: List[str]
) -> None:
    named, refs = _one_ref()

    def metrics() -> Dict[str, Any]:
        return {"halved": HalvedBLEU(), "c": CHRF()}

    want = _paired(named, refs, metrics(), test_type, 300, 100)()
    patching.patch("sacrebleu")
    assert _patch_significance.resampler_of(HalvedBLEU()) is None
    assert _patch_significance.resampler_of(BLEU()) is not None
    got = _paired(named, refs, metrics(), test_type, 300, 100)()
    _assert_identical(got, want)
    assert len(turbo_calls) == 1  # chrF only


def test_unpatch_restores(turbo_calls: List[str]) -> None:
    named, refs = _one_ref()
    patching.patch("sacrebleu")
    assert sb_significance.PairedTest.__call__ is not ORIGINAL_CALL
    for name, code in ORIGINAL_CODE.items():
        assert getattr(sb_significance, name).__code__ is not code
    patching.unpatch("sacrebleu")
    assert sb_significance.PairedTest.__call__ is ORIGINAL_CALL
    for name, code in ORIGINAL_CODE.items():
        assert getattr(sb_significance, name).__code__ is code
    _paired(named, refs, _metrics(), "bs", 200)()
    assert turbo_calls == []


def test_n_jobs_2(turbo_calls: List[str]) -> None:
    named, refs = _one_ref()
    want = _paired(named, refs, _metrics(), "ar", 500, 100)()
    patching.patch("sacrebleu")
    got = _paired(named, refs, _metrics(), "ar", 500, 100, n_jobs=2)()
    _assert_identical(got, want)
    assert len(turbo_calls) == 4


def test_unseeded(monkeypatch: pytest.MonkeyPatch, turbo_calls: List[str]) -> None:
    named, refs = _one_ref()
    want = _paired(named, refs, _metrics(), "bs", 200)()
    monkeypatch.setenv("SACREBLEU_SEED", "none")
    patching.patch("sacrebleu")
    sigs, got = _paired(named, refs, _metrics(), "bs", 200)()
    assert "seed:none" in sigs["BLEU"].format()
    for key in list(got)[1:]:
        assert [r.score for r in got[key]] == [r.score for r in want[1][key]]
        assert all(0 < r.p_value <= 1 for r in got[key][1:])
    assert len(turbo_calls) == 4
    assert os.environ["SACREBLEU_SEED"] == "none"


@pytest.mark.parametrize("test_type", ["bs", "ar"])
def test_a_baseline_alone(test_type: str) -> None:
    named, refs = _one_ref()
    want = _paired(named[:1], refs, _metrics(), test_type, 200, 100)()
    patching.patch("sacrebleu")
    _assert_identical(_paired(named[:1], refs, _metrics(), test_type, 200, 100)(), want)
