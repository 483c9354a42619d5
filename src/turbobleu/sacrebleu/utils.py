"""``sacrebleu.utils``: the helpers of sacrebleu's command line, and its test-set functions.

Computed here (no sacrebleu needed): ``smart_open``, ``print_results_table``,
``print_single_results``, ``sanity_check_lengths``, ``my_log``, ``sum_of_lists``,
``args_to_dict``, ``get_md5sum``, ``Color``, ``USERHOME`` and ``sacrelogger``. The tables are
laid out by the ``turbobleu`` command's renderer, which prints sacrebleu's text byte for byte
without ``tabulate``.

Forwarded to the real sacrebleu on first use (``pip install sacrebleu``): ``SACREBLEU_DIR``,
``download_test_set``, ``download_file``, ``extract_tarball``, ``get_source_file``,
``get_reference_files``, ``get_files``, ``get_langpairs_for_testset``,
``get_available_testsets``, ``get_available_testsets_for_langpair``,
``get_available_origlangs``, ``get_available_subsets``, ``filter_subset``, ``print_test_set``
and ``print_subset_results`` (they read or download test sets).
"""

from __future__ import annotations

import logging
import math
import os
import sys

from turbobleu._typing import TYPE_CHECKING
from turbobleu.sacrebleu import _real

if TYPE_CHECKING:
    from argparse import Namespace
    from typing import Any, Dict, List, Optional, Sequence

__all__ = [
    "USERHOME",
    "Color",
    "args_to_dict",
    "get_md5sum",
    "my_log",
    "print_results_table",
    "print_single_results",
    "sacrelogger",
    "sanity_check_lengths",
    "smart_open",
    "sum_of_lists",
]

# The names forwarded to the real sacrebleu's utils.
_FORWARDED = (
    "SACREBLEU_DIR",
    "download_file",
    "download_test_set",
    "extract_tarball",
    "filter_subset",
    "get_available_origlangs",
    "get_available_subsets",
    "get_available_testsets",
    "get_available_testsets_for_langpair",
    "get_files",
    "get_langpairs_for_testset",
    "get_reference_files",
    "get_source_file",
    "print_subset_results",
    "print_test_set",
)

USERHOME = os.path.expanduser("~")

sacrelogger = logging.getLogger("sacrebleu")

# my_log's value for log(0).
_LOG_ZERO = -9999999999


