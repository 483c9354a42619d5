"""The speed-up chart and table of the README and the docs, from the results in bench/results/.

Every number comes from the newest dated results file (``<name>-YYYY-MM-DD.json``) of each
benchmark; nothing is typed in by hand. Writes

* ``docs/assets/speedups.svg``: one bar per workload, the geometric mean of the per-system ratios
  (peer time / turbobleu time), on a log scale; drawn by the code below (no plotting library);
* ``docs/assets/speedups.md``: the same numbers as a table, with the slowest system, the results
  file and the machine it ran on, and which runs started on a loaded machine (a 1-minute load
  average above the CPU count, as the results file records it; the performance page and the
  README include or quote it).

Usage::

    python bench/plot_speedups.py            # (re)write both files
    python bench/plot_speedups.py --check    # exit 1 if they differ from what the results give
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
ASSETS = ROOT / "docs" / "assets"

# TER's table counts only the systems where sacrebleu needs at least this long (its per-call cost
# on en-ja and en-zh, whose targets have about one space-separated word per segment, is too small
# to time against): the same rule as bench_ter.py's summary.
TER_SLOW_SECONDS = 1.0


@dataclass(frozen=True)
class Speedup:
    """One bar: a workload, its peer, the ratios' geometric mean and minimum, and their source."""

    workload: str
    peer: str
    label: str
    geomean: float
    minimum: float
    slowest: str
    source: str
    machine: str
    load: Optional[float] = None  # the 1-minute load average at the start, where above the CPUs
    cpus: int = 0


def newest(name: str, results: Path = RESULTS) -> Path:
    """The newest ``<name>-YYYY-MM-DD.json`` in ``results`` (other names, such as
    ``<name>-quick-...`` or ``<name>-before-...``, are other runs and never match)."""
    pattern = re.compile(rf"^{re.escape(name)}-(\d{{4}}-\d{{2}}-\d{{2}})\.json$")
    dated = sorted(
        (match.group(1), path)
        for path in results.glob(f"{name}-*.json")
        if (match := pattern.match(path.name))
    )
    if not dated:
        raise FileNotFoundError(f"no {name}-YYYY-MM-DD.json in {results}")
    return dated[-1][1]


def _machine(meta: dict) -> str:
    """The hardware and interpreter, then the peers' versions after a semicolon."""
    packages = meta.get("packages", {})
    versions = ", ".join(
        f"{name} {version}"
        for name, version in sorted(packages.items())
        if version and name not in ("turbobleu", "numpy")
    )
    return (
        f"{meta['cpu_model']}, {meta['usable_cpus']} CPUs, Linux, "
        f"{meta.get('python_impl', 'CPython')} {meta['python']}; {versions}"
    )


def _load(meta: dict) -> Tuple[Optional[float], int]:
    """The 1-minute load average a run started under, where it exceeded the usable CPUs (other
    jobs shared the cores: its ratios are noisier), else None; and the usable CPUs."""
    cpus = int(meta.get("usable_cpus") or 0)
    start = meta.get("loadavg_start")
    if start and cpus and start[0] > cpus:
        return float(start[0]), cpus
    return None, cpus


