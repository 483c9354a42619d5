"""The command's warnings: ``turbobleu: ...`` lines on stderr (sacrebleu's messages), none with
-q, and the library's warnings back on the "turbobleu" logger once the command returns."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import List

import pytest

from turbobleu import cli
from turbobleu.bleu import BLEU
from turbobleu.cli import bleu as cli_bleu

TOKENIZED_WARNING = [
    "turbobleu: That's 100 lines that end in a tokenized period ('.')",
    "turbobleu: It looks like you forgot to detokenize your test data, which may hurt your score.",
    "turbobleu: If you insist your data is detokenized, or don't care, you can suppress this "
    "message with the `force` parameter.",
]


@pytest.fixture
def files(tmp_path: Path) -> List[str]:
    lines = [f"segment {i} ends in a period ." for i in range(120)]
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(line.replace(" .", ".") for line in lines) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [str(ref), "-i", str(hyp), "-b"]


@pytest.mark.parametrize("block", [None, 7])
def test_tokenized_input_warns_on_stderr(
    files: List[str], capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    if block:  # a long corpus, done in blocks: still one warning
        monkeypatch.setattr(cli_bleu, "STATS_BLOCK", block)
    assert cli.main(files) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == TOKENIZED_WARNING
    assert out.strip() == f"{BLEU().corpus_score(*_read(files)).score:.1f}"


def test_quiet_and_force_silence_it(files: List[str], capsys: pytest.CaptureFixture) -> None:
    for extra in (["-q"], ["--force"]):
        assert cli.main(files + extra) == 0
        out, err = capsys.readouterr()
        assert err == "" and out.strip()


def test_library_warnings_go_to_the_logger_again_after_the_command(
    files: List[str], capsys: pytest.CaptureFixture, caplog: pytest.LogCaptureFixture
) -> None:
    assert cli.main(files + ["-q"]) == 0
    capsys.readouterr()
    with caplog.at_level(logging.WARNING, logger="turbobleu"):
        BLEU().corpus_score(*_read(files))
    assert [r.getMessage() for r in caplog.records] == [
        line[len("turbobleu: ") :] for line in TOKENIZED_WARNING
    ]
    assert capsys.readouterr().err == ""


def _read(args: List[str]):
    ref, _, hyp, _ = args
    hyps = Path(hyp).read_text(encoding="utf-8").splitlines()
    return hyps, [Path(ref).read_text(encoding="utf-8").splitlines()]
