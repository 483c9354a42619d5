"""Drop-in for pycocoevalcap's ``Bleu`` (``pycocoevalcap.bleu.bleu``, version 1.2): the BLEU-1..4
of image-captioning papers (COCO, nocaps, Flickr30k), with the same numbers.

``Bleu(n=4).compute_score(gts, res, verbose=1)`` takes ``gts``, a dict from image id to a list
of reference captions (at least one), and ``res``, a dict with the same ids to a list of exactly
one generated caption, and returns ``(score, scores)`` as pycocoevalcap does: ``score`` is the
corpus ``[BLEU-1, ..., BLEU-n]`` (a list of floats) and ``scores`` holds n lists with one BLEU-k
per image, in the order of ``gts``' keys. The floats are equal (``==``) to pycocoevalcap's,
including its quirks (the 1e-9 and 1e-15 epsilons, which make equal lengths score slightly below
1, an unmatched order slightly above 0 and an empty caption 0.0; the closest reference length
with ties going to the shorter reference). ``verbose > 0`` prints the summed counts and the
length ratio as pycocoevalcap does; ``verbose > 1`` also prints each image's counts first.
pycocoevalcap counts each image's n-grams up to order 4 whatever ``n`` is, so ``n`` above 4
raises ``IndexError`` there as here (unless there is no image), and ``n`` below 1 gives empty
lists.

Tokenization: none is done here, as in pycocoevalcap. Captions are expected to arrive already
PTB-tokenized (``pycocoevalcap.tokenizer.ptbtokenizer.PTBTokenizer``, which COCOEvalCap runs
first: lowercased, punctuation removed) and are split on whitespace exactly as ``str.split()``
splits them (Python's whitespace set, in compiled code; a ``str`` subclass is split as a
``str``). Captions of another type (``bytes``, say) are split with their own ``.split()``, as
pycocoevalcap does, and their tokens interned.

Bad input raises ``AssertionError``, where pycocoevalcap asserts, with a message that names the
argument and the image. ``compute_score`` also takes ``option=`` (keyword only, a turbobleu
addition): the reference-length rule of pycocoevalcap's ``BleuScorer`` (``"closest"``, what
``Bleu`` uses; ``"shortest"``, ``"average"`` or ``None``).

``turbobleu.patch("pycocoevalcap")`` puts this class in place of pycocoevalcap's own, also where
``pycocoevalcap.eval`` (COCOEvalCap) imported it.
"""

from __future__ import annotations

import operator

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Tuple

from turbobleu._engine.recipes import chosen as _recipes_impl
from turbobleu._engine.recipes import pycocoevalcap as recipe

__all__ = ["Bleu"]


class Bleu:
    """pycocoevalcap's BLEU-1..n scorer (``n``: the highest n-gram order, 4 by default)."""

    def __init__(self, n: int = 4) -> None:
        self._n = n
        # (pycocoevalcap's attributes, unused there as here)
        self._hypo_for_image: Dict[Any, Any] = {}
        self.ref_for_image: Dict[Any, Any] = {}

    def compute_score(
        self, gts: Any, res: Any, verbose: Any = 1, *, option: Optional[str] = "closest"
    ) -> Tuple[List[float], List[List[float]]]:
        """``(score, scores)``: corpus BLEU-1..n and, per order, the BLEU of every image."""
        captions, stats = _statistics(gts, res)
        n = _orders(self._n)
        option = recipe.resolve_option(option, stats.images)
        return _scores(stats, n, option, verbose, captions.first_none)

    def method(self) -> str:
        return "Bleu"

    def __repr__(self) -> str:
        return f"turbobleu.pycocoevalcap.Bleu(n={self._n!r})"


def _statistics(gts: Any, res: Any) -> Tuple[Captions, Any]:
    """The captions of ``gts`` and ``res`` and their statistics (a ``CaptionStats``)."""
    from turbobleu._engine.count import captions as counting

    captions = _captions(gts, res)
    if captions.text:
        stats = counting.text_statistics(captions, recipe.COOKED_ORDERS)
        if stats is not None:
            return captions, stats
        captions = _captions_one_by_one(gts, res)  # a caption is not a str after all
    return captions, counting.token_statistics(captions, recipe.COOKED_ORDERS)


def _orders(n: Any) -> int:
    try:
        return operator.index(n)
    except TypeError:
        raise TypeError(
            f"Bleu(n=...) must be an int (the highest n-gram order), got {n!r}"
        ) from None


# -- reading gts and res -------------------------------------------------------------------------
class Captions:
    """The captions of one call in image order: for each image its hypothesis and references,
    as strings (``text``) or as token sequences (each caption's own ``.split()``)."""

    def __init__(
        self,
        hypotheses: List[Any],
        references: List[Any],
        counts: List[int],
        text: bool,
        first_none: Optional[Tuple[int, Any]] = None,
    ):
        self.hypotheses = hypotheses
        self.references = references  # flat, image after image
        self.counts = counts  # references per image
        self.text = text
        # (position, id) of the first image whose hypothesis is None (counted as empty here):
        # pycocoevalcap skips it when counting and fails on it when scoring.
        self.first_none = first_none


