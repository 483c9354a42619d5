"""``patch("sacrebleu")``: the real sacrebleu computes BLEU with turbobleu, identically.

Every comparison is against results sacrebleu produced unpatched. That turbobleu really does the
work is shown by its one deliberate difference: a hypothesis/reference length mismatch raises
ValueError instead of being truncated.
"""

from __future__ import annotations

import importlib.util
import logging
from typing import List, Tuple

import pytest
import sacrebleu
import sacrebleu.compat
import sacrebleu.metrics
import sacrebleu.metrics.bleu
from sacrebleu.metrics import BLEU as EarlyBLEU  # imported before any patch
from sacrebleu.significance import PairedTest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

import turbobleu
import turbobleu.sacrebleu
from conftest import FIXTURE_DATA, read_lines, unpatched_around_each_test
from turbobleu import patching
from turbobleu.sacrebleu import _patch as _patch_sacrebleu
from turbobleu.sacrebleu._patch_common import RefCache

FUNCTIONS = ("corpus_bleu", "sentence_bleu", "raw_corpus_bleu")
HAVE_JA = all(importlib.util.find_spec(m) for m in ("MeCab", "ipadic"))


def fixture_corpus() -> Tuple[List[str], List[str], List[List[str]]]:
    pair = FIXTURE_DATA / "he-en"
    return (
        read_lines(pair / "hyp.GPT4-5shot.en"),
        read_lines(pair / "hyp.NLLB_Greedy.en"),
        [read_lines(pair / "ref.refA.en"), read_lines(pair / "ref.refB.en")],
    )


HYPS, HYPS_B, REFS = fixture_corpus()


def key(score: object) -> tuple:
    return (
        score.score,
        list(score.counts),
        list(score.totals),
        score.sys_len,
        score.ref_len,
        str(score),
    )


never_leave_patched = unpatched_around_each_test(
    "sacrebleu", still_patched=_patch_sacrebleu.is_patched
)


def test_registered_with_the_patch_registry() -> None:
    assert "sacrebleu" in patching.available_patches()
    assert not patching.is_patched("sacrebleu")
    with patching.patched("sacrebleu"):
        assert patching.is_patched("sacrebleu")
        assert sacrebleu.corpus_bleu is turbobleu.corpus_bleu
    assert not patching.is_patched("sacrebleu")


def test_functions_are_replaced_and_restored() -> None:
    originals = {
        (m.__name__, f): getattr(m, f) for m in (sacrebleu, sacrebleu.compat) for f in FUNCTIONS
    }
    cls = sacrebleu.metrics.bleu.BLEU
    class_dict = dict(cls.__dict__)
    patching.patch("sacrebleu")
    patching.patch("sacrebleu")  # idempotent
    for module in (sacrebleu, sacrebleu.compat):
        for name in FUNCTIONS:
            assert getattr(module, name) is getattr(turbobleu, name)
    # The class stays sacrebleu's (isinstance and earlier imports keep working) ...
    assert sacrebleu.BLEU is sacrebleu.metrics.BLEU is sacrebleu.metrics.bleu.BLEU is EarlyBLEU
    assert sacrebleu.metrics.METRICS["BLEU"] is EarlyBLEU
    # ... with its statistics engine replaced.
    assert "_extract_corpus_statistics" in cls.__dict__
    patching.unpatch("sacrebleu")
    patching.unpatch("sacrebleu")  # a no-op
    for (module_name, name), original in originals.items():
        module = sacrebleu if module_name == "sacrebleu" else sacrebleu.compat
        assert getattr(module, name) is original
    assert dict(cls.__dict__) == class_dict


def test_function_api_scores_unchanged() -> None:
    calls = [
        ("corpus_bleu", (HYPS, REFS), {}),
        ("corpus_bleu", (HYPS, REFS[:1]), dict(lowercase=True, tokenize="intl")),
        ("corpus_bleu", (HYPS, REFS), dict(smooth_method="floor", use_effective_order=True)),
        ("raw_corpus_bleu", (HYPS, REFS), {}),
        ("sentence_bleu", (HYPS[3], [REFS[0][3], REFS[1][3]]), {}),
        ("sentence_bleu", (HYPS[4], [REFS[0][4]]), dict(tokenize="char", smooth_method="add-k")),
    ]
    want = [key(getattr(sacrebleu, f)(*a, **kw)) for f, a, kw in calls]
    patching.patch("sacrebleu")
    for module in (sacrebleu, sacrebleu.compat):
        got = [key(getattr(module, f)(*a, **kw)) for f, a, kw in calls]
        assert got == want


def test_bleu_class_scores_unchanged_and_computed_by_turbobleu() -> None:
    tokenizers = ["13a", "intl", "zh", "char", "none"] + (["ja-mecab"] if HAVE_JA else [])
    want = {}
    for tok in tokenizers:
        metric = sacrebleu.metrics.BLEU(tokenize=tok, lowercase=True)
        want[tok] = (
            key(metric.corpus_score(HYPS, REFS)),
            str(metric.get_signature()),
            [key(metric.sentence_score(h, [a, b])) for h, a, b in zip(HYPS[:15], *REFS)],
        )
    patching.patch("sacrebleu")
    for tok in tokenizers:
        metric = EarlyBLEU(tokenize=tok, lowercase=True)
        got = (
            key(metric.corpus_score(HYPS, REFS)),
            str(metric.get_signature()),
            [key(metric.sentence_score(h, [a, b])) for h, a, b in zip(HYPS[:15], *REFS)],
        )
        assert got == want[tok], tok
        assert type(metric.corpus_score(HYPS, REFS)) is sacrebleu.metrics.BLEUScore
        with pytest.raises(ValueError, match="sacrebleu would silently truncate"):
            metric.corpus_score(HYPS[:5], REFS)