def __getattr__(name: str) -> Any:
    if name in _FORWARDED:
        value = _real.forwarded("utils", name, f"turbobleu.sacrebleu.utils.{name}")
        globals()[name] = value
        return value
    raise AttributeError(f"module 'turbobleu.sacrebleu.utils' has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(_FORWARDED))


class Color:
    """ANSI colours for the command line's output (colorama's codes); ``ENABLE_COLORS = False``
    turns them off."""

    ENABLE_COLORS = True

    # colorama's foreground codes, by name.
    _CODES = {
        "black": 30,
        "red": 31,
        "green": 32,
        "yellow": 33,
        "blue": 34,
        "magenta": 35,
        "cyan": 36,
        "white": 37,
        "reset": 39,
        "lightblack_ex": 90,
        "lightred_ex": 91,
        "lightgreen_ex": 92,
        "lightyellow_ex": 93,
        "lightblue_ex": 94,
        "lightmagenta_ex": 95,
        "lightcyan_ex": 96,
        "lightwhite_ex": 97,
    }

    @staticmethod
    def format(msg: str, color: str) -> str:
        """``msg`` in ``color`` ("red", "cyan", ...); unchanged when colours are off or the colour
        is unknown."""
        code = Color._CODES.get(color.lower()) if Color.ENABLE_COLORS else None
        return msg if code is None else f"\x1b[{code}m{msg}\x1b[0m"


def smart_open(file: str, mode: str = "rt", encoding: str = "utf-8") -> Any:
    """``file`` opened in ``mode`` with ``encoding`` and ``"\\n"`` line endings, through gzip
    when its name ends in ``.gz``."""
    if not isinstance(file, str):
        raise TypeError(f"file must be a path (str), got {type(file).__name__}")
    if file.endswith(".gz"):
        import gzip

        return gzip.open(file, mode=mode, encoding=encoding, newline="\n")
    return open(file, mode=mode, encoding=encoding, newline="\n")  # noqa: SIM115 (returned)


def my_log(num: float) -> float:
    """``math.log(num)``, with a very low value (-9999999999) for 0."""
    return _LOG_ZERO if num == 0.0 else math.log(num)


def sum_of_lists(lists: Sequence[Sequence[Any]]) -> Any:
    """The element-wise sum of equally long numeric lists, in the type of the first list's first
    element; one list is returned as it is."""
    if len(lists) == 1:
        return lists[0]
    zero = type(lists[0][0])(0.0)
    total = [zero] * len(lists[0])
    for values in lists:
        for k in range(len(total)):
            total[k] += values[k]
    return total


def args_to_dict(args: Namespace, prefix: str, strip_prefix: bool = False) -> Dict[str, Any]:
    """The options of ``args`` whose names start with ``prefix + "_"``; with ``strip_prefix``,
    keyed without that start (every occurrence of it removed, as sacrebleu does)."""
    start = prefix + "_"
    return {
        (key.replace(start, "") if strip_prefix else key): value
        for key, value in vars(args).items()
        if key.startswith(start)
    }


def get_md5sum(dest_path: str) -> str:
    """The MD5 hex digest of the file ``dest_path``."""
    import hashlib

    digest = hashlib.md5()
    with open(dest_path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sanity_check_lengths(
    system: Sequence[str], refs: Sequence[Sequence[str]], test_set: Optional[str] = None
) -> None:
    """Exits the program with status 1 (after logging why) when a reference stream does not have
    one line per hypothesis."""
    if all(len(stream) == len(system) for stream in refs):
        return
    sacrelogger.error("System and reference streams have different lengths.")
    if test_set:
        home = os.environ.get("SACREBLEU", os.path.join(USERHOME, ".sacrebleu"))
        for line in (
            "This could be an issue with your system output "
            "or with sacreBLEU's reference database if -t is given.",
            "For the latter, try cleaning out the cache by typing:\n",
            f"  rm -r {home}/{test_set}\n",
            "The test sets will be re-downloaded the next time you run sacreBLEU.",
        ):
            sacrelogger.error(line)
    sys.exit(1)


# -- multi-system tables ---------------------------------------------------------------------
def _result_fields(result: Any) -> Dict[str, Any]:
    """A significance result's fields, in sacrebleu's JSON order."""
    as_dict = getattr(result, "as_dict", None)
    return dict(as_dict()) if as_dict is not None else dict(vars(result))


def _cell(result: Any, width: int, line_break: str) -> str:
    """A result's cell: the score, '(mean ± ci)' after bootstrap, the p-value after a test."""
    if isinstance(result, str):
        return result
    text = f"{result.score:.{width}f}"
    if result.mean is not None:
        text += f" ({result.mean:.{width}f} ± {result.ci:.{width}f})"
    if result.p_value is not None:
        p = f"(p = {result.p_value:.4f})"
        text += line_break + (Color.format(p, "red") if result.p_value > 0.05 else p + "*")
    return text


def _paired_notes(args: Namespace, baseline: str) -> List[str]:
    """What the command prints under a paired test's table."""
    if args.paired_bs:
        title = f"Paired bootstrap resampling test with {args.paired_bs_n} resampling trials"
        shown = "Actual system score / bootstrap estimated true mean / 95% CI are"
        shown += " provided for each metric."
    else:
        title = f"Paired approximate randomization test with {args.paired_ar_n} trials"
        shown = "Actual system score is provided for each metric."
    bl = Color.format("baseline", "yellow")
    null = Color.format("Null hypothesis", "green")
    rule = "-" * len(title)
    return [
        f"{rule}\n{title}\n{rule}",
        f" - Each system is pairwise compared to {Color.format(baseline, 'yellow')}.",
        f"   {shown}",
        "",
        f" - {null}: the system and the {bl} translations are essentially",
        f"   generated by the same underlying process. For a given system and the {bl},",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        f"   or higher occurring due to chance, under the assumption that the {null.lower()}"
        " is correct.",
        "",
        f" - Assuming a significance threshold of 0.05, the {null.lower()} can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be'
        " attributed",
        f'   to chance, hence the system is significantly "different" than the {bl}.',
        f"   Otherwise, the p-values are {Color.format('highlighted in red', 'red')}.",
        "",
        f' - NOTE: Significance does not tell whether a system is "better" than the {bl} but'
        " rather",
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]


def print_results_table(
    results: Dict[str, List[Any]], signatures: Dict[str, Any], args: Any
) -> None:
    """Prints the multi-system table of ``results`` (``{"System": names, metric: [a formatted
    score or a significance Result per system]}``) and the ``signatures``, as the command does
    for ``args.format`` ("text", "latex" or "json"), ``args.width`` and the paired-test options
    (``paired_bs``, ``paired_ar``, ``paired_bs_n``, ``paired_ar_n``). ``results`` is left as
    it is (sacrebleu removes its "System" entry)."""
    names = list(results["System"])
    metrics = [key for key in results if key != "System"]
    if args.format == "json":
        import json

        rows = []
        for i, name in enumerate(names):
            row: Dict[str, Any] = {"system": name}
            for key in metrics:
                value = results[key][i]
                row[key] = value if isinstance(value, str) else _result_fields(value)
            rows.append(row)
        print(json.dumps(rows, indent=4))
        return
    if args.format not in ("text", "latex"):
        raise ValueError(f"args.format must be 'text', 'latex' or 'json', got {args.format!r}")
    from turbobleu.cli import render

    line_break = "\n" if args.format == "text" else " "
    headers, columns = ["System"], [names]
    bootstrap = False  # once a column has means, it and every later one say so
    for key in metrics:
        cells = [_cell(result, args.width, line_break) for result in results[key]]
        bootstrap = bootstrap or any(
            not isinstance(r, str) and r.mean is not None for r in results[key]
        )
        headers.append(f"{key} (μ ± 95% CI)" if bootstrap else key)
        columns.append(cells)
    baseline = names[0] if names and names[0].startswith("Baseline:") else ""
    if baseline:
        columns = [[Color.format(col[0], "yellow")] + col[1:] for col in columns]
    headers = [Color.format(h, "cyan") for h in headers]
    style = "grid" if args.format == "text" else "booktabs"
    print(render(headers, columns, style, f".{args.width}f"))
    print()
    if args.paired_bs or args.paired_ar:
        print("\n".join(_paired_notes(args, baseline)))
    print("-----------------\nMetric signatures\n-----------------")
    for key, signature in signatures.items():
        print(f" - {key:<10} {signature}")


def print_single_results(results: List[str], args: Any) -> None:
    """Prints one system's formatted scores (one per metric) as the command does: a JSON list
    for ``args.format == "json"``, else lines aligned on their '=' with confidence intervals in
    cyan."""
    if args.format == "json":
        print(results[0] if len(results) == 1 else "[\n" + ",\n".join(results) + "\n]")
        return
    lines = list(results)
    if "μ" in lines[0]:
        import re

        interval = re.compile(r"(\(μ = [0-9\.]+ ± [0-9\.]+\))")
        lines = [interval.sub(lambda m: Color.format(m.group(), "cyan"), line) for line in lines]
    if len(lines) == 1:
        print(lines[0])
        return
    aligned = []
    for line in lines:
        if "=" in line:
            aligned.append((line.index("=") - 1, line))
        else:
            print(line)  # a score without a name ('score only') is printed as it comes
    if aligned:
        width = max(at for at, _ in aligned)
        for at, line in aligned:
            print(f"{line[:at]:>{width}}{line[at:]}")
