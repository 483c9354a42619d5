"""What the BLEU and chrF parts of ``patch("sacrebleu")`` share: telling unmodified metric
classes, the stand-in for sacrebleu's reference cache, and the ``__init__`` that hands
``references=`` to turbobleu."""

from __future__ import annotations

import inspect

from turbobleu._typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Callable, List, Tuple


def standard(metric: Any, engine: dict) -> bool:
    """Whether ``metric``'s class still has sacrebleu's own methods ``engine`` (name -> method):
    a subclass overriding one keeps sacrebleu's code."""
    cls = type(metric)
    return all(getattr(cls, name, None) is method for name, method in engine.items())


def init_taking_references(
    original_init: Callable[..., None], cache_references: Callable[[Any, Any], None]
) -> Callable[..., None]:
    """A metric class's ``__init__`` that runs sacrebleu's without ``references`` and then
    gives them to ``cache_references(self, references)``."""
    signature = inspect.signature(original_init)

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        bound = signature.bind(self, *args, **kwargs)
        references = bound.arguments.pop("references", None)  # cached by turbobleu instead
        original_init(*bound.args, **bound.kwargs)
        if references is not None:
            cache_references(self, references)

    __init__.__wrapped__ = original_init  # type: ignore[attr-defined]
    __init__.__doc__ = original_init.__doc__
    return __init__


class RefCache(list):
    """Stands in for sacrebleu's reference cache of a BLEU (or CHRF) object created while
    patched.

    It holds turbobleu's prepared references (for chrF: a turbobleu CHRF holding them); if
    sacrebleu's own code ever reads it (after ``unpatch()``), it turns into sacrebleu's cache,
    built from the original references.
    """

    def __init__(
        self,
        prepared: Any,
        settings: Tuple[Any, ...],
        build: Callable[[], List[Any]],
    ) -> None:
        super().__init__()
        self.prepared = prepared
        self.settings = settings
        self._build = build
        self._built = False

    def _materialize(self) -> None:
        if not self._built:
            self._built = True
            self.extend(self._build())

    def __bool__(self) -> bool:
        return True

    def __iter__(self):
        self._materialize()
        return super().__iter__()

    def __len__(self) -> int:
        self._materialize()
        return super().__len__()

    def __getitem__(self, index: Any) -> Any:
        self._materialize()
        return super().__getitem__(index)
