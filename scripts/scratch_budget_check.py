"""Resident memory kept by THREADS threads parked after one corpus_bleu each.

A check of scratch.h's process budget: each thread scores its own corpus of TOKENS distinct
tokens, then waits; the resident size above the start is printed while all of them wait.

Usage: python scripts/scratch_budget_check.py THREADS TOKENS   (Linux: reads /proc/self/statm)
"""

import os
import random
import sys
import threading

import turbobleu


def corpus(seed: int, tokens: int):
    rng = random.Random(seed)
    words = [f"w{rng.randrange(10**9)}" for _ in range(tokens)]
    hypotheses = [" ".join(words[i : i + 50]) for i in range(0, tokens, 50)]
    return hypotheses, [hypotheses[::-1]]


def rss_mib() -> int:
    with open("/proc/self/statm") as handle:
        pages = int(handle.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") // 2**20


def main(threads: int, tokens: int) -> None:
    data = [corpus(i, tokens) for i in range(threads)]
    parked = threading.Barrier(threads + 1)
    release = threading.Event()

    def work(i: int) -> None:
        turbobleu.corpus_bleu(*data[i], tokenize="none")
        parked.wait()
        release.wait()

    start = rss_mib()
    workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for worker in workers:
        worker.start()
    parked.wait()
    print(f"MiB kept by {threads} parked threads: {rss_mib() - start}")
    release.set()
    for worker in workers:
        worker.join()


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]))
