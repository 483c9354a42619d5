"""``turbobleu -m chrf`` (and ``-m bleu chrf``) against sacrebleu's command line, byte for byte.

The cases run on the fixture excerpt (always) and on WMT23 (when the shared data is present
and TURBOBLEU_TEST_FULL=1: de-en's 4 systems, he-en's two references): chrF and chrF++, each
``--chrf-*`` option, the output options, several metrics, JSON, several systems, stdin, sentence
level, ``-ci``, ``--paired-bs`` and ``--paired-ar``. The
harness (sacrebleu's ``main()`` as the oracle, the installed console script for turbobleu) is
``test_cli``'s.

One difference is on purpose: under NumPy 2, sacrebleu 2.6.0 cannot print chrF's paired bootstrap
results as JSON (its means are NumPy float32, which ``json`` refuses); turbobleu prints them, and
the test compares them with sacrebleu's ``PairedTest`` run in this process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest
from sacrebleu.metrics import BLEU as SacreBLEU
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.significance import PairedTest
from test_cli import TURBOBLEU, Call, Outcome, _read, _run_oracle, run_turbobleu

from conftest import FIXTURE_DATA, FULL_MATRIX, SHARED_DATA, discover_corpora

CASES: Dict[str, Tuple[Call, int]] = {}

CHRF_OPTIONS = (
    ("-cw", "2"),
    ("-cc", "4"),
    ("--chrf-char-order", "3", "--chrf-word-order", "1"),
    ("--chrf-beta", "1"),
    ("--chrf-beta", "0"),
    ("--chrf-whitespace",),
    ("--chrf-lowercase",),
    ("--chrf-eps-smoothing",),
    ("-cw", "2", "--chrf-eps-smoothing", "--chrf-whitespace", "--chrf-lowercase"),
    ("-cc", "0", "-cw", "2"),
)
OUTPUT_OPTIONS = (("-w", "3"), ("-w", "0"), ("-b",), ("-sh", "-f", "text"), ("-w", "17"))


def _add(case_id: str, cwd: Path, *args: str, stdin: str = None, status: int = 0, **env: str):
    assert case_id not in CASES, case_id
    CASES[case_id] = (Call(tuple(args), str(cwd), stdin, tuple(env.items())), status)


def _cases(label: str, directory: Path, lang: str, systems: List[str], refs: List[str]) -> None:
    ref = f"ref.{refs[0]}.{lang}"
    hyp = f"hyp.{systems[0]}.{lang}"
    hyps = [f"hyp.{s}.{lang}" for s in systems]
    one = (directory, ref, "-i", hyp)
    many = (directory, ref, "-i", *hyps)
    for fmt in ("json", "text"):
        _add(f"{label}/chrf/{fmt}", *one, "-m", "chrf", "-f", fmt)
        _add(f"{label}/chrf++/{fmt}", *one, "-m", "chrf", "-cw", "2", "-f", fmt)
        _add(f"{label}/bleu-chrf/{fmt}", *one, "-m", "bleu", "chrf", "-f", fmt)
        _add(f"{label}/chrf-bleu/{fmt}", *one, "-m", "chrf", "bleu", "-f", fmt)
    for flags in CHRF_OPTIONS:
        _add(f"{label}/{'_'.join(flags)}", *one, "-m", "chrf", *flags, "-f", "text")
    for flags in OUTPUT_OPTIONS:
        _add(f"{label}/output{'_'.join(flags)}", *one, "-m", "chrf", *flags)
    _add(f"{label}/bleu-chrf/-b", *one, "-m", "bleu", "chrf", "-b", "-w", "2")
    _add(f"{label}/bleu-chrf/-sh-lc", *one, "-m", "bleu", "chrf", "-sh", "-lc", "-f", "text")
    _add(f"{label}/sentence-level", *one, "-m", "chrf", "-sl", "-w", "3")
    _add(f"{label}/sentence-level/chrf++-b", *one, "-m", "chrf", "-cw", "2", "-sl", "-b")
    _add(f"{label}/sentence-level/two-metrics", *one, "-m", "bleu", "chrf", "-sl", status=1)
    _add(f"{label}/confidence/json", *one, "-m", "chrf", "-ci")
    _add(
        f"{label}/confidence/text-w17",
        *one,
        "-m",
        "chrf",
        "-cw",
        "2",
        "-ci",
        "-w",
        "17",
        "-f",
        "text",
    )
    _add(
        f"{label}/confidence/seed7-n200",
        *one,
        "-m",
        "bleu",
        "chrf",
        "-ci",
        "-cin",
        "200",
        "-f",
        "text",
        SACREBLEU_SEED="7",
    )
    for fmt in ("json", "text", "latex"):
        _add(f"{label}/systems/{fmt}", *many, "-m", "chrf", "-f", fmt)
        _add(f"{label}/systems/bleu-chrf/{fmt}", *many, "-m", "chrf", "bleu", "-f", fmt)
    _add(f"{label}/systems/chrf++-w2-sh", *many, "-m", "chrf", "-cw", "2", "-w", "2", "-sh")
    stdin = "".join("\t".join(f) + "\n" for f in zip(*[_read(directory / h) for h in hyps[:2]]))
    _add(f"{label}/stdin/two-systems", directory, ref, "-m", "chrf", "-f", "text", stdin=stdin)
    _add(f"{label}/paired-bs/text", *many, "-m", "chrf", "-pbs", "-f", "text")
    _add(
        f"{label}/paired-bs/chrf++-latex-w3",
        *many,
        *("-m", "chrf", "-cw", "2", "-pbs", "-f", "latex", "-w", "3"),
    )
    _add(
        f"{label}/paired-bs/bleu-chrf-text-w17",
        *many,
        "-m",
        "bleu",
        "chrf",
        "-pbs",
        "-w",
        "17",
        "-f",
        "text",
    )
    _add(
        f"{label}/paired-bs/seed7-n300",
        *many,
        "-m",
        "chrf",
        "-pbs",
        "-pbsn",
        "300",
        "-f",
        "text",
        SACREBLEU_SEED="7",
    )
    _add(f"{label}/paired-ar/json", *many, "-m", "chrf", "-par")
    _add(f"{label}/paired-ar/chrf-bleu-json", *many, "-m", "chrf", "bleu", "-par")
    _add(
        f"{label}/paired-ar/chrf++-text-w17",
        *many,
        "-m",
        "chrf",
        "-cw",
        "2",
        "-par",
        "-w",
        "17",
        "-f",
        "text",
    )
    _add(
        f"{label}/paired-ar/eps-n500",
        *many,
        "-m",
        "chrf",
        "--chrf-eps-smoothing",
        "-par",
        "-parn",
        "500",
        "-f",
        "text",
    )


def _build() -> None:
    """The fixture always; WMT23 with TURBOBLEU_TEST_FULL=1."""
    fixture = {c.directory.name: c for c in discover_corpora(FIXTURE_DATA, "fixture")}
    wmt = {c.directory.name: c for c in discover_corpora(SHARED_DATA, "wmt23")}
    if not FULL_MATRIX:
        wmt = {}
    for corpus in [fixture["he-en"]] + [wmt[k] for k in ("de-en",) if k in wmt]:
        _cases(
            corpus.name,
            corpus.directory,
            corpus.lang,
            list(corpus.systems),
            list(corpus.references),
        )
    for corpus in [fixture["he-en"]] + [wmt[k] for k in ("he-en",) if k in wmt]:
        ref_files = [f"ref.{r}.{corpus.lang}" for r in corpus.references]
        hyp = f"hyp.{corpus.systems[0]}.{corpus.lang}"
        for fmt in ("json", "text"):
            _add(
                f"{corpus.name}/two-refs/{fmt}",
                corpus.directory,
                *ref_files,
                "-i",
                hyp,
                "-m",
                "chrf",
                "-cw",
                "2",
                "-f",
                fmt,
            )


_build()


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest) -> Dict[str, Tuple[Outcome, Outcome]]:
    """(turbobleu, sacrebleu) outcomes of every case, computed once."""
    assert TURBOBLEU, f"the turbobleu console script is not installed next to {sys.executable}"
    ids = list(CASES)
    oracle = _run_oracle([CASES[i][0] for i in ids])
    ours = [run_turbobleu(CASES[i][0]) for i in ids]
    return {i: (t, s) for i, t, s in zip(ids, ours, oracle)}


@pytest.mark.parametrize("chrf_case", list(CASES))
def test_same_output_as_sacrebleu(
    chrf_case: str, outcomes: Dict[str, Tuple[Outcome, Outcome]]
) -> None:
    ours, theirs = outcomes[chrf_case]
    status = CASES[chrf_case][1]
    assert theirs.rc == status, f"sacrebleu exit status {theirs.rc}"
    assert ours.rc == theirs.rc, f"exit status {ours.rc} != {theirs.rc}; stderr: {ours.stderr}"
    assert ours.stdout == theirs.stdout
    assert "Traceback" not in ours.stderr


def test_the_cases_cover_the_task() -> None:
    ids = set(CASES)
    for needed in (
        "chrf/json",
        "chrf++/text",
        "bleu-chrf/json",
        "systems/json",
        "paired-bs/text",
        "paired-ar/json",
        "confidence/json",
        "sentence-level",
    ):
        assert f"fixture/he-en/{needed}" in ids
        if SHARED_DATA.is_dir() and FULL_MATRIX:
            assert f"wmt23/de-en/{needed}" in ids
    for flag in (
        "-cc",
        "-cw",
        "--chrf-beta",
        "--chrf-whitespace",
        "--chrf-lowercase",
        "--chrf-eps-smoothing",
    ):
        assert any(flag in CASES[i][0].args for i in ids)


def _fixture_systems() -> Tuple[Path, List[str], List[List[str]]]:
    corpus = {c.directory.name: c for c in discover_corpora(FIXTURE_DATA, "fixture")}["he-en"]
    hyps = [f"hyp.{s}.{corpus.lang}" for s in corpus.systems]
    return corpus.directory, hyps, [_read(corpus.directory / f"ref.{corpus.references[0]}.en")]


@pytest.mark.parametrize("word_order", [0, 2])
def test_paired_bootstrap_json_has_sacrebleus_numbers(word_order: int) -> None:
    """sacrebleu's command line fails here (float32 means); its PairedTest gives the numbers."""
    directory, hyps, refs = _fixture_systems()
    args = ["ref.refA.en", "-i", *hyps, "-m", "chrf", "bleu", "-pbs", "-pbsn", "200"]
    args += ["-cw", str(word_order)]
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_SEED", "SACREBLEU_FORMAT")}
    done = subprocess.run([TURBOBLEU, *args], cwd=directory, env=env, capture_output=True)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)

    named = [(name, _read(directory / name)) for name in hyps]
    metrics = {
        "chrf": SacreCHRF(word_order=word_order, references=refs),
        "bleu": SacreBLEU(references=refs),
    }
    old = os.environ.pop("SACREBLEU_SEED", None)
    try:
        _, scores = PairedTest(named, metrics, None, test_type="bs", n_samples=200)()
    finally:
        if old is not None:
            os.environ["SACREBLEU_SEED"] = old
    keys = [k for k in scores if k != "System"]
    assert keys == [k for k in rows[0] if k != "system"]
    assert [r["system"] for r in rows] == ["Baseline: " + hyps[0]] + hyps[1:]
    for i, row in enumerate(rows):
        for key in keys:
            theirs = scores[key][i]
            expected = {
                field: None if getattr(theirs, field) is None else float(getattr(theirs, field))
                for field in ("score", "p_value", "mean", "ci")
            }
            assert row[key] == expected, (key, i)


def test_unknown_metric_is_a_usage_error() -> None:
    directory, hyps, _ = _fixture_systems()
    done = subprocess.run(
        [TURBOBLEU, "ref.refA.en", "-i", hyps[0], "-m", "chrf", "meteor"],
        cwd=directory,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "not meteor" in done.stderr and "Traceback" not in done.stderr


def test_bad_chrf_option_is_one_error_line() -> None:
    directory, hyps, _ = _fixture_systems()
    done = subprocess.run(
        [TURBOBLEU, "ref.refA.en", "-i", hyps[0], "-m", "chrf", "-cc", "-1"],
        cwd=directory,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("turbobleu: error: char_order must be an integer >= 0")
