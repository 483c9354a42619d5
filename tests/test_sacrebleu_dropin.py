"""``import turbobleu.sacrebleu as sacrebleu`` is the whole migration for sacrebleu's BLEU API.

The same user code runs against the real sacrebleu and against the stand-in, and everything it
reads (scores, statistics, text, JSON, signatures, class constants) must be identical. The
deliberate differences (errors instead of silent truncation) are checked too.
"""

from __future__ import annotations

import importlib
import json
from types import ModuleType
from typing import Any, List

import pytest
import sacrebleu as real

import turbobleu
import turbobleu.sacrebleu as standin
from conftest import FIXTURE_DATA, assert_same_score, read_lines

PAIR = FIXTURE_DATA / "he-en"
HYPS = read_lines(PAIR / "hyp.GPT4-5shot.en")
HYPS_B = read_lines(PAIR / "hyp.NLLB_Greedy.en")
REFS = [read_lines(PAIR / "ref.refA.en"), read_lines(PAIR / "ref.refB.en")]
MIXED = FIXTURE_DATA / "mixed"


def user_code(sacrebleu: ModuleType) -> List[Any]:
    """What evaluation code typically does with sacrebleu's BLEU API; returns what it reads."""
    out: List[Any] = [sacrebleu.__version__]
    score = sacrebleu.corpus_bleu(HYPS, REFS)
    out += [
        score.score,
        score.counts,
        score.totals,
        score.precisions,
        score.bp,
        score.sys_len,
        score.ref_len,
        score.ratio,
        str(score),
        score.format(width=4, score_only=True),
    ]
    out.append(str(sacrebleu.corpus_bleu(HYPS, [REFS[0]], lowercase=True, tokenize="intl")))
    out.append(str(sacrebleu.raw_corpus_bleu(HYPS, REFS)))
    out.append(str(sacrebleu.raw_corpus_bleu(HYPS, REFS, 0.5)))
    out.append(str(sacrebleu.compat.corpus_bleu(HYPS, REFS, smooth_method="add-k", smooth_value=2)))
    out += [sacrebleu.sentence_bleu(h, [a, b]).score for h, a, b in zip(HYPS, *REFS)]
    out += [
        sacrebleu.sentence_bleu(
            h, [a], smooth_method="floor", tokenize="char", use_effective_order=False
        ).score
        for h, a in zip(HYPS[:20], REFS[0])
    ]

    metric = sacrebleu.metrics.BLEU(
        lowercase=True, tokenize="zh", max_ngram_order=3, smooth_method="floor", smooth_value=0.01
    )
    result = metric.corpus_score(HYPS, REFS)
    signature = metric.get_signature()
    out += [
        str(result),
        str(signature),
        signature.format(short=True),
        result.format(signature=str(signature)),
        json.loads(result.format(signature=str(signature), is_json=True)),
    ]
    cached = sacrebleu.BLEU(references=REFS, trg_lang="en")
    out += [
        str(cached.corpus_score(HYPS, None)),
        str(cached.corpus_score(HYPS_B, None)),
        cached.num_refs,
        str(cached.get_signature()),
    ]
    sentence = sacrebleu.metrics.bleu.BLEU(effective_order=True)
    out += [str(sentence.sentence_score(h, [a, b])) for h, a, b in zip(HYPS[:10], *REFS)]
    with_none = [REFS[0], [None if i % 3 else r for i, r in enumerate(REFS[1])]]
    variable = sacrebleu.BLEU()
    out += [str(variable.corpus_score(HYPS, with_none)), str(variable.get_signature())]
    boot = sacrebleu.BLEU()
    boot_score = boot.corpus_score(HYPS, REFS, n_bootstrap=40)
    out += [str(boot_score), boot_score._mean, boot_score._ci, str(boot.get_signature())]

    # Class constants and the static score formula, called positionally as sacrebleu's tests do.
    cls = sacrebleu.metrics.BLEU
    out += [
        dict(cls.SMOOTH_DEFAULTS),
        list(cls.TOKENIZERS),
        cls.TOKENIZER_DEFAULT,
        dict(cls._TOKENIZER_MAP),
        sacrebleu.metrics.bleu.MAX_NGRAM_ORDER,
        sorted(sacrebleu.metrics.METRICS)[:1],
    ]
    correct, total = [5, 3, 1, 0], [8, 7, 6, 5]
    for method in ("none", "floor", "add-k", "exp"):
        got = cls.compute_bleu(correct[:], total[:], 8, 9, method, None, True, 4)
        out += [got.score, got.counts, got.totals, got.precisions, str(got)]
    mutated_c, mutated_t = [2, 1, 0, 0], [3, 2, 1, 0]
    add_k = cls.compute_bleu(mutated_c, mutated_t, 3, 3, smooth_method="add-k")
    out += [mutated_c, mutated_t, add_k.counts is mutated_c, add_k.score]
    out.append(cls.compute_bleu([0, 0, 0, 0], [4, 3, 2, 1], 4, 4).score)
    out.append(cls(tokenize="intl").tokenizer("Hello, world. 2019. "))
    out.append(cls(tokenize="13a", lowercase=True)._preprocess_segment("Hello, World!  "))
    return out


