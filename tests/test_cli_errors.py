"""Bad input to the ``turbobleu`` console script: one line on stderr, a non-zero exit status, never
a traceback; the message names the file (and line) at fault."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Tuple

import pytest

BIN_DIR = Path(sys.executable).parent
TURBOBLEU = shutil.which("turbobleu", path=str(BIN_DIR)) or shutil.which("turbobleu")


def run(args: List[str], cwd: Path, stdin: bytes = b"") -> Tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_FORMAT",)}
    done = subprocess.run([TURBOBLEU, *args], cwd=cwd, input=stdin, capture_output=True, env=env)
    return done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli-errors")
    (root / "ref").write_bytes(b"the cat sat\non the mat\n")
    (root / "ref3").write_bytes(b"the cat sat\non the mat\nagain\n")
    (root / "hyp").write_bytes(b"the cat sat\non a mat\n")
    (root / "short").write_bytes(b"the cat sat\n")
    (root / "latin1").write_bytes("the cat sat\non the m\u00e4t\n".encode("latin-1"))
    (root / "ref-long").write_bytes(b"the cat sat on the mat\nit was a sunny day\n")
    (root / "latin1-long").write_bytes(
        "the cat sat on the m\u00e4t\nit was a sunny day\n".encode("latin-1")
    )
    (root / "badutf8").write_bytes(b"the cat sat\non \xff the mat\n")
    (root / "empty").write_bytes(b"")
    (root / "tabbed").write_bytes(b"a b\tc d\ne f\n")
    (root / "subdir").mkdir()
    return root


def one_error_line(stderr: str) -> str:
    lines = stderr.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {stderr!r}"
    assert lines[0].startswith("turbobleu: error: "), lines[0]
    assert "Traceback" not in stderr
    return lines[0]


# (case id, arguments, stdin, exit status, fragments the message must contain)
CASES: List[Tuple[str, List[str], Optional[bytes], int, Tuple[str, ...]]] = [
    (
        "fewer-hypothesis-lines",
        ["ref", "-i", "short"],
        None,
        1,
        ("short has 1 line", "ref has 2", "line 2 of ref"),
    ),
    ("more-hypothesis-lines", ["ref", "-i", "ref3"], None, 1, ("ref3 has 3", "line 3 of ref3")),
    ("references-differ", ["ref", "ref3", "-i", "hyp"], None, 1, ("ref3 has 3", "ref has 2")),
    ("second-system-short", ["ref", "-i", "hyp", "short"], None, 1, ("short has 1 line",)),
    ("paired-system-short", ["ref", "-i", "hyp", "short", "-pbs"], None, 1, ("short",)),
    ("empty-hypotheses", ["ref", "-i", "empty"], None, 1, ("empty: empty file",)),
    ("empty-reference", ["empty", "-i", "hyp"], None, 1, ("empty: empty file",)),
    (
        "invalid-utf8",
        ["ref", "-i", "badutf8"],
        None,
        1,
        ("badutf8:2:", "utf-8", "0xff", "-e/--encoding"),
    ),
    ("invalid-utf8-reference", ["badutf8", "-i", "hyp"], None, 1, ("badutf8:2:",)),
    ("latin1-as-utf8", ["ref", "-i", "latin1"], None, 1, ("latin1:2:", "0xe4")),
    ("missing-file", ["ref", "-i", "nope.txt"], None, 1, ("nope.txt: no such file",)),
    ("missing-reference", ["nope.ref", "-i", "hyp"], None, 1, ("nope.ref: no such file",)),
    ("directory", ["ref", "-i", "subdir"], None, 1, ("subdir: is a directory",)),
    (
        "unknown-flag",
        ["ref", "-i", "hyp", "--frobnicate"],
        None,
        2,
        ("unrecognized arguments: --frobnicate",),
    ),
    ("unknown-short-flag", ["ref", "-i", "hyp", "-Z"], None, 2, ("unrecognized arguments: -Z",)),
    ("bad-choice", ["ref", "-i", "hyp", "-s", "magic"], None, 2, ("--smooth-method", "magic")),
    ("bad-int", ["ref", "-i", "hyp", "-w", "two"], None, 2, ("--width", "two")),
    ("negative-width", ["ref", "-i", "hyp", "-w", "-1"], None, 2, ("-w/--width",)),
    ("unknown-tokenizer", ["ref", "-i", "hyp", "-tok", "moses"], None, 2, ("moses",)),
    ("other-metric", ["ref", "-i", "hyp", "-m", "meteor"], None, 2, ("bleu, chrf, ter", "meteor")),
    ("test-set", ["-t", "wmt14", "-l", "en-de"], None, 2, ("-t/--test-set", "never downloads")),
    ("detail", ["ref", "-i", "hyp", "-d"], None, 2, ("-d/--detail", "origlang/subset metadata")),
    ("origlang", ["ref", "-i", "hyp", "-ol", "de"], None, 2, ("-ol/--origlang", "metadata")),
    ("bad-language-pair", ["ref", "-i", "hyp", "-l", "english"], None, 2, ("src-trg",)),
    ("unknown-encoding", ["ref", "-i", "hyp", "-e", "klingon"], None, 2, ("klingon",)),
    ("no-references", ["-i", "hyp"], None, 1, ("no reference files",)),
    ("empty-input-list", ["ref", "-i"], None, 2, ("-i/--input",)),
    ("same-file-twice", ["ref", "-i", "hyp", "hyp"], None, 1, ("'hyp' is given twice",)),
    ("paired-one-system", ["ref", "-i", "hyp", "-par"], None, 1, ("several systems",)),
    ("paired-both", ["ref", "-i", "hyp", "ref", "-par", "-pbs"], None, 2, ("not allowed",)),
    ("confidence-two-systems", ["ref", "-i", "hyp", "ref", "-ci"], None, 1, ("--confidence",)),
    ("sentence-two-systems", ["ref", "-i", "hyp", "ref", "-sl"], None, 1, ("one system",)),
    ("sentence-and-test", ["ref", "-i", "hyp", "-sl", "-ci"], None, 1, ("sentence-level",)),
    ("num-refs-fields", ["tabbed", "-nr", "2", "-i", "hyp"], None, 17, ("tabbed:2:", "expected 2")),
    ("num-refs-and-files", ["ref", "ref3", "-nr", "2", "-i", "hyp"], None, 1, ("-nr",)),
    ("stdin-fields", ["ref"], b"a\tb\nc\n", 17, ("<stdin>:2:", "line 1 has 2")),
    ("stdin-empty", ["ref"], b"", 1, ("<stdin>",)),
    ("stdin-lines", ["ref"], b"one line only\n", 1, ("has 1 line", "ref has 2")),
    ("stdin-invalid-utf8", ["ref"], b"ok\n\xfe\n", 1, ("<stdin>:2:",)),
    ("stdin-cr-splits", ["ref"], b"the cat\rsat\non a mat\n", 1, ("has 3 lines",)),
]


@pytest.mark.parametrize(
    "args,stdin,status,fragments", [pytest.param(a, s, c, f, id=i) for i, a, s, c, f in CASES]
)
def test_bad_input_is_one_line(
    files: Path, args: List[str], stdin: Optional[bytes], status: int, fragments: Tuple[str, ...]
) -> None:
    rc, out, err = run(args, files, stdin or b"")
    assert rc == status, f"exit status {rc}, stderr {err!r}"
    line = one_error_line(err)
    for fragment in fragments:
        assert fragment in line, f"{fragment!r} not in {line!r}"
    assert out == ""


def test_right_encoding_is_accepted(files: Path) -> None:
    """The file that is invalid UTF-8 scores once its encoding is given."""
    rc, out, err = run(["ref-long", "-i", "latin1-long", "-e", "latin-1", "-b"], files)
    assert rc == 0 and err == ""
    assert float(out) > 0


def test_warning_for_tokenized_input_and_quiet(files: Path, tmp_path: Path) -> None:
    """100+ hypotheses ending in ' .' get sacrebleu's warning (on stderr, not stdout); -q and
    --force silence it."""
    (tmp_path / "ref").write_text("a b c d .\n" * 120, encoding="utf-8")
    (tmp_path / "hyp").write_text("a b c d .\n" * 120, encoding="utf-8")
    rc, out, err = run(["ref", "-i", "hyp", "-b"], tmp_path)
    assert rc == 0 and out.strip() == "100.0"
    assert "tokenized period" in err and "Traceback" not in err
    for quiet in (["-q"], ["--force"]):
        rc, out, err = run(["ref", "-i", "hyp", "-b", *quiet], tmp_path)
        assert rc == 0 and out.strip() == "100.0" and err == ""


def test_broken_pipe_is_quiet(files: Path, tmp_path: Path) -> None:
    """Output cut short by a closed pipe (``| head -1``) is not an error report."""
    (tmp_path / "ref").write_text("a b c d\n" * 20000, encoding="utf-8")
    (tmp_path / "hyp").write_text("a b c e\n" * 20000, encoding="utf-8")
    proc = subprocess.Popen(
        [TURBOBLEU, "ref", "-i", "hyp", "-sl"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8")
    proc.wait(timeout=60)
    assert first.startswith(b"BLEU|")
    assert "Traceback" not in err and "error" not in err


@pytest.mark.parametrize(
    "extra",
    [[], ["-f", "text"], ["-sl"], ["-ci", "-cin", "50"], ["-lc", "-tok", "none", "-s", "add-k"]],
)
def test_long_corpora_in_blocks_give_the_same_output(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, extra: List[str]
) -> None:
    """Corpora longer than STATS_BLOCK segments are scored block by block (so the progress bar
    moves); the output is the same as in one piece."""
    from conftest import FIXTURE_DATA
    from turbobleu import cli
    from turbobleu.cli import bleu as cli_bleu

    he = FIXTURE_DATA / "he-en"
    refs = [str(he / "ref.refA.en"), str(he / "ref.refB.en")]
    systems = [str(he / "hyp.GPT4-5shot.en"), str(he / "hyp.NLLB_Greedy.en")]
    if "-sl" in extra or "-ci" in extra:
        systems = systems[:1]
    argvs = [refs + ["-i"] + systems + extra]
    if len(systems) > 1:
        argvs.append(refs + ["-i"] + systems + ["-pbs", "-pbsn", "60", "-f", "text"])
    for argv in argvs:
        assert cli.main(argv) == 0
        whole = capsys.readouterr().out
        monkeypatch.setattr(cli_bleu, "STATS_BLOCK", 7)
        assert cli.main(argv) == 0
        blocked = capsys.readouterr().out
        monkeypatch.undo()
        assert blocked == whole and whole
