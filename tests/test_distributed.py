"""turbobleu.distributed with two real gloo processes (torch.multiprocessing.spawn): the corpus
score of data spread unevenly over the ranks equals the single-process score of all of it."""

from __future__ import annotations

import pickle
import socket
from pathlib import Path
from typing import Any, Dict

import pytest

torch = pytest.importorskip("torch")
dist = pytest.importorskip("torch.distributed")
if not dist.is_available() or not dist.is_gloo_available():
    pytest.skip("torch.distributed with gloo is not available", allow_module_level=True)

import numpy as np  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402

import turbobleu  # noqa: E402
from conftest import (  # noqa: E402
    FIXTURE_DATA,
    FULL_MATRIX,
    HAVE_SHARED_DATA,
    IMPLEMENTATION,
    read_lines,
)
from scale_helpers import (  # noqa: E402
    CONFIGS,
    GENERATED_CONFIGS,
    assert_same,
    cached_generated_rows,
    cached_wmt23_rows,
    check_wmt23,
    compiled_only,
    generated_expected,
    generated_rows,
    partition_sizes,
    wmt23_matrix,
)
from turbobleu import metric_registry  # noqa: E402
from turbobleu.aggregate import Totals  # noqa: E402
from turbobleu.distributed import (  # noqa: E402
    DistributedBLEU,
    all_gather_rows,
    all_gather_stats,
    all_reduce_stats,
    all_reduce_totals,
)

WORLD = 2
OTHER_METRICS = {"chrf": {"word_order": 2}, "ter": {"normalized": True}}


def fixture_he_en():
    directory = FIXTURE_DATA / "he-en"
    refs = [read_lines(directory / f"ref.{name}.en") for name in ("refA", "refB")]
    return read_lines(directory / "hyp.GPT4-5shot.en"), refs


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rank_share(n: int, rank: int):
    """Rank 0 gets a tenth of the rows, rank 1 the rest: uneven on purpose."""
    cut = n // 10
    return (0, cut) if rank == 0 else (cut, n)


def worker(rank: int, port: int, out: str, wmt23: bool, million: bool) -> None:
    dist.init_process_group(
        "gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=WORLD
    )
    results: Dict[str, Any] = {}
    # WMT23: one metric per (pair, system) and configuration, each rank with its share.
    if wmt23:
        data = cached_wmt23_rows()
        groups: Dict[Any, list] = {}
        for pair, system, hyp, refs in data:
            groups.setdefault((pair, system), []).append((hyp, list(refs)))
        for name, config in CONFIGS.items():
            scores = {}
            for group, rows in sorted(groups.items()):
                metric = DistributedBLEU(**config)
                a, b = rank_share(len(rows), rank)
                mine = rows[a:b]
                metric.update([h for h, _ in mine], [r for _, r in mine], per_row=True)
                scores[group] = metric.compute()
            results[f"wmt23:{name}"] = scores
    # The generated rows, split unevenly over the ranks and over update() calls (some
    # empty), in one metric per configuration.
    hyps, refs = cached_generated_rows() if million else generated_rows(20_000)
    a, b = rank_share(len(hyps), rank)
    for name in GENERATED_CONFIGS if million else []:
        metric = DistributedBLEU(**CONFIGS[name])
        start = a
        for size in partition_sizes(b - a):
            metric.update(hyps[start : start + size], [refs[start : start + size]])
            start += size
        results[f"generated:{name}"] = metric.compute()
    # chrF++ and TER of the he-en fixture (2 references), each rank with its share.
    fixture_hyps, fixture_refs = fixture_he_en()
    a2, b2 = rank_share(len(fixture_hyps), rank)
    for name, options in OTHER_METRICS.items():
        other = DistributedBLEU(metric=name, metric_options=options)
        other.update(fixture_hyps[a2:b2], [r[a2:b2] for r in fixture_refs])
        results[f"metric:{name}"] = other.compute()
        mine_rows = other.scorer.rows(fixture_hyps[a2:b2], [r[a2:b2] for r in fixture_refs])
        results[f"gathered:{name}"] = other.scorer.statistics(all_gather_rows(mine_rows))
    # The BLEUStats functions.
    metric = turbobleu.BLEU()
    mine = metric.corpus_stats(hyps[a : a + 1000], [refs[a : a + 1000]])
    results["reduced"] = all_reduce_stats(mine).rows()
    results["gathered"] = all_gather_stats(mine).rows()
    results["empty"] = all_reduce_totals(Totals.zero(4) if rank else Totals([1] * 10, 1, 1, 1))
    if rank == 0:
        Path(out).write_bytes(pickle.dumps(results))
    dist.barrier()
    dist.destroy_process_group()


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Dict[str, Any]:
    out = tmp_path_factory.mktemp("dist") / "results.pkl"
    heavy = HAVE_SHARED_DATA and FULL_MATRIX, IMPLEMENTATION == "cython"
    mp.spawn(worker, args=(free_port(), str(out), *heavy), nprocs=WORLD, join=True)
    return pickle.loads(out.read_bytes())


@wmt23_matrix
def test_wmt23_two_ranks_equal_single_process(results, config_name: str) -> None:
    check_wmt23(results[f"wmt23:{config_name}"], config_name)


@compiled_only
@pytest.mark.parametrize("config_name", GENERATED_CONFIGS)
def test_generated_rows_two_ranks(results, config_name: str) -> None:
    hyps, _ = cached_generated_rows()
    got = results[f"generated:{config_name}"]
    assert_same(got, generated_expected(config_name), len(hyps), config_name)


def test_bleu_stats_reduce_and_gather(results) -> None:
    hyps, refs = cached_generated_rows() if IMPLEMENTATION == "cython" else generated_rows(20_000)
    n = len(hyps)
    cut = n // 10
    parts = [
        turbobleu.BLEU().corpus_stats(hyps[a : a + 1000], [refs[a : a + 1000]]) for a in (0, cut)
    ]
    whole = turbobleu.BLEUStats.merge(parts)
    assert results["reduced"] == [whole.total()]
    assert results["gathered"] == whole.rows()
    assert results["empty"] == Totals([1] * 10, 1, 1, 1)


@pytest.mark.parametrize("name", list(OTHER_METRICS))
def test_chrf_and_ter_two_ranks_equal_sacrebleu(results, name: str) -> None:
    import sacrebleu

    hyps, refs = fixture_he_en()
    oracle = {"chrf": sacrebleu.metrics.CHRF, "ter": sacrebleu.metrics.TER}[name]
    metric = oracle(**OTHER_METRICS[name])
    want = metric.corpus_score(hyps, refs)
    got = results[f"metric:{name}"]
    assert (got.score, str(got), got.segments) == (want.score, str(want), len(hyps))
    assert str(got.signature) == str(metric.get_signature())
    # every rank's segment rows, gathered: the single process's corpus_stats
    single = metric_registry.make_metric(name, OTHER_METRICS[name]).corpus_stats(hyps, refs)
    assert np.array_equal(results[f"gathered:{name}"], single)


def test_without_process_group_the_local_totals() -> None:
    metric = DistributedBLEU(tokenize="intl")
    metric.update(["the cat sat"], [["the cat sat on"]])
    metric.update([], [[]])
    got = metric.compute()
    want = turbobleu.corpus_bleu(["the cat sat"], [["the cat sat on"]], tokenize="intl")
    assert_same(got, want, 1, "local")
    with pytest.raises(TypeError, match="either a scorer or its options"):
        DistributedBLEU(metric.scorer, tokenize="13a")
