"""BLEU's own paths on the ``turbobleu`` command line (its registry entry's ``cli_alone``,
``cli_made`` and ``cli_scored``): BLEU made from the command's own options (``-tok``, ``-lc``,
``-s``, ...), its statistics in blocks, the compiled one-call rows without NumPy, streamed
files, and ``--paired-bs`` without NumPy."""

from __future__ import annotations

from turbobleu import _log
from turbobleu._engine.count.references import segment_rows_buffer
from turbobleu._engine.resample.settings import resolve_seed
from turbobleu._typing import TYPE_CHECKING
from turbobleu.bleu import BLEU, MAX_NGRAM_ORDER
from turbobleu.cli import notes
from turbobleu.cli.command import (
    Output,
    add_confidence,
    check_modes,
    format_score,
    paired_results,
    paired_samples,
    paired_signature,
    print_table,
    read_inputs,
)
from turbobleu.cli.metrics import Scored
from turbobleu.cli.progress import Progress
from turbobleu.cli.stream import streamed_rows, streams
from turbobleu.result import BLEUScore
from turbobleu.stats import BLEUStats
from turbobleu.tokenizers import Tokenizer

if TYPE_CHECKING:
    import argparse
    from typing import Any, List, Optional, Tuple

    from turbobleu._engine.resample.settings import Result
    from turbobleu.metric_registry import MetricEntry


def _drop(message: str) -> None:
    """Warnings muted (BLEU made again)."""


def make(args: argparse.Namespace, refs: Optional[List[List[str]]], force: bool) -> BLEU:
    """The command's BLEU. Its warnings when made (the tokenizer that does not suit the target
    language, 'spm' renamed) are given once per run, as sacrebleu makes its metric once: the
    paths below make one per block, or again when a fast path gives up."""
    trg_lang = args.langpair.split("-")[1] if args.langpair else ""
    mute = getattr(args, "bleu_made", False)
    previous = _log.redirect(_drop) if mute else None
    try:
        metric = BLEU(
            lowercase=args.lowercase,
            force=force,
            tokenize=args.tokenize,
            smooth_method=args.smooth_method,
            smooth_value=args.smooth_value,
            effective_order=args.sentence_level,
            trg_lang=trg_lang,
            references=refs,
        )
    finally:
        if mute:
            _log.redirect(previous)
    args.bleu_made = True
    return metric


# Corpora longer than this are processed in blocks of segments, so that the progress bar moves.
STATS_BLOCK = 20000


def statistics(
    args: argparse.Namespace, systems: List[List[str]], refs: List[List[str]]
) -> Tuple[BLEU, List[BLEUStats]]:
    """The metric (for signatures and scores) and every system's segment statistics.

    A segment's statistics depend on its own hypothesis and references only, so a long corpus is
    done block by block (each block with its own references) and the rows are concatenated.
    """
    # sacrebleu never warns about tokenized input in sentence-level mode; the paired tests'
    # account gives their warnings (notes.paired_account).
    warn = not (args.force or args.sentence_level or args.paired_bs or args.paired_ar)
    n_segments = len(refs[0])
    enabled = False if args.quiet else None
    with Progress("statistics", total=n_segments * len(systems), enabled=enabled) as bar:
        if n_segments <= STATS_BLOCK:
            metric = make(args, refs, force=not warn)
            stats = []
            for hyps in systems:
                stats.append(metric.corpus_stats(hyps))
                bar.update(n_segments)
            return metric, stats
        blocks: List[List[BLEUStats]] = [[] for _ in systems]
        for start in range(0, n_segments, STATS_BLOCK):
            end = min(start + STATS_BLOCK, n_segments)
            metric = make(args, [r[start:end] for r in refs], force=True)
            for parts, hyps in zip(blocks, systems):
                parts.append(metric.corpus_stats(hyps[start:end]))
                bar.update(end - start)
    if warn:
        for hyps in systems:
            BLEU._warn_if_tokenized(hyps)  # once per system, as for a whole corpus
    return metric, [BLEUStats.merge(parts) for parts in blocks]


def plain_rows(
    args: argparse.Namespace,
    systems: List[List[str]],
    refs: List[List[str]],
    segment_buffers: Optional[List[Any]] = None,
) -> Optional[Tuple[BLEU, List[List[List[int]]]]]:
    """The metric and, for every system, its statistics rows as lists of ints, from the compiled
    one-call path (no NumPy): the segment rows with ``--sentence-level``, else the one corpus row
    (the sum of the segment rows). None where that path does not apply (a library tokenizer),
    for the caller to use ``_statistics``. ``segment_buffers``, if given, receives every
    system's segment rows as an int64 buffer; then the corpus must fit in one block (else None)
    and the caller warns about tokenized input once it keeps the rows.

    Long corpora go block by block, as in ``_statistics``; rows are additive over segments."""
    warn = not (args.force or args.sentence_level) and segment_buffers is None
    n_segments = len(refs[0])
    if n_segments == 0:
        return None  # _statistics says what is wrong
    blocks = [
        (start, min(start + STATS_BLOCK, n_segments)) for start in range(0, n_segments, STATS_BLOCK)
    ]
    whole = len(blocks) == 1
    if segment_buffers is not None and not whole:
        return None
    metric = make(args, None, force=not (warn and whole))
    if type(metric.tokenizer) is not Tokenizer:  # library tokenizers rewrite lines first
        return None
    width = 2 + 2 * metric.max_ngram_order
    rows: List[List[List[int]]] = [[] for _ in systems]
    enabled = False if args.quiet else None
    with Progress("statistics", total=n_segments * len(systems), enabled=enabled) as bar:
        for start, end in blocks:
            block_refs = refs if whole else [r[start:end] for r in refs]
            for system, hyps in zip(rows, systems):
                block = hyps if whole else hyps[start:end]
                keep = args.sentence_level or segment_buffers is not None
                segment_rows = segment_rows_buffer(end - start, width) if keep else None
                total = metric._plain_corpus_row(block, block_refs, segment_rows)
                if total is None:
                    return None
                if segment_buffers is not None:
                    segment_buffers.append(segment_rows)
                if args.sentence_level and segment_rows is not None:
                    system.extend(segment_rows.tolist())
                elif system:
                    system[0] = [a + b for a, b in zip(system[0], total)]
                else:
                    system.append(total)
                bar.update(end - start)
    if warn and not whole:
        for hyps in systems:
            BLEU._warn_if_tokenized(hyps)  # once per system, as for a whole corpus
    return metric, rows


