#!/usr/bin/env python3
"""Start-up and whole-process costs: ``import turbobleu`` and the command line vs sacrebleu.

What is timed, each as a fresh child process (``sys.executable``), in process time: the user +
system CPU time of the child as ``os.wait4`` reports it (start-up, imports, the work and the
interpreter's shutdown; wall time is recorded too):

* ``import``: ``python -c pass`` (a bare interpreter), ``python -c "import turbobleu"`` and
  ``python -c "import sacrebleu"``; target: turbobleu at most 20 ms above the bare interpreter;
* ``cli-b``, per language pair, its first system: ``turbobleu REF.. -i HYP -b`` vs
  ``sacrebleu REF.. -i HYP -b``; target: sacrebleu / turbobleu >= 10x;
* ``cli-pbs``, per language pair, its four systems (the first is the baseline):
  ``turbobleu REF.. -i BASE S1 S2 S3 --paired-bs`` vs the same with sacrebleu (1000 resamples,
  the default seed); target >= 10x.

Both command lines run as their console scripts do (``from turbobleu.cli import console_main``,
then ``console_main()``; ``from sacrebleu.sacrebleu import main``, then ``sys.exit(main())``),
from the repository root, with the thread pools pinned to one thread and ``SACREBLEU_SEED`` /
``SACREBLEU_FORMAT`` unset. The
turbobleu measured is the one this interpreter imports (``PYTHONPATH=src`` from the repository
root picks the checkout; the path is printed and recorded). Bytecode is written and used as in an
installed package (``PYTHONDONTWRITEBYTECODE`` is removed for the children): every command runs
once untimed first (that run's output feeds the checks), then the contenders of a workload
alternate in rounds; medians. The outputs of the two command lines must be equal (stdout, byte
for byte); a mismatch is printed and makes the exit status 1. Targets are reported, not asserted.
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
from typing import Any, Dict, List, Optional, Sequence, Tuple

import benchlib

IMPORT_TARGET_MS = 20.0  # import turbobleu: at most this many ms above a bare interpreter
CLI_TARGET = 10.0  # sacrebleu / turbobleu, process time
TB_MAIN = "from turbobleu.cli import console_main; console_main()"
SB_MAIN = "import sys; from sacrebleu.sacrebleu import main; sys.exit(main())"
QUICK_PAIRS = ["de-en", "en-ja"]  # the smallest pair, and one of 2074 segments


def parse_args(argv: Optional[List[str]] = None) -> argparse.Namespace:
    p = benchlib.wmt23_parser(__doc__)
    benchlib.add_workloads_option(p, ("import", "cli-b", "cli-pbs"))
    p.add_argument("--repeats", type=int, default=11, help="timed runs of each import command")
    p.add_argument("--cli-repeats", type=int, default=7, help="timed runs of each command line")
    benchlib.add_results_options(
        p,
        "results file stem (default: startup[-quick])",
        quick=f"smoke run: pairs {' '.join(QUICK_PAIRS)}, 3 repeats, results named *-quick",
    )
    args = p.parse_args(argv)
    if benchlib.apply_quick(args, QUICK_PAIRS, repeats=3):
        args.cli_repeats = min(args.cli_repeats, 3)
    args.name = benchlib.results_name(args, "startup")
    return args


# -- running children ---------------------------------------------------------------------------
def child_env() -> Dict[str, str]:
    """This process's environment for the children: PYTHONPATH made absolute (they run from the
    repository root, but it may be relative to where this was started), bytecode allowed, the
    sacrebleu variables that change its output unset."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("SACREBLEU_FORMAT", "SACREBLEU_SEED", "PYTHONDONTWRITEBYTECODE")
    }
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(
            os.path.abspath(p) if p else p for p in env["PYTHONPATH"].split(os.pathsep)
        )
    return env


def timed_child(argv: Sequence[str], env: Dict[str, str]) -> Tuple[str, float, float]:
    """(stdout, process ms, wall ms) of one child; raises if it fails.

    The child's output goes to a temporary file, not a pipe, so that ``os.wait4`` can reap it
    and report its own resource usage (user + system CPU time)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter_ns()
        proc = subprocess.Popen(list(argv), env=env, cwd=benchlib.REPO_ROOT, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = (time.perf_counter_ns() - start) / 1e6
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if proc.returncode != 0:
            raise RuntimeError(
                f"{' '.join(argv)[:200]} failed ({proc.returncode}): "
                f"{err.read().decode('utf-8', 'replace')[-500:]}"
            )
        return out.read().decode("utf-8"), (usage.ru_utime + usage.ru_stime) * 1000, wall


def time_commands(
    commands: Dict[str, List[str]], repeats: int, env: Dict[str, str]
) -> Tuple[Dict[str, str], Dict[str, benchlib.Timing]]:
    """Each command once untimed (outputs returned), then ``repeats`` rounds in which they
    alternate. Timing.cpu_ms holds the child's process time, wall_ms its wall time."""
    outputs: Dict[str, str] = {}
    timings = {key: benchlib.Timing() for key in commands}
    for key, argv in commands.items():
        outputs[key], _, timings[key].warmup_ms = timed_child(argv, env)
    for _ in range(repeats):
        for key, argv in commands.items():
            _, cpu, wall = timed_child(argv, env)
            timings[key].cpu_ms.append(cpu)
            timings[key].wall_ms.append(wall)
    return outputs, timings


