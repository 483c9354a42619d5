"""The command line's options, written once as a table that two parsers read.

``build_parser()`` makes the argparse parser (``--help``, errors, every unusual form) from the
table; ``parse_plain(argv)`` reads the plain forms most command lines use (``REF.. -i HYP.. -b``,
flags, ``-tok intl``, ``-w 2``) straight from the table without importing argparse, which with
what it loads (gettext, locale, shutil and its compressors) costs about 10 ms of a 40 ms run.
When ``parse_plain`` is not sure it returns None and argparse decides; a test runs both on
generated command lines and requires the same namespace or None.
"""

from __future__ import annotations

from types import SimpleNamespace

from turbobleu import __version__
from turbobleu._engine.recipes.sacrebleu import SMOOTH_DEFAULTS
from turbobleu._typing import TYPE_CHECKING
from turbobleu.metric_registry import METRICS, metric_names
from turbobleu.result import SACREBLEU_VERSION
from turbobleu.tokenizers import TOKENIZER_NAMES

if TYPE_CHECKING:
    import argparse
    from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Tuple, Union

PROG = "turbobleu"
OUTPUT_FORMATS = ("json", "text", "latex")


class UsageError(Exception):
    """A bad command line: one line on stderr, exit status 2."""


class Option:
    """One option: its flags, where it goes (``dest``) and how it reads its value.

    ``kind``: ``"flag"`` (store_true), ``"one"`` (one value of ``type``), ``"many"`` (one or
    more values, nargs ``+``) or ``"files"`` (zero or more, nargs ``*``). ``group`` names its
    section in ``--help`` (``None``: hidden); ``exclusive`` puts it in a mutually exclusive
    group of that name. ``help`` may be a callable, for text that costs something to make.
    """

    __slots__ = (
        "flags",
        "dest",
        "kind",
        "type",
        "default",
        "choices",
        "group",
        "help",
        "metavar",
        "exclusive",
    )

    def __init__(
        self,
        flags: Tuple[str, ...],
        dest: str,
        kind: str = "one",
        type: Callable[[str], Any] = str,
        default: Any = None,
        choices: Optional[Sequence[str]] = None,
        group: Optional[str] = "",
        help: Union[str, Callable[[], str]] = "",
        metavar: Optional[str] = None,
        exclusive: Optional[str] = None,
    ) -> None:
        self.flags = flags
        self.dest = dest
        self.kind = kind
        self.type = type
        self.default = False if kind == "flag" else default
        self.choices = choices
        self.group = group
        self.help = help
        self.metavar = metavar
        self.exclusive = exclusive


def _tokenizer_help() -> str:
    from turbobleu.tokenizers import fast_tokenizers

    library = [n for n in TOKENIZER_NAMES if n not in fast_tokenizers()]
    return (
        f"Tokenizer (sacrebleu's): {', '.join(TOKENIZER_NAMES)}; "
        f"{', '.join(library)} need turbobleu's extras (ja, ko, spm). "
        "(Default: 13a, or zh/ja-mecab/ko-mecab from -l's target language)"
    )


BLEU_GROUP = METRICS["bleu"].cli_group
SIGNIFICANCE_GROUP = (
    "Confidence intervals and paired significance tests "
    "(seed: SACREBLEU_SEED, default 12345; 'none' = random)"
)
OUTPUT_GROUP = "Output"


def _metric_options() -> List[Option]:
    """Every metric's own options (``--chrf-*``, ``--ter-*``), from the metric registry."""
    return [
        Option(
            o.flags,
            o.dest,
            o.kind,
            type=o.type,
            default=o.default,
            group=entry.cli_group,
            help=o.help,
        )
        for entry in METRICS.values()
        for o in entry.cli_options
    ]


