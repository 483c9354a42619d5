"""``turbobleu.patch("evaluate")``: the real ``evaluate.load`` (and the names code reaches it by:
``evaluate.loading.load``, the evaluator's own import, the command line's) returns turbobleu's
metric modules for ``bleu``, ``chrf``, ``ter``, ``sacrebleu`` and ``google_bleu`` (also as
``evaluate-metric/<name>``) without touching the Hub, passes everything else to evaluate, and
``unpatch`` puts the original back. Skipped without the ``evaluate`` package."""

from __future__ import annotations

import sys
from types import SimpleNamespace
from typing import Any, Iterator, List

import pytest

evaluate = pytest.importorskip("evaluate", reason="the evaluate package is not installed")

import turbobleu  # noqa: E402
from turbobleu import evaluate as tbe  # noqa: E402
from turbobleu.patching import available_patches, is_patched  # noqa: E402

COVERED = ["bleu", "chrf", "ter", "sacrebleu", "google_bleu"]


class HubReached(Exception):
    """Raised where evaluate would start looking for a module (local path or Hub)."""


@pytest.fixture()
def no_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[List[Any]]:
    """evaluate's module lookup replaced by a recorder that raises: a covered name must never
    get there; any other name must."""
    calls: List[Any] = []

    def factory(path: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(path)
        raise HubReached(path)

    monkeypatch.setattr(evaluate.loading, "evaluation_module_factory", factory)
    yield calls


@pytest.fixture()
def patched_evaluate() -> Iterator[None]:
    was = is_patched("evaluate")
    turbobleu.patch("evaluate")
    try:
        yield
    finally:
        if not was:
            turbobleu.unpatch("evaluate")


def _aliases() -> List[Any]:
    modules = [evaluate, evaluate.loading, sys.modules["evaluate.evaluator.base"]]
    return [module.load for module in modules]


def test_evaluate_is_an_available_patch() -> None:
    assert "evaluate" in available_patches()


@pytest.mark.parametrize("prefix", ["", "evaluate-metric/"])
@pytest.mark.parametrize("name", COVERED)
def test_covered_names_load_turbobleu_without_the_hub(
    no_hub: List[Any], patched_evaluate: None, name: str, prefix: str
) -> None:
    for load in _aliases():
        module = load(prefix + name)
        assert type(module) is type(tbe.load(name)) and module.name == name
    assert evaluate.load(prefix + name, module_type="metric").name == name
    assert no_hub == []


def test_the_loaded_module_computes_what_turbobleu_computes(
    no_hub: List[Any], patched_evaluate: None
) -> None:
    predictions = ["the cat sat on the mat", "a dog"]
    references = [["the cat is on the mat", "a cat sat"], ["a dog barks", "the dog"]]
    for name in COVERED:
        got = evaluate.load(name).compute(predictions=predictions, references=references)
        want = tbe.load(name).compute(predictions=predictions, references=references)
        assert got == want, name


def test_other_names_and_other_kinds_go_to_evaluate(
    no_hub: List[Any], patched_evaluate: None
) -> None:
    with pytest.raises(HubReached):
        evaluate.load("rouge")
    with pytest.raises(HubReached):
        evaluate.load("bleu", module_type="comparison")
    with pytest.raises(HubReached):
        evaluate.load("sacrebleu", num_process=2, process_id=0)  # evaluate's gathering
    with pytest.raises(HubReached):
        evaluate.load("sacrebleu", None, None, 0, 2)
    assert no_hub == ["rouge", "bleu", "sacrebleu", "sacrebleu"]


def test_the_evaluator_loads_through_the_patch(no_hub: List[Any], patched_evaluate: None) -> None:
    base = sys.modules["evaluate.evaluator.base"]
    evaluator = SimpleNamespace(default_metric_name="sacrebleu")
    assert base.Evaluator.prepare_metric(evaluator, None).name == "sacrebleu"
    assert base.Evaluator.prepare_metric(evaluator, "google_bleu").name == "google_bleu"
    assert no_hub == []


def test_unpatch_restores_every_alias(no_hub: List[Any]) -> None:
    was = is_patched("evaluate")
    turbobleu.unpatch("evaluate")
    try:
        originals = _aliases()
        assert len({id(load) for load in originals}) == 1
        with turbobleu.patched("evaluate"):
            assert is_patched("evaluate")
            patched = _aliases()
            assert len({id(load) for load in patched}) == 1 and patched[0] is not originals[0]
            assert patched[0].__wrapped__ is originals[0]
        assert not is_patched("evaluate")
        assert _aliases() == originals
        with pytest.raises(HubReached):
            evaluate.load("sacrebleu")  # evaluate's own again
    finally:
        if was:
            turbobleu.patch("evaluate")