def cpu(timing: benchlib.Timing) -> float:
    return statistics.median(timing.cpu_ms)


# -- workloads ----------------------------------------------------------------------------------
def import_record(args: argparse.Namespace, env: Dict[str, str]) -> Dict[str, Any]:
    py = sys.executable
    commands = {
        "bare": [py, "-c", "pass"],
        "turbobleu": [py, "-c", "import turbobleu"],
        "sacrebleu": [py, "-c", "import sacrebleu"],
    }
    _, timings = time_commands(commands, args.repeats, env)
    record = {"workload": "import", "timings": {k: t.as_dict() for k, t in timings.items()}}
    for key, timing in timings.items():
        record[f"{key}_ms"] = cpu(timing)
        record[f"{key}_wall_ms"] = timing.median_ms
    record["tb_above_bare_ms"] = record["turbobleu_ms"] - record["bare_ms"]
    record["sb_above_bare_ms"] = record["sacrebleu_ms"] - record["bare_ms"]
    record["met"] = record["tb_above_bare_ms"] <= IMPORT_TARGET_MS
    print(
        f"import     bare {record['bare_ms']:6.1f} ms   turbobleu {record['turbobleu_ms']:6.1f} "
        f"ms (+{record['tb_above_bare_ms']:.1f})   sacrebleu {record['sacrebleu_ms']:6.1f} ms "
        f"(+{record['sb_above_bare_ms']:.1f})   target +{IMPORT_TARGET_MS:g} ms: "
        f"{'met' if record['met'] else 'NOT met'}",
        flush=True,
    )
    return record


def pair_files(data: Path, pair: str) -> Tuple[List[str], List[str]]:
    """(reference files, system files) of a language pair, sorted by name."""
    pair_dir = data / pair
    return (
        [str(p) for p in sorted(pair_dir.glob("ref.*"))],
        [str(p) for p in sorted(pair_dir.glob("hyp.*"))],
    )


def cli_record(
    workload: str, pair: str, args: argparse.Namespace, env: Dict[str, str]
) -> Dict[str, Any]:
    refs, hyps = pair_files(args.data, pair)
    options = ["-i", hyps[0], "-b"] if workload == "cli-b" else ["-i", *hyps[:4], "--paired-bs"]
    if workload == "cli-pbs" and len(hyps) < 4:
        raise ValueError(f"{pair} has {len(hyps)} systems; --paired-bs needs 4 here")
    py = sys.executable
    commands = {
        "tb": [py, "-c", TB_MAIN, *refs, *options],
        "sb": [py, "-c", SB_MAIN, *refs, *options],
    }
    outputs, timings = time_commands(commands, args.cli_repeats, env)
    with open(refs[0], encoding="utf-8") as handle:
        segments = sum(1 for _ in handle)
    record = {
        "workload": workload,
        "pair": pair,
        "segments": segments,
        "systems": [Path(h).name for h in (hyps[:1] if workload == "cli-b" else hyps[:4])],
        "equal": outputs["tb"] == outputs["sb"],
        "tb_ms": cpu(timings["tb"]),
        "sb_ms": cpu(timings["sb"]),
        "tb_wall_ms": timings["tb"].median_ms,
        "sb_wall_ms": timings["sb"].median_ms,
        "timings": {k: t.as_dict() for k, t in timings.items()},
    }
    record["ratio"] = record["sb_ms"] / record["tb_ms"]
    record["wall_ratio"] = record["sb_wall_ms"] / record["tb_wall_ms"]
    if not record["equal"]:
        print(
            f"!!! MISMATCH {workload} {pair}:\n  tb {outputs['tb']!r}\n  sb {outputs['sb']!r}",
            flush=True,
        )
    print(
        f"{workload:8s} {pair}  sacrebleu {record['sb_ms']:7.1f} ms  turbobleu "
        f"{record['tb_ms']:6.1f} ms  ({record['ratio']:5.1f}x; wall {record['wall_ratio']:5.1f}x)"
        f"  equal={record['equal']}",
        flush=True,
    )
    return record


# -- reporting ----------------------------------------------------------------------------------
TITLES = {
    "cli-b": "command line, one system, -b",
    "cli-pbs": "command line, 4 systems, --paired-bs",
}


