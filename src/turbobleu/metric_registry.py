"""The metrics turbobleu computes, by name: what code outside a metric's own files reads instead of
naming a metric.

A metric is a class with sacrebleu's interface (``corpus_score``, ``sentence_score``,
``get_signature``) and the statistics-row protocol the rest of the package uses:

- ``segment_rows(hypotheses)``: one statistics row per segment, against the references given
  to the constructor (``references=``), as lists (no NumPy);
- ``sum_rows(rows)``: the rows summed as the mirrored library sums them (integers for BLEU and
  chrF; TER's lengths are floats, summed in segment order);
- ``score_row(row)``: the score object of a summed row (or of one segment's row);
- ``corpus_stats(hypotheses)``: the rows as a NumPy array, for the significance tests, and
  ``significance_recipe()`` (BLEU's is built from its options): how those tests score them.

Each entry says where its class lives (imported on first use, so that naming a metric costs
nothing) and its command-line options (``--<name>-*``, each the constructor keyword it sets).
Adding a metric means adding an entry here.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple


class CliOption:
    """A metric's command-line option: its flags, the namespace attribute (``dest``), the
    constructor keyword it sets, and how it reads a value (``kind``: ``"flag"`` or ``"one"``
    with ``type`` and ``default``)."""

    __slots__ = ("flags", "dest", "keyword", "kind", "type", "default", "help")

    def __init__(
        self,
        flags: Tuple[str, ...],
        dest: str,
        keyword: str,
        help: str,
        kind: str = "flag",
        type: Any = str,
        default: Any = None,
    ) -> None:
        self.flags = flags
        self.dest = dest
        self.keyword = keyword
        self.kind = kind
        self.type = type
        self.default = default
        self.help = help


class MetricEntry:
    """One metric in the registry."""

    __slots__ = ("name", "module", "class_name", "cli_group", "cli_options", "higher_is_better")

    def __init__(
        self,
        name: str,
        module: str,
        class_name: str,
        cli_group: str,
        cli_options: Sequence[CliOption] = (),
        higher_is_better: bool = True,
    ) -> None:
        self.name = name
        self.module = module
        self.class_name = class_name
        self.cli_group = cli_group
        self.cli_options = tuple(cli_options)
        # An error rate (TER) is better when lower: rewards negate it.
        self.higher_is_better = higher_is_better

    def metric_class(self) -> Any:
        """The metric's class (its module imported now if need be)."""
        import sys

        __import__(self.module)
        return getattr(sys.modules[self.module], self.class_name)

    def from_cli(self, args: Any, references: Optional[List[List[str]]]) -> Any:
        """The metric with the options of a parsed command line, its references cached."""
        options = {o.keyword: getattr(args, o.dest) for o in self.cli_options}
        return self.metric_class()(**options, references=references)


# chrF's defaults, written once in its class (chrf is loaded by `import turbobleu` anyway).
def _chrf_defaults() -> Tuple[int, int, int]:
    from turbobleu.chrf import CHRF

    return CHRF.CHAR_ORDER, CHRF.WORD_ORDER, CHRF.BETA


_CHAR, _WORD, _BETA = _chrf_defaults()

METRICS: Dict[str, MetricEntry] = {
    entry.name: entry
    for entry in (
        # BLEU's options are the command's own (-tok, -lc, -s, ...): it is the default metric.
        MetricEntry("bleu", "turbobleu.bleu", "BLEU", "BLEU options"),
        MetricEntry(
            "chrf",
            "turbobleu.chrf",
            "CHRF",
            "chrF options (-m chrf)",
            (
                CliOption(
                    ("--chrf-char-order", "-cc"),
                    "chrf_char_order",
                    "char_order",
                    f"Character n-gram order. (Default: {_CHAR})",
                    "one",
                    int,
                    _CHAR,
                ),
                CliOption(
                    ("--chrf-word-order", "-cw"),
                    "chrf_word_order",
                    "word_order",
                    f"Word n-gram order; 2 gives chrF++. (Default: {_WORD})",
                    "one",
                    int,
                    _WORD,
                ),
                CliOption(
                    ("--chrf-beta",),
                    "chrf_beta",
                    "beta",
                    f"Weight of recall against precision. (Default: {_BETA})",
                    "one",
                    int,
                    _BETA,
                ),
                CliOption(
                    ("--chrf-whitespace",),
                    "chrf_whitespace",
                    "whitespace",
                    "Count whitespace in character n-grams.",
                ),
                CliOption(
                    ("--chrf-lowercase",), "chrf_lowercase", "lowercase", "Case-insensitive chrF."
                ),
                CliOption(
                    ("--chrf-eps-smoothing",),
                    "chrf_eps_smoothing",
                    "eps_smoothing",
                    "Epsilon smoothing (chrF++.py, NLTK, Moses) instead of effective order.",
                ),
            ),
        ),
        MetricEntry(
            "ter",
            "turbobleu.ter",
            "TER",
            "TER options (-m ter; the defaults are Tercom's)",
            (
                CliOption(
                    ("--ter-case-sensitive",),
                    "ter_case_sensitive",
                    "case_sensitive",
                    "Case-sensitive TER (default: lowercased).",
                ),
                CliOption(
                    ("--ter-asian-support",),
                    "ter_asian_support",
                    "asian_support",
                    "Asian (CJK) characters as words with --ter-normalized; CJK punctuation "
                    "removed with --ter-no-punct.",
                ),
                CliOption(("--ter-no-punct",), "ter_no_punct", "no_punct", "Remove punctuation."),
                CliOption(
                    ("--ter-normalized",),
                    "ter_normalized",
                    "normalized",
                    "Tercom's normalization (punctuation split off, XML entities decoded).",
                ),
            ),
            higher_is_better=False,
        ),
    )
}


def metric_names() -> List[str]:
    """The names ``-m`` takes, in the registry's order."""
    return list(METRICS)


def get_metric(name: str) -> MetricEntry:
    """The entry of ``name`` (``bleu``, ``chrf``, ``ter``); ValueError for another name."""
    entry = METRICS.get(name)
    if entry is None:
        raise ValueError(f"unknown metric {name!r}: turbobleu computes {', '.join(METRICS)}")
    return entry


def make_metric(name: str, options: Optional[Mapping[str, Any]] = None) -> Any:
    """The metric ``name`` made with ``options``, its constructor keywords (what the reward
    adapters and ``turbobleu.aggregate`` take as ``metric_options``); errors name them."""
    from collections.abc import Mapping as AnyMapping

    entry = get_metric(name)
    if options is not None and not isinstance(options, AnyMapping):
        raise TypeError(
            f"metric_options must be a mapping of {entry.class_name}'s keyword arguments, got "
            f"{type(options).__name__}"
        )
    try:
        return entry.metric_class()(**dict(options or {}))
    except TypeError as error:
        raise TypeError(f"metric_options for metric={name!r}: {error}") from None
