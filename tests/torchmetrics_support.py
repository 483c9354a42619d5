"""Shared by the turbobleu.torchmetrics tests: tensor equality, the WMT23 cases and their
tokenizers, generated text (for the single-process and the DDP tests)."""

from __future__ import annotations

import math
import random
from typing import Any, List, Optional, Tuple

from conftest import FULL_MATRIX, Corpus, all_corpora, chosen_systems

# The lines of a WMT23 system the default run checks (FULL_MATRIX: more, of every system).
DEFAULT_LINES = 60
FULL_LINES = 250
# de-en and en-de have a document per line: fewer of them.
DOCUMENT_PAIRS = ("de-en", "en-de")
BATCH = 64

# SacreBLEUScore's tokenizer for a target language (ja-mecab has its own test: torchmetrics
# builds a MeCab tagger per line).
TOKENIZER_FOR = {"zh": "zh", "ja": "char", "de": "intl", "he": "intl"}


def same_tensor(got: Any, want: Any, what: str = "") -> None:
    """``got`` and ``want`` are tensors with the same dtype, device, shape and values (``==``;
    NaN where the other has NaN)."""
    assert type(got) is type(want), (what, type(got), type(want))
    assert got.dtype == want.dtype, (what, got.dtype, want.dtype)
    assert got.device == want.device, (what, got.device, want.device)
    assert got.shape == want.shape, (what, got.shape, want.shape)
    g, w = got.flatten().tolist(), want.flatten().tolist()
    assert all(a == b or (math.isnan(a) and math.isnan(b)) for a, b in zip(g, w)), (what, g, w)


STATES = ("preds_len", "target_len", "numerator", "denominator")


def same_states(got: Any, want: Any, what: str = "") -> None:
    for name in STATES:
        same_tensor(getattr(got, name), getattr(want, name), f"{what} {name}")


def wmt23_cases() -> List[Tuple[Corpus, str]]:
    """(pair, system): every pair's first system, every system under FULL_MATRIX."""
    return [
        (corpus, system)
        for corpus in all_corpora()
        for system in chosen_systems(corpus, every_fixture_system=False)
    ]


def wmt23_data(corpus: Corpus, system: str) -> Tuple[List[str], List[List[str]]]:
    """The predictions and, per prediction, its references (torchmetrics' layout)."""
    lines = FULL_LINES if FULL_MATRIX else DEFAULT_LINES
    if corpus.directory.name in DOCUMENT_PAIRS:
        lines //= 3
    hyps = corpus.hypotheses(system)[:lines]
    streams = corpus.reference_streams(corpus.references)
    return hyps, [list(refs) for refs in zip(*(s[:lines] for s in streams))]


def batches(items: List[Any], size: int = BATCH) -> List[List[Any]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


_WORDS = ["the", "The", "cat", "a", "A", "mat", "on", ".", ",", "5", "-", "&quot;", "ΣΑΣ", "中"]
_GAPS = [" ", " ", " ", "  ", "\t", "\n", "-\n", "\u3000"]


def random_line(rng: random.Random) -> Optional[str]:
    """A line of a few words with varied whitespace (or None, or '')."""
    roll = rng.random()
    if roll < 0.05:
        return None
    if roll < 0.1:
        return ""
    words = [rng.choice(_WORDS) for _ in range(rng.randint(0, 14))]
    text = "".join(w + rng.choice(_GAPS) for w in words)
    return text if rng.random() < 0.3 else text.rstrip()


def random_corpus(seed: int, size: int) -> Tuple[List[Optional[str]], List[List[Optional[str]]]]:
    """``size`` predictions with 1 to 4 references each (ragged)."""
    rng = random.Random(seed)
    preds = [random_line(rng) for _ in range(size)]
    target = [[random_line(rng) for _ in range(rng.randint(1, 4))] for _ in range(size)]
    return preds, target


def free_port() -> int:
    """A free local TCP port, for a gloo process group's rendezvous."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
