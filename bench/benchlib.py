"""Shared helpers for the side-by-side benchmarks in bench/: data loading, interleaved timing,
machine description, summary statistics and result files.

Nothing here imports NumPy or a BLEU library at module level, so a benchmark script can set the
thread-count environment variables (``pin_threads``) before those libraries load.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

BENCH_DIR = Path(__file__).resolve().parent
REPO_ROOT = BENCH_DIR.parent
DEFAULT_DATA = REPO_ROOT.parent / "shared" / "data" / "wmt23"
RESULTS_DIR = BENCH_DIR / "results"
# Where --quick (smoke) runs write by default: git ignores it (.gitignore), so a smoke run never
# leaves files that look like results to commit.
QUICK_RESULTS_DIR = RESULTS_DIR / "quick"

# Thread pools that could otherwise use every core: OpenMP/BLAS (via NumPy), turbobleu's own
# pool (if it grows one) and Rust's rayon (bleuscore).
_ONE_THREAD_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "TURBOBLEU_NUM_THREADS",
)


def pin_threads(peer_threads: str) -> Dict[str, str]:
    """Set thread-count variables; call before importing NumPy or any BLEU library.

    turbobleu (and BLAS) always get one thread. ``peer_threads`` is a number for rayon-based
    peers (bleuscore), or ``"auto"`` to leave their default (all cores) alone.
    """
    for var in _ONE_THREAD_VARS:
        os.environ[var] = "1"
    if peer_threads != "auto":
        if not peer_threads.isdigit() or int(peer_threads) < 1:
            raise ValueError(
                f"--peer-threads must be a positive integer or 'auto', got {peer_threads!r}"
            )
        os.environ["RAYON_NUM_THREADS"] = peer_threads
    return {
        var: os.environ[var]
        for var in _ONE_THREAD_VARS + ("RAYON_NUM_THREADS",)
        if var in os.environ
    }


# -- data ------------------------------------------------------------------------------------


@dataclass
class System:
    """One MT system's output with its references (sacrebleu's layout: a list of streams)."""

    pair: str
    name: str
    hyps: List[str]
    refs: List[List[str]]
    ref_names: List[str]

    @property
    def segments(self) -> int:
        return len(self.hyps)

    def refs_per_segment(self) -> List[List[str]]:
        """The references regrouped per segment (``[[ref_a_0, ref_b_0], ...]``)."""
        return [list(group) for group in zip(*self.refs)]


# The header of the per-workload summary tables of the benchmarks that compare by language pair.
PAIR_SUMMARY_HEADER = [
    "workload",
    "timed",
    "pairs",
    "geomean sb/tb",
    "min (pair)",
    "max",
    "target",
    "met (every pair)",
]


def wmt23_parser(
    doc: str, pairs_help: str = "language pairs (default: all)"
) -> argparse.ArgumentParser:
    """A benchmark's argument parser (described by the first paragraph of ``doc``) with the
    options every WMT23 benchmark takes: ``--data`` and ``--pairs``."""
    p = argparse.ArgumentParser(
        description=doc.split("\n\n")[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter
    )
    p.add_argument(
        "--data",
        type=Path,
        default=DEFAULT_DATA,
        help="WMT23 directory: <pair>/hyp.<system>.<lang> and <pair>/ref.<name>.<lang>",
    )
    p.add_argument("--pairs", nargs="+", metavar="PAIR", help=pairs_help)
    return p


def add_workloads_option(p: argparse.ArgumentParser, workloads: Sequence[str]) -> None:
    """``--workloads``: one or more of ``workloads``, all of them by default (in that order)."""
    p.add_argument("--workloads", nargs="+", choices=tuple(workloads), default=list(workloads))


def add_timing_options(p: argparse.ArgumentParser, repeats: int, slow_repeats: int) -> None:
    """``--repeats``, ``--slow-seconds`` and ``--slow-repeats``: what ``time_interleaved``
    takes (``args.slow_seconds * 1000`` is its ``slow_ms``)."""
    p.add_argument("--repeats", type=int, default=repeats, help="timed runs per contender")
    p.add_argument(
        "--slow-seconds",
        type=float,
        default=2.0,
        help="a contender whose warm-up run takes longer gets --slow-repeats runs",
    )
    p.add_argument(
        "--slow-repeats", type=int, default=slow_repeats, help="timed runs of a slow contender"
    )


def add_results_options(
    p: argparse.ArgumentParser, name_help: str, quick: Optional[str] = None
) -> None:
    """``--name`` (the results file stem; None until the script sets its default, e.g. with
    ``results_name``), ``--out-dir`` and ``--no-write``: where ``save_results`` writes; with
    ``quick`` (its help), also ``--quick``, whose results go to QUICK_RESULTS_DIR."""
    if quick is not None:
        p.add_argument(
            "--quick", action="store_true", help=f"{quick} (results in {QUICK_RESULTS_DIR.name}/)"
        )
    p.add_argument("--name", help=name_help)
    p.add_argument("--out-dir", type=Path, default=RESULTS_DIR, help="folder of the result files")
    p.add_argument("--no-write", action="store_true", help="print only, write no result files")


def results_dir(args: argparse.Namespace) -> Path:
    """Where a run writes: ``--out-dir``, except that a ``--quick`` run left at the default
    folder writes to QUICK_RESULTS_DIR (ignored by git)."""
    out_dir: Path = args.out_dir
    if getattr(args, "quick", False) and out_dir == RESULTS_DIR:
        return QUICK_RESULTS_DIR
    return out_dir


def results_name(args: argparse.Namespace, stem: str) -> str:
    """``--name`` if given, else ``stem``, or ``<stem>-quick`` after ``--quick``."""
    return args.name or (f"{stem}-quick" if getattr(args, "quick", False) else stem)


def apply_quick(args: argparse.Namespace, pairs: Sequence[str], repeats: int = 2) -> bool:
    """After ``--quick``: ``pairs`` unless ``--pairs`` names others, and at most ``repeats``
    timed runs. Returns whether ``--quick`` was given."""
    if args.quick:
        args.pairs = args.pairs or list(pairs)
        args.repeats = min(args.repeats, repeats)
    return bool(args.quick)


def require_positive(p: argparse.ArgumentParser, args: argparse.Namespace, *names: str) -> None:
    """Exit with a usage error unless each named option (``"slow_repeats"``) is at least 1."""
    if any(getattr(args, name) < 1 for name in names):
        flags = ["--" + name.replace("_", "-") for name in names]
        listed = flags[0] if len(flags) == 1 else ", ".join(flags[:-1]) + " and " + flags[-1]
        p.error(f"{listed} must be >= 1")


def args_record(args: argparse.Namespace, all_strings: bool = False) -> Dict[str, Any]:
    """The options of a run for its results file: paths as strings (every value with
    ``all_strings``)."""
    return {k: str(v) if all_strings or isinstance(v, Path) else v for k, v in vars(args).items()}


def read_lines(path: Path) -> List[str]:
    """The lines of a UTF-8 file, split on '\\n' only (``str.splitlines`` would also split on
    U+2028 and friends, which can occur inside MT segments)."""
    text = path.read_text(encoding="utf-8")
    if text.endswith("\n"):
        text = text[:-1]
    return text.split("\n")


def wmt23_pairs(data_dir: Path) -> List[str]:
    """The language pairs under ``data_dir`` (its folders named like ``de-en``), sorted."""
    return sorted(p.name for p in data_dir.iterdir() if p.is_dir() and "-" in p.name)


def load_wmt23(data_dir: Path, pairs: Optional[Sequence[str]] = None) -> List[System]:
    """Every system of every language pair under ``data_dir`` (``<pair>/hyp.<sys>.<lang>`` and
    ``<pair>/ref.<name>.<lang>`` files)."""
    if not data_dir.is_dir():
        raise FileNotFoundError(f"--data {data_dir} is not a directory")
    available = wmt23_pairs(data_dir)
    chosen = list(pairs) if pairs else available
    unknown = [p for p in chosen if p not in available]
    if unknown:
        raise ValueError(f"--pairs {unknown} not found in {data_dir}; available: {available}")
    systems: List[System] = []
    for pair in chosen:
        pair_dir = data_dir / pair
        ref_files = sorted(pair_dir.glob("ref.*"))
        if not ref_files:
            raise FileNotFoundError(f"no ref.* files in {pair_dir}")
        refs = [read_lines(f) for f in ref_files]
        ref_names = [f.name.split(".")[1] for f in ref_files]
        for hyp_file in sorted(pair_dir.glob("hyp.*")):
            hyps = read_lines(hyp_file)
            for name, stream in zip(ref_names, refs):
                if len(stream) != len(hyps):
                    raise ValueError(
                        f"{hyp_file} has {len(hyps)} lines but reference {name} has {len(stream)}"
                    )
            systems.append(System(pair, hyp_file.name.split(".")[1], hyps, refs, ref_names))
    return systems


def group_by_pair(systems: Iterable[System]) -> Dict[str, List[System]]:
    """The systems of each language pair, in their order."""
    pairs: Dict[str, List[System]] = {}
    for s in systems:
        pairs.setdefault(s.pair, []).append(s)
    return pairs


# -- timing ----------------------------------------------------------------------------------


@dataclass
class Contender:
    """One library's way of doing a workload: ``run()`` does the whole job once and returns
    what the correctness checks compare."""

    key: str
    run: Callable[[], Any]


@dataclass
class Timing:
    wall_ms: List[float] = field(default_factory=list)
    cpu_ms: List[float] = field(default_factory=list)
    warmup_ms: float = 0.0

    @property
    def median_ms(self) -> float:
        return statistics.median(self.wall_ms)

    @property
    def cpu_per_wall(self) -> float:
        """Process CPU time over wall time: about 1.0 for single-threaded work."""
        return statistics.median(self.cpu_ms) / max(self.median_ms, 1e-9)

    def as_dict(self) -> Dict[str, Any]:
        return {
            "median_ms": self.median_ms,
            "wall_ms": self.wall_ms,
            "cpu_ms": self.cpu_ms,
            "warmup_ms": self.warmup_ms,
            "cpu_per_wall": self.cpu_per_wall,
        }


def _timed(fn: Callable[[], Any]):
    gc.collect()  # start every sample with the same heap state, not the previous one's garbage
    cpu0 = time.process_time_ns()
    t0 = time.perf_counter_ns()
    out = fn()
    t1 = time.perf_counter_ns()
    cpu1 = time.process_time_ns()
    return out, (t1 - t0) / 1e6, (cpu1 - cpu0) / 1e6


def time_interleaved(
    contenders: Sequence[Contender], repeats: int, slow_ms: float, slow_repeats: int
):
    """Time contenders in alternating rounds (a, b, c, a, b, c, ...) so that machine noise hits
    all of them alike.

    Each contender first runs once untimed (warm-up; its output is returned for the checks).
    A contender whose warm-up took longer than ``slow_ms`` gets ``min(repeats, slow_repeats)``
    timed runs instead of ``repeats``. Returns ``(outputs, timings)`` keyed by contender key.
    """
    outputs: Dict[str, Any] = {}
    timings: Dict[str, Timing] = {}
    wanted: Dict[str, int] = {}
    for c in contenders:
        out, wall, _ = _timed(c.run)
        outputs[c.key] = out
        timings[c.key] = Timing(warmup_ms=wall)
        wanted[c.key] = min(repeats, slow_repeats) if wall > slow_ms else repeats
    for round_no in range(max(wanted.values())):
        for c in contenders:
            if round_no < wanted[c.key]:
                _, wall, cpu = _timed(c.run)
                timings[c.key].wall_ms.append(wall)
                timings[c.key].cpu_ms.append(cpu)
    return outputs, timings


def time_with(args: argparse.Namespace, contenders: Sequence[Contender]):
    """``time_interleaved`` with the options of ``add_timing_options`` (``--repeats``,
    ``--slow-seconds``, ``--slow-repeats``)."""
    return time_interleaved(contenders, args.repeats, args.slow_seconds * 1000, args.slow_repeats)


def seconds(fn: Callable[[], Any]) -> float:
    """Wall seconds of one call of ``fn`` (for the scripts that time a peer once)."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def system_record(s: System, **extra: Any) -> Dict[str, Any]:
    """A per-system record of a benchmark that times workloads: the system, its size and
    ``extra`` fields; ``workload_entry`` fills ``record["workloads"]``."""
    return {
        "pair": s.pair,
        "system": s.name,
        "segments": s.segments,
        "refs": len(s.refs),
        **extra,
        "workloads": {},
    }