def summary_rows(records: List[Dict[str, Any]]) -> List[List[str]]:
    rows = []
    for workload, title in TITLES.items():
        got = [r for r in records if r["workload"] == workload]
        if not got:
            continue
        for key, label in (("ratio", "process time"), ("wall_ratio", "wall time")):
            ratios = [r[key] for r in got]
            worst = min(got, key=lambda r: r[key])
            checked = key == "ratio"
            met = ("yes" if min(ratios) >= CLI_TARGET else "no") if checked else "-"
            rows.append(
                [
                    title,
                    label,
                    str(len(got)),
                    f"{benchlib.geomean(ratios):.1f}x",
                    f"{worst[key]:.1f}x ({worst['pair']})",
                    f"{max(ratios):.1f}x",
                    f">= {CLI_TARGET:g}x" if checked else "-",
                    met,
                ]
            )
    return rows


def markdown(
    records: List[Dict[str, Any]], info: Dict[str, Any], args: argparse.Namespace, tb_path: str
) -> str:
    lines = [
        "### Start-up: `import turbobleu` and the command line vs sacrebleu (WMT23, 13a)",
        "",
        f"Process time (user + system CPU of each child process, from `os.wait4`), median of "
        f"{args.repeats} alternating runs for the imports and {args.cli_repeats} for the "
        "command lines, after one untimed run each; bytecode cached as in an installed "
        "package; one thread. Command lines as their console scripts run them; outputs "
        f"equal byte for byte. turbobleu from `{tb_path}`.",
        "",
    ]
    imp = next((r for r in records if r["workload"] == "import"), None)
    if imp is not None:
        lines += [
            benchlib.md_table(
                ["command", "", "process ms", "above bare ms", "wall ms", "target"],
                [
                    [
                        "`python -c pass`",
                        "",
                        f"{imp['bare_ms']:.1f}",
                        "-",
                        f"{imp['bare_wall_ms']:.1f}",
                        "-",
                    ],
                    [
                        '`python -c "import turbobleu"`',
                        "",
                        f"{imp['turbobleu_ms']:.1f}",
                        f"{imp['tb_above_bare_ms']:.1f}",
                        f"{imp['turbobleu_wall_ms']:.1f}",
                        f"<= {IMPORT_TARGET_MS:g} ms above bare: "
                        f"{'met' if imp['met'] else 'NOT met'}",
                    ],
                    [
                        '`python -c "import sacrebleu"`',
                        "",
                        f"{imp['sacrebleu_ms']:.1f}",
                        f"{imp['sb_above_bare_ms']:.1f}",
                        f"{imp['sacrebleu_wall_ms']:.1f}",
                        "-",
                    ],
                ],
            ),
            "",
        ]
    rows = summary_rows(records)
    if rows:
        lines += [
            benchlib.md_table(
                benchlib.PAIR_SUMMARY_HEADER,
                rows,
            ),
            "",
            "<details><summary>Per pair (median process ms)</summary>",
            "",
            benchlib.md_table(
                [
                    "workload",
                    "pair",
                    "segs",
                    "sacrebleu ms",
                    "turbobleu ms",
                    "sb/tb",
                    "sb/tb wall",
                    "equal",
                ],
                [
                    [
                        r["workload"],
                        r["pair"],
                        str(r["segments"]),
                        f"{r['sb_ms']:.1f}",
                        f"{r['tb_ms']:.1f}",
                        f"{r['ratio']:.1f}x",
                        f"{r['wall_ratio']:.1f}x",
                        "yes" if r["equal"] else "NO",
                    ]
                    for r in records
                    if r["workload"] != "import"
                ],
            ),
            "",
            "</details>",
            "",
        ]
    load = info.get("loadavg_start"), info.get("loadavg_end")
    lines += [
        f"Machine: {benchlib.machine_line(info)}; load average (1 min) "
        f"{f'{load[0][0]:.2f}' if load[0] else '-'} at the start, "
        f"{f'{load[1][0]:.2f}' if load[1] else '-'} at the end.",
        "",
    ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    benchlib.pin_threads("1")
    env = child_env()
    tb_path = timed_child(
        [sys.executable, "-c", "import turbobleu; print(turbobleu.__file__)"], env
    )[0].strip()
    print(f"turbobleu: {tb_path}", flush=True)
    info = benchlib.machine_info(["turbobleu", "sacrebleu", "numpy"])
    info["turbobleu_path"] = tb_path
    records: List[Dict[str, Any]] = []
    if "import" in args.workloads:
        records.append(import_record(args, env))
    cli = [w for w in args.workloads if w != "import"]
    if cli:
        if not args.data.is_dir():
            print(f"skipping {', '.join(cli)}: no WMT23 data at {args.data} (--data)")
        else:
            pairs = args.pairs or benchlib.wmt23_pairs(args.data)
            for pair in pairs:
                for workload in cli:
                    records.append(cli_record(workload, pair, args, env))
    failures = sum(1 for r in records if r.get("equal") is False)
    rows = summary_rows(records)
    text = lambda: markdown(records, info, args, tb_path)  # noqa: E731 (after the load average)
    benchlib.finish_records("startup", args, info, records, failures, rows, text)
    return 1 if failures else 0


def main(argv: Optional[List[str]] = None) -> int:
    return run(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