def test_objects_created_before_the_patch() -> None:
    before = sacrebleu.metrics.BLEU(effective_order=True)
    want = key(before.corpus_score(HYPS, REFS))
    patching.patch("sacrebleu")
    assert key(before.corpus_score(HYPS, REFS)) == want
    with pytest.raises(ValueError):  # turbobleu's statistics, not sacrebleu's
        before.corpus_score(HYPS[:5], REFS)


def test_cached_references() -> None:
    want_a = key(sacrebleu.metrics.BLEU(references=REFS).corpus_score(HYPS, None))
    want_b = key(sacrebleu.metrics.BLEU(references=REFS).corpus_score(HYPS_B, None))
    patching.patch("sacrebleu")
    metric = sacrebleu.metrics.BLEU(references=REFS)
    assert metric.num_refs == 2
    assert key(metric.corpus_score(HYPS, None)) == want_a
    assert key(metric.corpus_score(HYPS_B, None)) == want_b
    # References given positionally are cached too.
    positional = EarlyBLEU(False, False, None, "exp", None, 4, False, "", REFS)
    assert key(positional.corpus_score(HYPS, None)) == want_a
    # After unpatch, sacrebleu's own code rebuilds its cache from the original references.
    patching.unpatch("sacrebleu")
    assert key(metric.corpus_score(HYPS_B, None)) == want_b
    assert len(metric._ref_cache) == len(HYPS)


def test_no_references_at_all_is_sacrebleus_error() -> None:
    patching.patch("sacrebleu")
    with pytest.raises(RuntimeError, match="No references provided and the cache is empty"):
        sacrebleu.metrics.BLEU().corpus_score(HYPS, None)


@pytest.mark.parametrize("periods", [99, 100])
def test_tokenized_period_warning_unchanged(periods: int, caplog: pytest.LogCaptureFixture) -> None:
    hyps = ["x ."] * periods + ["x."]
    refs = [["x ."] * len(hyps)]

    def messages() -> List[str]:
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="sacrebleu"):
            sacrebleu.metrics.BLEU().corpus_score(hyps, refs)
        return [r.getMessage() for r in caplog.records if r.name == "sacrebleu"]

    theirs = messages()
    patching.patch("sacrebleu")
    # (13a is counted by turbobleu when patched, which then gives the warning itself)
    assert _patch_sacrebleu._turbo_tokenizer(sacrebleu.metrics.BLEU().tokenizer) is not None
    assert messages() == theirs and len(theirs) == (3 if periods >= 100 else 0)


def test_bootstrap_and_paired_tests_unchanged() -> None:
    def run() -> tuple:
        metric = sacrebleu.metrics.BLEU()
        score = metric.corpus_score(HYPS, REFS, n_bootstrap=50)
        paired = PairedTest(
            [("a", HYPS), ("b", HYPS_B)],
            {"BLEU": sacrebleu.metrics.BLEU(references=REFS)},
            references=None,
            test_type="bs",
            n_samples=50,
        )
        _, results = paired()
        return (
            str(score),
            score._mean,
            score._ci,
            [(r.score, r.p_value, r.mean, r.ci) for r in results["BLEU"]],
        )

    want = run()
    patching.patch("sacrebleu")
    assert run() == want


class _OwnTokenizer(Tokenizer13a):
    """A user's tokenizer: not one of sacrebleu's own classes."""

    def __call__(self, line: str) -> str:
        return super().__call__(line).upper()


def test_custom_tokenizers_keep_sacrebleus_code() -> None:
    metric = sacrebleu.metrics.BLEU()
    metric.tokenizer = _OwnTokenizer()
    want = key(metric.corpus_score(HYPS, REFS))
    patching.patch("sacrebleu")
    assert key(metric.corpus_score(HYPS, REFS)) == want
    # sacrebleu's own behaviour, truncation included, since its code runs.
    metric.corpus_score(HYPS[:5], REFS)


def test_dropin_module_is_untouched_by_the_patch() -> None:
    patching.patch("sacrebleu")
    assert turbobleu.sacrebleu.corpus_bleu is turbobleu.corpus_bleu
    assert turbobleu.sacrebleu.BLEU is not sacrebleu.BLEU


class _OwnPreprocessing(sacrebleu.metrics.bleu.BLEU):
    """A user's BLEU subclass with its own preprocessing: sacrebleu's code must keep running."""

    def _preprocess_segment(self, sent: str) -> str:
        return super()._preprocess_segment(sent.replace("the", "THE"))


def test_subclasses_with_their_own_preprocessing_keep_sacrebleus_code() -> None:
    want = key(_OwnPreprocessing().corpus_score(HYPS, REFS))
    want_cached = key(_OwnPreprocessing(references=REFS).corpus_score(HYPS, None))
    patching.patch("sacrebleu")
    assert key(_OwnPreprocessing().corpus_score(HYPS, REFS)) == want
    cached = _OwnPreprocessing(references=REFS)
    assert not isinstance(cached._ref_cache, RefCache)
    assert key(cached.corpus_score(HYPS, None)) == want_cached


def test_settings_changed_after_caching_references_follow_sacrebleu() -> None:
    """sacrebleu tokenizes cached references with the settings of construction time and
    hypotheses with the current ones; the patched object does the same."""

    def run() -> list:
        metric = sacrebleu.metrics.BLEU(references=REFS)
        out = [key(metric.corpus_score(HYPS, None))]
        metric.lowercase = True
        out.append(key(metric.corpus_score(HYPS, None)))
        metric.max_ngram_order = 6
        out.append(key(metric.corpus_score(HYPS, None)))
        return out

    want = run()
    patching.patch("sacrebleu")
    assert run() == want
