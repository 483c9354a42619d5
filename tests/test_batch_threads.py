"""Threads: results do not depend on ``threads=``, and concurrent calls from several Python
threads give what serial calls give (the kernels release the GIL and share nothing mutable)."""

from __future__ import annotations

import ast
import threading
import typing
from pathlib import Path

import numpy as np
import pytest

from turbobleu import NLTKRecipe, ReferenceSets, self_bleu, sentence_bleu_batch
from turbobleu import batch as batch_module
from turbobleu import pairwise as pairwise_module
from turbobleu._engine import threads as threads_module
from turbobleu.batch import default_threads


def workload(seed: int, prompts: int = 40, samples: int = 16, length: int = 24):
    rng = np.random.default_rng(seed)
    refs = rng.integers(0, 40, size=(prompts, 4, length))
    hyps = np.repeat(refs[:, 0, :], samples, axis=0)
    hyps = np.where(rng.random(hyps.shape) < 0.35, rng.integers(0, 40, size=hyps.shape), hyps)
    return hyps, refs


def test_thread_count_does_not_change_results():
    hyps, refs = workload(0)
    expanded = np.repeat(refs, 16, axis=0)
    prepared = ReferenceSets(refs, max_order=5, threads=1)
    rec = NLTKRecipe(smoothing_function=7)
    base = [
        sentence_bleu_batch(hyps, expanded, threads=1, return_stats=True),
        sentence_bleu_batch(hyps, expanded, rec, threads=1),
        prepared.score(hyps, rec, group_size=16, threads=1),
        self_bleu(hyps[:300], threads=1),
    ]
    assert len(hyps) >= 4 * batch_module._MIN_CHUNK  # several chunks really run
    for threads in (2, 3, 8):
        again = ReferenceSets(refs, max_order=5, threads=threads)  # chunked build
        assert np.array_equal(again._table, prepared._table)
        scores, rows = sentence_bleu_batch(hyps, expanded, threads=threads, return_stats=True)
        assert np.array_equal(rows, base[0][1]) and scores.tolist() == base[0][0].tolist()
        assert (
            sentence_bleu_batch(hyps, expanded, rec, threads=threads).tolist() == base[1].tolist()
        )
        assert again.score(hyps, rec, group_size=16, threads=threads).tolist() == base[2].tolist()
        assert self_bleu(hyps[:300], threads=threads).tolist() == base[3].tolist()


def test_concurrent_python_threads_equal_serial():
    jobs = [workload(seed, prompts=12) for seed in range(8)]
    prepared = [ReferenceSets(refs, threads=1) for _, refs in jobs]
    serial = [
        (
            sentence_bleu_batch(h, np.repeat(r, 16, axis=0), threads=2),
            prepared[i].score(h, group_size=16, threads=2),
        )
        for i, (h, r) in enumerate(jobs)
    ]
    results = [None] * len(jobs)
    errors = []
    barrier = threading.Barrier(len(jobs))

    def run(i: int) -> None:
        try:
            hyps, refs = jobs[i]
            barrier.wait()
            out = []
            for _ in range(3):
                out.append(
                    (
                        sentence_bleu_batch(hyps, np.repeat(refs, 16, axis=0), threads=2),
                        prepared[i].score(hyps, group_size=16, threads=2),
                        prepared[0].score(jobs[0][0], group_size=16, threads=2),
                    )
                )
            results[i] = out
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    for i, out in enumerate(results):
        for flat, grouped, shared in out:
            assert flat.tolist() == serial[i][0].tolist()
            assert grouped.tolist() == serial[i][1].tolist()
            assert shared.tolist() == serial[0][1].tolist()


def test_default_threads(monkeypatch):
    monkeypatch.setenv("TURBOBLEU_NUM_THREADS", "3")
    assert default_threads() == 3
    monkeypatch.setenv("TURBOBLEU_NUM_THREADS", "zero")
    with pytest.raises(ValueError, match="TURBOBLEU_NUM_THREADS"):
        default_threads()
    monkeypatch.delenv("TURBOBLEU_NUM_THREADS")
    assert default_threads() >= 1