def _captions(gts: Any, res: Any) -> Captions:
    """Checks ``gts`` and ``res`` as pycocoevalcap asserts them and reads their captions: all
    at once when every value has the expected form, else image by image in pycocoevalcap's
    order, so that the first problem it would meet is the one reported."""
    if not gts.keys() == res.keys():
        raise AssertionError(
            f"gts and res must have the same image ids (keys){_key_difference(gts, res)}"
        )
    ids = gts.keys()
    hyp_lists = [res[image] for image in ids]
    ref_lists = list(gts.values()) if type(gts) is dict else [gts[image] for image in ids]
    if set(map(type, hyp_lists)) <= {list} and set(map(type, ref_lists)) <= {list}:
        counts = list(map(len, ref_lists))
        try:
            hypotheses = [caption for (caption,) in hyp_lists]  # (exactly one each)
        except ValueError:
            hypotheses = None
        if hypotheses is not None and 0 not in counts:
            references: List[Any] = []
            list(map(references.extend, ref_lists))
            # (whether every caption is a str: the tokenizer checks, text_statistics says)
            return Captions(hypotheses, references, counts, True)
    return _captions_one_by_one(gts, res)


def _key_difference(gts: Any, res: Any) -> str:
    """``: {...} only in gts, {...} only in res`` (nothing where the keys do not subtract)."""
    try:
        only = [sorted(a.keys() - b.keys(), key=repr) for a, b in ((gts, res), (res, gts))]
    except Exception:
        return ""
    return f": {_some(only[0])} only in gts, {_some(only[1])} only in res"


def _some(keys: List[Any]) -> str:
    """Up to three keys, and how many more."""
    if not keys:
        return "none"
    more = f" and {len(keys) - 3} more" if len(keys) > 3 else ""
    return "{" + ", ".join(map(repr, keys[:3])) + more + "}"


def _captions_one_by_one(gts: Any, res: Any) -> Captions:
    """pycocoevalcap's loop: per image, its assertions, then ``.split()`` of each reference
    and of the hypothesis."""
    hypotheses: List[Any] = []
    references: List[Any] = []
    counts: List[int] = []
    first_none = None
    for image in gts.keys():
        hypo = res[image]
        ref = gts[image]
        if type(hypo) is not list:
            raise AssertionError(
                f"res[{image!r}] must be a list holding one caption, got {type(hypo).__name__}"
            )
        if len(hypo) != 1:
            raise AssertionError(
                f"res[{image!r}] must hold exactly one caption, got {len(hypo)} captions"
            )
        if type(ref) is not list:
            raise AssertionError(
                f"gts[{image!r}] must be a list of reference captions, got {type(ref).__name__}"
            )
        if len(ref) < 1:
            raise AssertionError(f"gts[{image!r}] must hold at least one reference caption")
        references += [caption.split() for caption in ref]
        if hypo[0] is None:
            first_none = first_none or (len(hypotheses), image)
            hypotheses.append([])
        else:
            hypotheses.append(hypo[0].split())
        counts.append(len(ref))
    return Captions(hypotheses, references, counts, False, first_none)


# -- scores --------------------------------------------------------------------------------------
def _scores(
    stats: Any, n: int, option: str, verbose: Any, first_none: Optional[Tuple[int, Any]]
) -> Tuple[List[float], List[List[float]]]:
    """pycocoevalcap's ``BleuScorer.compute_score`` over the statistics of every image (and its
    failures, in the order its loop over the images meets them)."""
    import numpy as np

    orders = max(n, 0)
    images = stats.images
    per_image = np.empty((orders, images), dtype=np.float64)
    testlen: int = 0
    reflen: Any = 0
    correct = guess = [0] * orders
    if images:
        if first_none is not None and first_none[0] == 0:
            raise _none_hypothesis(first_none[1])
        if orders > recipe.COOKED_ORDERS:
            raise IndexError(
                f"Bleu(n={n}): pycocoevalcap counts the n-grams of each image up to order "
                f"{recipe.COOKED_ORDERS} only, so its BLEU-{recipe.COOKED_ORDERS + 1} and above "
                "fail with this IndexError (list index out of range)"
            )
        rows = stats.rows
        reflens = stats.reference_lengths(option)
        if first_none is not None:
            if verbose > 1:
                _print_images(stats, reflens.tolist(), first_none[0])
            raise _none_hypothesis(first_none[1])
        _recipes_impl.pycocoevalcap_scores().image_scores(
            rows, np.ascontiguousarray(reflens, dtype=np.float64), orders, per_image
        )
        sums = rows.sum(axis=0).tolist()
        testlen = sums[0]
        reflen = (
            recipe.total_reference_length(reflens.tolist())
            if option == "average"
            else int(reflens.sum())
        )
        row_order = recipe.COOKED_ORDERS
        correct = sums[2 : 2 + orders]
        guess = sums[2 + row_order : 2 + row_order + orders]
        if verbose > 1:
            _print_images(stats, reflens.tolist())
    score = recipe.bleu_scores(testlen, reflen, correct, guess, orders)
    if verbose > 0:
        print(recipe.totals_dict(testlen, reflen, guess, correct))
        print("ratio:", recipe.length_ratio(testlen, reflen))
    return score, per_image.tolist()


def _none_hypothesis(image: Any) -> TypeError:
    return TypeError(
        f"res[{image!r}] holds None instead of a caption (pycocoevalcap fails on it with this "
        "TypeError: 'NoneType' object is not subscriptable)"
    )


def _print_images(stats: Any, reflens: List[Any], images: Optional[int] = None) -> None:
    """``verbose > 1``: each image's counts (of every cooked order) and reference length, as
    pycocoevalcap prints them (for the first ``images`` images only, if given)."""
    ref_lens = stats.ref_lens.tolist()
    starts = stats.group_offsets.tolist()
    row_order = recipe.COOKED_ORDERS
    for i, row in enumerate(stats.rows[:images].tolist()):
        counts = recipe.image_dict(
            ref_lens[starts[i] : starts[i + 1]],
            row[0],
            row[2 + row_order : 2 + 2 * row_order],
            row[2 : 2 + row_order],
        )
        print(counts, reflens[i])
