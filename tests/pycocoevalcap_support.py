"""Caption-like data for the pycocoevalcap tests and bench (tests/test_pycocoevalcap*.py,
bench/bench_pycocoevalcap.py): COCO-style ``gts``/``res`` dicts made deterministically from a
seed, and a helper that captures what a scorer prints."""

from __future__ import annotations

import contextlib
import io
import random
from typing import Any, Callable, Dict, List, Tuple

Captions = Dict[Any, List[str]]

# A small captioning vocabulary: scenes are built from these slots, so that the references of
# one image share most of their words (as five human captions of one photo do) and the
# hypothesis shares some of them.
_ARTICLES = ("a", "an", "the", "two", "some", "several")
_ADJECTIVES = (
    "young", "old", "small", "large", "red", "white", "black", "brown", "wooden", "green",
    "little", "tall", "blue", "yellow", "empty", "busy", "snowy", "grassy", "dirty", "sunny",
)  # fmt: skip
_SUBJECTS = (
    "man", "woman", "boy", "girl", "dog", "cat", "person", "group", "child", "horse",
    "bird", "player", "giraffe", "elephant", "couple", "skateboarder", "surfer", "bus",
    "train", "truck", "zebra", "cow", "sheep", "kid", "lady", "guy",
)  # fmt: skip
_VERBS = (
    "sitting", "standing", "riding", "holding", "walking", "eating", "playing", "looking",
    "laying", "flying", "jumping", "parked", "running", "grazing", "carrying", "throwing",
)  # fmt: skip
_OBJECTS = (
    "frisbee", "skateboard", "surfboard", "pizza", "kite", "umbrella", "phone", "ball",
    "bench", "table", "bike", "wave", "sandwich", "cake", "laptop", "plate", "bat", "tennis",
    "racket", "food", "banana", "clock", "sign", "window", "bed", "toilet",
)  # fmt: skip
_PREPOSITIONS = ("on", "in", "with", "of", "near", "next", "to", "at", "under", "by", "top")
_PLACES = (
    "street", "field", "beach", "water", "road", "grass", "room", "kitchen", "snow", "air",
    "park", "city", "sidewalk", "building", "tracks", "fence", "ocean", "court", "counter",
)  # fmt: skip
_PUNCTUATION = (".", ",", "'s")


def _scene(rng: random.Random) -> List[str]:
    """The content words of one picture: a subject, a verb, an object and a place."""
    return [
        rng.choice(_SUBJECTS),
        rng.choice(_VERBS),
        rng.choice(_OBJECTS),
        rng.choice(_PLACES),
        rng.choice(_ADJECTIVES),
    ]


def _caption(rng: random.Random, scene: List[str]) -> str:
    """One PTB-tokenized, lowercased caption of ``scene``: mostly its words, in the order of a
    caption, with a few swaps, repeats and words of another scene."""
    subject, verb, obj, place, adjective = (
        w if rng.random() < 0.8 else rng.choice(pool)
        for w, pool in zip(scene, (_SUBJECTS, _VERBS, _OBJECTS, _PLACES, _ADJECTIVES))
    )
    words = [rng.choice(_ARTICLES)]
    if rng.random() < 0.5:
        words.append(adjective)
    words += [subject, "is"] if rng.random() < 0.3 else [subject]
    words += [verb, rng.choice(_ARTICLES), obj]
    if rng.random() < 0.7:
        words += [rng.choice(_PREPOSITIONS), rng.choice(_ARTICLES), place]
    if rng.random() < 0.3:
        words += ["and", rng.choice(_ARTICLES), rng.choice(_OBJECTS)]
    if rng.random() < 0.2:
        words += [rng.choice(_PREPOSITIONS), "the", rng.choice(_PLACES)]
    if rng.random() < 0.1:
        words.insert(rng.randrange(len(words) + 1), rng.choice(_PUNCTUATION))
    return " ".join(words)


def caption_set(
    images: int = 5000, refs_per_image: int = 5, seed: int = 0
) -> Tuple[Captions, Captions]:
    """``(gts, res)`` for ``images`` pictures: image id -> ``refs_per_image`` reference captions,
    and image id -> a list of one generated caption. Ids are COCO-like ints in no sorted order (the
    scorers iterate ``gts`` in its insertion order). About one image in 200 gets a one-word or
    empty hypothesis, as a broken captioning model may produce."""
    rng = random.Random(seed)
    ids = rng.sample(range(1, 600000), images)
    gts: Captions = {}
    res: Captions = {}
    for image_id in ids:
        scene = _scene(rng)
        gts[image_id] = [_caption(rng, scene) for _ in range(refs_per_image)]
        odd = rng.random()
        if odd < 0.0025:
            res[image_id] = [""]
        elif odd < 0.005:
            res[image_id] = [rng.choice(scene)]
        else:
            res[image_id] = [_caption(rng, scene)]
    return gts, res


def captured(fn: Callable[[], Any]) -> Tuple[Any, str]:
    """``fn()``'s result and what it printed to stdout."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn()
    return result, out.getvalue()
