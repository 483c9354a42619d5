"""``turbobleu -m ter`` (and ``-m bleu chrf ter``) against sacrebleu's command line, byte for byte,
with the harness of ``test_cli`` (sacrebleu's ``main()`` as the oracle, the installed console
script for turbobleu): every ``--ter-*`` option, text, JSON and LaTeX, one and several systems,
two references, standard input and sentence level. On the fixture excerpt always; on one WMT23
pair (zh-en, the first 300 segments: sacrebleu's TER is slow) when the shared data is present and
the build is compiled.

``-ci``, ``--paired-bs`` and ``--paired-ar`` with TER give sacrebleu's numbers and text; one
difference is on purpose, as for chrF: under NumPy 2, sacrebleu 2.6.0 cannot print TER's paired
bootstrap results as JSON (its means are NumPy float32), turbobleu prints them, and the test
compares them with sacrebleu's ``PairedTest`` run in this process.
"""

from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from test_cli import TURBOBLEU, Call, Outcome, _read, _run_oracle, run_turbobleu

from conftest import FIXTURE_DATA, FULL_MATRIX, SHARED_DATA, discover_corpora

CASES: Dict[str, Call] = {}

TER_OPTIONS = (
    ("--ter-normalized",),
    ("--ter-no-punct",),
    ("--ter-case-sensitive",),
    ("--ter-asian-support",),
    ("--ter-normalized", "--ter-asian-support"),
    ("--ter-no-punct", "--ter-asian-support", "--ter-case-sensitive"),
)


def _add(case_id: str, cwd: Path, *args: str, stdin: str = None) -> None:
    assert case_id not in CASES, case_id
    CASES[case_id] = Call(tuple(args), str(cwd), stdin, ())


def _cases(label: str, directory: Path, refs: List[str], hyps: List[str]) -> None:
    one = (directory, *refs, "-i", hyps[0])
    many = (directory, *refs, "-i", *hyps)
    for fmt in ("json", "text"):
        _add(f"{label}/ter/{fmt}", *one, "-m", "ter", "-f", fmt)
        _add(f"{label}/bleu-chrf-ter/{fmt}", *one, "-m", "bleu", "chrf", "ter", "-f", fmt)
        _add(f"{label}/ter-bleu/{fmt}", *one, "-m", "ter", "bleu", "-f", fmt)
    for flags in TER_OPTIONS:
        _add(f"{label}/{'_'.join(flags)}", *one, "-m", "ter", *flags, "-f", "text")
    _add(f"{label}/output-b-w3", *one, "-m", "ter", "-b", "-w", "3")
    _add(f"{label}/output-sh", *one, "-m", "ter", "chrf", "-sh", "-f", "text")
    _add(f"{label}/sentence-level", *one, "-m", "ter", "-sl", "-w", "3")
    _add(f"{label}/sentence-level/normalized", *one, "-m", "ter", "-sl", "--ter-normalized")
    for fmt in ("json", "text", "latex"):
        _add(f"{label}/systems/{fmt}", *many, "-m", "ter", "-f", fmt)
        _add(f"{label}/systems/bleu-chrf-ter/{fmt}", *many, "-m", "bleu", "chrf", "ter", "-f", fmt)
    for fmt in ("json", "text"):
        _add(f"{label}/confidence/{fmt}", *one, "-m", "ter", "-ci", "-f", fmt)
        _add(f"{label}/paired-ar/{fmt}", *many, "-m", "ter", "-par", "-f", fmt)
    _add(
        f"{label}/confidence/three-metrics", *one, "-m", "bleu", "chrf", "ter", "-ci", "-cin", "300"
    )
    _add(f"{label}/paired-bs/text", *many, "-m", "ter", "-pbs", "-f", "text")
    _add(
        f"{label}/paired-bs/latex-normalized",
        *many,
        "-m",
        "ter",
        "--ter-normalized",
        "-pbs",
        "-f",
        "latex",
    )
    _add(f"{label}/paired-bs/ter-bleu-text", *many, "-m", "ter", "bleu", "-pbs", "-f", "text")
    _add(f"{label}/paired-ar/chrf-ter-n2000", *many, "-m", "chrf", "ter", "-par", "-parn", "2000")
    stdin = "".join("\t".join(f) + "\n" for f in zip(*[_read(directory / h) for h in hyps[:2]]))
    _add(f"{label}/stdin/two-systems", directory, *refs, "-m", "ter", "-f", "text", stdin=stdin)


