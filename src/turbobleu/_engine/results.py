"""Score and signature objects, formatted exactly as sacrebleu formats its own."""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Dict, List, Optional, Sequence, Tuple

# The sacrebleu release whose BLEU numbers, output and signatures turbobleu reproduces.
SACREBLEU_VERSION = "2.6.0"

_ABBREVIATIONS = {
    "nrefs": "#",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "test": "t",
    "lang": "l",
    "origlang": "o",
    "subset": "S",
    "case": "c",
    "eff": "e",
    "tok": "tok",
    "smooth": "s",
    "space": "s",
    "version": "v",
}


class Score:
    """What every sacrebleu score shares (sacrebleu's ``Score``): the text, score-only and JSON
    renderings and the bootstrap confidence interval. A subclass gives ``name``, ``score``,
    ``_mean`` / ``_ci`` (-1.0 until ``estimate_ci``) and ``_verbose`` (the text after the score;
    empty: none, and no ``verbose_score`` in JSON)."""

    name: str
    score: float
    _mean: float
    _ci: float
    _verbose: str

    def format(
        self, width: int = 2, score_only: bool = False, signature: str = "", is_json: bool = False
    ) -> str:
        """sacrebleu's text (``BLEU|sig = 12.34 ...``), score-only or JSON rendering."""
        score = f"{self.score:.{width}f}"
        if self._mean > 0:
            score += f" (μ = {self._mean:.{width}f} ± {self._ci:.{width}f})"
        if score_only:
            return score
        if is_json:
            return self._json(width, signature)
        head = f"{self.name}|{signature}" if signature else self.name
        verbose = self._verbose
        return f"{head} = {score} {verbose}" if verbose else f"{head} = {score}"

    def _json(self, width: int, signature: str) -> str:
        d: Dict[str, Any] = {
            "name": self.name,
            "score": float(f"{self.score:.{width}f}"),
            "signature": signature,
        }
        if self._mean > 0:
            mean, ci = f"{self._mean:.{width}f}", f"{self._ci:.{width}f}"
            d.update(
                confidence_mean=float(mean),
                confidence_var=float(ci),
                confidence=f"μ = {mean} ± {ci}",
            )
        verbose = self._verbose
        if verbose:
            d["verbose_score"] = verbose
        if not signature:
            raise ValueError("format(is_json=True) needs a signature (as in sacrebleu)")
        for field in signature.split("|"):
            key, value = field.split(":")
            d[key] = value
        import json  # here: only JSON output needs it (a lighter `import turbobleu`)

        return json.dumps(d, indent=1, ensure_ascii=False)

    def estimate_ci(self, scores: Sequence["Score"]) -> None:
        """Store the bootstrap mean and 95% half-width as sacrebleu computes them."""
        self._mean, self._ci = mean_ci([s.score for s in scores])

    def __repr__(self) -> str:
        return self.format()

    __str__ = __repr__


class BLEUScore(Score):
    """A BLEU score with its statistics (sacrebleu's ``BLEUScore``: same attributes and text)."""

    name = "BLEU"

    def __init__(
        self,
        score: float,
        counts: List[Any],
        totals: List[Any],
        precisions: List[float],
        bp: float,
        sys_len: int,
        ref_len: int,
    ) -> None:
        self.score = score
        self.counts = counts
        self.totals = totals
        self.precisions = precisions
        self.bp = bp
        self.sys_len = sys_len
        self.ref_len = ref_len
        self._mean = -1.0
        self._ci = -1.0

    @property
    def ratio(self) -> float:
        return self.sys_len / self.ref_len if self.ref_len else 0

    @property
    def prec_str(self) -> str:
        return "/".join(f"{p:.1f}" for p in self.precisions)

    @property
    def _verbose(self) -> str:  # type: ignore[override]  # computed; Score declares a plain str
        return (
            f"{self.prec_str} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )


def mean_ci(scores: Sequence[float]) -> Tuple[float, float]:
    """(mean, 95% CI half-width) of bootstrap scores as sacrebleu's ``Score.estimate_ci``
    computes them: ``statistics.mean`` of the sorted scores, half the 2.5%-97.5% range. The
    scores keep their type, as there: chrF's are NumPy float32 and so are its mean and CI."""
    import statistics  # here: only the bootstrap needs it (a lighter `import turbobleu`)

    ordered = sorted(scores)
    return statistics.mean(ordered), ci_half_width(ordered)


def ci_half_width(ordered: Any) -> Any:
    """Half the 2.5%-97.5% range of sorted bootstrap scores, as sacrebleu computes it (in the
    scores' own type: a NumPy float32 for chrF's)."""
    lo = len(ordered) // 40
    return 0.5 * (ordered[len(ordered) - lo - 1] - ordered[lo])


class Signature:
    """What every metric's reproducibility signature shares (sacrebleu's ``Signature``): the
    fields every sacrebleu metric starts with, ``update``, and the text
    (``nrefs:1|case:mixed|...|version:2.6.0``; ``format(short=True)`` abbreviates the keys).
    A metric's signature adds its own fields to ``info`` after ``shared_fields``."""

    # the short field names of ``format(short=True)``; a metric may shorten its own otherwise
    ABBREVIATIONS: Dict[str, str] = _ABBREVIATIONS
    info: Dict[str, Any]

    @staticmethod
    def shared_fields(
        nrefs: Any, n_bootstrap: Optional[int], seed: Optional[str]
    ) -> Dict[str, Any]:
        """The fields every sacrebleu metric's signature starts with, in sacrebleu's order (the
        metric's own follow, then ``version``, which ``format`` always puts last)."""
        return {
            "nrefs": "var" if nrefs == -1 else nrefs,
            "bs": n_bootstrap,
            "ar": None,
            "seed": seed,
            "test": None,
            "lang": None,
            "origlang": None,
            "subset": None,
        }

    def update(self, key: str, value: Any) -> None:
        self.info[key] = value

    def format(self, short: bool = False) -> str:
        fields = [k for k in self.info if k != "version"] + ["version"]
        parts = []
        for key in fields:
            value = self.info[key]
            if value is None:
                continue
            if isinstance(value, bool):
                value = "yes" if value else "no"
            parts.append(f"{self.ABBREVIATIONS.get(key, key) if short else key}:{value}")
        return "|".join(parts)

    def __repr__(self) -> str:
        return self.format()

    __str__ = __repr__


class BLEUSignature(Signature):
    """BLEU's signature, e.g. ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0``."""

    def __init__(
        self,
        nrefs: Any,
        lowercase: bool,
        effective_order: bool,
        tokenizer: str,
        smooth_method: str,
        smooth_value: Optional[float],
        smooth_default: Optional[float],
        n_bootstrap: Optional[int] = None,
        seed: Optional[str] = None,
    ) -> None:
        smooth = smooth_method
        if smooth_default is not None:
            value = smooth_default if smooth_value is None else smooth_value
            smooth += f"[{value:.2f}]"
        self.info = self.shared_fields(nrefs, n_bootstrap, seed)
        self.info.update(
            {
                "case": "lc" if lowercase else "mixed",
                "eff": "yes" if effective_order else "no",
                "tok": tokenizer,
                "smooth": smooth,
                "version": SACREBLEU_VERSION,
            }
        )
