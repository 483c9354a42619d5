"""``sacrebleu.version``: the sacrebleu release the drop-in reproduces (2.6.0), under the names
sacrebleu's generated version module has."""

from __future__ import annotations

from turbobleu.result import SACREBLEU_VERSION

# A name of sacrebleu's generated module (its type annotations are behind it).
TYPE_CHECKING = False

__all__ = [
    "__version__",
    "__version_tuple__",
    "version",
    "version_tuple",
    "__commit_id__",
    "commit_id",
]

__version__ = version = SACREBLEU_VERSION
__version_tuple__ = version_tuple = tuple(int(part) for part in SACREBLEU_VERSION.split("."))
# sacrebleu's release build records no commit.
__commit_id__ = commit_id = None