def _build() -> None:
    fixture = {c.directory.name: c for c in discover_corpora(FIXTURE_DATA, "fixture")}["he-en"]
    _cases(
        "fixture/he-en",
        fixture.directory,
        [f"ref.{r}.en" for r in fixture.references],
        [f"hyp.{s}.en" for s in fixture.systems],
    )
    zh_en = SHARED_DATA / "zh-en"
    if FULL_MATRIX and zh_en.is_dir():
        cut = Path(__file__).resolve().parent.parent / "build" / "test-cli-ter-zh-en"
        cut.mkdir(parents=True, exist_ok=True)
        names = sorted(p.name for p in zh_en.glob("*.en"))
        for name in names:  # the first 300 segments: sacrebleu needs ~4 s a system for them
            (cut / name).write_text(
                "".join(line + "\n" for line in _read(zh_en / name)[:300]), encoding="utf-8"
            )
        refs = [n for n in names if n.startswith("ref.")]
        hyps = [n for n in names if n.startswith("hyp.")][:2]
        one = (cut, *refs, "-i", hyps[0])
        _add("wmt23/zh-en/bleu-chrf-ter/json", *one, "-m", "bleu", "chrf", "ter")
        _add("wmt23/zh-en/ter/normalized", *one, "-m", "ter", "--ter-normalized", "-f", "text")
        _add("wmt23/zh-en/systems/text", cut, *refs, "-i", *hyps, "-m", "ter", "-f", "text")


_build()


@pytest.fixture(scope="module")
def outcomes() -> Dict[str, Tuple[Outcome, Outcome]]:
    """(turbobleu, sacrebleu) outcomes of every case, computed once."""
    assert TURBOBLEU, "the turbobleu console script is not installed"
    ids = list(CASES)
    oracle = _run_oracle([CASES[i] for i in ids])
    ours = [run_turbobleu(CASES[i]) for i in ids]
    return {i: (t, s) for i, t, s in zip(ids, ours, oracle)}


@pytest.mark.parametrize("ter_case", list(CASES))
def test_same_output_as_sacrebleu(
    ter_case: str, outcomes: Dict[str, Tuple[Outcome, Outcome]]
) -> None:
    ours, theirs = outcomes[ter_case]
    assert theirs.rc == 0, f"sacrebleu exit status {theirs.rc}"
    assert ours.rc == theirs.rc, f"exit status {ours.rc} != {theirs.rc}; stderr: {ours.stderr}"
    assert ours.stdout == theirs.stdout
    assert "Traceback" not in ours.stderr


def test_every_ter_option_is_covered() -> None:
    used = {arg for call in CASES.values() for arg in call.args}
    for flag in (
        "--ter-normalized",
        "--ter-no-punct",
        "--ter-case-sensitive",
        "--ter-asian-support",
    ):
        assert flag in used


def test_paired_bootstrap_json_has_sacrebleus_numbers() -> None:
    """sacrebleu's command line fails here (float32 means); its PairedTest gives the numbers."""
    import json
    import subprocess

    from sacrebleu.metrics import TER as SacreTER
    from sacrebleu.significance import PairedTest

    fixture = {c.directory.name: c for c in discover_corpora(FIXTURE_DATA, "fixture")}["he-en"]
    refs = [f"ref.{r}.en" for r in fixture.references]
    hyps = [f"hyp.{s}.en" for s in fixture.systems]
    done = subprocess.run(
        [TURBOBLEU, *refs, "-i", *hyps, "-m", "ter", "-pbs", "-pbsn", "200"],
        cwd=fixture.directory,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    streams = [_read(fixture.directory / r) for r in refs]
    systems = [(h, _read(fixture.directory / h)) for h in hyps]
    test = PairedTest(systems, {"TER": SacreTER(references=streams)}, None, "bs", 200)
    _, results = test()
    for i, row in enumerate(rows):
        theirs = results["TER"][i]
        expected = {
            field: None if getattr(theirs, field) is None else float(getattr(theirs, field))
            for field in ("score", "p_value", "mean", "ci")
        }
        assert row["TER"] == expected, i