def test_errors_name_the_global_row_when_chunked():
    """Lists are packed chunk by chunk: a bad item in a later chunk is still named by its row."""
    hyps, refs = workload(1)
    hyp_list = hyps.tolist()
    ref_list = np.repeat(refs, 16, axis=0).tolist()
    hyp_list[600][3] = -7
    with pytest.raises(ValueError, match=r"hypotheses\[600\]\[3\] = -7"):
        sentence_bleu_batch(hyp_list, ref_list, threads=2)
    hyp_list[600][3] = 1
    ref_list[601][2][0] = 2**31
    with pytest.raises(ValueError, match=r"references\[601\]\[2\]\[0\] = 2147483648"):
        sentence_bleu_batch(hyp_list, ref_list, threads=2)
    ref_list[601] = []
    with pytest.raises(ValueError, match=r"references\[601\] has no reference"):
        sentence_bleu_batch(hyp_list, ref_list, threads=2)
    prepared = ReferenceSets(refs, threads=2)
    hyp_list[599] = [1, "x"]
    with pytest.raises(TypeError, match=r"hypotheses\[599\]\[1\] must be an integer"):
        prepared.score(hyp_list, group_size=16, threads=2)


def test_list_input_equals_array_input_across_threads():
    hyps, refs = workload(2)
    want = ReferenceSets(refs, threads=1).score(hyps, group_size=16, threads=1)
    for threads in (1, 2, 5):
        prepared = ReferenceSets(refs.tolist(), threads=threads)
        assert (
            prepared.score(hyps.tolist(), group_size=16, threads=threads).tolist() == want.tolist()
        )
        flat = sentence_bleu_batch(
            hyps.tolist(), np.repeat(refs, 16, axis=0).tolist(), threads=threads
        )
        assert flat.tolist() == want.tolist()


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs os.fork")
def test_forked_child_gets_working_pools():
    """A pool made before a fork has no threads in the child: the child must not hang."""
    import os

    hyps, refs = workload(3, prompts=20)
    expanded = np.repeat(refs, 16, axis=0)
    want = sentence_bleu_batch(hyps, expanded, threads=2)  # creates the 2-thread pool
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: score again on the inherited module state, report, exit at once
        import signal

        signal.alarm(30)  # a hang (the bug this guards against) kills the child: EOF below
        try:
            got = sentence_bleu_batch(hyps, expanded, threads=2)
            os.write(write, b"1" if got.tolist() == want.tolist() else b"0")
        finally:
            os._exit(0)
    os.close(write)
    try:
        status = os.read(read, 1)
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    assert status == b"1"


def test_chunk_bounds_cover_the_rows_in_order():
    """The engine's chunking (batch, pairwise): consecutive, complete, at most 4 per thread, none
    below its minimum of work, one chunk on one thread."""
    for start, end, threads, min_units, per_row in [
        (0, 0, 4, 128, 1),
        (0, 255, 4, 128, 1),
        (0, 256, 4, 128, 1),
        (5, 10_005, 3, 128, 1),
        (7, 9, 8, 1, 1),
        (0, 40, 2, 8192, 500),
        (0, 1000, 1, 1, 1),
    ]:
        bounds = threads_module.chunk_bounds(start, end, threads, min_units, per_row)
        assert bounds[0] == start and bounds[-1] == end
        assert all(a < b for a, b in zip(bounds, bounds[1:])) or end == start
        chunks = len(bounds) - 1
        assert chunks <= max(1, 4 * threads) and (threads > 1 or chunks == 1)
        if chunks > 1:
            assert min(b - a for a, b in zip(bounds, bounds[1:])) * per_row >= min_units // 2
    assert len(threads_module.chunk_bounds(0, 255, 4)) == 2  # below 2 * 128 rows: one chunk
    assert len(threads_module.chunk_bounds(0, 40, 2, 8192, 500)) == 3  # 20000 cells: two
    calls = []
    out = threads_module.run_chunks(3, 1003, 2, lambda a, b: calls.append((a, b)) or (a, b), 100)
    assert out == sorted(calls) and out[0][0] == 3 and out[-1][1] == 1003 and len(out) == 8


def test_pairwise_imports_nothing_private_from_batch():
    """pairwise shares batch's recipes and the engine's chunking through public names only."""
    tree = ast.parse(Path(pairwise_module.__file__).read_text(encoding="utf-8"))
    private = [
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("turbobleu")
        for alias in node.names
        if alias.name.startswith("_")
    ]
    assert private == []


def test_batch_recipe_keeps_its_old_name():
    assert batch_module.Recipe is batch_module.SentenceBLEURecipe
    assert typing.get_args(batch_module.SentenceBLEURecipe) == (
        batch_module.SacreBLEURecipe,
        batch_module.NLTKRecipe,
    )
