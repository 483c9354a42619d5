"""A small progress bar for long command-line runs, written to stderr only.

It stays silent unless it is enabled (by default: only when its stream is a terminal) and the
work has already taken ``delay`` seconds, so short runs and redirected output never see it. It
redraws at most every ``interval`` seconds and erases itself when closed, so stdout (the scores)
and the terminal stay clean.
"""

from __future__ import annotations

import os
import sys
import time

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Callable, Optional, TextIO

# Test hook and user knob: seconds before the bar first appears.
DELAY_ENV = "TURBOBLEU_PROGRESS_DELAY"
_DEFAULT_DELAY = 0.5


def _delay_from_env() -> float:
    raw = os.environ.get(DELAY_ENV, "")
    try:
        return max(0.0, float(raw)) if raw.strip() else _DEFAULT_DELAY
    except ValueError:
        return _DEFAULT_DELAY


def _clock_text(seconds: float) -> str:
    seconds = int(seconds)
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:d}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def _rate_text(done: int, elapsed: float) -> str:
    if elapsed <= 0:
        return "?"
    rate = done / elapsed
    return f"{rate:.0f}" if rate >= 100 else f"{rate:.1f}"


class Progress:
    """``with Progress("bootstrap", total=1000) as bar: ... bar.update(100)``.

    ``expect(n)`` grows the total while work is being planned (before the work it counts is
    done); ``update(n)`` records done work. Without a total (work read as it comes, such as a
    streamed file), the bar shows the count and the rate in ``unit`` per second, no percentage.
    ``enabled=None`` means: on when ``stream`` is a terminal.
    """

    def __init__(
        self,
        description: str,
        total: int = 0,
        enabled: Optional[bool] = None,
        stream: Optional[TextIO] = None,
        delay: Optional[float] = None,
        interval: float = 0.1,
        clock: Callable[[], float] = time.monotonic,
        width: Optional[int] = None,
        unit: str = "",
    ) -> None:
        self.description = description
        self.unit = unit
        self.total = int(total)
        self.done = 0
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = enabled
        self.delay = _delay_from_env() if delay is None else delay
        self.interval = interval
        self._clock = clock
        self._width = width
        self._start = clock()
        self._last_draw: Optional[float] = None
        self._drawn_chars = 0

    # -- recording work -----------------------------------------------------------------------
    def expect(self, n: int) -> None:
        self.total += int(n)

    def update(self, n: int = 1) -> None:
        self.done += int(n)
        if not self.enabled:
            return
        now = self._clock()
        if now - self._start < self.delay:
            return
        if (
            self._last_draw is not None
            and now - self._last_draw < self.interval
            and (self.total <= 0 or self.done < self.total)  # (the last step of a total: drawn)
        ):
            return
        self._draw(now)

    def __call__(self, n: int = 1) -> None:
        self.update(n)

    # -- drawing ------------------------------------------------------------------------------
    def line(self, now: Optional[float] = None) -> str:
        """The bar's text for the current state (without carriage return)."""
        now = self._clock() if now is None else now
        elapsed = now - self._start
        import shutil  # here: a bar is drawn only on a terminal

        width = self._width or shutil.get_terminal_size((80, 24)).columns
        if self.total > 0:
            fraction = min(1.0, self.done / self.total)
            eta = elapsed * (1 - fraction) / fraction if fraction > 0 else 0.0
            tail = f" {self.done}/{self.total} [{_clock_text(elapsed)}<{_clock_text(eta)}]"
            head = f"{self.description}: {int(fraction * 100):3d}%|"
            room = max(0, width - len(head) - len(tail) - 2)
            filled = int(round(fraction * room))
            return f"{head}{'#' * filled}{' ' * (room - filled)}|{tail}"
        unit = f" {self.unit}" if self.unit else ""
        rate = f"{_rate_text(self.done, elapsed)}{unit or ' it'}/s"
        return f"{self.description}: {self.done}{unit} [{_clock_text(elapsed)}, {rate}]"

    def _draw(self, now: float) -> None:
        text = self.line(now)
        pad = max(0, self._drawn_chars - len(text))
        try:
            self.stream.write("\r" + text + " " * pad)
            self.stream.flush()
        except (OSError, ValueError):
            self.enabled = False  # a closed or broken stderr never stops the scoring
            return
        self._drawn_chars = len(text)
        self._last_draw = now

    def close(self) -> None:
        """Erase the bar (if it was ever drawn)."""
        if self._drawn_chars:
            try:
                self.stream.write("\r" + " " * self._drawn_chars + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
            self._drawn_chars = 0

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