def made(args: argparse.Namespace) -> None:
    """BLEU made once, for its warnings, before several systems are scored (as sacrebleu makes
    its metric)."""
    make(args, None, force=True)


def sentence_level(
    args: argparse.Namespace, metric: BLEU, rows: List[List[int]], out: Output
) -> None:
    signature = metric.get_signature().format(args.short)
    lines = [metric.score_row(row).format(args.width, args.score_only, signature) for row in rows]
    out.print("\n".join(lines))


def single_system(args: argparse.Namespace, metric: BLEU, stats: BLEUStats, out: Output) -> None:
    score: BLEUScore = metric.score_stats(stats)
    add_confidence(args, metric, score, stats)
    out.print(format_score(args, metric, score, out))


def plain_paired_bootstrap(
    args: argparse.Namespace, systems: List[List[str]], refs: List[List[str]]
) -> Optional[Tuple[List[Result], str]]:
    """``--paired-bs`` on BLEU without NumPy (``resample.plain``): the results and signature,
    as ``_paired`` gives them, where that path gives the same numbers; else None, for the
    caller to take the general path."""
    from turbobleu._engine.resample import plain

    seed = resolve_seed()
    seed_value = seed.per_system
    n_samples = paired_samples(args)
    width = 2 + 2 * MAX_NGRAM_ORDER  # (the command line has no option for the order)
    if seed_value is None or not plain.applies(seed, n_samples, len(systems), width):
        return None
    segment_rows: List[Any] = []
    found = plain_rows(args, systems, refs, segment_rows)
    if found is None:
        return None
    metric, totals = found
    scores = [metric.score_row(total[0]).score for total in totals]
    with Progress("paired bootstrap", enabled=None if not args.quiet else False) as bar:
        results = plain.paired_bootstrap(
            segment_rows, scores, metric.options, n_samples, seed_value, bar
        )
    if results is None:  # sums that float32 rounds: the general path
        return None
    return results, paired_signature(args, metric, n_samples, seed)


def bleu_scored(
    entry: MetricEntry,
    args: argparse.Namespace,
    systems: List[List[str]],
    refs: List[List[str]],
    arrays: bool,
) -> Scored:
    """BLEU of every system for ``_run_metrics`` by the command's own BLEU paths (BLEU's entry's
    ``cli_scored``; the other metrics take ``cli.metrics.registry_scored``)."""
    plain = None if arrays else plain_rows(args, systems, refs)
    if plain is not None:
        metric, rows = plain
        return Scored(metric, [metric.score_row(r[0]) for r in rows], None)
    metric, stats = statistics(args, systems, refs)
    return Scored(metric, [metric.score_stats(s) for s in stats], stats)


def run_alone(args: argparse.Namespace, out: Output) -> int:
    """The command with BLEU alone (``-m bleu``, the default)."""
    paired = bool(args.paired_bs or args.paired_ar)
    plain: Optional[Tuple[BLEU, List[List[List[int]]]]] = None
    if streams(args):  # corpus BLEU only: files read in chunks
        metric = make(args, None, force=True)
        plain = streamed_rows(args, metric, STATS_BLOCK, notes.found_systems)
        names = list(args.input)
    else:
        systems, names, refs = read_inputs(args, paired)
        check_modes(args, len(systems), paired)
        if len(systems) > 1:
            made(args)  # its warnings when made, where sacrebleu makes it
            notes.found_systems(len(systems))
        if not (paired or args.confidence):
            plain = plain_rows(args, systems, refs)
        elif args.paired_bs:
            done = plain_paired_bootstrap(args, systems, refs)
            if done is not None:
                notes.paired_account(
                    args, names, systems, [("bleu", "BLEU", BLEU)], paired_samples(args)
                )
                print_table(args, names, [("BLEU", *done)], out)
                return 0
    if plain is not None:  # no significance test: rows as lists, no NumPy
        metric, rows = plain
        if args.sentence_level:
            sentence_level(args, metric, rows[0], out)
        elif len(rows) == 1:
            out.print(format_score(args, metric, metric.score_row(rows[0][0]), out))
        else:
            cells = [metric.score_row(r[0]).format(args.width, True) for r in rows]
            signature = metric.get_signature().format(args.short)
            print_table(args, names, [("BLEU", cells, signature)], out)
        return 0
    metric, stats = statistics(args, systems, refs)

    if args.sentence_level:
        sentence_level(args, metric, stats[0].rows(), out)
    elif len(systems) == 1:
        single_system(args, metric, stats[0], out)
    elif paired:
        results, signature = paired_results(args, metric, stats)
        notes.paired_account(args, names, systems, [("bleu", "BLEU", metric)], paired_samples(args))
        print_table(args, names, [("BLEU", results, signature)], out)
    else:
        cells = [metric.score_stats(s).format(args.width, True) for s in stats]
        signature = metric.get_signature().format(args.short)
        print_table(args, names, [("BLEU", cells, signature)], out)
    return 0
