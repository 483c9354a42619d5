"""The metrics turbobleu computes, by name: what code outside a metric's own files reads instead of
naming a metric.

A metric is a subclass of ``turbobleu._metric.Metric`` (its docstring lists the interface). Each
entry here says where its class lives (imported on first use, so that naming a metric costs
nothing), its command-line options (``--<name>-*``, each the constructor keyword it sets) and,
where the metric's own modules do a reader's job their own way, the function that does it
(``hooks``: role -> ``"module:function"``):

- ``"sacrebleu_patch"``: ``apply(set_attr)``, what ``patch("sacrebleu")`` replaces for the
  metric (every entry has one when sacrebleu has the metric);
- ``"scorer"``: ``make(**options)`` -> the object ``turbobleu.aggregate`` scores rows with
  (default: the metric class, through its additive protocol); ``"reward"``: the same for the
  reward adapters (default: ``rewards.metric_reward.MetricReward``);
- ``"cli_scored"``: ``scored(entry, args, systems, refs, arrays)``, the command line's scores
  (default: ``cli.metrics.registry_scored``); ``"cli_alone"``: ``run_alone(args, out)``, the
  whole command when the metric runs alone (default: the shared path); ``"cli_made"``:
  ``made(args)``, the metric made once before several systems are scored, for its warnings.

Adding a metric means adding an entry, here or with ``register_metric`` (a user's metric).
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple


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

    __slots__ = (
        "name",
        "module",
        "class_name",
        "cli_group",
        "cli_options",
        "higher_is_better",
        "hooks",
    )

    def __init__(
        self,
        name: str,
        module: str,
        class_name: str,
        cli_group: str,
        cli_options: Sequence[CliOption] = (),
        higher_is_better: bool = True,
        hooks: Optional[Mapping[str, str]] = None,
    ) -> None:
        self.name = name
        self.module = module
        self.class_name = class_name
        self.cli_group = cli_group
        self.cli_options = tuple(cli_options)
        # An error rate (TER) is better when lower: rewards negate it.
        self.higher_is_better = higher_is_better
        self.hooks = dict(hooks or {})

    def hook(self, role: str) -> Optional[Callable[..., Any]]:
        """The metric's own function for ``role`` (its module imported now), or None when the
        metric has none and the reader's default applies."""
        import sys

        path = self.hooks.get(role)
        if path is None:
            return None
        module, _, function = path.partition(":")
        __import__(module)
        found: Callable[..., Any] = getattr(sys.modules[module], function)
        return found

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
        MetricEntry(
            "bleu",
            "turbobleu.bleu",
            "BLEU",
            "BLEU options",
            hooks={
                "sacrebleu_patch": "turbobleu.sacrebleu._patch_bleu:apply",
                "sacrebleu_resampler": "turbobleu.sacrebleu._patch_bleu:resampler",
                # the command line's own BLEU paths (its fast and streamed ones)
                "cli_alone": "turbobleu.cli.bleu:run_alone",
                "cli_made": "turbobleu.cli.bleu:made",
                "cli_scored": "turbobleu.cli.bleu:bleu_scored",
                # the engines' (aggregate) and the rewards' BLEU, with its recipes and options
                "scorer": "turbobleu._bleu_scorer:BLEUScorer",
                "reward": "turbobleu.rewards._bleu:BLEURewards",
            },
        ),
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
            hooks={
                "sacrebleu_patch": "turbobleu.sacrebleu._patch_chrf:apply",
                "sacrebleu_resampler": "turbobleu.sacrebleu._patch_chrf:resampler",
            },
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
            hooks={
                "sacrebleu_patch": "turbobleu.sacrebleu._patch_ter:apply",
                "sacrebleu_resampler": "turbobleu.sacrebleu._patch_ter:resampler",
            },
        ),
    )
}


def register_metric(entry: MetricEntry, replace: bool = False) -> MetricEntry:
    """Add ``entry`` to the registry: the command line (``-m <name>``), the significance tests,
    ``turbobleu.aggregate`` and the reward adapters then take it by name. A name already
    registered is refused unless ``replace``. Returns the entry."""
    if not isinstance(entry, MetricEntry):
        raise TypeError(f"entry must be a MetricEntry, got {type(entry).__name__}")
    if not entry.name.isidentifier() or entry.name != entry.name.lower():
        raise ValueError(f"a metric's name must be a lowercase identifier, got {entry.name!r}")
    if entry.name in METRICS and not replace:
        raise ValueError(f"metric {entry.name!r} is registered already (pass replace=True)")
    METRICS[entry.name] = entry
    return entry


def unregister_metric(name: str) -> None:
    """Remove the metric ``name`` (one ``register_metric`` added); KeyError if unknown."""
    del METRICS[name]


def metric_names() -> List[str]:
    """The names ``-m`` takes, in the registry's order."""
    return list(METRICS)


def get_metric(name: str) -> MetricEntry:
    """The entry of ``name`` (``bleu``, ``chrf``, ``ter``); ValueError for another name."""
    entry = METRICS.get(name)
    if entry is None:
        raise ValueError(f"unknown metric {name!r}: turbobleu computes {', '.join(METRICS)}")
    return entry


def make_with_only(
    name: str, metric_options: Optional[Mapping[str, Any]], others: Mapping[str, Any]
) -> Any:
    """The metric ``name`` made with ``metric_options``, for a reader that takes other keyword
    arguments too (``others``: a metric's own shorthands, e.g. BLEU's ``tokenize``): any of them
    here is refused, naming it and the metric."""
    for keyword in others:
        raise ValueError(
            f"{keyword} is not an option of metric={name!r}: give that metric's constructor "
            "keywords in metric_options"
        )
    return make_metric(name, metric_options)


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
