"""turbobleu.torchmetrics under two gloo ranks (torch.multiprocessing.spawn, CPU): the states
synchronised by torchmetrics' own DDP sum, and so every score, equal to one process over all the
data (turbobleu's and torchmetrics' own)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any, Dict

import pytest

torch = pytest.importorskip("torch", reason="turbobleu.torchmetrics needs torch")
pytest.importorskip("torchmetrics", reason="the oracle, torchmetrics, is missing")
dist = pytest.importorskip("torch.distributed")
if not dist.is_available() or not dist.is_gloo_available():
    pytest.skip("torch.distributed with gloo is not available", allow_module_level=True)

import torch.multiprocessing as mp  # noqa: E402
from torchmetrics.text import BLEUScore as TMBLEUScore  # noqa: E402
from torchmetrics.text import SacreBLEUScore as TMSacreBLEUScore  # noqa: E402
from torchmetrics_support import STATES, batches, free_port, random_corpus, same_tensor  # noqa: E402

from turbobleu.torchmetrics import BLEUScore, SacreBLEUScore  # noqa: E402

WORLD = 2
SEGMENTS = 400


def metrics() -> Dict[str, Any]:
    return {
        "bleu": BLEUScore(),
        "bleu-smooth-bigram": BLEUScore(n_gram=2, smooth=True),
        "sacre-intl-lc": SacreBLEUScore(tokenize="intl", lowercase=True),
    }


def oracles() -> Dict[str, Any]:
    return {
        "bleu": TMBLEUScore(),
        "bleu-smooth-bigram": TMBLEUScore(n_gram=2, smooth=True),
        "sacre-intl-lc": TMSacreBLEUScore(tokenize="intl", lowercase=True),
    }


def worker(rank: int, port: int, out: str) -> None:
    torch.set_num_threads(1)
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD
    )
    preds, target = random_corpus(2024, SEGMENTS)
    cut = SEGMENTS // 10  # rank 0 gets a tenth: uneven on purpose
    mine = slice(0, cut) if rank == 0 else slice(cut, SEGMENTS)
    results: Dict[str, Any] = {}
    for name, metric in metrics().items():
        for p, t in zip(batches(preds[mine], 48), batches(target[mine], 48)):
            metric.update(p, t)
        score = metric.compute()  # synchronised over the ranks
        with metric.sync_context():
            states = {s: getattr(metric, s).clone() for s in STATES}
        results[name] = (score, states)
    if rank == 0:
        Path(out).write_bytes(pickle.dumps(results))
    dist.barrier()
    dist.destroy_process_group()


def test_two_ranks_equal_one_process(tmp_path: Path) -> None:
    out = tmp_path / "results.pkl"
    mp.spawn(worker, args=(free_port(), str(out)), nprocs=WORLD, join=True)
    results = pickle.loads(out.read_bytes())
    preds, target = random_corpus(2024, SEGMENTS)
    for (name, single), oracle in zip(metrics().items(), oracles().values()):
        for metric in (single, oracle):
            for p, t in zip(batches(preds, 48), batches(target, 48)):
                metric.update(p, t)
        score, states = results[name]
        for state in STATES:
            same_tensor(states[state], getattr(oracle, state), f"{name} {state}")
        same_tensor(score, single.compute(), name)
        same_tensor(score, oracle.compute(), name)