def workload_entry(timings: Dict[str, Timing], checks: List[Dict[str, Any]]) -> Dict[str, Any]:
    """``record["workloads"][workload]``: every timing sample and the exactness checks."""
    return {"timings": {k: t.as_dict() for k, t in timings.items()}, "checks": checks}


# -- statistics ------------------------------------------------------------------------------


def geomean(values: Iterable[float]) -> float:
    vals = list(values)
    return math.exp(sum(math.log(v) for v in vals) / len(vals)) if vals else float("nan")


@dataclass(frozen=True)
class Comparison:
    """One ratio that a benchmark reports: ``peer`` time / ``turbo`` time (contender keys) on
    a workload, against the project's target for it (0: reported for information)."""

    key: str
    title: str
    workload: str
    peer: str
    turbo: str
    target: float


def record_timings(record: Dict[str, Any], workload: str) -> Dict[str, Any]:
    """The timings (contender key -> ``Timing.as_dict()``) of one workload of a record: records
    of several workloads keep them under ``record["workloads"][workload]``, records of one
    workload under ``record["timings"]``."""
    if "workloads" in record:
        timings: Dict[str, Any] = record["workloads"].get(workload, {}).get("timings", {})
        return timings
    return record["timings"]


def ratio(record: Dict[str, Any], c: Comparison, clock: str = "wall") -> Optional[float]:
    """``c.peer`` time / ``c.turbo`` time in ``record`` (None when either did not run): medians
    of wall time, or with ``clock="cpu"`` of process CPU time (steadier than wall time on a
    machine shared with other work)."""
    t = record_timings(record, c.workload)
    if c.peer not in t or c.turbo not in t:
        return None
    if clock == "cpu":
        return statistics.median(t[c.peer]["cpu_ms"]) / max(
            statistics.median(t[c.turbo]["cpu_ms"]), 1e-6
        )
    return float(t[c.peer]["median_ms"] / t[c.turbo]["median_ms"])


