"""BLEU's corpus scores on the command line in bounded memory (one of BLEU's own command-line
paths, used by ``cli.bleu``): without significance tests or
``--sentence-level`` (which need every segment's row), the files are read in chunks of segments
and each system's statistics summed as they go, so memory does not grow with the input."""

from __future__ import annotations

from turbobleu._engine.streaming import add_rows, chunk_row
from turbobleu._typing import TYPE_CHECKING
from turbobleu.cli.io import (
    can_stream,
    check_encoding,
    segment_chunks,
    stream_lines,
    stream_references,
)
from turbobleu.cli.progress import Progress

if TYPE_CHECKING:
    import argparse
    from typing import Callable, List, Optional, Tuple

    from turbobleu.bleu import BLEU


def streams(args: argparse.Namespace) -> bool:
    """Whether this run can stream: files given with -i (each once), plain corpus scores, and an
    encoding that can be cut at newline bytes. Anything else takes the in-memory path (which
    also reports what is wrong with the arguments)."""
    return (
        not (args.paired_bs or args.paired_ar or args.confidence or args.sentence_level)
        and args.input is not None
        and len(set(args.input)) == len(args.input)
        and bool(args.refs)
        and (args.num_refs == 1 or len(args.refs) == 1)
        and can_stream(check_encoding(args.encoding))
    )


def streamed_rows(
    args: argparse.Namespace,
    metric: BLEU,
    chunk: int,
    announce: Callable[[int], None],
) -> Tuple[BLEU, List[List[List[int]]]]:
    """The metric and each system's corpus row (as ``_plain_rows`` gives them), files read
    ``chunk`` segments at a time. ``metric`` must not warn itself (force=True): the
    tokenized-period warning is given here once per system, over its whole file, after
    ``announce(number of systems)`` (once the files are read whole, so not on bad input)."""
    encoding = check_encoding(args.encoding)
    refs = stream_references(args.refs, encoding, args.num_refs)
    ref_names = (
        list(args.refs)
        if args.num_refs == 1
        else [f"{args.refs[0]} (field {k + 1})" for k in range(args.num_refs)]
    )
    systems = [stream_lines(path, encoding) for path in args.input]
    totals: List[Optional[list]] = [None] * len(systems)
    periods = [0] * len(systems)
    enabled = False if args.quiet else None
    # No total: the files are read as they are scored (a total grown chunk by chunk would read
    # 100% throughout), so the bar counts the segments scored and their rate.
    with Progress("statistics", enabled=enabled, unit="segments") as bar:
        for hyps, ref_chunk in segment_chunks(systems, list(args.input), refs, ref_names, chunk):
            for s, system in enumerate(hyps):
                row, found = chunk_row(metric, system, ref_chunk)
                totals[s] = add_rows(totals[s], row)
                periods[s] += found
                bar.update(len(system))
    metric.num_refs = len(refs)
    announce(len(systems))
    if not args.force:
        for found in periods:
            if found >= 100:
                metric._warn_tokenized()  # once per system, as for a whole corpus
    return metric, [[total] for total in totals if total is not None]
