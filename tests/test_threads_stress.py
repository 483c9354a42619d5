"""Eight threads through every API at once, each result equal to the serial one.

The compiled modules keep no state that only the GIL protects: memory kept between calls is per
thread (scratch.h), shared objects (a BLEU with cached references, ReferenceSets) are only read
while scoring, and the intl table is built once under a lock. Here, where no free-threaded
interpreter runs, the GIL still serialises Python code, so a tiny switch interval makes the
threads interleave as often as possible: between any two bytecodes, and around every stretch of
compiled work that releases the GIL. Re-entrant calls run too: tokens whose ``__hash__`` and
``__eq__`` call turbobleu, a str subclass whose ``lower()`` does, and a gc callback that does.
"""

from __future__ import annotations

import gc
import random
import sys
import threading
from typing import Any, Callable, Dict, List

import pytest

import turbobleu
import turbobleu.evaluate as tb_evaluate
import turbobleu.nltk as tb_nltk
from turbobleu.tokenizers import get_tokenizer

THREADS = 8
COMPILED = turbobleu.implementation == "cython"
ROUNDS = 25 if COMPILED else 2  # each task, per thread (the twins are much slower)
WORDS = (
    "the cat sat on mat a dog ran home . , ! über Straße café naïve 東京 大学 "
    "3.5 1,000 $ ( ) - don't U.S.A. 東 京 の 学生 Ελλάδα"
).split()


def sentence(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n))


def corpus(seed: int, n: int = 48) -> Any:
    rng = random.Random(seed)
    hyps = [sentence(rng, rng.randint(0, 18)) for _ in range(n)]
    refs = [[sentence(rng, rng.randint(1, 18)) for _ in range(n)] for _ in range(2)]
    return hyps, refs


def sentence_of(score: Any) -> Any:
    return (score.score, score.counts, score.totals, score.sys_len, score.ref_len)