def _system_of(record: Dict[str, Any]) -> str:
    return f"{record['pair']} {record['system']}"


def summarize(
    records: List[Dict[str, Any]],
    comparisons: Sequence[Comparison],
    where: Callable[[Dict[str, Any]], str] = _system_of,
) -> List[Dict[str, Any]]:
    """Per comparison that has ratios in ``records``: the geometric mean, minimum (and
    ``where`` it is, by default "<pair> <system>") and maximum of the per-record ratios, the
    ratio of total times, the geometric mean of the CPU-time ratios, the median peer and
    turbobleu times, and whether the target is met by the geometric mean, by every record and
    by the total times."""
    summary = []
    for c in comparisons:
        found = [(r, x) for r, x in ((r, ratio(r, c)) for r in records) if x is not None]
        if not found:
            continue
        ratios = [x for _, x in found]
        worst_rec, worst = min(found, key=lambda p: p[1])
        peer_ms = [record_timings(r, c.workload)[c.peer]["median_ms"] for r, _ in found]
        turbo_ms = [record_timings(r, c.workload)[c.turbo]["median_ms"] for r, _ in found]
        mean = geomean(ratios)
        total = sum(peer_ms) / sum(turbo_ms)
        summary.append(
            {
                "comparison": c.key,
                "title": c.title,
                "target": c.target,
                "systems": len(ratios),
                "geomean": mean,
                "min": worst,
                "min_system": where(worst_rec),
                "max": max(ratios),
                "total_time_ratio": total,
                "peer_total_ms": sum(peer_ms),
                "turbo_total_ms": sum(turbo_ms),
                "peer_ms_median": sorted(peer_ms)[len(found) // 2],
                "turbo_ms_median": sorted(turbo_ms)[len(found) // 2],
                "cpu_geomean": geomean(ratio(r, c, "cpu") or math.nan for r, _ in found),
                "met_geomean": mean >= c.target,
                "met_all": worst >= c.target,
                "met_total": total >= c.target,
            }
        )
    return summary


# -- machine and environment -----------------------------------------------------------------


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def package_version(name: str) -> Optional[str]:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def git_state() -> Dict[str, Any]:
    """The commit benchmarked, and whether the working tree had uncommitted changes."""
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, check=True, capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=REPO_ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
        return {"commit": commit, "dirty": bool(dirty)}
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "dirty": None}


def commit_label(git: Dict[str, Any]) -> str:
    """``git_state()`` in a sentence: the short commit, and whether the tree was changed."""
    return (git["commit"] or "unknown")[:12] + (" (uncommitted changes)" if git["dirty"] else "")


def load_average() -> Optional[Tuple[float, float, float]]:
    """The 1, 5 and 15-minute load averages, or None where the system has none."""
    return os.getloadavg() if hasattr(os, "getloadavg") else None


def machine_info(packages: Sequence[str]) -> Dict[str, Any]:
    affinity = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    return {
        "cpu_model": cpu_model(),
        "logical_cpus": os.cpu_count(),
        "usable_cpus": affinity,
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "python_impl": platform.python_implementation(),
        "packages": {name: package_version(name) for name in packages},
        "loadavg_start": load_average(),
        "git": git_state(),
    }


def machine_line(info: Dict[str, Any]) -> str:
    pkgs = ", ".join(f"{k} {v}" for k, v in info["packages"].items() if v)
    return (
        f"{info['cpu_model']}, {info['usable_cpus']} usable of {info['logical_cpus']} "
        f"logical CPUs, {info['platform']}, Python {info['python']}; {pkgs}"
    )


# -- output ----------------------------------------------------------------------------------


def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def result_paths(name: str, out_dir: Path) -> Tuple[Path, Path]:
    """The files ``write_results`` writes: ``<name>-<YYYY-MM-DD>.json`` (full data) and
    ``<name>-latest.md`` (README table)."""
    return out_dir / f"{name}-{utc_now():%Y-%m-%d}.json", out_dir / f"{name}-latest.md"


def write_results(
    name: str, payload: Dict[str, Any], markdown: str, out_dir: Path = RESULTS_DIR
) -> List[Path]:
    """Writes ``result_paths(name, out_dir)``: the payload as JSON, and the markdown."""
    out_dir.mkdir(parents=True, exist_ok=True)
    json_path, md_path = result_paths(name, out_dir)
    json_path.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    md_path.write_text(markdown, encoding="utf-8")
    return [json_path, md_path]


# The console summary of the benchmarks that compare by language pair (significance, startup).
PAIR_TABLE_HEADER = ["workload", "timed", "pairs", "geomean", "min (pair)", "max", "target", "met"]


def finish_records(
    benchmark: str,
    args: argparse.Namespace,
    machine: Dict[str, Any],
    records: List[Dict[str, Any]],
    failures: int,
    summary: Sequence[Sequence[str]],
    markdown: Callable[[], str],
    header: Sequence[str] = PAIR_TABLE_HEADER,
) -> List[Path]:
    """The end of a benchmark that keeps one list of records (significance, startup, paired
    test): prints the ``summary`` rows under ``header`` if any, notes the load average, writes
    the results file (the benchmark's name, its options as strings, the machine, the records and
    the count of mismatches) and ``markdown()`` (made after that) unless ``--no-write``, and says
    how many results differ. Returns the paths written."""
    if summary:
        print()
        print(text_table(header, summary))
    machine["loadavg_end"] = load_average()
    payload = {
        "benchmark": benchmark,
        "args": args_record(args, all_strings=True),
        "machine": machine,
        "records": records,
        "mismatches": failures,
    }
    paths = save_results(args, payload, markdown())
    if failures:
        print(f"\n!!! {failures} result(s) differ from sacrebleu's", flush=True)
    return paths


def save_results(args: argparse.Namespace, payload: Dict[str, Any], markdown: str) -> List[Path]:
    """Writes ``write_results(args.name, ..., results_dir(args))`` and prints each path, unless
    ``--no-write``; returns the paths written."""
    if args.no_write:
        return []
    paths = write_results(args.name, payload, markdown, results_dir(args))
    for path in paths:
        print(f"wrote {path}")
    return paths


def finish(args: argparse.Namespace, payload: Dict[str, Any], markdown: str, failed: bool) -> int:
    """Writes the results (unless ``--no-write``) and returns the exit status: 1, with a banner,
    when an exactness check failed."""
    save_results(args, payload, markdown)
    if failed:
        print("\n" + "!" * 72 + "\nEXACTNESS FAILURE: see the FAIL lines above\n" + "!" * 72)
    return 1 if failed else 0


def text_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table with right-aligned columns (left-aligned first two)."""
    widths = [max(len(str(x)) for x in col) for col in zip(headers, *rows)]

    def fmt(row: Sequence[str]) -> str:
        return "  ".join(
            str(x).ljust(w) if i < 2 else str(x).rjust(w)
            for i, (x, w) in enumerate(zip(row, widths))
        )

    return "\n".join([fmt(headers), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows])


def ms_cell(timings: Dict[str, Any], key: str) -> str:
    """A contender's median time in a table cell ("-" when it did not run)."""
    return f"{timings[key]['median_ms']:.1f}" if key in timings else "-"


def ratio_cell(value: Optional[float]) -> str:
    """A speed ratio in a table cell ("-" when there is none)."""
    return f"{value:.1f}x" if value is not None else "-"


def md_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    align = ["---" if i < 2 else "---:" for i in range(len(headers))]
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(str(x) for x in r) + " |" for r in rows]
    return "\n".join(lines)


