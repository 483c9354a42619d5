"""turbobleu.patching with the "nltk" patch: code that goes through nltk's modules at call time
gets turbobleu's functions, with NLTK's results; unpatch restores NLTK."""

from __future__ import annotations

import importlib
import warnings

import pytest

nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")
nltk = importlib.import_module("nltk")
nltk_translate = importlib.import_module("nltk.translate")

from conftest import unpatched_around_each_test  # noqa: E402
from turbobleu import nltk as tb  # noqa: E402
from turbobleu import patching  # noqa: E402

NAMES = (
    "sentence_bleu",
    "corpus_bleu",
    "modified_precision",
    "closest_ref_length",
    "brevity_penalty",
    "SmoothingFunction",
    "Fraction",
)


always_unpatched = unpatched_around_each_test("nltk", before=True)


def test_patch_rebinds_every_name_and_alias_and_unpatch_restores() -> None:
    originals = {name: getattr(nltk_bleu, name) for name in NAMES}
    assert nltk.bleu is originals["sentence_bleu"]  # NLTK's own aliases
    assert nltk_translate.bleu is originals["sentence_bleu"]
    patching.patch("nltk")
    assert patching.is_patched("nltk")
    for name in NAMES:
        assert getattr(nltk_bleu, name) is getattr(tb, name), name
    assert nltk.bleu is tb.sentence_bleu and nltk_translate.bleu is tb.sentence_bleu
    patching.patch("nltk")  # idempotent
    patching.unpatch("nltk")
    assert not patching.is_patched("nltk")
    for name in NAMES:
        assert getattr(nltk_bleu, name) is originals[name], name
    assert nltk.bleu is originals["sentence_bleu"] and nltk_translate.bleu is nltk.bleu
    patching.unpatch("nltk")  # a no-op when not patched


def test_patched_code_gives_nltk_numbers() -> None:
    refs = [["the", "cat", "is", "on", "the", "mat"], ["there", "is", "a", "cat", "here"]]
    hyp = ["the", "cat", "sat", "on", "the", "mat"]

    def user_code():  # looks everything up through the module, at call time
        sf = nltk_bleu.SmoothingFunction()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return [
                nltk_bleu.sentence_bleu(refs, hyp, smoothing_function=getattr(sf, f"method{i}"))
                for i in range(8)
            ] + [nltk_bleu.corpus_bleu([refs, refs], [hyp, hyp[:3]]), nltk.bleu(refs, hyp)]

    want = user_code()
    with patching.patched("nltk"):
        assert nltk_bleu.sentence_bleu is tb.sentence_bleu
        got = user_code()
    assert nltk_bleu.sentence_bleu is not tb.sentence_bleu
    assert got == want


def test_nltk_functions_bound_before_the_patch_still_work_with_patched_globals() -> None:
    """NLTK's original corpus_bleu, called after the patch, finds turbobleu's helpers in its
    module globals; the results do not change."""
    original = nltk_bleu.corpus_bleu
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = original([[["a", "b", "c", "d"]]], [["a", "b", "c", "x"]])
        with patching.patched("nltk"):
            got = original([[["a", "b", "c", "d"]]], [["a", "b", "c", "x"]])
    assert got == want


def test_sacrebleu_patch_is_found_without_importing_its_module_first() -> None:
    import subprocess
    import sys

    code = (
        "from turbobleu import patching; import sys; "
        "assert 'turbobleu.sacrebleu._patch' not in sys.modules; "
        "assert patching.available_patches() == "
        "['evaluate', 'nltk', 'pycocoevalcap', 'sacrebleu', 'torchmetrics']; "
        "assert patching.is_patched('sacrebleu') is False; print('ok')"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "ok", result.stderr


def test_unknown_patch_names_and_registration() -> None:
    assert "nltk" in patching.available_patches()
    with pytest.raises(ValueError, match="unknown patch"):
        patching.patch("no-such-library")
    patching.register_attribute_patch("test-dummy", "json", lambda: {"dumps": repr})
    try:
        import json

        original = json.dumps
        with patching.patched("test-dummy"):
            assert json.dumps is repr
        assert json.dumps is original
        patching.register_attribute_patch("test-bad", "json", lambda: {"no_such_function": repr})
        with pytest.raises(AttributeError, match="no_such_function"):
            patching.patch("test-bad")
        patching.register_attribute_patch("test-missing", "no_such_module_xyz", dict)
        with pytest.raises(ImportError, match="no_such_module_xyz"):
            patching.patch("test-missing")
        state = []
        patching.register_patch(
            "test-callables", lambda: state.append("on"), lambda: state.clear(), lambda: bool(state)
        )
        with patching.patched("test-callables"):
            assert patching.is_patched("test-callables") and state == ["on"]
        assert not patching.is_patched("test-callables")
        with pytest.raises(TypeError, match="apply must be callable"):
            patching.register_patch("test-bad", None, state.clear, bool)
    finally:
        for name in ("test-dummy", "test-bad", "test-missing", "test-callables"):
            patching._REGISTRY.pop(name, None)