def _geomean(values: Sequence[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def _read(name: str, results: Path) -> Tuple[dict, str]:
    path = newest(name, results)
    return json.loads(path.read_text(encoding="utf-8")), path.name


def _summaries(
    name: str, rows: Sequence[Tuple[str, str, str, str]], results: Path
) -> List[Speedup]:
    """Bars from a benchmark whose JSON carries a ``summary`` (sacrebleu, nltk, chrf)."""
    data, source = _read(name, results)
    summary = {entry["comparison"]: entry for entry in data["summary"]}
    machine = _machine(data["meta"]["machine"])
    load, cpus = _load(data["meta"]["machine"])
    out = []
    for comparison, workload, peer, label in rows:
        entry = summary[comparison]
        out.append(
            Speedup(
                workload,
                peer,
                label,
                entry["geomean"],
                entry["min"],
                entry.get("min_system") or entry["min_at"],
                source,
                machine,
                load,
                cpus,
            )
        )
    return out


def _bleu(results: Path) -> List[Speedup]:
    return _summaries(
        "sacrebleu",
        [
            ("corpus_sacrebleu", "corpus BLEU (`corpus_bleu`)", "sacrebleu", "BLEU, corpus"),
            (
                "sentence_batch",
                "sentence BLEU, one call (`BLEU.sentence_scores`)",
                "sacrebleu loop",
                "BLEU, sentence scores",
            ),
            (
                "sentence_loop",
                "sentence BLEU, a `sentence_bleu` loop",
                "sacrebleu loop",
                "BLEU, sentence_bleu loop",
            ),
        ],
        results,
    )


def _nltk(results: Path) -> List[Speedup]:
    return _summaries(
        "nltk",
        [
            ("corpus", "NLTK `corpus_bleu`", "NLTK", "NLTK corpus_bleu"),
            ("sentence_loop", "NLTK `sentence_bleu` loop", "NLTK", "NLTK sentence_bleu loop"),
        ],
        results,
    )


def _chrf(results: Path) -> List[Speedup]:
    return _summaries(
        "chrf",
        [
            ("corpus_chrf", "corpus chrF", "sacrebleu", "chrF, corpus"),
            ("corpus_chrfpp", "corpus chrF++", "sacrebleu", "chrF++, corpus"),
        ],
        results,
    )


def _ter(results: Path) -> List[Speedup]:
    out = []
    for name, key, workload, peer, label in (
        ("ter-corpus", "corpus", "corpus TER", "sacrebleu", "TER, corpus"),
        (
            "ter-sentence",
            "sentence",
            "sentence TER, one call (`TER.sentence_scores`)",
            "sacrebleu loop",
            "TER, sentence scores",
        ),
    ):
        data, source = _read(name, results)
        slow = [s for s in data["systems"] if s.get(f"{key}_sacrebleu_s", 0.0) >= TER_SLOW_SECONDS]
        ratios = [s[f"{key}_ratio"] for s in slow]
        worst = min(slow, key=lambda s: s[f"{key}_ratio"])
        out.append(
            Speedup(
                workload,
                peer,
                label,
                _geomean(ratios),
                worst[f"{key}_ratio"],
                worst["system"].replace("/", " "),
                source,
                _machine(data["machine"]),
                *_load(data["machine"]),
            )
        )
    return out


def _significance(results: Path) -> List[Speedup]:
    data, source = _read("significance", results)
    out = []
    for workload, title, label in (
        ("bs", "paired bootstrap (1,000 resamples)", "paired bootstrap"),
        ("ar", "approximate randomization (10,000 trials)", "approximate randomization"),
    ):
        records = [r for r in data["records"] if r["workload"] == workload]
        worst = min(records, key=lambda r: r["test_ratio"])
        out.append(
            Speedup(
                title,
                "sacrebleu",
                label,
                _geomean([r["test_ratio"] for r in records]),
                worst["test_ratio"],
                worst["pair"],
                source,
                _machine(data["machine"]),
                *_load(data["machine"]),
            )
        )
    return out


def _rl(results: Path) -> List[Speedup]:
    data, source = _read("rl", results)
    timings = data["workloads"]["flat"]["per_sentence_us"]
    ratio = (
        timings["nltk sentence_bleu loop (method1)"] / timings["turbobleu nltk-recipe (1 thread)"]
    )
    return [
        Speedup(
            "RL reward, token ids (`sentence_bleu_batch`, NLTK's recipe)",
            "NLTK loop",
            "RL reward, token ids",
            ratio,
            ratio,
            "",
            source,
            _machine(data["machine"]),
            *_load(data["machine"]),
        )
    ]


def _per_system(
    name: str, rows: Sequence[Tuple[str, str, str, str]], results: Path
) -> List[Speedup]:
    """Bars from a benchmark whose JSON lists one record per (system, workload) with its
    ``ratio`` (bench_gleu.py): the geometric mean over the systems and the slowest one."""
    data, source = _read(name, results)
    out = []
    for key, workload, peer, label in rows:
        records = [r for r in data["results"] if r["workload"] == key]
        worst = min(records, key=lambda r: r["ratio"])
        out.append(
            Speedup(
                workload,
                peer,
                label,
                _geomean([r["ratio"] for r in records]),
                worst["ratio"],
                f"{worst['pair']} {worst['system']}",
                source,
                _machine(data["machine"]),
                *_load(data["machine"]),
            )
        )
    return out


def _gleu(results: Path) -> List[Speedup]:
    return _per_system(
        "gleu",
        [
            ("corpus_gleu", "NLTK `corpus_gleu` (GLEU)", "NLTK", "NLTK corpus_gleu"),
            ("sentence_gleu", "NLTK `sentence_gleu` loop", "NLTK", "NLTK sentence_gleu loop"),
        ],
        results,
    )


def _evaluate(results: Path) -> List[Speedup]:
    return _per_system(
        "gleu",
        [
            (
                "sacrebleu",
                'evaluate `load("sacrebleu")`',
                "evaluate's script",
                "evaluate sacrebleu",
            ),
            (
                "google_bleu",
                'evaluate `load("google_bleu")`',
                "evaluate's script",
                "evaluate google_bleu",
            ),
        ],
        results,
    )


def _torchmetrics(results: Path) -> List[Speedup]:
    """One WMT23 system (bench_torchmetrics.py): each bar is that system's ratio."""
    data, source = _read("torchmetrics", results)
    ratios = {r["workload"]: r["ratio"] for r in data["results"]}
    system = f"{data['pair']} {data['system']}, one system"
    out = []
    for key, workload, label in (
        ("BLEUScore", "torchmetrics `BLEUScore`, update + compute", "BLEUScore"),
        (
            "SacreBLEUScore",
            "torchmetrics `SacreBLEUScore` (13a), update + compute",
            "SacreBLEUScore",
        ),
        (
            "update_epoch",
            f"torchmetrics `BLEUScore.update`, an epoch in batches of {data['batch']}",
            "BLEUScore.update, an epoch",
        ),
    ):
        out.append(
            Speedup(
                workload,
                "torchmetrics",
                label,
                ratios[key],
                ratios[key],
                system,
                source,
                _machine(data["machine"]),
                *_load(data["machine"]),
            )
        )
    return out


SOURCES: Tuple[Callable[[Path], List[Speedup]], ...] = (
    _bleu,
    _nltk,
    _gleu,
    _evaluate,
    _torchmetrics,
    _chrf,
    _ter,
    _significance,
    _rl,
)


def speedups(results: Path = RESULTS) -> List[Speedup]:
    """Every bar of the chart, in the order drawn."""
    return [bar for source in SOURCES for bar in source(results)]


def ratio_text(value: float) -> str:
    """How the chart, the table and the docs write a ratio: ``68.7x``, ``354x``."""
    return f"{value:.0f}x" if value >= 100 else f"{value:.1f}x"


# -- the table ------------------------------------------------------------------------------------


def table(bars: Sequence[Speedup]) -> str:
    lines = [
        "| workload | against | speed-up (geomean) | slowest system | results file |",
        "| --- | --- | ---: | ---: | --- |",
    ]
    for bar in bars:
        slowest = f"{ratio_text(bar.minimum)} ({bar.slowest})" if bar.slowest else "-"
        lines.append(
            f"| {bar.workload} | {bar.peer} | {ratio_text(bar.geomean)} | {slowest} | "
            f"`bench/results/{bar.source}` |"
        )
    hardware: Dict[str, Dict[str, None]] = {}  # machine -> the results files run on it
    peers: Dict[str, None] = {}
    for bar in bars:
        machine, _, versions = bar.machine.partition("; ")
        hardware.setdefault(machine, {})[f"`{bar.source}`"] = None
        peers.update(dict.fromkeys(v for v in versions.split(", ") if v))
    lines.append("")
    if len(hardware) == 1:
        machines = f"Machine: {next(iter(hardware))}"
    else:  # say which runs were made where
        machines = "Machines: " + "; ".join(
            f"{machine} ({', '.join(files)})" for machine, files in hardware.items()
        )
    lines.append(f"{machines}; one thread. Peers: {', '.join(sorted(peers))}.")
    loaded = {
        f"`{bar.source}` ({bar.load:.2f} on {bar.cpus} CPUs)": None for bar in bars if bar.load
    }
    if loaded:
        lines.append("")
        lines.append(
            "Loaded machine: these runs started with a 1-minute load average above the CPU count "
            "(other jobs shared the cores, so their ratios are noisier): "
            f"{', '.join(loaded)}."
        )
    return "\n".join(lines) + "\n"


# -- the chart ------------------------------------------------------------------------------------

_LABEL_WIDTH = 330
_BAR_HEIGHT = 22
_GAP = 8
_PLOT_WIDTH = 360
_TOP = 40
_DECADES = (1, 10, 100, 1000)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("`", "")


def _x(value: float) -> float:
    low, high = math.log10(_DECADES[0]), math.log10(_DECADES[-1])
    return _LABEL_WIDTH + (math.log10(value) - low) / (high - low) * _PLOT_WIDTH


def svg(bars: Sequence[Speedup]) -> str:
    """A horizontal bar chart on a log scale, as SVG text."""
    height = _TOP + len(bars) * (_BAR_HEIGHT + _GAP) + 30
    width = _LABEL_WIDTH + _PLOT_WIDTH + 70
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="13">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        '<text x="10" y="20" font-size="14" font-weight="bold">'
        "turbobleu's speed-up over the library it replaces (WMT23, one thread; geomean, "
        "log scale)</text>",
    ]
    bottom = height - 30
    for decade in _DECADES:
        x = _x(decade)
        parts.append(
            f'<line x1="{x:.1f}" y1="{_TOP - 6}" x2="{x:.1f}" y2="{bottom}" '
            'stroke="#cccccc" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle" fill="#555555">'
            f"{decade}x</text>"
        )
    for i, bar in enumerate(bars):
        y = _TOP + i * (_BAR_HEIGHT + _GAP)
        end = _x(max(bar.geomean, _DECADES[0]))
        label = f"{bar.label} vs {bar.peer}"
        parts.append(
            f'<text x="{_LABEL_WIDTH - 8}" y="{y + 15}" text-anchor="end">{_escape(label)}</text>'
        )
        parts.append(
            f'<rect x="{_LABEL_WIDTH}" y="{y}" width="{end - _LABEL_WIDTH:.1f}" '
            f'height="{_BAR_HEIGHT}" fill="#2b6cb0"/>'
        )
        parts.append(f'<text x="{end + 6:.1f}" y="{y + 15}">{ratio_text(bar.geomean)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def outputs(results: Path = RESULTS) -> Dict[Path, str]:
    """What the script writes: each path and its text."""
    bars = speedups(results)
    return {ASSETS / "speedups.svg": svg(bars), ASSETS / "speedups.md": table(bars)}


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results folder")
    parser.add_argument(
        "--check", action="store_true", help="only compare with the files written before"
    )
    args = parser.parse_args(argv)
    stale = []
    for path, text in outputs(args.results).items():
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(path)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    for path in stale:
        print(f"{path.relative_to(ROOT)} is out of date: run python bench/plot_speedups.py")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