class CallsBack:
    """A token equal to its text, whose hash and == each score a sentence first (re-entrant
    calls into turbobleu from inside its interning)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __hash__(self) -> int:
        turbobleu.sentence_bleu(self.text + " a", [self.text + " b"])
        return hash(self.text)

    def __eq__(self, other: Any) -> bool:
        tb_nltk.sentence_bleu([["x", "y"]], ["x", "y"])
        return isinstance(other, CallsBack) and other.text == self.text


class LowerCallsBack(str):
    """A line whose lower() scores another sentence (re-entrant sentence_row)."""

    def lower(self) -> str:
        turbobleu.sentence_bleu(str(self)[::-1], [str(self)], lowercase=True)
        return str(self).lower()


def ids_of(lines: List[str]) -> List[List[int]]:
    vocab: Dict[str, int] = {}
    return [[vocab.setdefault(w, len(vocab)) for w in line.split()] for line in lines]


def build_tasks() -> Dict[str, Callable[[], Any]]:
    hyps, refs = corpus(1)
    hyps2, refs2 = corpus(2, 12)
    shared = turbobleu.BLEU(references=refs)
    shared_char = turbobleu.BLEU(references=refs2, tokenize="char")
    token_hyps = [line.split() for line in hyps]
    token_refs = [[r[i].split() for r in refs] for i in range(len(hyps))]
    odd_hyps = [[CallsBack(w) for w in h] for h in token_hyps[:6]]
    odd_refs = [[[CallsBack(w) for w in r] for r in rs] for rs in token_refs[:6]]
    hyp_ids = ids_of(hyps + [r for stream in refs for r in stream])
    n = len(hyps)
    id_hyps = hyp_ids[:n]
    id_refs = [[hyp_ids[n + k * n + i] for k in range(len(refs))] for i in range(n)]
    id_refs = [[r if r else [0] for r in group] for group in id_refs]
    ref_sets = turbobleu.ReferenceSets(id_refs)
    text_sets = turbobleu.ReferenceSets([[r[i] for r in refs] for i in range(n)])
    odd_lines = [LowerCallsBack(line) for line in hyps[:6]]

    tasks: Dict[str, Callable[[], Any]] = {}
    for name in ("13a", "intl", "zh", "char", "none"):
        tasks[f"corpus_bleu {name}"] = lambda name=name: sentence_of(
            turbobleu.corpus_bleu(hyps, refs, tokenize=name)
        )
        tasks[f"sentence_bleu {name}"] = lambda name=name: [
            sentence_of(
                turbobleu.sentence_bleu(h, [r[i] for r in refs], tokenize=name, lowercase=True)
            )
            for i, h in enumerate(hyps[:8])
        ]
        tokenizer = get_tokenizer(name)
        tasks[f"tokenizer {name}"] = lambda t=tokenizer: [t(h) for h in hyps]
    tasks["BLEU cached corpus_score"] = lambda: sentence_of(shared.corpus_score(hyps))
    tasks["BLEU cached corpus_score char"] = lambda: sentence_of(shared_char.corpus_score(hyps2))
    tasks["BLEU sentence_score"] = lambda: [
        sentence_of(shared.sentence_score(h, [r[i] for r in refs])) for i, h in enumerate(hyps[:8])
    ]
    tasks["BLEU sentence_scores"] = lambda: shared.sentence_scores(hyps, refs).tolist()
    tasks["nltk sentence_bleu"] = lambda: [
        tb_nltk.sentence_bleu(token_refs[i], token_hyps[i]) for i in range(8)
    ]
    tasks["nltk corpus_bleu"] = lambda: tb_nltk.corpus_bleu(token_refs, token_hyps)
    tasks["nltk re-entrant tokens"] = lambda: (
        tb_nltk.corpus_bleu(odd_refs, odd_hyps),
        [tb_nltk.sentence_bleu(odd_refs[i], odd_hyps[i]) for i in range(3)],
    )
    tasks["re-entrant lower()"] = lambda: (
        [
            sentence_of(turbobleu.sentence_bleu(line, [refs[0][i]], lowercase=True))
            for i, line in enumerate(odd_lines)
        ]
        + [sentence_of(turbobleu.corpus_bleu(odd_lines, [refs[0][:6]], lowercase=True))]
    )
    tasks["evaluate"] = lambda: tb_evaluate.compute(hyps, [[r[i] for r in refs] for i in range(n)])
    tasks["sentence_bleu_batch"] = lambda: turbobleu.sentence_bleu_batch(id_hyps, id_refs).tolist()
    tasks["sentence_bleu_batch nltk"] = lambda: turbobleu.sentence_bleu_batch(
        id_hyps, id_refs, recipe="nltk"
    ).tolist()
    tasks["ReferenceSets.score"] = lambda: ref_sets.score(id_hyps).tolist()
    tasks["ReferenceSets.score text"] = lambda: text_sets.score(hyps).tolist()
    chrf_pp = turbobleu.CHRF(word_order=2)
    tasks["corpus_chrf"] = lambda: turbobleu.corpus_chrf(hyps, refs).score
    tasks["corpus_chrf++ cached"] = lambda: chrf_pp.corpus_score(hyps, refs).score
    tasks["sentence_chrf"] = lambda: [
        turbobleu.sentence_chrf(h, [r[i] for r in refs], word_order=2).score
        for i, h in enumerate(hyps[:8])
    ]
    tasks["CHRF sentence_scores"] = lambda: chrf_pp.sentence_scores(hyps, refs).tolist()
    tasks["pairwise_chrf"] = lambda: turbobleu.pairwise_chrf(hyps[:8], refs[0][:8]).tolist()
    tasks["self_bleu"] = lambda: turbobleu.self_bleu(hyps).tolist()
    tasks["self_bleu ids"] = lambda: turbobleu.self_bleu(id_hyps, recipe="nltk").tolist()
    return tasks


@pytest.mark.filterwarnings("ignore")  # NLTK's zero-count warnings, from any thread
def test_eight_threads_through_every_api_match_the_serial_results() -> None:
    tasks = build_tasks()
    names = sorted(tasks)
    calls_in_gc: List[Any] = []

    def in_gc(phase: str, info: Any) -> None:
        # A gc callback that scores a sentence: a re-entrant call from anywhere an allocation
        # happens (only now and then, to keep the test short).
        if phase == "start" and len(calls_in_gc) < 200:
            calls_in_gc.append(sentence_of(turbobleu.sentence_bleu("a b c d", ["a b c e"])))

    want = {name: tasks[name]() for name in names}
    want_in_gc = sentence_of(turbobleu.sentence_bleu("a b c d", ["a b c e"]))
    got: List[Any] = []
    errors: List[BaseException] = []
    start = threading.Barrier(THREADS)

    def run(seed: int) -> None:
        order = list(names) * ROUNDS
        random.Random(seed).shuffle(order)
        try:
            start.wait()
            for name in order:
                got.append((name, tasks[name]()))
        except BaseException as exc:  # reported below, with the thread's result list
            errors.append(exc)

    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    gc.callbacks.append(in_gc)
    try:
        threads = [threading.Thread(target=run, args=(seed,)) for seed in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        gc.callbacks.remove(in_gc)
        sys.setswitchinterval(old_interval)
    assert not errors, errors
    assert len(got) == THREADS * ROUNDS * len(names)
    wrong = [name for name, value in got if value != want[name]]
    assert not wrong, sorted(set(wrong))
    assert calls_in_gc, "no gc callback ran: the re-entrant gc path was not exercised"
    assert all(value == want_in_gc for value in calls_in_gc)


@pytest.mark.skipif(not COMPILED, reason="the compiled modules' per-thread scratch (scratch.h)")
def test_many_short_lived_threads_keep_no_scratch_behind() -> None:
    """Each thread's kept memory is freed when it exits: a thousand threads that each score a
    corpus leave the process no larger than a few of them do (a thread keeps about half a MiB
    here, char tokens filling a 256 KiB character cache; kept for good, a thousand threads'
    would hold hundreds of MiB)."""
    hyps, refs = corpus(3, 200)
    want = sentence_of(turbobleu.corpus_bleu(hyps, refs, tokenize="char"))

    def work(out: List[Any]) -> None:
        out.append(sentence_of(turbobleu.corpus_bleu(hyps, refs, tokenize="char")))

    def wave(count: int) -> List[Any]:
        out: List[Any] = []
        for _ in range(count // 8):
            threads = [threading.Thread(target=work, args=(out,)) for _ in range(8)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        return out

    wave(16)
    before = current_rss_kib()
    if before is None:
        pytest.skip("no /proc/self/statm to read the resident size from")
    out = wave(1000)
    after = current_rss_kib()
    assert out == [want] * 1000
    assert after - before < 64 * 1024, (before, after)


def current_rss_kib() -> Any:
    try:
        with open("/proc/self/statm") as handle:
            pages = int(handle.read().split()[1])
    except OSError:
        return None
    import os

    return pages * os.sysconf("SC_PAGE_SIZE") // 1024


INTL_FIRST_USE_REENTERED = """
import gc, sys, turbobleu
seen = []
def building_the_table():
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_name != "two_level_table":
        frame = frame.f_back
    return frame is not None
def score_in_gc(phase, info):
    if phase == "start" and not seen and building_the_table():
        seen.append(turbobleu.sentence_bleu("a\u00e9 b.", ["a\u00e9 b ."], tokenize="intl").score)
gc.callbacks.append(score_in_gc)
gc.set_threshold(1)
outer = turbobleu.sentence_bleu("x, y!", ["x , y !"], tokenize="intl").score
gc.callbacks.remove(score_in_gc)
gc.set_threshold(700)
print(bool(seen), outer == turbobleu.sentence_bleu("x, y!", ["x , y !"], tokenize="intl").score)
"""


@pytest.mark.skipif(not COMPILED, reason="the compiled tokenizer's intl table (built on first use)")
def test_intl_table_first_build_reentered_from_a_gc_callback() -> None:
    """The intl table's first build runs Python code (an import, NumPy); a gc callback there that
    tokenizes with intl on the same thread builds it itself instead of waiting for its own lock."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", INTL_FIRST_USE_REENTERED],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True"], done.stdout
