"""What every resampling test shares, without NumPy: sacrebleu's seeds (``SACREBLEU_SEED``), the
default numbers of resamples and trials, and one system's result. ``turbobleu.significance``
(with NumPy) and the command line's NumPy-free bootstrap (``plain``) both use them."""

from __future__ import annotations

import os

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Dict, Optional, Tuple, Union

SEED_ENV = "SACREBLEU_SEED"
DEFAULT_SEED = "12345"
FROM_ENV = "env"  # the default ``seed``: read SACREBLEU_SEED like sacrebleu does

DEFAULT_BOOTSTRAP_SAMPLES = 1000
DEFAULT_AR_TRIALS = 10000

# sacrebleu sums resamples in float32: every integer below this is exact there, and so are sums
# that stay below it.
F32_EXACT = 2**24


def multeval_p_value(exceeding: int, trials: int) -> float:
    """multeval's p-value, as sacrebleu computes it: (#{statistic > observed} + 1) / (n + 1)."""
    return (exceeding + 1) / (trials + 1)


class Seed(tuple):
    """A resampling seed: ``value`` for ``numpy.random.default_rng`` (None: OS entropy) and
    ``text``, the string sacrebleu shows for it in ``corpus_score`` signatures. Immutable and
    compared by value (a tuple, so that defining it needs no ``dataclasses`` import)."""

    __slots__ = ()

    def __new__(cls, value: Optional[int], text: str) -> Seed:
        return tuple.__new__(cls, (value, text))

    @property
    def value(self) -> Optional[int]:
        return self[0]

    @property
    def text(self) -> str:
        return self[1]

    def __getnewargs__(self) -> Tuple[Optional[int], str]:  # pickle and copy
        return (self.value, self.text)

    def __repr__(self) -> str:
        return f"Seed(value={self.value!r}, text={self.text!r})"

    @property
    def paired_text(self) -> str:
        """The form paired-test signatures show (``str(int(seed)).lower()``, e.g. 012 -> 12)."""
        return str(self.value).lower()

    @property
    def per_system(self) -> Optional[int]:
        """The seed each paired comparison uses: sacrebleu passes ``seed or None``."""
        return self.value if self.value else None


def _is_integer(value: Any) -> bool:
    """An int or a NumPy integer (checked without importing NumPy: only an imported NumPy can
    have made one)."""
    if isinstance(value, int):
        return True
    import sys

    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(value, numpy.integer)


def resolve_seed(seed: Union[int, str, None] = FROM_ENV) -> Seed:
    """``FROM_ENV`` reads ``SACREBLEU_SEED`` (default 12345); a str is parsed like that variable
    (``'none'`` in any case means unseeded); an int is used as is; None means unseeded."""
    source = "seed"
    if isinstance(seed, str) and seed == FROM_ENV:
        seed, source = os.environ.get(SEED_ENV, DEFAULT_SEED), SEED_ENV
    if seed is None:
        return Seed(None, "none")
    if isinstance(seed, bool) or not (isinstance(seed, str) or _is_integer(seed)):
        raise TypeError(f"seed must be an int, a str or None, got {type(seed).__name__}")
    if isinstance(seed, str):
        if seed.lower() == "none":
            return Seed(None, seed.lower())
        try:
            value = int(seed)
        except ValueError:
            raise ValueError(f"{source} must be an integer or 'none', got {seed!r}") from None
        if value < 0:
            raise ValueError(f"{source} must be non-negative (NumPy seeds), got {seed!r}")
        return Seed(value, seed.lower())
    if seed < 0:
        raise ValueError(f"seed must be non-negative (NumPy seeds), got {seed}")
    return Seed(int(seed), str(int(seed)))


class Result:
    """One system's numbers in a paired test, laid out as sacrebleu's ``significance.Result``:
    its score, and where the test gives them its p-value against the baseline, bootstrap mean
    and 95% CI half-width, as instance attributes in that order (sacrebleu's
    ``print_results_table`` reads ``__dict__``), in sacrebleu's types (NumPy float32 means and
    intervals for chrF and TER). Compared by value; ``as_dict`` gives them as Python floats, for
    JSON."""

    def __init__(
        self,
        score: float,
        p_value: Optional[float] = None,
        mean: Optional[float] = None,
        ci: Optional[float] = None,
    ) -> None:
        self.score = score
        self.p_value = p_value
        self.mean = mean
        self.ci = ci

    def as_dict(self) -> Dict[str, Optional[float]]:
        """The fields in sacrebleu's JSON order, as Python floats (None where unset)."""
        return {
            key: None if value is None else float(value)
            for key, value in (
                ("score", self.score),
                ("p_value", self.p_value),
                ("mean", self.mean),
                ("ci", self.ci),
            )
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Result):
            return NotImplemented
        return self.as_dict() == other.as_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __repr__(self) -> str:
        # sacrebleu's: every attribute as str(), comma-separated
        return ",".join(key + "=" + str(value) for key, value in self.__dict__.items())