# -- tables shared by the benchmarks ------------------------------------------------------------

# A table column: its header and how a row's item (a record, a summary entry) becomes its cell.
Column = Tuple[str, Callable[[Any], str]]

# The first columns of a per-system table (records of ``system_record``).
SYSTEM_COLUMNS: List[Column] = [
    ("pair", lambda r: r["pair"]),
    ("system", lambda r: r["system"]),
    ("segs", lambda r: str(r["segments"])),
    ("refs", lambda r: str(r["refs"])),
]

# The spread of a ``summarize`` entry: geometric mean, minimum (where) and maximum.
SPREAD_COLUMNS: List[Column] = [
    ("geomean", lambda s: f"{s['geomean']:.1f}x"),
    ("min (system)", lambda s: f"{s['min']:.1f}x ({s['min_system']})"),
    ("max", lambda s: f"{s['max']:.1f}x"),
]


def build_table(
    columns: Sequence[Column], items: Iterable[Any]
) -> Tuple[List[str], List[List[str]]]:
    """The headers and rows of a table: one row per item, each cell its column's function of
    the item."""
    return [header for header, _ in columns], [
        [cell(item) for _, cell in columns] for item in items
    ]


def comparison_columns(
    c: Comparison, turbo: Optional[str], peer: Optional[str], ratio_header: str
) -> List[Column]:
    """Per-system cells of one comparison: turbobleu's and the peer's median ms (each left out
    when its header is None) and the ratio."""
    columns: List[Column] = []
    for header, key in ((turbo, c.turbo), (peer, c.peer)):
        if header is not None:
            columns.append((header, lambda r, k=key: ms_cell(record_timings(r, c.workload), k)))
    columns.append((ratio_header, lambda r: ratio_cell(ratio(r, c))))
    return columns


