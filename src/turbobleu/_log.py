"""turbobleu's warnings, sent to the standard logger named "turbobleu" (as sacrebleu sends its own
to "sacrebleu"), or to the command line's writer while it runs.

``logging`` is imported on the first warning, not with turbobleu: it costs about 5 ms of process
time, a quarter of a plain ``import turbobleu``, and most runs never warn.
"""

from __future__ import annotations

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Callable, Optional

LOGGER_NAME = "turbobleu"

# sacrebleu's warning, line by line, when 100 or more hypotheses end in a tokenized period.
TOKENIZED_PERIODS = (
    "That's 100 lines that end in a tokenized period ('.')",
    "It looks like you forgot to detokenize your test data, which may hurt your score.",
    "If you insist your data is detokenized, or don't care, you can "
    "suppress this message with the `force` parameter.",
)

# While the command line runs, its writer gets the notes and warnings instead of the logger (see
# redirect).
_writer: Optional[Callable[[str], None]] = None


def warning(message: str) -> None:
    if _writer is not None:
        _writer(message)
        return
    import logging

    logging.getLogger(LOGGER_NAME).warning(message)


def info(message: str) -> None:
    """A note: for the logger at INFO level, or for the command line's writer, which shows
    notes and warnings alike (as sacrebleu's command line shows its logger's INFO lines)."""
    if _writer is not None:
        _writer(message)
        return
    import logging

    logging.getLogger(LOGGER_NAME).info(message)


def redirect(writer: Optional[Callable[[str], None]]) -> Optional[Callable[[str], None]]:
    """Send notes and warnings to ``writer`` (None: back to the logger); returns the writer it
    replaces."""
    global _writer
    previous, _writer = _writer, writer
    return previous