def test_same_user_code_same_results() -> None:
    got, want = user_code(standin), user_code(real)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g == w, f"item {i}: turbobleu.sacrebleu {g!r} != sacrebleu {w!r}"


def test_mixed_scripts_with_every_fast_tokenizer() -> None:
    hyps = read_lines(MIXED / "hyp.sysA.mix")
    refs = [read_lines(MIXED / "ref.refA.mix")]
    for tok in ("13a", "intl", "zh", "char", "none"):
        for lowercase in (False, True):
            g = standin.corpus_bleu(hyps, refs, tokenize=tok, lowercase=lowercase)
            w = real.corpus_bleu(hyps, refs, tokenize=tok, lowercase=lowercase)
            assert_same_score(g, w, f"{tok} lowercase={lowercase}")


def test_import_forms() -> None:
    from turbobleu.sacrebleu import BLEU, BLEUScore, corpus_bleu, raw_corpus_bleu, sentence_bleu
    from turbobleu.sacrebleu.compat import corpus_bleu as compat_corpus_bleu
    from turbobleu.sacrebleu.metrics import BLEU as MetricsBLEU
    from turbobleu.sacrebleu.metrics import METRICS
    from turbobleu.sacrebleu.metrics.bleu import BLEU as BleuBLEU
    from turbobleu.sacrebleu.metrics.bleu import MAX_NGRAM_ORDER

    assert BLEU is MetricsBLEU is BleuBLEU is METRICS["BLEU"] is standin.metrics.BLEU
    assert issubclass(BLEU, turbobleu.BLEU) and BLEUScore is turbobleu.BLEUScore
    assert corpus_bleu is compat_corpus_bleu is turbobleu.corpus_bleu
    assert sentence_bleu is turbobleu.sentence_bleu and raw_corpus_bleu is turbobleu.raw_corpus_bleu
    assert MAX_NGRAM_ORDER == 4 and standin.__version__ == real.__version__
    assert isinstance(standin.corpus_bleu(["a"], [["a"]]), standin.BLEUScore)
    assert importlib.import_module("turbobleu.sacrebleu.metrics.bleu").BLEU is BLEU


def test_length_mismatch_raises_instead_of_truncating() -> None:
    """The documented difference: sacrebleu scores the first 5 segments; turbobleu refuses."""
    real.corpus_bleu(HYPS[:5], REFS)
    with pytest.raises(ValueError, match="sacrebleu would silently truncate"):
        standin.corpus_bleu(HYPS[:5], REFS)
    with pytest.raises(ValueError, match="sacrebleu would silently truncate"):
        standin.BLEU(references=REFS).corpus_score(HYPS[:5], None)
    assert any("truncat" in d for d in standin.DIFFERENCES)


@pytest.mark.parametrize(
    ("name", "module"),
    [("significance", "turbobleu.sacrebleu.significance"), ("utils", "turbobleu.sacrebleu.utils")],
)
def test_the_other_modules_load_on_first_use(name: str, module: str) -> None:
    """What sacrebleu has besides its metrics is here too (tests/test_sacrebleu_dropin_names.py
    walks all of it); an unknown name is still an AttributeError."""
    assert getattr(standin, name) is importlib.import_module(module)
    assert name in dir(standin) and "DATASETS" in dir(standin)
    with pytest.raises(AttributeError, match="has no attribute 'nonsense'"):
        standin.nonsense  # noqa: B018


def test_ter_where_code_imports_it() -> None:
    """TER by every path sacrebleu code reaches it, with sacrebleu's scores and text."""
    from turbobleu.sacrebleu.metrics.ter import TER as by_path
    from turbobleu.sacrebleu.tokenizers.tokenizer_ter import TercomTokenizer

    assert standin.TER is standin.metrics.TER is by_path is standin.compat.TER
    assert standin.metrics.METRICS["TER"] is by_path
    for options in ({}, {"normalized": True, "case_sensitive": True}):
        got = standin.corpus_ter(HYPS, REFS, **options)
        want = real.corpus_ter(HYPS, REFS, **options)
        assert_same_score(got, want, str(options))
        metric, real_metric = standin.TER(**options), real.TER(**options)
        assert metric._preprocess_segment("It's a Test.  ") == real_metric._preprocess_segment(
            "It's a Test.  "
        )
        assert metric.tokenizer.signature() == real_metric.tokenizer.signature()
        got_s = standin.sentence_ter(HYPS[0], [r[0] for r in REFS], **options)
        assert str(got_s) == str(real.sentence_ter(HYPS[0], [r[0] for r in REFS], **options))
    text = "A &amp; B's (test), 3.5!"
    assert TercomTokenizer(True, True)(text) == real.tokenizers.tokenizer_ter.TercomTokenizer(
        True, True
    )(text)


def test_compute_bleu_rejects_unknown_smoothing() -> None:
    with pytest.raises(ValueError, match="unknown smooth_method='nist'"):
        standin.BLEU.compute_bleu([1, 0, 0, 0], [1, 0, 0, 0], 1, 1, "nist")
