#!/usr/bin/env python3
"""sacrebleu's own ``test/test_significance.py``, timed as whole pytest runs in three modes.

The modes, each a fresh ``python -m pytest`` child of this interpreter, in one environment:

* ``plain``: the real sacrebleu, untouched;
* ``dropin``: ``sacrebleu`` resolves to ``turbobleu.sacrebleu`` (``scripts/upstream``'s plugin,
  ``--turbobleu-mode sacrebleu-dropin``);
* ``patch``: the real sacrebleu with ``turbobleu.patch("sacrebleu")`` (``sacrebleu-patch``);

plus ``noop``: pytest on one empty test, with the same options (pytest's own start-up).

The suite comes from sacrebleu 2.6.0's sdist, fetched, sha256-checked and unpacked by
``scripts/upstream/suites.py`` (under ``build/upstream/``). The test module does all its work
when imported (paired bootstrap, 2000 resamples, and approximate randomization, 10000, over the
WMT17 en-de systems it ships), then compares p-values. The four commands alternate
(plain, dropin, patch, noop, plain, ...), ``--repeats`` rounds (3), after no warm-up (each run
is a new process; the first round reads the files cold). Reported per mode: the median wall
time and the median process time (user + system CPU of the child, from ``os.wait4``), the exit
status of every run, and two ratios against plain: the ratio of medians, and the ratio after
subtracting the no-op run's median from both. A mode whose run fails (exit status not 0) gets no
ratio.

Usage: python bench/bench_upstream_suites.py [--repeats N] [--dir DIR] [--no-write]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

import benchlib

UPSTREAM = benchlib.REPO_ROOT / "scripts" / "upstream"
sys.path.insert(0, str(UPSTREAM))
import suites  # noqa: E402  (scripts/upstream/suites.py: fetch, verify, unpack)

MODES = ("plain", "dropin", "patch", "noop")
PLUGIN_MODE = {"dropin": "sacrebleu-dropin", "patch": "sacrebleu-patch"}
TEST_FILE = "test/test_significance.py"


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--repeats", type=int, default=3, help="whole pytest runs of each mode")
    p.add_argument("--dir", type=Path, default=suites.DEFAULT_DIR, help="work folder")
    benchlib.add_results_options(p, "results file stem (default: upstream-suites)")
    args = p.parse_args(argv)
    if args.repeats < 1:
        p.error("--repeats must be >= 1")
    args.name = benchlib.results_name(args, "upstream-suites")
    return args


def command(mode: str, root: Path, noop_file: Path) -> List[str]:
    """The pytest command line of ``mode`` (run with the unpacked suite's root as cwd)."""
    base = [
        sys.executable, "-m", "pytest", "-c", str(UPSTREAM / "pytest.ini"), "--rootdir",
        str(root), "--confcutdir", str(root), "-p", "no:cacheprovider", "-q",
    ]  # fmt: skip
    if mode == "noop":
        return base + [str(noop_file)]
    if mode == "plain":
        return base + [TEST_FILE]
    return base + ["-p", "turbobleu_modes", "--turbobleu-mode", PLUGIN_MODE[mode], TEST_FILE]


def run_once(argv: List[str], cwd: Path, env: Dict[str, str]) -> Dict[str, Any]:
    """One child: wall ms, process ms (user + system, ``os.wait4``), exit status, last line.
    Its output goes to a file, not a pipe, so that ``os.wait4`` can reap it."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter_ns()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = (time.perf_counter_ns() - start) / 1e6
        out.seek(0)
        lines = out.read().decode("utf-8", "replace").strip().splitlines()
    return {
        "wall_ms": wall,
        "cpu_ms": (usage.ru_utime + usage.ru_stime) * 1000,
        "status": os.waitstatus_to_exitcode(status),
        "summary": lines[-1] if lines else "",
    }


def ratios(medians: Dict[str, Optional[float]]) -> Dict[str, Dict[str, Any]]:
    """plain / mode for each of dropin and patch: of the medians, and after subtracting noop's."""
    out: Dict[str, Dict[str, Any]] = {}
    plain, noop = medians["plain"], medians["noop"]
    for mode in ("dropin", "patch"):
        m = medians[mode]
        if plain is None or m is None or noop is None:
            out[mode] = {"of_medians": None, "minus_noop": None}
            continue
        above = m - noop
        out[mode] = {
            "of_medians": plain / m,
            "minus_noop": (plain - noop) / above if above > 0 else None,
        }
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    threads = benchlib.pin_threads("1")
    work = args.dir.resolve()
    archive = suites.fetch(work / "dist")["sacrebleu"]
    root = suites.unpack(archive, suites.SACREBLEU, work)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(UPSTREAM), env.get("PYTHONPATH")) if p)
    env["SACREBLEU"] = str(work / "sacrebleu-home")
    env.pop("SACREBLEU_SEED", None)  # the test module sets its own
    machine = benchlib.machine_info(["sacrebleu", "turbobleu", "pytest"])
    print(benchlib.machine_line(machine))
    runs: Dict[str, List[Dict[str, Any]]] = {mode: [] for mode in MODES}
    with tempfile.TemporaryDirectory() as tmp:
        noop_file = Path(tmp) / "test_noop.py"
        noop_file.write_text("def test_noop():\n    pass\n", encoding="utf-8")
        for round_no in range(args.repeats):
            for mode in MODES:
                record = run_once(command(mode, root, noop_file), root, env)
                runs[mode].append(record)
                print(
                    f"round {round_no + 1} {mode:>6}: {record['wall_ms'] / 1000:8.2f} s wall "
                    f"{record['cpu_ms'] / 1000:8.2f} s cpu  exit {record['status']}  "
                    f"{record['summary']}",
                    flush=True,
                )
    medians: Dict[str, Dict[str, Optional[float]]] = {"wall_ms": {}, "cpu_ms": {}}
    for key in medians:
        for mode in MODES:
            ok = all(r["status"] == 0 for r in runs[mode])
            medians[key][mode] = statistics.median(r[key] for r in runs[mode]) if ok else None
    result = {key: ratios(medians[key]) for key in medians}
    rows = []
    for mode in MODES:
        cells = [mode]
        for key in ("wall_ms", "cpu_ms"):
            m = medians[key][mode]
            cells.append("failed" if m is None else f"{m / 1000:.2f}")
        for key in ("wall_ms", "cpu_ms"):
            r = result[key].get(mode, {})
            for kind in ("of_medians", "minus_noop"):
                value = r.get(kind)
                cells.append("-" if value is None else f"{value:.2f}x")
        rows.append(cells)
    headers = [
        "mode", "wall s", "cpu s", "wall ratio", "wall ratio - noop", "cpu ratio",
        "cpu ratio - noop",
    ]  # fmt: skip
    table = benchlib.md_table(headers, rows)
    failed = [mode for mode in MODES if any(r["status"] != 0 for r in runs[mode])]
    note = (
        f"sacrebleu 2.6.0's `{TEST_FILE}`, whole pytest runs, median of {args.repeats} "
        "alternating rounds; ratio = plain / mode (of the medians, and after subtracting the "
        "no-op pytest run from both). "
        + (f"Failed runs (no ratio): {', '.join(failed)}." if failed else "Every run passed.")
    )
    print("\n" + table + "\n" + note)
    payload = {
        "benchmark": "upstream-suites",
        "args": benchlib.args_record(args, all_strings=True),
        "machine": machine,
        "threads": threads,
        "test_file": TEST_FILE,
        "commands": {mode: command(mode, root, Path("test_noop.py")) for mode in MODES},
        "runs": runs,
        "medians": medians,
        "ratios": result,
        "failed_modes": failed,
        "loadavg_end": benchlib.load_average(),
    }
    benchlib.save_results(args, payload, f"# upstream suites\n\n{note}\n\n{table}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