OPTIONS = (
    Option(
        ("--input", "-i"), "input", "files", help="System output files (default: standard input)."
    ),
    Option(
        ("--num-refs", "-nr"),
        "num_refs",
        type=int,
        default=1,
        help="Split each reference line on tabs into this many references. (Default: 1)",
    ),
    Option(
        ("--encoding", "-e"),
        "encoding",
        default="utf-8",
        help="Encoding of the files. (Default: utf-8)",
    ),
    Option(
        ("--metrics", "-m"),
        "metrics",
        "many",
        default=["bleu"],
        metavar="METRIC",
        help=f"Metrics to compute: {', '.join(metric_names())}, one or more. (Default: bleu)",
    ),
    Option(("--sentence-level", "-sl"), "sentence_level", "flag", help="Score every sentence."),
    Option(
        ("--language-pair", "-l"),
        "langpair",
        help="src-trg; the target language picks the tokenizer (zh, ja, ko) as in sacrebleu.",
    ),
    Option(
        ("--smooth-method", "-s"),
        "smooth_method",
        default="exp",
        choices=list(SMOOTH_DEFAULTS),
        group=BLEU_GROUP,
        help="Smoothing method. (Default: exp)",
    ),
    Option(
        ("--smooth-value", "-sv"),
        "smooth_value",
        type=float,
        group=BLEU_GROUP,
        help="Smoothing value for floor (default 0.1) and add-k (default 1).",
    ),
    Option(
        ("--tokenize", "-tok"),
        "tokenize",
        choices=list(TOKENIZER_NAMES),
        metavar="TOKENIZER",
        group=BLEU_GROUP,
        help=_tokenizer_help,
    ),
    Option(
        ("--lowercase", "-lc"), "lowercase", "flag", group=BLEU_GROUP, help="Case-insensitive BLEU."
    ),
    Option(
        ("--force",),
        "force",
        "flag",
        group=BLEU_GROUP,
        help="Do not warn about input that looks tokenized.",
    ),
    *_metric_options(),
    Option(
        ("--confidence", "-ci"),
        "confidence",
        "flag",
        group=SIGNIFICANCE_GROUP,
        help="Bootstrap confidence interval of one system.",
    ),
    Option(
        ("--confidence-n", "-cin"),
        "confidence_n",
        type=int,
        group=SIGNIFICANCE_GROUP,
        help="Bootstrap resamples for --confidence. (Default: 1000)",
    ),
    Option(
        ("--paired-ar", "-par"),
        "paired_ar",
        "flag",
        group=SIGNIFICANCE_GROUP,
        exclusive="paired",
        help="Paired approximate randomization test against the first system.",
    ),
    Option(
        ("--paired-bs", "-pbs"),
        "paired_bs",
        "flag",
        group=SIGNIFICANCE_GROUP,
        exclusive="paired",
        help="Paired bootstrap resampling test against the first system.",
    ),
    Option(
        ("--paired-ar-n", "-parn"),
        "paired_ar_n",
        type=int,
        group=SIGNIFICANCE_GROUP,
        help="Trials of --paired-ar. (Default: 10000)",
    ),
    Option(
        ("--paired-bs-n", "-pbsn"),
        "paired_bs_n",
        type=int,
        group=SIGNIFICANCE_GROUP,
        help="Resamples of --paired-bs. (Default: 1000)",
    ),
    Option(
        ("--paired-jobs", "-j"),
        "paired_jobs",
        type=int,
        default=1,
        group=SIGNIFICANCE_GROUP,
        help="Accepted for sacrebleu compatibility; the tests are vectorised and "
        "run in one process.",
    ),
    Option(
        ("--quiet", "-q"),
        "quiet",
        "flag",
        group=OUTPUT_GROUP,
        help="No informational lines, no warnings and no progress bar.",
    ),
    Option(("--short", "-sh"), "short", "flag", group=OUTPUT_GROUP, help="Short signature."),
    Option(
        ("--score-only", "-b"),
        "score_only",
        "flag",
        group=OUTPUT_GROUP,
        help="Print the score only.",
    ),
    Option(
        ("--width", "-w"),
        "width",
        type=int,
        default=1,
        group=OUTPUT_GROUP,
        help="Decimals of the scores. (Default: 1)",
    ),
    Option(
        ("--no-color", "-nc"), "no_color", "flag", group=OUTPUT_GROUP, help="No terminal colours."
    ),
    Option(
        ("--format", "-f"),
        "format",
        default="json",
        choices=OUTPUT_FORMATS,
        group=OUTPUT_GROUP,
        help="Output format (env SACREBLEU_FORMAT overrides, as in sacrebleu). (Default: json)",
    ),
    # sacrebleu's options for its test-set downloads and other metrics: accepted by the parser,
    # hidden, and refused after parsing with a message that says why.
    Option(("--test-set", "-t"), "test_set", group=None),
    Option(("--download",), "download", group=None),
    Option(("--origlang", "-ol"), "origlang", group=None),
    Option(("--subset",), "subset", group=None),
    Option(("--echo",), "echo", "many", group=None),
    Option(("--list",), "list", "flag", group=None),
    Option(("--citation", "--cite"), "citation", "flag", group=None),
    Option(("--detail", "-d"), "detail", "flag", group=None),
)

