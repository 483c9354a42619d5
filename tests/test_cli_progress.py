"""The progress bar: stderr only, only on a terminal, not with --quiet, never in the results."""

from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

from conftest import FIXTURE_DATA
from turbobleu.cli.progress import Progress

BIN_DIR = Path(sys.executable).parent
TURBOBLEU = shutil.which("turbobleu", path=str(BIN_DIR)) or shutil.which("turbobleu")


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class TTYBuffer(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_silent_when_not_a_terminal() -> None:
    stream = io.StringIO()
    clock = FakeClock()
    bar = Progress("work", total=10, stream=stream, delay=0.0, clock=clock)
    assert not bar.enabled
    clock.now += 5
    bar.update(10)
    bar.close()
    assert stream.getvalue() == ""
    assert bar.done == 10


def test_terminal_bar_after_the_delay_then_erased() -> None:
    stream = TTYBuffer()
    clock = FakeClock()
    bar = Progress(
        "paired bootstrap",
        total=1000,
        stream=stream,
        delay=0.5,
        interval=0.1,
        clock=clock,
        width=60,
    )
    assert bar.enabled
    bar.update(100)  # before the delay: nothing
    assert stream.getvalue() == ""
    clock.now += 1.0
    bar.update(150)  # 25%
    text = stream.getvalue()
    assert text.startswith("\r") and "paired bootstrap:  25%|" in text and "250/1000" in text
    assert len(text) - 1 <= 60
    clock.now += 0.05
    bar.update(50)  # within the redraw interval: not drawn again
    assert stream.getvalue() == text
    clock.now += 0.2
    bar.update(700)  # complete: always drawn
    assert "100%|" in stream.getvalue() and "1000/1000" in stream.getvalue()
    drawn = stream.getvalue()
    bar.close()
    tail = stream.getvalue()[len(drawn) :]
    assert tail.startswith("\r") and tail.endswith("\r") and tail.strip() == ""


def test_expect_grows_the_total_and_unknown_total() -> None:
    clock = FakeClock()
    bar = Progress("stats", stream=TTYBuffer(), delay=0.0, clock=clock, width=50)
    assert bar.line().startswith("stats: 0 [")
    bar.expect(40)
    bar.expect(60)
    bar.update(50)
    assert bar.total == 100 and " 50%|" in bar.line()


def test_unknown_total_shows_count_and_rate_not_a_percentage() -> None:
    """Work read as it comes (the streamed files) has no total: count and rate, no bar."""
    clock = FakeClock()
    stream = TTYBuffer()
    bar = Progress("statistics", stream=stream, delay=0.0, clock=clock, width=60, unit="segments")
    clock.now += 2.0
    bar.update(30000)
    assert bar.line() == "statistics: 30000 segments [00:02, 15000 segments/s]"
    clock.now += 0.05  # within the redraw interval: an unknown total is not drawn on each update
    bar.update(1)
    assert stream.getvalue() == "\r" + "statistics: 30000 segments [00:02, 15000 segments/s]"
    clock.now += 7.95
    bar.update(2)
    drawn = stream.getvalue()
    assert drawn.rstrip(" ").endswith("\rstatistics: 30003 segments [00:10, 3000 segments/s]")
    assert "%" not in drawn
    slow = Progress("x", delay=0.0, clock=clock, stream=TTYBuffer())
    clock.now += 4.0
    slow.update(2)
    assert slow.line() == "x: 2 [00:04, 0.5 it/s]"


def test_quiet_flag_disables_and_broken_stream_is_ignored() -> None:
    assert not Progress("x", stream=TTYBuffer(), enabled=False).enabled

    class Broken(TTYBuffer):
        def write(self, text: str) -> int:
            raise OSError("stderr closed")

    bar = Progress("x", total=2, stream=Broken(), delay=0.0, clock=FakeClock())
    bar.update(2)  # must not raise
    assert not bar.enabled
    bar.close()


def _run_with_terminal_stderr(args: List[str], cwd: Path) -> Tuple[int, str, str]:
    """Run turbobleu with stderr on a pseudo-terminal (stdout stays a pipe)."""
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    env = dict(os.environ, TURBOBLEU_PROGRESS_DELAY="0")
    proc = subprocess.Popen(
        [TURBOBLEU, *args], cwd=cwd, stdout=subprocess.PIPE, stderr=slave, env=env
    )
    os.close(slave)
    out, _ = proc.communicate(timeout=120)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO once the child side is closed
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return proc.returncode, out.decode("utf-8"), b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_cli_bar_on_a_terminal_only() -> None:
    he = FIXTURE_DATA / "he-en"
    args = ["ref.refA.en", "-i", "hyp.GPT4-5shot.en", "hyp.NLLB_Greedy.en", "-pbs", "-f", "text"]
    rc, out, err = _run_with_terminal_stderr(args, he)
    assert rc == 0
    assert "paired bootstrap:" in err and "100%|" in err
    plain = subprocess.run(
        [TURBOBLEU, *args],
        cwd=he,
        capture_output=True,
        text=True,
        env=dict(os.environ, TURBOBLEU_PROGRESS_DELAY="0"),
    )
    # not a terminal: no bar, only sacrebleu's informational lines
    assert plain.returncode == 0 and "100%|" not in plain.stderr
    assert plain.stderr.splitlines() == [
        "turbobleu: Found 2 systems.",
        "turbobleu: Pre-computing BLEU statistics for 'Baseline: hyp.GPT4-5shot.en'",
        "turbobleu: Computing BLEU for 'hyp.NLLB_Greedy.en' and extracting sufficient statistics",
        "turbobleu:  > Performing paired bootstrap resampling test (# resamples: 1000)",
    ]
    assert plain.stdout == out  # the bar never touches the results
    rc, out_q, err_q = _run_with_terminal_stderr(args + ["-q"], he)
    assert rc == 0 and out_q == out and "paired bootstrap" not in err_q


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_cli_bar_for_a_large_file(tmp_path: Path) -> None:
    """A corpus longer than one statistics block shows the statistics bar moving. The files are
    streamed, so no total is known: the bar counts segments, and never claims a percentage (a
    total grown chunk by chunk once read 100% from the first chunk on)."""
    lines = 45000
    (tmp_path / "ref").write_text("the cat sat on the mat\n" * lines, encoding="utf-8")
    (tmp_path / "hyp").write_text("the cat sat on a mat\n" * lines, encoding="utf-8")
    rc, out, err = _run_with_terminal_stderr(["ref", "-i", "hyp", "-b"], tmp_path)
    assert rc == 0 and out.strip() == "53.7"
    counts = [int(n) for n in re.findall(r"statistics: (\d+) segments \[\d\d:\d\d, [\d.?]+ ", err)]
    assert counts and counts == sorted(counts) and 0 < counts[-1] <= lines
    assert "%" not in err