def spread_cells(items: Sequence[Dict[str, Any]], key: str, where: str = "pair") -> List[str]:
    """Cells of the ratios ``item[key]``: how many, geometric mean, minimum (with the item's
    ``where``) and maximum."""
    ratios = [item[key] for item in items]
    worst = min(items, key=lambda item: item[key])
    return [
        str(len(items)),
        f"{geomean(ratios):.1f}x",
        f"{worst[key]:.1f}x ({worst[where]})",
        f"{max(ratios):.1f}x",
    ]


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def print_tables(
    detail: Tuple[List[str], List[List[str]]],
    summary: Tuple[List[str], List[List[str]]],
    peer: str = "peer",
) -> None:
    """Prints a benchmark's per-system table and its summary as plain text."""
    print(f"\nPer system (median ms; ratio = {peer} / turbobleu):\n" + text_table(*detail))
    print("\nSummary:\n" + text_table(*summary))


def md_summary_and_details(
    summary: Tuple[Sequence[str], Sequence[Sequence[str]]],
    detail: Tuple[Sequence[str], Sequence[Sequence[str]]],
    label: str = "Per system (median ms)",
) -> List[str]:
    """Markdown lines: the summary table, then the detail table folded under ``label``."""
    return [
        md_table(*summary),
        "",
        f"<details><summary>{label}</summary>",
        "",
        md_table(*detail),
        "",
        "</details>",
        "",
    ]