DESCRIPTION = (
    "BLEU, chrF and TER exactly as sacreBLEU computes and prints them, fast; with paired "
    "significance tests.\nUsage: turbobleu REF [REF ...] -i HYP [HYP ...]  "
    "(or hypotheses on stdin, one tab-separated field per system)"
)
VERSION = f"{PROG} {__version__} (the metrics of sacrebleu {SACREBLEU_VERSION})"

_NARGS = {"files": "*", "many": "+"}


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of ``OPTIONS`` (for ``--help``, ``--version``, errors and every form
    ``parse_plain`` leaves to it); errors raise ``UsageError``."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:  # one line, not argparse's usage block
            raise UsageError(f"{message} (see {PROG} --help)")

    parser = Parser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter, description=DESCRIPTION
    )
    parser.add_argument("refs", nargs="*", default=[], help="Reference files (before -i/--input).")
    groups: Dict[Optional[str], Any] = {"": parser, None: parser}
    exclusive: Dict[str, Any] = {}
    for option in OPTIONS:
        if option.group not in groups:
            groups[option.group] = parser.add_argument_group(option.group)
        target = groups[option.group]
        if option.exclusive is not None:
            if option.exclusive not in exclusive:
                exclusive[option.exclusive] = target.add_mutually_exclusive_group()
            target = exclusive[option.exclusive]
        help_text = option.help() if callable(option.help) else option.help
        settings: Dict[str, Any] = {
            "dest": option.dest,
            "help": argparse.SUPPRESS if option.group is None else help_text,
        }
        if option.kind == "flag":
            settings["action"] = "store_true"
        else:
            settings.update(type=option.type, default=option.default)
            if option.kind in _NARGS:
                settings["nargs"] = _NARGS[option.kind]
            if option.choices is not None:
                settings["choices"] = option.choices
            if option.metavar is not None:
                settings["metavar"] = option.metavar
        target.add_argument(*option.flags, **settings)
    groups[OUTPUT_GROUP].add_argument("--version", "-V", action="version", version=VERSION)
    return parser


_BY_FLAG = {flag: option for option in OPTIONS for flag in option.flags}


def parse_plain(argv: Sequence[str]) -> Optional[argparse.Namespace]:
    """``argv`` parsed as argparse would, for the plain forms only: reference files first, then
    options from ``OPTIONS`` written out in full or by their short name, each at most once, with
    values that do not start with ``-``. Anything else (``--help``, ``--width=2``, an
    abbreviation, ``-``, ``--``, a repeated option, a value argparse would refuse) gives None."""
    values: Dict[str, Any] = {"refs": []}
    seen: Dict[str, bool] = {}
    i = 0
    while i < len(argv) and not argv[i].startswith("-"):
        values["refs"].append(argv[i])
        i += 1
    while i < len(argv):
        option = _BY_FLAG.get(argv[i])
        if option is None or option.dest in seen:
            return None
        seen[option.dest] = True
        i += 1
        taken: List[str] = []
        while i < len(argv) and not argv[i].startswith("-"):
            taken.append(argv[i])
            i += 1
            if option.kind in ("flag", "one"):
                break
        value = _value(option, taken)
        if value is None:
            return None
        values[option.dest] = value[0]
    if i < len(argv) or sum(seen.get(o.dest, False) for o in OPTIONS if o.exclusive) > 1:
        return None
    for option in OPTIONS:
        values.setdefault(option.dest, option.default)
    return SimpleNamespace(**values)  # type: ignore[return-value]


def _value(option: Option, taken: List[str]) -> Optional[Tuple[Any]]:
    """The value ``option`` gets from the arguments it took, in a 1-tuple; None where argparse
    would refuse them (or where the plain reading is not certain)."""
    if option.kind == "flag":
        return None if taken else (True,)
    if not taken and option.kind != "files":
        return None
    try:
        converted = [option.type(text) for text in taken]
    except ValueError:
        return None
    if option.choices is not None and any(v not in option.choices for v in converted):
        return None
    return (converted[0],) if option.kind == "one" else (converted,)