def load_cell(machine: Dict[str, Any], key: str) -> str:
    """The 1-minute load average ``machine[key]`` (e.g. ``loadavg_start``) for prose."""
    value = machine.get(key)
    return f"{value[0]:.1f}" if value else "unknown"


def run_meta(
    script: str, args: argparse.Namespace, env: Dict[str, str], machine: Dict[str, Any]
) -> Dict[str, Any]:
    """The first fields of a results file's ``meta``: the benchmark ``script`` (its stem), the
    time, the command line, the options, the thread environment and the machine."""
    return {
        "benchmark": script,
        "date": utc_now().isoformat(timespec="seconds"),
        "command": " ".join(["python", f"bench/{script}.py"] + sys.argv[1:]),
        "args": args_record(args),
        "env": env,
        "machine": machine,
    }


def print_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Prints a blank line and a plain-text table."""
    print()
    print(text_table(headers, rows))


def stamp(benchmark: str, machine: Dict[str, Any]) -> Dict[str, Any]:
    """The first fields of a one-table benchmark's results file: its name, the time and the
    machine."""
    return {"benchmark": benchmark, "date": utc_now().isoformat(), "machine": machine}


def load_and_describe(
    args: argparse.Namespace, packages: Sequence[str]
) -> Tuple[List[System], Dict[str, Any]]:
    """The WMT23 systems of ``--data``/``--pairs`` and ``machine_info(packages)``, after
    printing the machine line."""
    systems = load_wmt23(args.data, args.pairs)
    machine = machine_info(packages)
    print(f"Machine: {machine_line(machine)}")
    return systems, machine
